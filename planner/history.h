/* history.h — a GPU's rented price over refreshes, from the price_history
 * rows the store keeps (store_price_history), and a terminal sparkline of
 * it. Pure computation; `planner history` and the HTML report print it. */
#ifndef PLANNER_HISTORY_H
#define PLANNER_HISTORY_H

#include <stddef.h>

#include "store.h"

/* The market for one GPU at one refresh time. Prices are USD per GPU-hour
 * (an instance's price divided by its GPU count), so an 8-GPU node and a
 * single card are on one scale. */
struct history_step {
	char at[24];   /* refresh time (recorded_at), ISO 8601 UTC */
	size_t offers; /* offers with a known price at that time */
	double min;    /* cheapest, USD per GPU-hour */
	double median; /* median over those offers, USD per GPU-hour */
};

struct history_curve {
	char gpu[48];                /* canonical GPU name */
	struct history_step *steps;  /* oldest first; owned */
	size_t n_steps;
};

/* Builds one curve per GPU from rows ordered as store_price_history orders
 * them (gpu, then recorded_at). The store records a price only when it is
 * new or changes, so at each refresh time every offer counts at its newest
 * price at or before that time, until a gone row says its provider stopped
 * listing it (a refresh that lists no offer of the GPU gives no step).
 * Time linear in n, plus a sort of the listed prices per refresh. Returns
 * PLANNER_OK and a malloc'd array (free with history_curves_free), or
 * PLANNER_ESYS with *err set when out of memory. */
int history_curves(const struct price_point *rows, size_t n, struct history_curve **out,
		   size_t *n_out, char **err);
void history_curves_free(struct history_curve *curves, size_t n);

/* Writes a sparkline of v[0..n) into buf as UTF-8 block characters
 * (U+2581..U+2588), one per value, scaled between the smallest and the
 * largest; a flat series is a row of the middle block. Truncates to fit
 * len (always NUL-terminated when len > 0). This function can't fail. */
void history_sparkline(const double *v, size_t n, char *buf, size_t len);

#endif
