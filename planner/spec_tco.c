/* spec_tco.c — the costs: block, what owning costs beyond the GPUs and
 * their load power (a host per N GPUs, resale, cost of capital,
 * maintenance or colocation) and the setup hours of a rented run; and the
 * check of the owned:/buy: idle_watts rows. The row of costs: is in
 * top_keys (spec_keys.c); tco.c prices the terms.
 *
 * Every default is 0 (host.gpus 4): planner cannot know what a host, a
 * rack or money costs the reader, and a default that added a guessed
 * figure to every owned route would hide it in every total. A term counts
 * once the spec gives it; docs/estimation.md, "Cost of ownership", works
 * an example of each. */
#include "spec_table.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"


/* Sanity limits, in USD where SPEC_FX scales them: a host dearer than
 * 1e6 or colocation above 1e5 a GPU-month is taken for a typo. */
#define MAX_HOST_PRICE_USD      1e6
#define MAX_HOST_WATTS          20000.0
#define MAX_MAINTENANCE_USD     1e5
/* Setup hours of one rented run: a day covers any node start and weights
 * download planner prices. */
#define MAX_SETUP_HOURS 24.0
/* The dirtiest yearly grid in the Ember table planner carries is about
 * 900 g CO2e/kWh (carbon.c); 2000 is a typo's bound. A tonne of CO2e
 * above 10,000 USD is ~50x the EU ETS price (a typo's bound too). */
#define MAX_GRID_G_PER_KWH 2000.0
#define MAX_CARBON_PRICE_USD 10000.0
/* GPUs per host by default: a 4-GPU workstation or server (the issue's
 * example, host: {gpus: 4}; a policy default, not a measured figure). */
#define DEFAULT_HOST_GPUS 4

#define COSTS_AT(field) offsetof(struct tco_costs, field)

static const struct spec_key host_keys[] = {
    {.name = "price",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(host_price),
     .lo = 0,
     .hi = MAX_HOST_PRICE_USD,
     .flags = SPEC_FX,
     .has_def = true,
     .def = 0,
     .def_text = "0 (the GPUs go in machines already paid for)",
     .example = "price: 3000",
     .type = "number, currency per host",
     .desc = "Purchase price of one host (chassis, CPU, RAM, power supply) for bought GPUs, "
             "amortised with them; hosts are ceil(GPUs / gpus)."},
    {.name = "watts",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(host_watts),
     .lo = 0,
     .hi = MAX_HOST_WATTS,
     .has_def = true,
     .def = 0,
     .def_text = "0",
     .example = "watts: 250",
     .type = "number, watts per host",
     .desc = "What one host draws beside its GPUs while it is on (with pue and "
             "electricity_per_kwh), for owned and bought GPUs."},
    {.name = "gpus",
     .kind = SPEC_WHOLE,
     .offset = COSTS_AT(host_gpus),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_HOST_GPUS,
     .has_def = true,
     .def = DEFAULT_HOST_GPUS,
     .example = "gpus: 4",
     .desc = "GPUs one host holds."},
};

static const struct spec_table host_table = {
    .intro = "The machine the owned GPUs sit in: one host per `gpus` GPUs. A Mac, Strix Halo "
             "PC or CPU box is its own host: its price and watts are the whole machine's.",
    .keys = host_keys,
    .n = NELEM(host_keys),
    .where = "in host of ",
};

static const struct spec_key costs_keys[] = {
    {.name = "host",
     .kind = SPEC_MAP,
     .sub = &host_table,
     .offset = 0,
     .flags = SPEC_NULL_OK,
     .def_text = "none",
     .example = "host: {price: 3000, watts: 250, gpus: 4}",
     .desc = "The host per N owned GPUs (see costs.host). Without it a GPU bought is priced "
             "alone, in a computer already paid for, and compare says so once in its notes "
             "(not for a Mac or a CPU box, its own host); with it the buy line splits card "
             "and host."},
    {.name = "resale_percent",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(resale_percent),
     .lo = 0,
     .hi = 100,
     .has_def = true,
     .def = 0,
     .def_text = "0 (nothing recovered)",
     .example = "resale_percent: 30",
     .type = "number, percent of the purchase",
     .desc = "Share of the purchase (GPUs and hosts) the hardware sells for after "
             "amortize_months; it lowers the monthly capital cost."},
    {.name = "capital_rate_percent",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(capital_rate_percent),
     .lo = 0,
     .hi = 100,
     .has_def = true,
     .def = 0,
     .def_text = "0 (cash that earns nothing elsewhere)",
     .example = "capital_rate_percent: 8",
     .type = "number, percent a year",
     .desc = "Annual cost of capital (a loan's rate, or what the cash would earn): the "
             "purchase is paid as an annuity over amortize_months at this rate, compounded "
             "monthly."},
    {.name = "maintenance_per_gpu_month",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(maintenance_per_gpu_month),
     .lo = 0,
     .hi = MAX_MAINTENANCE_USD,
     .flags = SPEC_FX,
     .has_def = true,
     .def = 0,
     .def_text = "0",
     .example = "maintenance_per_gpu_month: 25",
     .type = "number, currency per GPU and month",
     .desc = "Maintenance, support contract or colocation space for each owned or bought "
             "GPU, paid every month it is kept."},
    {.name = "setup_hours",
     .kind = SPEC_HOURS,
     .offset = COSTS_AT(setup_hours),
     .lo = 0,
     .hi = MAX_SETUP_HOURS,
     .has_def = true,
     .def = 0,
     .def_text = "0",
     .example = "setup_hours: 0.25",
     .type = "hours per rented run",
     .desc = "Billed hours a rented run spends before it works (node start, image pull, "
             "weights download), added to the rented route at its price for every run: "
             "one run per schedule window the hours need (a whole day without a window), "
             "per replica."},
    {.name = "grid_co2_g_per_kwh",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(grid_co2_g_per_kwh),
     .lo = 0,
     .hi = MAX_GRID_G_PER_KWH,
     .has_def = true,
     .def = -1,
     .def_text = "the yearly average of the country: key's grid (Ember), else not known",
     .example = "grid_co2_g_per_kwh: 253",
     .type = "number, grams CO2e per kWh",
     .desc = "The carbon intensity of the electricity the owned and bought hardware runs on, "
             "for the owned route's CO2e (compare --show co2, JSON co2_kg): a green tariff's "
             "or your supplier's figure. Rented GPUs use their region's grid."},
    {.name = "carbon_price_per_tonne",
     .kind = SPEC_NUMBER,
     .offset = COSTS_AT(carbon_price_per_tonne),
     .lo = 0,
     .hi = MAX_CARBON_PRICE_USD,
     .flags = SPEC_FX,
     .has_def = true,
     .def = 0,
     .def_text = "0 (CO2e is reported, not billed)",
     .example = "carbon_price_per_tonne: 80",
     .type = "number, currency per tonne CO2e",
     .desc = "A price on the CO2e of every route whose CO2e is known (owned, rented, "
             "serverless), added to its monthly cost in compare, breakeven and the report: "
             "an internal carbon price or the ETS price. The schedule's and fleet's per-run "
             "costs do not include it."},
};

const struct spec_table spec_costs = {
    .intro = "What owning costs beside the GPUs and their power, and what a rented run "
             "costs before it starts working (docs/estimation.md, \"Cost of ownership\"). "
             "Every term is 0 unless given.",
    .keys = costs_keys,
    .n = NELEM(costs_keys),
    .where = "in costs at ",
};

_Static_assert(NELEM(host_keys) <= SPEC_MAX_KEYS, "host_keys: raise SPEC_MAX_KEYS");
_Static_assert(NELEM(costs_keys) <= SPEC_MAX_KEYS, "costs_keys: raise SPEC_MAX_KEYS");

int spec_check_idle_watts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	double idle = *(double *)spec_field(r, k);
	double load = 0;
	for (size_t i = 0; i < r->t->n; i++)
		if (!strcmp(r->t->keys[i].name, "watts"))
			load = *(double *)spec_field(r, &r->t->keys[i]);
	if (idle <= load)
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "idle_watts %g %s is above its watts %g; give the draw between runs, "
	               "below the draw under load",
	               idle, r->where, load);
}

/* Growth a month, percent: at most doubling every month, and a shrink of
 * at most half (bounds of a typo, not of a forecast). */
#define MIN_GROWTH_PERCENT (-50.0)
#define MAX_GROWTH_PERCENT 100.0

int spec_read_growth(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	const yaml_node_t *v = kv->val;
	const char *s = v->type == YAML_SCALAR_NODE ? yr_sval(v) : "";
	int rc = yr_check_numeral(&r->c->y, kv, r->where);
	if (rc != PLANNER_OK)
		return rc;
	char *end = NULL;
	double x = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !isfinite(x))
		return yr_fail(&r->c->y, v->start_mark,
		               "'%s' %s must be a percentage a month, got %s; write e.g. %s",
		               k->name, r->where, yr_describe(v, d, sizeof d), k->example);
	if (x < MIN_GROWTH_PERCENT || x > MAX_GROWTH_PERCENT)
		return yr_fail(&r->c->y, v->start_mark,
		               "'%s' %s is %g%% a month; use a value from %g%% to %g%%", k->name,
		               r->where, x, MIN_GROWTH_PERCENT, MAX_GROWTH_PERCENT);
	*(double *)spec_field(r, k) = x;
	return PLANNER_OK;
}
