/* store_check.c — what the store checks before it writes: that --db names
 * a file, that the file is planner's database (application_id, tables,
 * schema version) before anything in it changes, and, for refresh, that
 * no other user owns its -wal and -shm. Part of the store module
 * (store_int.h); its SQL is PRAGMAs and one read of sqlite_master. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"
#include "util.h"

/* SQLite reads "file:..." as a URI where built to (Debian's is): with
 * ?mode=memory, ":memory:" or "", prices would be written and lost. */
int store_check_path(const char *path, char **err)
{
	if (!*path || !strcmp(path, ":memory:"))
		return set_err(err, PLANNER_EUSAGE,
		               "--db '%s' is not a file; give the path of the price database",
		               path);
	if (!strncmp(path, "file:", 5))
		return set_err(err, PLANNER_EUSAGE,
		               "--db '%s' is an SQLite URI, which planner does not take; give a path "
		               "(./%s for a file of that name)",
		               path, path);
	return PLANNER_OK;
}

/* The tables of a planner database before it was marked (versions 1 to
 * 4); an unmarked one holds nothing else. Frozen: newer ones are marked. */
static const char *const unmarked_tables[] = {
    "offers", "api_prices", "gpus", "models", "providers", "refresh_runs", "price_history", "meta",
};

/* A version migrations[] cannot bring forward: below zero (a damaged or
 * hostile file) or newer than this build. */
int store_bad_version(struct store *st, int v, char **err)
{
	if (v >= 0 && v <= STORE_SCHEMA_VERSION)
		return PLANNER_OK;
	if (v > STORE_SCHEMA_VERSION)
		return set_err(err, PLANNER_EDB,
		               "%s: database schema version %d is newer than this planner (%d); "
		               "upgrade planner or use another --db",
		               st->path, v, STORE_SCHEMA_VERSION);
	return set_err(err, PLANNER_EDB,
	               "%s: schema version %d is not one planner writes (0 to %d); the file is "
	               "damaged or not planner's",
	               st->path, v, STORE_SCHEMA_VERSION);
}

/* One integer PRAGMA (user_version, application_id). */
int store_pragma_int(struct store *st, const char *sql, int *v, char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		*v = sqlite3_column_int(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if ((rc & 0xff) == SQLITE_NOTADB)
		return set_err(err, PLANNER_EDB, "%s is not a SQLite database; use another --db",
		               st->path);
	return rc == SQLITE_OK ? PLANNER_OK : store_db_err(st, err, "cannot read the header");
}

/* The first table of the file that planner never made, into name ("" when
 * every table is one of unmarked_tables); *ours counts those that are. */
static int foreign_table(struct store *st, char *name, size_t len, int *ours_n, char **err)
{
	sqlite3_stmt *s = NULL;
	int step;
	name[0] = '\0';
	*ours_n = 0;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
	                       "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot list tables");
	while ((step = sqlite3_step(s)) == SQLITE_ROW && !name[0]) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		bool ours = false;
		for (size_t i = 0; t && i < sizeof unmarked_tables / sizeof *unmarked_tables; i++)
			ours = ours || !strcmp(t, unmarked_tables[i]);
		if (!ours)
			snprintf(name, len, "%s", t ? t : "");
		*ours_n += ours;
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		return store_db_err(st, err, "cannot list tables");
	return PLANNER_OK;
}

/* Refuses, before anything is written (WAL included), a non-SQLite file,
 * another program's (application_id, or tables planner never made), a
 * newer or out-of-range version. *marked: it carries planner's mark. */
static int identity_in(struct store *st, bool *marked, char **err)
{
	int app = 0, v = 0, ours = 0, rc;
	char table[64];
	if ((rc = store_pragma_int(st, "PRAGMA application_id", &app, err)) ||
	    (rc = store_pragma_int(st, "PRAGMA user_version", &v, err)))
		return rc;
	*marked = app == STORE_APPLICATION_ID;
	if (app != 0 && !*marked)
		return set_err(err, PLANNER_EDB,
		               "%s is another program's SQLite database (application_id 0x%08x, "
		               "planner's is 0x%08x); use another --db",
		               st->path, (unsigned)app, (unsigned)STORE_APPLICATION_ID);
	if ((rc = store_bad_version(st, v, err)))
		return rc;
	if (*marked)
		return PLANNER_OK;
	if ((rc = foreign_table(st, table, sizeof table, &ours, err)))
		return rc;
	if (table[0])
		return set_err(err, PLANNER_EDB,
		               "%s is not a planner database: it has a table \"%s\" planner never "
		               "made; use another --db",
		               st->path, table);
	/* planner sets the version in the transaction that makes its tables. */
	if ((v == 0) != (ours == 0))
		return set_err(err, PLANNER_EDB,
		               "%s is not a planner database: schema version %d with %d of "
		               "planner's tables; use another --db",
		               st->path, v, ours);
	return PLANNER_OK;
}

/* identity_in as one read transaction: a planner making the file meanwhile
 * commits tables, version and mark at once. *busy: another held a lock. */
int store_check_identity(struct store *st, bool *marked, bool *busy, char **err)
{
	int rc = store_exec(st, "BEGIN", err);
	if (rc == PLANNER_OK)
		rc = identity_in(st, marked, err);
	*busy = (sqlite3_errcode(st->db) & 0xff) == SQLITE_BUSY;
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL); /* ends a read: cannot fail */
	return rc;
}

/* SQLite creates -wal and -shm as whoever opens the database first: in a
 * directory others can write, another user's reader makes them its own,
 * and until it closes the owner cannot write. Says so, naming the user. */
int store_check_wal_owner(struct store *st, char **err)
{
	static const char *const suffix[] = {"-wal", "-shm"};
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
		char *f = xasprintf("%s%s", st->path, suffix[i]);
		struct stat sb;
		bool theirs = f && stat(f, &sb) == 0 && sb.st_uid != geteuid() &&
		              access(f, W_OK) != 0;
		free(f);
		if (theirs)
			return set_err(err, PLANNER_EDB,
			               "%s%s belongs to user %u, who has the database open from a "
			               "directory others can write; refresh can write when it ends: "
			               "keep the database where only its owner can write",
			               st->path, suffix[i], (unsigned)sb.st_uid);
	}
	return PLANNER_OK;
}

