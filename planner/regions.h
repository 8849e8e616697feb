/* regions.h — where an offer runs and where an API host processes data,
 * normalised: an ISO 3166-1 alpha-2 country and a region group ("eu",
 * "us", "asia", …) from tables with sources (regions.c). The provider's
 * own region name stays in the row's `region`; this module only adds the
 * country and the group beside it. */
#ifndef PLANNER_REGIONS_H
#define PLANNER_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* Region groups a row can be in; a country belongs to one. "eu" is the
 * European Union and the EEA (where the GDPR applies as such); "europe"
 * is the rest of Europe (GB, CH, …), kept apart so that `eu` never
 * includes them silently. */
#define REGIONS_GROUPS "eu, europe, us, americas, asia, oceania, mideast, africa"

/* The group of an ISO 3166-1 alpha-2 country code (any case): "eu",
 * "us", … ; "" when the code is not in the table. */
const char *regions_group_of(const char *country);

/* Fills o->country and o->region_group from o->provider and o->region:
 * a cloud region name of the table (AWS, Azure, GCP, Lambda), a Vast
 * geolocation "City, CC" / "CC", or a bare country code. Leaves both ""
 * when the region says nothing (RunPod's feed has no location). */
void regions_locate_offer(struct offer *o);

/* Fills a->country and a->region_group with where the API host of the row
 * processes data (the jurisdiction table): for an "openrouter" row
 * OpenRouter itself, for a LiteLLM row the host its id begins with
 * ("mistral/…", "scaleway/…", an EU deployment "azure/eu/…",
 * "bedrock_converse/eu.…"). Both "" when no source says. Also fills
 * a->jurisdiction: the country whose law the host company is under
 * ("US" for a hyperscaler's EU region too); "" unknown. */
void regions_locate_api(struct api_price *a);

/* Whether `want` (a group, a country code or a provider's region name;
 * any case) names this location. */
bool regions_match(const char *want, const char *region, const char *country, const char *group);

/* Whether `want` is something regions_match can ever match: a group, a
 * country code of the table, or a region name of the table. */
bool regions_known(const char *want);

#endif
