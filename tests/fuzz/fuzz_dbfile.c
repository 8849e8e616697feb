/* fuzz_dbfile.c — a database file given to --db (store_open), then the
 * reads every command makes. Checks that open fails with a message and no
 * store, or succeeds with a store and no message; that the reads fail the
 * same way or return rows; and that a file refused as not planner's (a
 * foreign, newer, out-of-range or non-SQLite file) is left byte for byte
 * as it was: store_open changes nothing before it has checked the header. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "store.h"
#include "util.h"

/* The messages of a file refused before anything is written (store.c). */
static bool refused_untouched(const char *err)
{
	static const char *const says[] = {"not a planner database", "another program's",
	                                   "newer than this planner", "not one planner writes",
	                                   "not a SQLite database"};
	for (size_t i = 0; err && i < sizeof says / sizeof *says; i++)
		if (strstr(err, says[i]))
			return true;
	return false;
}

/* The reads of offers, compare and providers; -1 on a broken invariant. */
static int read_all(struct store *st)
{
	struct offer_filter f = {0};
	struct offer *o = NULL;
	struct api_price *a = NULL;
	struct provider_state *p = NULL;
	size_t n = 0;
	char *err = NULL;
	int bad = 0;
	if (store_offers(st, &f, &o, &n, &err) != PLANNER_OK && !err)
		bad = fuzz_fail("dbfile", "store_offers failed without a message");
	free(err);
	err = NULL;
	if (store_api_prices(st, NULL, &a, &n, &err) != PLANNER_OK && !err)
		bad = fuzz_fail("dbfile", "store_api_prices failed without a message");
	free(err);
	err = NULL;
	if (store_providers(st, &p, &n, &err) != PLANNER_OK && !err)
		bad = fuzz_fail("dbfile", "store_providers failed without a message");
	free(err);
	free(o);
	free(a);
	free(p);
	return bad;
}

static void remove_db(const char *path)
{
	static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
		char *f = xasprintf("%s%s", path, suffix[i]);
		if (f)
			unlink(f);
		free(f);
	}
}

int fuzz_dbfile(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz-dbfile-XXXXXX";
	if (!mkdtemp(dir))
		return 0;
	char *path = xasprintf("%s/prices.db", dir);
	FILE *f = path ? fopen(path, "wb") : NULL;
	int bad = 0;
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		goto out;
	struct store *st = NULL;
	char *err = NULL;
	int rc = store_open(path, fuzz_ref(), &st, &err);
	if (rc != PLANNER_OK && (!err || st))
		bad = fuzz_fail("dbfile", "a failed open without a message, or with a store");
	if (rc == PLANNER_OK && (!st || err))
		bad = fuzz_fail("dbfile", "an open that succeeded with a message, or no store");
	if (rc == PLANNER_OK && st)
		bad |= read_all(st);
	store_close(st);
	if (rc != PLANNER_OK && refused_untouched(err)) {
		size_t n = 0;
		char *now = read_file(path, &n);
		if (now && (n != size || memcmp(now, data, size)))
			bad = fuzz_fail("dbfile", "a refused file was changed:");
		free(now);
	}
	if (bad && err)
		fuzz_fail("dbfile", err);
	free(err);
out:
	if (path)
		remove_db(path);
	rmdir(dir);
	free(path);
	return bad;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_dbfile(data, size))
		abort();
	return 0;
}
#endif
