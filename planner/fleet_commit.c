/* fleet_commit.c — shared commitments in the fleet search (fleet.h,
 * docs/design.md "Commitments in compare and fleet"): a commitment's GPUs
 * are a fixed month that several jobs share hour by hour, as they share
 * GPUs on hand, with nothing bought. */
#include "fleet.h"

#include <stdbool.h>

#include "workload.h"

int fleet_commit_instances(const struct buy_option *b, int count)
{
	int per = b->commit && b->commit->o.gpu_count > 0 ? b->commit->o.gpu_count : 1;
	return count > 0 ? (count + per - 1) / per : 0;
}

/* Whether some job of plan may run on commitment t's instances of gpu:
 * the rented route's rules and enough of its GPUs for one configuration. */
static bool commit_fits_a_job(const struct plan *plan, const struct offer_term *t,
                              const struct gpu_spec *gpu)
{
	for (size_t j = 0; j < plan->n_jobs; j++) {
		const struct workload *w = &plan->jobs[j].work;
		int n = workload_gpu_allowed(w, gpu) ? workload_min_gpus(w, gpu) : 0;
		if (n > 0 && n <= FLEET_MAX_POOL_GPUS && workload_commit_allowed(w, t, gpu))
			return true;
	}
	return false;
}

void fleet_add_commitments(const struct plan *plan, const struct refdata *ref, struct fleet *f)
{
	const struct offer_term *pick[FLEET_COMMIT_TYPES] = {0};
	const struct gpu_spec *pick_gpu[FLEET_COMMIT_TYPES] = {0};
	size_t n = 0;
	for (size_t i = 0; ref && i < plan->n_terms; i++) {
		const struct offer_term *t = &plan->terms[i];
		const struct gpu_spec *gpu = refdata_gpu(ref, t->o.gpu);
		if (!gpu || gpu->kind == DEVICE_CPU || t->o.gpu_count <= 0 ||
		    !commit_fits_a_job(plan, t, gpu))
			continue;
		double per_gpu = t->o.price_per_hour / t->o.gpu_count;
		size_t k = 0;
		while (k < n && pick_gpu[k] != gpu)
			k++;
		if (k < n) { /* the model's cheaper commitment replaces its other */
			if (per_gpu < pick[k]->o.price_per_hour / pick[k]->o.gpu_count)
				pick[k] = t;
			continue;
		}
		if (n < FLEET_COMMIT_TYPES) {
			pick[n] = t;
			pick_gpu[n++] = gpu;
			continue;
		}
		/* full: it replaces the dearest when cheaper */
		size_t worst = 0;
		for (size_t q = 1; q < n; q++)
			if (pick[q]->o.price_per_hour / pick[q]->o.gpu_count >
			    pick[worst]->o.price_per_hour / pick[worst]->o.gpu_count)
				worst = q;
		if (per_gpu < pick[worst]->o.price_per_hour / pick[worst]->o.gpu_count) {
			pick[worst] = t;
			pick_gpu[worst] = gpu;
		}
	}
	for (size_t k = 0; k < n && f->n_types < FLEET_MAX_TYPES; k++) {
		int per = pick[k]->o.gpu_count;
		int most = JOBSPEC_DEFAULT_MAX_BUY / per * per;
		f->buy[f->n_types++] = (struct buy_option){
		    .gpu = pick_gpu[k], .max_count = most > 0 ? most : per, .commit = pick[k]};
	}
}
