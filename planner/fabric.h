/* fabric.h — which rented instances join into one multi-node job, and
 * over what (docs/estimation.md, "Past one node"). An offer is joinable
 * only where its provider's own documentation says its instances are
 * wired to each other by a GPU fabric (AWS EFA, Azure InfiniBand, ...):
 * the catalogue below names each instance type with its fabric, its rate
 * per GPU and the page that says so. No feed states it today; where
 * nothing does, the offer is single-node only. The store records the
 * result on each offer row (offers.fabric, offers.fabric_gbps; schema
 * 12), so `offers --format json` shows it and a future feed may set it. */
#ifndef PLANNER_FABRIC_H
#define PLANNER_FABRIC_H

#include <stddef.h>

#include "refdata.h"
#include "store.h"

/* One instance type whose instances join over a fabric. */
struct fabric_entry {
	const char *provider; /* adapter name, "aws" */
	const char *offer;    /* the instance type exactly as the feed names it */
	const char *fabric;   /* "efa", "infiniband" or "roce" (offers.fabric) */
	double gbps_per_gpu;  /* the instance's fabric rate over its GPUs, Gb/s one direction */
	const char *source;   /* the page that says so, read on the date given */
};

/* The catalogue, *n entries. Cannot fail. */
const struct fabric_entry *fabric_catalogue(size_t *n);

/* The catalogue's entry for provider's instance type offer, or NULL. */
const struct fabric_entry *fabric_find(const char *provider, const char *offer);

/* Sets o->fabric and o->fabric_gbps from the catalogue when a feed left
 * them empty; an offer the catalogue does not name keeps what it has
 * ("" and 0: single-node only). */
void fabric_mark_offer(struct offer *o);

/* The node_fabric (refdata.h) an offers.fabric text names;
 * NODE_FABRIC_UNKNOWN for "" or a name planner does not know. */
enum node_fabric fabric_kind(const char *name);

#endif
