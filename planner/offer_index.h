/* offer_index.h — the rented offers of one plan, normalised once and
 * grouped by GPU, memory and count (issue 16: compare looked up and
 * re-normalised every offer's GPU name once per job, 156 ns a job-offer
 * pair). Every offer of a group has the same reference GPU, the same
 * memory per GPU and the same GPU count, so the memory and speed rules
 * give one answer for the whole group; the group's offers are kept
 * cheapest first, so a job reads only the first of them its filters
 * (spot, provider, region) let through. */
#ifndef PLANNER_OFFER_INDEX_H
#define PLANNER_OFFER_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refdata.h"
#include "store.h"
#include "workload.h"

/* No offer of the group passes. */
#define OFFER_NONE SIZE_MAX

/* Offers of one reference GPU, memory per GPU and GPU count (and, for a
 * rented CPU, vCPUs). */
struct offer_group {
	const struct gpu_spec *gpu; /* refdata's entry (refdata_gpu of the offer's name) */
	struct gpu_spec sized;      /* *gpu with the offers' memory per GPU; a rented
	                             * CPU: the VM (local_device_rented) */
	int count;                  /* GPUs in each instance */
	size_t first, n;            /* the group's offers: by_price[first .. first + n) */
};

/* What one set of job filters lets through, per group. The filters are
 * all workload_rental_allowed and workload_region_allowed read of a job:
 * its interruptible, accelerator and regions (else the spec's), and the
 * spec's providers, the same for every job of the index's plan; and the
 * hosts it may rent on (job_hosting). */
struct offer_hits {
	bool interruptible, any_accelerator;
	char *const *regions; /* the job's, else the spec's; NULL: anywhere */
	size_t n_regions;
	unsigned hosting; /* the HOSTING_* bits let through (job_hosting, or all) */
	size_t *cheapest; /* per group: the cheapest offer let through (lowest index on a tie) */
	size_t *first;    /* per group: the lowest offer index let through */
};

struct offer_index {
	const struct offer *offers; /* not owned */
	size_t n_offers;
	/* Offer indices of each group together, the groups in the order of
	 * their first offer; inside a group by price, then index (by_price)
	 * or by index alone (by_index). */
	size_t *by_price, *by_index;
	struct offer_group *groups;
	size_t n_groups;
	size_t unknown; /* offers whose GPU the reference data does not know */
	/* Offers whose instances join over a fabric (offers.fabric, fabric.h),
	 * cheapest first: the few a job past one node may use. */
	size_t *joinable;
	size_t n_joinable;
	struct offer_hits *hits; /* one per distinct set of filters met so far */
	size_t n_hits;
};

/* Builds x over offers[0..n) (kept, not copied: they must outlive x).
 * Offers whose GPU refdata does not know are in no group. Returns
 * PLANNER_OK, or PLANNER_ESYS with *err set when out of memory. */
int offer_index_build(struct offer_index *x, const struct refdata *ref, const struct offer *offers,
		      size_t n, char **err);
void offer_index_free(struct offer_index *x);

/* What w's filters, with the HOSTING_* bits `hosting` in place of the
 * job's, let through in each group of x, read once per distinct set of
 * filters and kept in x. Returns PLANNER_OK and *out (owned by x,
 * valid until the next call), or PLANNER_ESYS with *err set. */
int offer_index_hits(struct offer_index *x, const struct workload *w, unsigned hosting,
		     const struct offer_hits **out, char **err);

/* The kinds of offer seen so far: two offers are of one kind when every
 * field a job's filters or the pricing rules read is the same (GPU name,
 * memory, count, spot, marketplace, provider, region, country, region
 * group, currency), so of a kind read cheapest first only the first can ever be
 * chosen. Open addressing, FNV-1a. */
struct offer_kinds {
	char **keys; /* owned; NULL = empty slot */
	size_t *ids; /* each slot's kind number */
	size_t cap;  /* a power of two, at least twice the entries */
	size_t n;
};

/* Adds o's kind: *kind is its number (0, 1, … in the order first seen),
 * *first whether it is new. PLANNER_ESYS with *err set when out of memory. */
int offer_kinds_add(struct offer_kinds *k, const struct offer *o, size_t *kind, bool *first,
		    char **err);
void offer_kinds_free(struct offer_kinds *k);

#endif
