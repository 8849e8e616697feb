/* carbon.h — the energy a route uses in a month and the CO2e of it
 * (docs/estimation.md, "Energy and CO2"): the grid intensity of a cloud
 * region or a country, a provider's published PUE, and what a route's
 * month draws. Every figure of the tables cites where it was read. */
#ifndef PLANNER_CARBON_H
#define PLANNER_CARBON_H

#include <stdbool.h>
#include <stddef.h>

struct jobspec;
struct route_result;

/* Where a grid intensity comes from. */
struct carbon_grid {
	double g_per_kwh;   /* grams CO2e per kWh; NAN: unknown */
	const char *source; /* "Ember 2024 (NL)", "Google Cloud 2024 (europe-west4)", … */
};

/* The grid intensity of the provider's region (a cloud's own published
 * figure where one exists), else of the country (ISO 3166-1 alpha-2),
 * else unknown (g_per_kwh NAN, source NULL). The source text lives in
 * buf (len bytes). */
struct carbon_grid carbon_grid_of(const char *provider, const char *region, const char *country,
                                  char *buf, size_t len);

/* The PUE a rented GPU of the provider runs at: the provider's published
 * fleet figure, else the industry average (carbon_pue_default). *source
 * names it. */
double carbon_provider_pue(const char *provider, const char **source);

/* The energy of route r's month (kWh, with the PUE that applies), its
 * CO2e (kg) from the grid that applies, and, when the spec's
 * costs.carbon_price_per_tonne is given, that cost added to
 * r->monthly_cost (r->carbon_cost). Called once per priced route
 * (plan.c); leaves r->co2_kg NAN with r->co2_note saying why when the
 * figure is not known. */
void carbon_route(const struct jobspec *spec, struct route_result *r);

#endif
