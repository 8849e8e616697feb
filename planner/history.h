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

/* One GPU at one provider: a trend is drawn only over refreshes of one
 * source (issue 26), as the snapshot dates of different providers are
 * not a series. */
struct history_curve {
	char gpu[48];                /* canonical GPU name */
	char provider[32];          /* whose offers these are */
	struct history_step *steps;  /* oldest first; owned */
	size_t n_steps;
};

/* Builds one curve per GPU and provider, ordered by GPU then provider,
 * from rows ordered as store_price_history orders them (gpu, then
 * recorded_at). The store records a price only when it is new or changes,
 * so at each of a provider's refresh times (a time it has a row of the
 * GPU at) every offer of that provider counts at its newest price at or
 * before that time, until a gone row says the provider stopped listing it
 * (a refresh that leaves it no offer of the GPU gives no step).
 * Time linear in n, plus a sort of the listed prices per refresh. Returns
 * PLANNER_OK and a malloc'd array (free with history_curves_free), or
 * PLANNER_ESYS with *err set when out of memory. */
int history_curves(const struct price_point *rows, size_t n, struct history_curve **out,
		   size_t *n_out, char **err);
void history_curves_free(struct history_curve *curves, size_t n);

/* history_curves one row at a time, for rows too many to hold (issue 16):
 * new, then add each row in store_price_history's order, then finish,
 * which hands over the curves (free with history_curves_free); free the
 * builder in any case (NULL is fine). Memory grows with the offers listed
 * at one time, not with the rows. Each returns PLANNER_OK, or PLANNER_ESYS
 * with *err set when out of memory. */
struct history_builder;
int history_builder_new(struct history_builder **out, char **err);
int history_builder_add(struct history_builder *b, const struct price_point *row, char **err);
int history_builder_finish(struct history_builder *b, struct history_curve **out, size_t *n_out,
			   char **err);
void history_builder_free(struct history_builder *b);

/* The curves of the store's history rows of gpu (NULL: every GPU) at
 * provider (NULL: all), streamed (store_each_price_point) and priced in
 * `to` as fx_convert_points prices them: rows in a currency fx lacks are
 * left out and counted in *dropped, each rate used is noted in note. The
 * curves as history_curves; PLANNER_OK, or the store's or history_curves'
 * status with *err set. */
struct fx_table;
int history_load(struct store *st, const char *gpu, const char *provider,
		 const struct fx_table *fx, const char *to, char *note, size_t len, size_t *dropped,
		 struct history_curve **out, size_t *n_out, char **err);

/* Writes a sparkline of v[0..n) into buf as UTF-8 block characters
 * (U+2581..U+2588), one per value, scaled between the smallest and the
 * largest; a flat series is a row of the middle block. Truncates to fit
 * len (always NUL-terminated when len > 0). This function can't fail. */
void history_sparkline(const double *v, size_t n, char *buf, size_t len);

#endif
