/* fx.h — exchange rates: one set of reference rates, each currency's units
 * per EUR as the European Central Bank publishes them, and conversion of
 * any amount between two currencies through EUR. The set comes from the
 * bundled snapshot (schema/snapshot.json "fx") until `planner refresh`
 * stores the ECB's daily rates (providers/ecb.c, table fx_rates). */
#ifndef PLANNER_FX_H
#define PLANNER_FX_H

#include <stdbool.h>
#include <stddef.h>

/* Currencies one rate set holds: the ECB's daily reference rates list 30
 * (tests/fixtures/real/ecb/eurofxref-daily.2025-05-09.xml), 41 at most
 * since 1999 (unconfirmed); room for twice that. */
#define FX_MAX_RATES 80

struct fx_table {
	char as_of[16];   /* the rates' date, YYYY-MM-DD; "" when there are none */
	char source[160]; /* where they come from */
	size_t n;
	struct {
		char code[4];   /* ISO 4217, upper case */
		double per_eur; /* units of code per EUR (> 0) */
	} r[FX_MAX_RATES];
};

/* Whether s is three upper-case ASCII letters. */
bool fx_code_ok(const char *s);

/* Adds or replaces code's rate; false when the code is malformed, the rate
 * not finite and positive, or the table full. EUR is implied (1). */
bool fx_set(struct fx_table *t, const char *code, double per_eur);

/* Units of code per EUR: 1 for EUR; false when the table lacks it. */
bool fx_per_eur(const struct fx_table *t, const char *code, double *out);

/* Units of code per USD, through EUR: false when either rate is missing. */
bool fx_per_usd(const struct fx_table *t, const char *code, double *out);

/* Reads a snapshot-shaped object's "fx" member ({"as_of", "source",
 * "per_eur": {CODE: rate}}) from the JSON text json into t. PLANNER_OK, or
 * PLANNER_EINPUT with *err set when it is missing or malformed. */
int fx_from_json(const char *json, struct fx_table *t, char **err);

#endif
