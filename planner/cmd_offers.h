/* cmd_offers.h — what `planner offers` (cmd_offers.c) shares with its
 * --api part (cmd_offers_api.c). The command layer only. */
#ifndef PLANNER_CMD_OFFERS_H
#define PLANNER_CMD_OFFERS_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

struct cli;
struct fx_table;
typedef struct cJSON cJSON;

/* Keeps the rows of provider (all when NULL) whose host processes data in
 * region (all when NULL), in order; returns how many. */
size_t offers_api_keep(struct api_price *rows, size_t n, const char *provider, const char *region);

/* Sets rate[i] (units of currency per unit of row i's) for the rows whose
 * currency has a rate, leaving out (and counting on stderr) the others,
 * and orders the *kept rows cheapest first in currency. rate holds n.
 * false when out of memory. */
bool offers_api_convert(const struct fx_table *fx, struct api_price *rows, size_t n,
                        const char *currency, double *rate, size_t *kept);

/* Says on stderr why --api listed nothing and what would fill it. */
void offers_api_empty(const char *model, const char *provider, const char *region,
                      size_t in_store);

/* Prints the first limit (0: all) of n API prices in currency at rate[i]
 * units of it per unit of row i's; returns the exit status. */
int offers_api_print(const struct cli *c, const struct api_price *a, size_t n, size_t limit,
                     const char *currency, const double *rate);

/* Offer i of an array of offers ud as `offers --format json` makes it
 * (json_make_fn, cli.h); price_published and currency_published set. */
int offers_offer_json(void *ud, size_t i, cJSON **out, char **err);

/* `offers --term`: the commitments of term ("1y" / "3y") the filter keeps
 * (f->max_price in currency), in currency, the first limit (0: all);
 * returns the exit status. */
int offers_term_list(const struct cli *c, struct store *st, const char *term,
                     const struct offer_filter *f, const char *currency, size_t limit);

#endif
