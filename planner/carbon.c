/* carbon.c — energy and CO2e per route (carbon.h; docs/estimation.md,
 * "Energy and CO2"). The tables below are yearly averages: location-based
 * figures (what the grid emits per kWh), not a provider's market-based
 * claims from renewable purchases. */
#include "carbon.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "jobspec.h"
#include "plan.h"
#include "refdata.h"
#include "route.h"
#include "util.h"
#include "workload.h"

/* Yearly average carbon intensity of electricity generation, g CO2e/kWh,
 * for the countries of regions.c's table: Ember's yearly country
 * overview (https://ember-energy.org/data/yearly-electricity-data/), as
 * thegreenwebfoundation/co2.js compiles it in
 * data/output/average-intensities.json at commit b459b5e543c6 (2025-08-03,
 * "Update average annual grid intensities"; the year of each figure
 * beside it, 2024 unless Ember had no newer). Liechtenstein is not in
 * Ember's table. */
/* clang-format off */
static const struct {
	const char cc[3];
	double g_per_kwh;
	int year;
} ember[] = {
    {"AT", 102.62, 2024},  {"BE", 117.58, 2024},  {"BG", 264.21, 2024},
    {"HR", 174.48, 2024},  {"CY", 512.24, 2024},  {"CZ", 413.86, 2024},
    {"DK", 143.3, 2024},   {"EE", 341.02, 2024},  {"FI", 72.25, 2024},
    {"FR", 44.18, 2024},   {"DE", 342.06, 2024},  {"GR", 319.76, 2024},
    {"HU", 182.82, 2024},  {"IE", 279.79, 2024},  {"IT", 287.75, 2024},
    {"LV", 136.22, 2024},  {"LT", 139.34, 2024},  {"LU", 134.62, 2024},
    {"MT", 484.16, 2024},  {"NL", 252.7, 2024},   {"PL", 614.98, 2024},
    {"PT", 111.8, 2024},   {"RO", 245.55, 2024},  {"SK", 96.49, 2024},
    {"SI", 227.11, 2024},  {"ES", 146.15, 2024},  {"SE", 35.89, 2024},
    {"IS", 28.33, 2023},   {"NO", 30.75, 2024},   {"GB", 215.79, 2024},
    {"CH", 36.72, 2024},   {"UA", 250.47, 2022},  {"RS", 670.8, 2024},
    {"TR", 469.7, 2024},   {"US", 383.55, 2024},  {"CA", 184.99, 2024},
    {"MX", 483.14, 2024},  {"BR", 106.06, 2024},  {"AR", 344.83, 2024},
    {"CL", 265.52, 2024},  {"CO", 285.8, 2024},   {"JP", 483.73, 2024},
    {"KR", 415.65, 2024},  {"IN", 708.96, 2024},  {"SG", 498.74, 2024},
    {"TW", 635.15, 2024},  {"HK", 681.99, 2023},  {"CN", 557.5, 2024},
    {"ID", 682.43, 2023},  {"MY", 604.43, 2024},  {"TH", 555.43, 2024},
    {"VN", 486.13, 2024},  {"PH", 613.38, 2024},  {"AU", 553.76, 2024},
    {"NZ", 120.11, 2024},  {"AE", 467.51, 2024},  {"IL", 567.26, 2023},
    {"SA", 691.95, 2024},  {"QA", 602.83, 2024},  {"BH", 902.41, 2023},
    {"ZA", 713.9, 2024},   {"NG", 507.85, 2024},  {"KE", 84.83, 2024},
};

/* Google Cloud's published grid carbon intensity per region, 2024
 * ("Grid carbon intensity (gCO2eq / kWh)"): GoogleCloudPlatform/
 * region-carbon-info, data/yearly/2024.csv at commit 49f3f26bfd68
 * (2025-12-03); https://cloud.google.com/sustainability/region-carbon.
 * The only cloud that publishes a per-region grid figure; other clouds'
 * regions take their country's Ember figure. */
static const struct {
	const char *region;
	double g_per_kwh;
} gcp_regions[] = {
    {"africa-south1", 656.85},        {"asia-east1", 439.29},
    {"asia-east2", 505.02},           {"asia-northeast1", 452.85},
    {"asia-northeast2", 296.19},      {"asia-northeast3", 356.57},
    {"asia-south1", 678.76},          {"asia-south2", 531.83},
    {"asia-southeast1", 366.85},      {"asia-southeast2", 560.55},
    {"australia-southeast1", 497.50}, {"australia-southeast2", 454.37},
    {"europe-central2", 642.88},      {"europe-north1", 39.32},
    {"europe-north2", 2.73},          {"europe-southwest1", 89.04},
    {"europe-west1", 103.37},         {"europe-west2", 105.94},
    {"europe-west3", 275.82},         {"europe-west4", 208.81},
    {"europe-west6", 15.05},          {"europe-west8", 201.69},
    {"europe-west9", 16.30},          {"europe-west10", 275.82},
    {"europe-west12", 201.69},        {"me-central1", 366},
    {"me-central2", 382.23},          {"me-west1", 433.75},
    {"northamerica-northeast1", 5.48},{"northamerica-northeast2", 58.56},
    {"northamerica-south1", 305.00},  {"southamerica-east1", 67.32},
    {"southamerica-west1", 238.00},   {"us-central1", 412.72},
    {"us-central2", 372.23},          {"us-east1", 575.77},
    {"us-east2", 340.42},             {"us-east4", 323.05},
    {"us-east5", 323.05},             {"us-south1", 302.95},
    {"us-west1", 79.23},              {"us-west2", 169.28},
    {"us-west3", 555.17},             {"us-west4", 357.30},
};

/* Fleet-wide PUE the hyperscalers publish (DatacenterDynamics, "AWS
 * global data centers achieved PUE of 1.15 in 2023", 2024-12-03,
 * https://www.datacenterdynamics.com/en/news/aws-global-data-centers-
 * achieved-pue-of-115-in-2023/: AWS 1.15 in 2023, Google "around 1.1",
 * Microsoft's global average 1.18). Oracle states only a best case ("as
 * low as 1.15"), so it takes the default. */
static const struct {
	const char *provider;
	double pue;
	const char *source;
} provider_pue[] = {
    {"aws", 1.15, "AWS 2023 fleet PUE"},
    {"gcp", 1.10, "Google fleet PUE"},
    {"azure", 1.18, "Microsoft fleet PUE"},
};
/* clang-format on */

/* Everyone else: the industry average PUE of Uptime Institute's Global
 * Data Center Survey 2023 (1.58; "industry average PUE stood at 1.58",
 * https://intelligence.uptimeinstitute.com/resource/large-data-centers-
 * are-mostly-more-efficient-analysis-confirms, 2023-11-23). */
#define CARBON_PUE_DEFAULT        1.58
#define CARBON_PUE_DEFAULT_SOURCE "industry average PUE (Uptime Institute 2023)"

struct carbon_grid carbon_grid_of(const char *provider, const char *region, const char *country,
                                  char *buf, size_t len)
{
	if (provider && region && !strcmp(provider, "gcp"))
		for (size_t i = 0; i < NELEM(gcp_regions); i++)
			if (!strcmp(gcp_regions[i].region, region)) {
				snprintf(buf, len, "Google Cloud 2024 (%s)", region);
				return (struct carbon_grid){gcp_regions[i].g_per_kwh, buf};
			}
	for (size_t i = 0; country && country[0] && i < NELEM(ember); i++)
		if (!strcasecmp(ember[i].cc, country)) {
			snprintf(buf, len, "Ember %d (%s)", ember[i].year, ember[i].cc);
			return (struct carbon_grid){ember[i].g_per_kwh, buf};
		}
	return (struct carbon_grid){NAN, NULL};
}

double carbon_provider_pue(const char *provider, const char **source)
{
	for (size_t i = 0; provider && i < NELEM(provider_pue); i++)
		if (!strcmp(provider_pue[i].provider, provider)) {
			*source = provider_pue[i].source;
			return provider_pue[i].pue;
		}
	*source = CARBON_PUE_DEFAULT_SOURCE;
	return CARBON_PUE_DEFAULT;
}

/* The sources carbon_route names: one string per route result, kept for
 * the life of the process (a plan holds many jobs; the texts repeat). */
static const char *keep_source(const char *s)
{
	static char kept[NELEM(ember) + NELEM(gcp_regions) + 4][48];
	static size_t n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kept[i], s))
			return kept[i];
	if (n == NELEM(kept))
		return "yearly grid average";
	snprintf(kept[n], sizeof kept[n], "%s", s);
	return kept[n++];
}

/* The energy of a GPU route's month: every GPU at its board power for
 * the hours it is billed, at the provider's PUE (rented) or the default
 * (serverless, whose hosts are not named). */
static double gpu_route_kwh(const struct route_result *r, double pue)
{
	double hours = r->gpu_hours;
	int gpus = r->gpu_count;
	if (r->route == ROUTE_SERVERLESS) {
		/* Worker-hours of the bill: busy, idle until scale-down, starts. */
		int per = r->replicas > 0 ? r->gpu_count / r->replicas : r->gpu_count;
		gpus = per;
		hours = r->sls.busy_hours + r->sls.idle_hours +
		        r->sls.starts * r->sls.cold_start_s / 3600.0;
	}
	return gpus * r->gpu->watts * pue * hours / 1000.0;
}

void carbon_route(const struct jobspec *spec, struct route_result *r)
{
	char buf[48];
	r->energy_kwh = r->grid_g_per_kwh = r->co2_kg = NAN;
	r->carbon_cost = 0;
	r->co2_source = r->co2_note = NULL;
	if (!r->feasible)
		return;
	struct carbon_grid g = {NAN, NULL};
	if (!r->gpu) {
		r->co2_note = "not published by the provider";
		return;
	}
	if (r->route == ROUTE_OWNED) {
		r->energy_kwh = r->tco.kwh;
		if (spec->costs.grid_co2_g_per_kwh >= 0) {
			g.g_per_kwh = spec->costs.grid_co2_g_per_kwh;
			g.source = "costs.grid_co2_g_per_kwh";
		} else if (spec->country) {
			g = carbon_grid_of(NULL, NULL, spec->country->code, buf, sizeof buf);
		}
		if (!g.source)
			r->co2_note = "its grid is not known (give country: or "
			              "costs.grid_co2_g_per_kwh)";
	} else {
		const char *pue_source;
		bool sls = r->route == ROUTE_SERVERLESS;
		double pue = carbon_provider_pue(sls ? NULL : r->provider, &pue_source);
		r->energy_kwh = gpu_route_kwh(r, pue);
		g = carbon_grid_of(r->provider, r->region, r->country, buf, sizeof buf);
		if (!g.source)
			r->co2_note = sls ? "the endpoint's region is not published"
			                  : "the offer's country is not known";
	}
	if (!g.source)
		return;
	r->grid_g_per_kwh = g.g_per_kwh;
	r->co2_kg = r->energy_kwh * g.g_per_kwh / 1000.0;
	r->co2_source = keep_source(g.source);
	if (spec->costs.carbon_price_per_tonne > 0) {
		r->carbon_cost = r->co2_kg / 1000.0 * spec->costs.carbon_price_per_tonne;
		r->monthly_cost += r->carbon_cost;
	}
}
