/* device.c — the hardware a model runs on (see device.h). */
#include "device.h"

#include <stdio.h>
#include <string.h>

bool device_gpu_hbm(const struct gpu_spec *gpu)
{
	/* Data-centre parts with stacked memory (NVIDIA and AMD datasheets):
	 * P100, V100, A30, A100, H100/H200/H800/H20, GH200, B100/B200/GB200,
	 * AMD Instinct MI*. Every other card in the table is GDDR. */
	static const char *const hbm[] = {"P100", "V100", "A30",   "A100", "A800", "H100",  "H200",
	                                  "H800", "H20",  "GH200", "B100", "B200", "GB200", "MI"};
	if (!gpu || !gpu->name)
		return false;
	/* One pass over the name, trying the parts at each letter that starts
	 * one: fourteen strstr calls a configuration were 8 % of compare's
	 * time at 10,000 jobs (issue 16). */
	for (const char *s = gpu->name; *s; s++) {
		if (!strchr("PVAHGBM", *s))
			continue;
		for (size_t i = 0; i < sizeof hbm / sizeof hbm[0]; i++)
			if (*s == hbm[i][0] && !strncmp(s, hbm[i], strlen(hbm[i])))
				return true;
	}
	return false;
}

const char *device_kind_name(enum device_kind k)
{
	static const char *const names[] = {"gpu", "unified", "cpu"};
	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

bool device_refused(const struct device *d, char *why, size_t len)
{
	if (!why || len == 0)
		return false;
	const char *name = d->name ? d->name : "device";
	if (d->kind != DEVICE_GPU && d->kind != DEVICE_UNIFIED && d->kind != DEVICE_CPU)
		snprintf(why, len, "%s is a %s device, which is not modelled", name,
		         device_kind_name(d->kind));
	else if (d->kind != DEVICE_GPU)
		snprintf(why, len,
		         "%s is one machine (count %d): a %s device runs its own copy of the model",
		         name, d->count, device_kind_name(d->kind));
	else
		snprintf(why, len, "%s: no devices (count %d)", name, d->count);
	return false;
}
