/* store_fx.c — the exchange rates table, part of the one store module
 * (see store_int.h). */
#include "store_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "fx.h"
#include "util.h"

int store_replace_fx(struct store *st, const char *provider, const struct fx_table *t,
                     char **err)
{
	char at[24];
	iso_now(at, sizeof at);
	struct store_write w;
	sqlite3_stmt *ins = NULL;
	int rc = store_write_begin(st, &w, err);
	if (rc)
		return rc;
	if ((rc = store_exec(st, "DELETE FROM fx_rates", err)))
		goto out;
	if (sqlite3_prepare_v2(st->db,
	                       "INSERT INTO fx_rates (currency, per_eur, as_of, source) "
	                       "VALUES (?,?,?,?)",
	                       -1, &ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare exchange rates");
		goto out;
	}
	for (size_t i = 0; i < t->n; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, t->r[i].code, -1, SQLITE_STATIC);
		sqlite3_bind_double(ins, 2, t->r[i].per_eur);
		sqlite3_bind_text(ins, 3, t->as_of, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, t->source, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = store_db_err(st, err, "cannot store exchange rates");
			goto out;
		}
	}
	if (provider && (rc = store_mark_fresh(st, provider, "fx", at, err)))
		goto out;
out:
	sqlite3_finalize(ins);
	if (rc == PLANNER_OK)
		rc = store_write_end(st, &w, err);
	if (rc != PLANNER_OK)
		store_write_undo(st, &w);
	return rc;
}

int store_read_fx(struct store *st, struct fx_table *t, char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = PLANNER_OK, step;
	memset(t, 0, sizeof *t);
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT currency, per_eur, as_of, source FROM fx_rates "
	                       "ORDER BY currency",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read exchange rates");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *code = sqlite3_column_text(s, 0);
		/* A row fx_set refuses (a hand-edited database) is left out. */
		if (!fx_set(t, code ? (const char *)code : "", sqlite3_column_double(s, 1)))
			continue;
		store_copy_text(t->as_of, sizeof t->as_of, sqlite3_column_text(s, 2));
		store_copy_text(t->source, sizeof t->source, sqlite3_column_text(s, 3));
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read exchange rates");
	sqlite3_finalize(s);
	return rc;
}
