/* spec_discounts.c — the spec's `discounts:` key (issue 29): negotiated
 * rates as a share off a provider's on-demand list prices, e.g.
 * discounts: {aws: 20%, lambda: 10%}. plan_convert_offers applies them;
 * spot prices and commitments are not list prices and keep theirs. */
#include "spec_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "provider.h"
#include "util.h"

/* One entry: a known rented provider and a percent in [0, 100). */
static int read_discount(struct ctx *c, yaml_node_t *m, yaml_node_pair_t *p)
{
	char d[64];
	struct jobspec *sp = c->spec;
	yaml_node_t *k = yr_visit(&c->y, p->key, m->start_mark);
	if (!k)
		return PLANNER_EINPUT;
	const struct provider *pr = yr_is_text(k) ? provider_find(yr_sval(k)) : NULL;
	if (!pr || pr->kind != PROVIDER_RENTED) {
		char names[512];
		provider_names(PROVIDER_PICK_RENTED, names, sizeof names);
		return yr_fail(&c->y, k->start_mark,
		               "discounts key %s is not a rented provider; write one of %s, e.g. "
		               "discounts: {aws: 20%%}",
		               yr_describe(k, d, sizeof d), names);
	}
	for (size_t j = 0; j < sp->n_discounts; j++)
		if (!strcmp(sp->discounts[j].provider, pr->name))
			return yr_fail(&c->y, k->start_mark,
			               "duplicate key '%s' in discounts; keep only one", pr->name);
	yaml_node_t *v = yr_visit(&c->y, p->value, k->start_mark);
	if (!v)
		return PLANNER_EINPUT;
	double pct = -1;
	const char *s = yr_is_text(v) ? yr_sval(v) : "";
	char *end = NULL;
	if (*s)
		pct = strtod(s, &end);
	/* "20%" or 20: a percent; anything else is an error, never a guess */
	if (!*s || end == s || (*end && strcmp(end, "%")) || !(pct >= 0 && pct < 100))
		return yr_fail(&c->y, v->start_mark,
		               "discount for %s must be a percent from 0 to below 100, got %s; "
		               "write e.g. %s: 20%%",
		               pr->name, yr_describe(v, d, sizeof d), pr->name);
	snprintf(sp->discounts[sp->n_discounts].provider, sizeof sp->discounts->provider, "%s",
	         pr->name);
	sp->discounts[sp->n_discounts++].share = pct / 100;
	return PLANNER_OK;
}

int spec_read_discounts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	struct ctx *c = r->c;
	yaml_node_t *m = kv->val;
	(void)k;
	if (yr_is_null(m))
		return PLANNER_OK;
	if (m->type != YAML_MAPPING_NODE)
		return yr_fail(&c->y, m->start_mark,
		               "'discounts' must be a mapping of provider to percent off its "
		               "on-demand prices, got %s; write e.g. discounts: {aws: 20%%}",
		               yr_describe(m, d, sizeof d));
	size_t n = yr_map_len(m);
	if (n > SPEC_MAX_DISCOUNTS)
		return yr_fail(&c->y, m->start_mark,
		               "'discounts' has %zu entries, at most %d; list the providers you "
		               "have a negotiated rate with",
		               n, SPEC_MAX_DISCOUNTS);
	for (size_t i = 0; i < n; i++) {
		int rc = read_discount(c, m, &m->data.mapping.pairs.start[i]);
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

double jobspec_discount(const struct jobspec *spec, const char *provider)
{
	for (size_t i = 0; spec && i < spec->n_discounts; i++)
		if (!strcmp(spec->discounts[i].provider, provider))
			return spec->discounts[i].share;
	return 0;
}
