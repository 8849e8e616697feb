/* refresh.h — `planner refresh` as a library: runs the chosen adapters,
 * writes each provider's rows in one transaction, records every attempt in
 * refresh_runs, and returns what happened per provider. A provider that
 * fails keeps its previous rows (marked stale through providers.last_status)
 * and the others still refresh. Nothing here prints. */
#ifndef PLANNER_REFRESH_H
#define PLANNER_REFRESH_H

#include <stdbool.h>
#include <stddef.h>

#include "provider.h"
#include "refdata.h"
#include "store.h"

/* The default overall deadline of one provider's refresh, seconds: the
 * largest feed, AWS's price lists, is streamed region by region (a few
 * hundred MB each, bench/README.md), and a nightly cron run should not
 * hang for hours on one stuck host. `refresh --timeout` sets another. */
#define REFRESH_DEFAULT_TIMEOUT_S 900

enum refresh_status {
	REFRESH_OK,      /* rows replaced */
	REFRESH_FAILED,  /* fetch or parse failed; previous rows kept */
	REFRESH_SKIPPED, /* no key in the environment */
	REFRESH_FRESH,   /* refreshed within --if-older-than; not fetched */
};

struct refresh_result {
	const struct provider *p;   /* the adapter */
	enum refresh_status status;
	long rows;                  /* rows written (ok) or held now (failed, fresh) */
	long http_status;           /* last HTTP status; 0 when none */
	double seconds;             /* wall time of the fetch and write */
	char *message;              /* failed: the error; skipped: why (owned; may be NULL) */
	int code;                   /* failed: PLANNER_ENET (the feed), PLANNER_EDB (the store)
	                             * or PLANNER_ESYS (out of memory) */
	char last_good[24];         /* when the rows held were fetched; "" never */
	size_t unknown_rows;        /* rows dropped for a GPU no alias matches */
	char *unknown[NORM_MAX_UNKNOWN]; /* those GPU names, distinct (owned) */
	size_t n_unknown;
	size_t skipped_rows;        /* rows dropped for missing or bad fields */
	size_t implausible_rows;    /* rows dropped outside the normaliser's plausibility
	                             * bounds (more than 16 GPUs, under a cent a GPU-hour…) */
};

struct refresh_opts {
	const char *providers;    /* comma-separated adapter names; NULL or "" for all */
	double if_older_than_s;   /* > 0: leave providers refreshed more recently */
	/* Settings of single adapters (--aws-regions: aws's "regions"), read
	 * by each adapter with provider_option; n_options of them. */
	const struct provider_option *options;
	size_t n_options;
	long lock_wait_ms;        /* how long to wait for another refresh; < 0: default */
	long timeout_s;           /* one overall deadline per provider (all its requests,
	                           * retries, pages and regions), seconds; 0: the
	                           * default, REFRESH_DEFAULT_TIMEOUT_S */
	/* Progress, called from the refreshing thread; either may be NULL. */
	void (*on_start)(void *ud, const struct provider *p);
	void (*on_done)(void *ud, const struct refresh_result *r);
	void *ud;
};

/* Checks a --provider list: PLANNER_OK, or PLANNER_EUSAGE with *err set
 * naming the unknown provider and the nearest known one, or a retired one
 * with its date and why (PLANNER_ESYS when out of memory). */
int refresh_check_providers(const char *list, char **err);

/* Runs the refresh. Returns PLANNER_OK when it ran (see each result for
 * failures; *out is malloc'd, free with refresh_results_free), PLANNER_EUSAGE
 * for a bad provider list, PLANNER_EDB when the database could not be
 * locked or written, PLANNER_ESYS when out of memory. */
int refresh_run(struct store *st, const struct refdata *ref, const struct refresh_opts *o,
		struct refresh_result **out, size_t *n, char **err);
void refresh_results_free(struct refresh_result *r, size_t n);

/* Writes "ok", "failed", "skipped" or "fresh". */
const char *refresh_status_name(enum refresh_status s);

#endif
