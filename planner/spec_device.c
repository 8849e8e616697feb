/* spec_device.c — memory_gib of an owned: or buy: entry: the variant of
 * a Mac or Strix Halo chip it names (one of the sizes it is sold with), or
 * the RAM of a CPU box; the entry then points at a copy of its part at
 * that size, named with it ("M3 Max 40-core 64 GiB"), which jobspec_free
 * frees. */
#include "spec_table.h"

#include "local_device.h"

static int size_entry(struct spec_rd *r, const struct gpu_spec **gpu, double memory_gib,
                      struct gpu_spec **sized)
{
	char why[200];
	if (memory_gib <= 0)
		return PLANNER_OK;
	if (!(*sized = local_device_sized(r->c->ref, *gpu, memory_gib, why, sizeof why)))
		return why[0] ? yr_fail(&r->c->y, r->map->start_mark, "%s: memory_gib %g: %s",
		                        r->who, memory_gib, why)
		              : yr_oom(&r->c->y);
	*gpu = *sized;
	return PLANNER_OK;
}

int spec_owned_done(struct spec_rd *r)
{
	struct owned_gpu *o = r->target;
	return size_entry(r, &o->gpu, o->memory_gib, &o->sized);
}

int spec_buy_done(struct spec_rd *r)
{
	struct buy_option *b = r->target;
	return size_entry(r, &b->gpu, b->memory_gib, &b->sized);
}
