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

/* Units of `to` per unit of `from`, through EUR: false when either rate is
 * missing. 1 when the codes are equal. */
bool fx_rate(const struct fx_table *t, const char *from, const char *to, double *out);

/* Appends "1 FROM = r TO" to the NUL-terminated note (", " between pairs)
 * once per pair; truncates to fit len. This function can't fail. */
void fx_note_add(char *note, size_t len, const char *from, const char *to, double rate);

/* Appends ", ECB <date>" (t's date) to a note that names a rate; nothing
 * when the note is empty or t has no date. This function can't fail. */
void fx_note_date(char *note, size_t len, const struct fx_table *t);

/* fx_check.c. The factor by which a rate `days` days older than another
 * may plausibly differ from it: 1.10 for a day, widening as
 * 1.10^sqrt(days) up to 2 (the reasoning is at FX_DAY_MOVE). */
double fx_move_bound(double days);
/* Whether the fresh rates are plausible: dated no later than today
 * (YYYY-MM-DD; no check when NULL or ""), and each currency's rate within
 * fx_move_bound of its rate in old (the stored set), else in fallback
 * (the bundled snapshot's), for the days between their dates. PLANNER_OK,
 * or PLANNER_ENET with *err naming the currency and both rates. */
int fx_check_plausible(const struct fx_table *fresh, const struct fx_table *old,
                       const struct fx_table *fallback, const char *today, char **err);

struct offer;
struct price_point;

/* Prices offers o[0..*n) in `to`, in place, from the currency each is
 * published in ("" reads as USD), through t; keeps the published price and
 * currency in price_published / currency_published; leaves out (in order)
 * those whose currency t lacks and counts them in *dropped; notes each rate
 * used in note (fx_note_add, then fx_note_date). Then sorts them cheapest
 * first as the store does (price, provider, offer, region, spot). This
 * function can't fail. */
void fx_convert_offers(const struct fx_table *t, const char *to, struct offer *o, size_t *n,
                       char *note, size_t len, size_t *dropped);

/* Sorts offers cheapest first as the store does (price, provider, offer,
 * region, spot). */
void fx_sort_offers(struct offer *o, size_t n);
/* The store's order of two offers, as qsort's comparison (store_offers:
 * ORDER BY price_per_hour, provider, offer, region, spot, the primary key,
 * so no two rows tie): < 0 when *pa comes first. */
int fx_offer_order(const void *pa, const void *pb);

/* The same for price-history rows, kept in their order (history_curves'). */
void fx_convert_points(const struct fx_table *t, const char *to, struct price_point *p,
                       size_t *n, char *note, size_t len, size_t *dropped);

/* One price-history row priced in `to` as fx_convert_points prices it,
 * noting the rate (fx_note_add; the caller adds fx_note_date once at the
 * end); false, *p unchanged, when t lacks its currency. */
bool fx_convert_point(const struct fx_table *t, const char *to, struct price_point *p,
                      char *note, size_t len);

#endif
