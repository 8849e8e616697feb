/* spec_keys.c — the rows of the job spec's top level and of its owned:,
 * buy: and quotes: entries (spec_table.h), with the checks a row's kind
 * cannot express. The job's own rows are in spec_job.c; docs/spec.md is
 * rendered from both (spec_doc.c). layout: long file — one table of every
 * top-level key, kept whole so the spec's reference reads in its order. */
#include "spec_table.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fx.h"
#include "regions.h"
#include "util.h"

/* Sanity limit, in USD (scaled by the exchange rate): a quote's hourly
 * price (8×H100 on demand is about 25–100 USD/h); a GPU's price is
 * SPEC_MAX_PRICE_USD (spec_table.h). */
#define MAX_PRICE_PER_HOUR_USD 1e4
/* USD per kWh; the dearest retail power in Europe is well under 1. */
#define MAX_ELECTRICITY_USD 10.0
/* Units of a currency per USD; the weakest currencies trade near 1e5. */
#define MAX_FX 1e7
/* Currencies in fx: ISO 4217 lists fewer than 200. */
#define MAX_FX_ENTRIES 300
/* Power usage effectiveness is 1.0 with no overhead at all; above 3 is
 * taken for a typo. */
#define MAX_PUE 3.0
/* Months to spread a purchase over: 20 years at most. */
#define MAX_AMORTIZE_MONTHS 240
#define DEFAULT_AMORTIZE    36


static bool is_currency_code(const char *s)
{
	return strlen(s) == 3 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
	       isalpha((unsigned char)s[2]);
}

static void upcase(char *dst, const char *src, size_t len)
{
	size_t i = 0;
	for (; src[i] && i + 1 < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = 0;
}

/* ---- top level --------------------------------------------------------- */

static int read_version(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	double ver;
	int rc = yr_get_num(&r->c->y, kv, r->where, k->example, &ver);
	if (rc == PLANNER_OK && ver != 1)
		rc = yr_fail(&r->c->y, kv->val->start_mark,
		             "unsupported version %s; this planner reads version: 1",
		             yr_describe(kv->val, d, sizeof d));
	return rc;
}

static int read_currency(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64], *cur = NULL;
	struct jobspec *sp = r->c->spec;
	int rc = yr_get_str(&r->c->y, kv, r->where, k->example, &cur);
	if (rc != PLANNER_OK)
		return rc;
	bool ok = is_currency_code(cur);
	if (ok)
		upcase(sp->currency, cur, sizeof sp->currency);
	free(cur);
	if (!ok)
		return yr_fail(
		    &r->c->y, kv->val->start_mark,
		    "currency %s is not a 3-letter ISO 4217 code; write e.g. currency: EUR",
		    yr_describe(kv->val, d, sizeof d));
	return PLANNER_OK;
}

/* One `CODE: rate` pair of fx. */
static int read_rate(struct ctx *c, yaml_node_t *m, yaml_node_pair_t *p)
{
	char d[64], code[8];
	struct jobspec *sp = c->spec;
	yaml_node_t *k = yr_visit(&c->y, p->key, m->start_mark);
	if (!k)
		return PLANNER_EINPUT;
	if (!yr_is_text(k) || !is_currency_code(yr_sval(k)))
		return yr_fail(&c->y, k->start_mark,
		               "fx key %s is not a 3-letter currency code; write e.g. fx: auto or "
		               "fx: {EUR: 0.92}",
		               yr_describe(k, d, sizeof d));
	upcase(code, yr_sval(k), sizeof code);
	for (size_t j = 0; j < sp->n_fx; j++)
		if (!strcmp(sp->fx[j].code, code))
			return yr_fail(&c->y, k->start_mark,
			               "duplicate key '%s' in fx; keep only one", yr_sval(k));
	struct keyed e = {k, yr_visit(&c->y, p->value, k->start_mark)};
	if (!e.val)
		return PLANNER_EINPUT;
	double rate;
	int rc = yr_get_num(&c->y, &e, "in fx", "EUR: 0.92", &rate);
	if (rc == PLANNER_OK && !(rate > 0 && rate <= MAX_FX))
		rc = yr_fail(&c->y, e.val->start_mark,
		             "exchange rate %g for %s is out of range; give units of %s per "
		             "USD, above 0",
		             rate, code, code);
	if (rc == PLANNER_OK && !strcmp(code, "USD") && rate != 1)
		rc = yr_fail(&c->y, e.val->start_mark,
		             "fx gives USD a rate of %g; remove it (USD is always 1)", rate);
	if (rc != PLANNER_OK)
		return rc;
	memcpy(sp->fx[sp->n_fx].code, code, sizeof code);
	sp->fx[sp->n_fx].per_usd = rate;
	sp->n_fx++;
	return PLANNER_OK;
}

static int read_fx(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	struct ctx *c = r->c;
	yaml_node_t *m = kv->val;
	if (yr_is_null(m))
		return PLANNER_OK;
	if (yr_is_text(m) && !strcmp(yr_sval(m), "auto")) {
		c->spec->fx_auto = true;
		return PLANNER_OK;
	}
	if (m->type != YAML_MAPPING_NODE)
		return yr_fail(&c->y, m->start_mark,
		               "'fx' must be auto or a mapping of currency to units per USD, got %s; "
		               "write e.g. fx: auto or fx: {EUR: 0.92}",
		               yr_describe(m, d, sizeof d));
	size_t n = yr_map_len(m);
	if (n > MAX_FX_ENTRIES)
		return yr_fail(&c->y, m->start_mark,
		               "'fx' has %zu entries; list only the currencies you use", n);
	if (n && !(c->spec->fx = calloc(n, sizeof *c->spec->fx)))
		return yr_oom(&c->y);
	for (size_t i = 0; i < n; i++) {
		int rc = read_rate(c, m, &m->data.mapping.pairs.start[i]);
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

/* country: an ISO 3166 code the reference data knows (schema/countries.json). */
static int read_country(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char *code = NULL, codes[256], hint[384];
	int rc = yr_get_str(&r->c->y, kv, r->where, k->example, &code);
	if (rc != PLANNER_OK)
		return rc;
	const struct refdata *ref = r->c->ref;
	r->c->spec->country = refdata_country(ref, code);
	if (!r->c->spec->country)
		rc = yr_fail(&r->c->y, kv->val->start_mark,
		             "unknown country '%s'; %s (the ISO 3166 codes with published prices), "
		             "or leave country: out and set currency, fx, electricity_per_kwh and "
		             "timezone yourself",
		             code,
		             near_miss_text(code, refdata_country_codes(ref, codes, sizeof codes),
		                            hint, sizeof hint));
	free(code);
	return rc;
}

const char *const spec_country_use_names[SPEC_N_COUNTRY_USE] = {
    [COUNTRY_BUSINESS] = "business",
    [COUNTRY_HOUSEHOLD] = "household",
};

const char *const spec_commit_names[SPEC_N_COMMIT] = {
    [COMMIT_NONE] = "none",
    [COMMIT_1Y] = "1y",
    [COMMIT_3Y] = "3y",
};

/* After country and country_use: the country's currency and time zone
 * where the spec gives none. A country of several zones needs timezone:. */
static int apply_country(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct jobspec *sp = r->c->spec;
	const struct country *c = sp->country;
	if (!c) {
		if (kv->val)
			return yr_fail(&r->c->y, kv->val->start_mark,
			               "country_use says whose electricity price a country gives, but "
			               "there is no country:; add e.g. country: NL, or remove it");
		return PLANNER_OK;
	}
	if (!spec_val(r, "currency")->val) {
		memcpy(sp->currency, c->currency, sizeof c->currency);
		sp->currency_from_country = true;
	}
	if (spec_val(r, "timezone")->val)
		return PLANNER_OK;
	if (c->n_zones > 1) {
		char zones[512];
		size_t at = 0;
		zones[0] = '\0';
		for (size_t i = 0; i < c->n_zones && at < sizeof zones; i++)
			at += (size_t)snprintf(zones + at, sizeof zones - at, "%s%s", i ? ", " : "",
			                       c->zones[i]);
		return yr_fail(&r->c->y, spec_val(r, "country")->val->start_mark,
		               "country %s spans several time zones; add timezone: with yours (%s)",
		               c->code, zones);
	}
	char *tz = strdup(c->zones[0]);
	if (!tz)
		return yr_oom(&r->c->y);
	free(sp->timezone);
	sp->timezone = tz;
	sp->timezone_from_country = true;
	return PLANNER_OK;
}

/* Units of code per USD: the spec's fx, else the reference rates; false
 * when neither has it. */
static bool rate_of(const struct spec_rd *r, const char *code, double *per_usd)
{
	const struct jobspec *sp = r->c->spec;
	if (!strcmp(code, "USD")) {
		*per_usd = 1;
		return true;
	}
	for (size_t i = 0; i < sp->n_fx; i++)
		if (!strcmp(sp->fx[i].code, code)) {
			*per_usd = sp->fx[i].per_usd;
			return true;
		}
	return fx_per_usd(r->c->ref ? r->c->ref->fx : NULL, code, per_usd);
}

/* The default electricity price in the spec's currency: the country's
 * (business or household), else JOBSPEC_DEFAULT_ELECTRICITY_USD. */
static int default_electricity(struct spec_rd *r)
{
	struct jobspec *sp = r->c->spec;
	sp->electricity_default = true;
	if (!sp->country) {
		sp->electricity_per_kwh = JOBSPEC_DEFAULT_ELECTRICITY_USD * sp->usd_to_currency;
		return PLANNER_OK;
	}
	const struct country_price *p = jobspec_country_price(sp);
	double per_usd = 1;
	if (!strcmp(p->currency, sp->currency)) {
		sp->electricity_per_kwh = p->per_kwh;
		return PLANNER_OK;
	}
	if (!rate_of(r, p->currency, &per_usd))
		return yr_fail(&r->c->y, spec_val(r, "country")->val->start_mark,
		               "country %s's electricity price is in %s, which has no exchange rate "
		               "here; add fx: auto, or set electricity_per_kwh",
		               sp->country->code, p->currency);
	sp->electricity_per_kwh = p->per_kwh / per_usd * sp->usd_to_currency;
	return PLANNER_OK;
}

/* After fx, with or without it: the rate of `currency`, and the default
 * electricity price converted with it. A currency that comes from
 * country: with no fx: takes fx: auto. */
static int resolve_currency(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct jobspec *sp = r->c->spec;
	const struct keyed *cur = spec_val(r, "currency");
	/* Where a currency error points: its key, else the country that chose it. */
	const yaml_node_t *at = cur->val ? cur->val : spec_val(r, "country")->val;
	const char *why = cur->val ? "" : " (the currency of country:)";
	sp->usd_to_currency = 0;
	if (!strcmp(sp->currency, "USD"))
		sp->usd_to_currency = 1;
	for (size_t i = 0; i < sp->n_fx; i++)
		if (!strcmp(sp->fx[i].code, sp->currency))
			sp->usd_to_currency = sp->fx[i].per_usd;
	if (sp->usd_to_currency == 0 && sp->currency_from_country && !kv->val) {
		sp->fx_auto = true;
		sp->fx_from_country = true;
	}
	const struct fx_table *ref_fx = r->c->ref ? r->c->ref->fx : NULL;
	if (sp->usd_to_currency == 0 && sp->fx_auto && at &&
	    !fx_per_usd(ref_fx, sp->currency, &sp->usd_to_currency))
		return yr_fail(&r->c->y, at->start_mark,
		               "currency %s%s has no ECB reference rate (%s), so fx: auto cannot "
		               "price it; give fx: {%s: RATE}, the units of %s per USD",
		               sp->currency, why, ref_fx && ref_fx->as_of[0] ? ref_fx->as_of : "none",
		               sp->currency, sp->currency);
	/* Only a currency the file names can lack a rate (USD is the default). */
	if (sp->usd_to_currency == 0 && at)
		return yr_fail(
		    &r->c->y, at->start_mark,
		    "currency %s%s has no exchange rate; add fx: auto (the ECB's rates) or "
		    "fx: {%s: RATE}, the units of %s per USD",
		    sp->currency, why, sp->currency, sp->currency);
	return default_electricity(r);
}

/* Longest spec name: a title, as a job's name is a label (spec_job.c). */
#define MAX_SPEC_NAME_LEN 128

static int check_spec_name(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	/* Control characters are the reader's to refuse (yr_get_text). */
	char d[64];
	const char *name = r->c->spec->name;
	if (*name && strlen(name) <= MAX_SPEC_NAME_LEN)
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "name %s is empty or too long; give the spec a one-line title of up to %d "
	               "characters",
	               yr_describe(kv->val, d, sizeof d), MAX_SPEC_NAME_LEN);
}

static int electricity_given(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	r->c->spec->electricity_default = false;
	return PLANNER_OK;
}

static int buy_given(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	r->c->spec->has_buy = true;
	return PLANNER_OK;
}

/* ---- owned, buy, quotes -------------------------------------------------- */

/* watts not given: the reference board power, which must be known. `gpu`
 * is the entry's GPU, `watts` its field. */
static int default_watts(struct spec_rd *r, const struct gpu_spec *gpu, double *watts,
                         const struct keyed *kv)
{
	if (kv->val)
		return PLANNER_OK;
	*watts = gpu->watts;
	if (*watts > 0)
		return PLANNER_OK;
	return yr_fail(&r->c->y, r->map->start_mark,
	               "the reference data has no power figure for %s; add watts: "
	               "(board power per GPU)",
	               gpu->name);
}

static int owned_watts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct owned_gpu *o = r->target;
	return default_watts(r, o->gpu, &o->watts, kv);
}

static int buy_watts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct buy_option *b = r->target;
	return default_watts(r, b->gpu, &b->watts, kv);
}

/* price not given: the reference price, converted, which must be known. */
static int buy_price(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct buy_option *b = r->target;
	if (kv->val)
		return PLANNER_OK;
	if (b->gpu->price_usd > 0) {
		b->price = b->gpu->price_usd * r->c->spec->usd_to_currency;
		return PLANNER_OK;
	}
	return yr_fail(&r->c->y, r->map->start_mark,
	               "%s has no 'price' and the reference data has "
	               "none for %s; add e.g. price: 2400",
	               r->who, b->gpu->name);
}

#define GPU_DESC "The GPU model; unknown names suggest the nearest known one"
/* What owned: and buy: add: a Mac or a CPU box (local_device.h). */
#define LOCAL_DESC                                                                                 \
	"; a Mac, Strix Halo or CPU box `planner gpus` lists is one machine running llama.cpp "    \
	"jobs, its own host (costs.host adds nothing to it)"

static const struct spec_key owned_keys[] = {
    {.name = "gpu",
     .kind = SPEC_GPU,
     .offset = offsetof(struct owned_gpu, gpu),
     .flags = SPEC_REQUIRED,
     .example = "gpu: RTX 4090",
     .desc = GPU_DESC LOCAL_DESC "."},
    {.name = "count",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct owned_gpu, count),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_GPU_COUNT,
     .has_def = true,
     .def = 1,
     .example = "count: 2",
     .desc = "How many of these GPUs you have; of a Mac or CPU box, machines, each running "
             "its own copy of the model."},
    {.name = "watts",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct owned_gpu, watts),
     .lo = 1,
     .hi = JOBSPEC_MAX_WATTS,
     .flags = SPEC_ALWAYS,
     .check = owned_watts,
     .def_text = "the GPU's reference board power",
     .example = "watts: 450",
     .type = "number, watts per GPU",
     .desc = "Power one GPU draws under load; with pue and electricity_per_kwh it prices the "
             "hours it runs."},
    SPEC_IDLE_WATTS_ROW(struct owned_gpu),
    SPEC_MEMORY_GIB_ROW(struct owned_gpu),
};

static const struct spec_table owned_table = {
    .intro = "GPUs already on hand. Their purchase is sunk: only their power is paid.",
    .keys = owned_keys,
    .n = NELEM(owned_keys),
    .what = "owned entry",
    .example = "{gpu: RTX 4090, count: 2}",
    .size = sizeof(struct owned_gpu),
    .pos_offset = offsetof(struct owned_gpu, pos),
    .done = spec_owned_done,
};

static const struct spec_key buy_keys[] = {
    {.name = "gpu",
     .kind = SPEC_GPU,
     .offset = offsetof(struct buy_option, gpu),
     .flags = SPEC_REQUIRED,
     .example = "gpu: RTX 5090",
     .desc = GPU_DESC LOCAL_DESC "."},
    {.name = "price",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct buy_option, price),
     .lo = 0,
     .hi = SPEC_MAX_PRICE_USD,
     .flags = SPEC_FX | SPEC_ALWAYS,
     .zero = "give the purchase price per GPU, or list GPUs you already have under 'owned'",
     .check = buy_price,
     .def_text = "the reference price, converted to currency",
     .example = "price: 2400",
     .type = "number, currency per GPU",
     .desc = "Purchase price of one GPU (a Mac or CPU box: the whole machine; the reference "
             "price is its base configuration's, so give price: for more memory), spread over "
             "amortize_months."},
    {.name = "watts",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct buy_option, watts),
     .lo = 1,
     .hi = JOBSPEC_MAX_WATTS,
     .flags = SPEC_ALWAYS,
     .check = buy_watts,
     .def_text = "the GPU's reference board power",
     .example = "watts: 575",
     .type = "number, watts per GPU",
     .desc = "Power one GPU draws under load."},
    {.name = "max_count",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct buy_option, max_count),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_GPU_COUNT,
     .has_def = true,
     .def = JOBSPEC_DEFAULT_MAX_BUY,
     .example = "max_count: 4",
     .desc = "Most GPUs of this kind the planner may propose buying."},
    SPEC_IDLE_WATTS_ROW(struct buy_option),
    SPEC_MEMORY_GIB_ROW(struct buy_option),
};

static const struct spec_table buy_table = {
    .intro = "GPUs you would consider buying. Without `buy:` every GPU with a reference "
             "price is considered; `buy: []` considers none.",
    .keys = buy_keys,
    .n = NELEM(buy_keys),
    .what = "buy entry",
    .example = "{gpu: RTX 5090, price: 2400}",
    .size = sizeof(struct buy_option),
    .pos_offset = offsetof(struct buy_option, pos),
    .done = spec_buy_done,
};

static const struct spec_key quote_keys[] = {
    {.name = "provider",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct quote, provider),
     .flags = SPEC_REQUIRED | SPEC_LOWER,
     .example = "provider: acme",
     .desc = "Who quoted the price; any name, lower-cased."},
    {.name = "gpu",
     .kind = SPEC_GPU,
     .offset = offsetof(struct quote, gpu),
     .flags = SPEC_REQUIRED,
     .example = "gpu: H100 SXM",
     .desc = GPU_DESC "."},
    {.name = "count",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct quote, count),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_GPU_COUNT,
     .has_def = true,
     .def = 1,
     .example = "count: 8",
     .desc = "GPUs in the quoted instance."},
    {.name = "price_per_hour",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct quote, price_per_hour),
     .lo = 0,
     .hi = MAX_PRICE_PER_HOUR_USD,
     .flags = SPEC_REQUIRED | SPEC_FX,
     .zero = "give the quoted price for the whole instance",
     .example = "price_per_hour: 2.0",
     .type = "number, currency per hour",
     .desc = "Price of the whole instance (all count GPUs) per hour, in currency."},
    {.name = "spot",
     .kind = SPEC_BOOL,
     .offset = offsetof(struct quote, spot),
     .def_text = "false",
     .example = "spot: false",
     .desc = "The instance can be interrupted; only interruptible jobs may use it."},
};

static const struct spec_table quote_table = {
    .intro = "Prices offered to you directly (a colo, a reseller), used beside the providers' "
             "public offers.",
    .keys = quote_keys,
    .n = NELEM(quote_keys),
    .what = "quote",
    .example = "{provider: acme, gpu: H100 SXM, price_per_hour: 2.0}",
    .size = sizeof(struct quote),
    .pos_offset = offsetof(struct quote, pos),
    .required_first = true,
};

int spec_check_regions(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char **list = *(char ***)spec_field(r, k);
	size_t n = *(size_t *)((char *)r->target + k->count_offset);
	yaml_node_t *an = kv->val;
	if (n == 0)
		return yr_fail(&r->c->y, an->start_mark,
		               "'regions' %s is empty; list e.g. [eu], or remove it to allow "
		               "anywhere",
		               r->where);
	for (size_t i = 0; i < n; i++) {
		if (list[i] && regions_known(list[i]))
			continue;
		yaml_node_t *at =
		    an->type == YAML_SEQUENCE_NODE
		        ? yaml_document_get_node(&r->c->y.doc, an->data.sequence.items.start[i])
		        : an;
		char hint[384];
		return yr_fail(
		    &r->c->y, at->start_mark,
		    "unknown region '%s' %s; %s (the groups), a country code (de) or a "
		    "provider's region name (eu-central-1)",
		    list[i] ? list[i] : "", r->where,
		    near_miss_text(list[i] ? list[i] : "", REGIONS_GROUPS, hint, sizeof hint));
	}
	return PLANNER_OK;
}

#define COUNTRY_DESC                                                                               \
	"Where you are, for defaults only (it never limits where data or work may go; that is "  \
	"regions): the country's currency with fx: auto (unless currency or fx is given), its "  \
	"electricity price (Eurostat's for a European country, the EIA's for the US, as "        \
	"country_use says; unless electricity_per_kwh is given) and its time zone (unless "      \
	"timezone is given; a country of several zones needs it). The defaults used are said "   \
	"once in the notes."

static const struct spec_key top_keys[] = {
    {.name = "version",
     .kind = SPEC_CUSTOM,
     .read = read_version,
     .offset = offsetof(struct jobspec, version),
     .store = STORE_INT,
     .has_def = true,
     .def = 1,
     .example = "version: 1",
     .type = "number",
     .bounds = "1",
     .desc = "Version of the spec format; this planner reads 1."},
    {.name = "name",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct jobspec, name),
     .check = check_spec_name,
     .example = "name: platform team",
     .bounds = "1 to 128 characters, no control characters",
     .desc = "Title of the plan: the report's heading and title (without it, the file's "
             "name without its directories)."},
    {.name = "country",
     .kind = SPEC_CUSTOM,
     .read = read_country,
     .def_text = "none",
     .example = "country: NL",
     .type = "text, ISO 3166 code",
     .bounds = "a country of schema/countries.json (the EU's, NO, LI, US)",
     .desc = COUNTRY_DESC},
    {.name = "country_use",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct jobspec, country_use),
     .store = STORE_INT,
     .names = spec_country_use_names,
     .n_names = SPEC_N_COUNTRY_USE,
     .flags = SPEC_ALWAYS,
     .check = apply_country,
     .def_text = "business",
     .example = "country_use: household",
     .desc = "Whose electricity price country: gives: business (Eurostat's non-household "
             "price, 500-2000 MWh a year, without VAT; the EIA's commercial average) or "
             "household (Eurostat's household price, 2500-5000 kWh a year, all taxes; the "
             "EIA's residential average)."},
    {.name = "currency",
     .kind = SPEC_CUSTOM,
     .read = read_currency,
     .offset = offsetof(struct jobspec, currency),
     .def_text = "USD, or the currency of country:",
     .example = "currency: EUR",
     .type = "text, ISO 4217 code",
     .bounds = "3 letters, with a rate in fx unless USD",
     .desc = "Currency of every price in the spec and in the output; provider prices (each "
             "in the currency it is published in, mostly USD) are converted with fx."},
    {.name = "fx",
     .kind = SPEC_CUSTOM,
     .read = read_fx,
     .flags = SPEC_ALWAYS,
     .check = resolve_currency,
     .def_text = "none (USD is always 1); auto when the currency comes from country:",
     .example = "fx: auto",
     .type = "auto, or a mapping of currency code to number",
     .bounds = "rates above 0, at most 1e+07",
     .desc = "Exchange rates: units of each currency per USD; auto takes the ECB's daily "
             "reference rates that `planner refresh` stores (before a refresh, the bundled "
             "snapshot's), for every pair through EUR. Offers published in another currency "
             "(EUR at Scaleway, OVHcloud) are converted with these rates when a plan is "
             "priced; the footer of compare names the rates and their date."},
    {.name = "discounts",
     .kind = SPEC_CUSTOM,
     .read = spec_read_discounts,
     .def_text = "none",
     .example = "discounts: {aws: 20%, lambda: 10%}",
     .type = "mapping of rented provider to percent",
     .bounds = "0 to below 100 percent; at most 16 providers",
     .desc = "Negotiated rates: the share taken off each provider's on-demand list prices "
             "when a plan is priced (compare, fleet and the rest). Spot prices and "
             "commitments (offers --term) are not list prices and keep theirs."},
    {.name = "commit",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct jobspec, commit),
     .store = STORE_INT,
     .names = spec_commit_names,
     .n_names = SPEC_N_COMMIT,
     .def = COMMIT_3Y,
     .has_def = true,
     .def_text = "3y",
     .example = "commit: 1y",
     .desc = "The longest commitment the rented route weighs against on-demand prices: a "
             "1- or 3-year reserved, savings-plan or committed-use price the store holds "
             "(offers --term) is a fixed month for its instances (effective hourly price x "
             "730 h), chosen only when the job's hours make it cheaper; none refuses "
             "commitments (or --set commit=none)."},
    {.name = "timezone",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct jobspec, timezone),
     .check = spec_check_timezone,
     .def_text = "UTC",
     .example = "timezone: Europe/Amsterdam",
     .type = "text, IANA zone name",
     .bounds = "UTC or a zone under $TZDIR (/usr/share/zoneinfo), not right/…",
     .desc = "Zone the schedule windows and days are read in; without it, the zone of "
             "country: when it has one."},
    {.name = "electricity_per_kwh",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct jobspec, electricity_per_kwh),
     .lo = 0,
     .hi = MAX_ELECTRICITY_USD,
     .flags = SPEC_FX,
     .check = electricity_given,
     .def_text = "the price of country: (see country_use), else 0.16 USD (EIA 2023 US "
                 "residential average), converted to currency",
     .example = "electricity_per_kwh: 0.30",
     .type = "number, currency per kWh",
     .desc = "Price of electricity for owned and bought GPUs. Without it, the default is "
             "used and said once in the notes of a plan that draws power."},
    {.name = "pue",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct jobspec, pue),
     .lo = 1.0,
     .hi = MAX_PUE,
     .has_def = true,
     .def = 1.0,
     .example = "pue: 1.2",
     .desc = "Power usage effectiveness: the GPUs' power is multiplied by it for cooling and "
             "the rest of the machine."},
    {.name = "amortize_months",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct jobspec, amortize_months),
     .store = STORE_DOUBLE,
     .lo = 1,
     .hi = MAX_AMORTIZE_MONTHS,
     .has_def = true,
     .def = DEFAULT_AMORTIZE,
     .example = "amortize_months: 36",
     .type = "whole number, months",
     .desc = "Months a purchase is spread over when it is compared with renting."},
    {.name = "costs",
     .kind = SPEC_MAP,
     .sub = &spec_costs,
     .offset = offsetof(struct jobspec, costs),
     .flags = SPEC_NULL_OK,
     .def_text = "none: no host, resale, capital, maintenance or setup cost",
     .example = "costs: {host: {price: 3000, watts: 250}, resale_percent: 30}",
     .desc = "What owning costs beside the GPUs and their power (see costs)."},
    {.name = "cluster",
     .kind = SPEC_MAP,
     .sub = &spec_cluster,
     .offset = offsetof(struct jobspec, cluster),
     .flags = SPEC_NULL_OK,
     .def_text = "none: the exports' own names (GRES types from the GPU names)",
     .example = "cluster: {gres: {\"A100 80GB\": a100}, partition: gpu, namespace: inference}",
     .desc = "How the Slurm and Kubernetes exports name things on your cluster (see "
             "cluster)."},
    SPEC_GROWTH_ROW(struct jobspec, 0, "0",
                    "How much every job's volume (tokens, or hours) grows each month, "
                    "compounded; a job's own growth replaces it."),
    SPEC_HORIZON_ROW,
    {.name = "providers",
     .kind = SPEC_LIST,
     .offset = offsetof(struct jobspec, providers),
     .count_offset = offsetof(struct jobspec, n_providers),
     .flags = SPEC_NULL_OK | SPEC_LOWER,
     .def_text = "every provider",
     .example = "providers: [lambda, runpod]",
     .bounds = "GPU adapters (planner providers) or a quote's provider",
     .desc = "Rent only from these providers (names as `planner providers` lists them, "
             "lower-cased)."},
    {.name = "gpus",
     .kind = SPEC_ENTRIES,
     .sub = &spec_gpu_table,
     .offset = offsetof(struct jobspec, gpus),
     .count_offset = offsetof(struct jobspec, n_gpus),
     .def_text = "none",
     .example = "gpus: [{name: My RTX 3060, vram_gib: 12, bandwidth_gbs: 360, fp16_tflops: 25.6, "
                "watts: 170}]",
     .desc = "Cards planner does not know (see gpus[]); owned: and buy: entries may name them."},
    {.name = "regions",
     .kind = SPEC_LIST,
     .offset = offsetof(struct jobspec, regions),
     .count_offset = offsetof(struct jobspec, n_regions),
     .flags = SPEC_LOWER,
     .check = spec_check_regions,
     .def_text = "anywhere",
     .example = "regions: [eu]",
     .type = "text or list of text",
     .bounds = "eu, europe, us, americas, asia, oceania, mideast, africa, a country code "
               "(de) or a provider's region name (eu-central-1)",
     .desc = "Rent only offers located there and use only API hosts that process data there "
             "(offers and hosts of unknown location are left out). A job's own regions "
             "replace these."},
    {.name = "owned",
     .kind = SPEC_ENTRIES,
     .sub = &owned_table,
     .offset = offsetof(struct jobspec, owned),
     .count_offset = offsetof(struct jobspec, n_owned),
     .def_text = "none",
     .example = "owned: [{gpu: RTX 4090, count: 2}]",
     .desc = "GPUs you already have (see owned[])."},
    {.name = "buy",
     .kind = SPEC_ENTRIES,
     .sub = &buy_table,
     .offset = offsetof(struct jobspec, buy),
     .count_offset = offsetof(struct jobspec, n_buy),
     .check = buy_given,
     .def_text = "every GPU with a reference price",
     .example = "buy: [{gpu: RTX 5090, price: 2400}]",
     .desc = "GPUs you would consider buying (see buy[])."},
    {.name = "quotes",
     .kind = SPEC_ENTRIES,
     .sub = &quote_table,
     .offset = offsetof(struct jobspec, quotes),
     .count_offset = offsetof(struct jobspec, n_quotes),
     .flags = SPEC_ALWAYS,
     .check = spec_check_providers,
     .def_text = "none",
     .example = "quotes: [{provider: acme, gpu: H100 SXM, price_per_hour: 2.0}]",
     .desc = "Prices quoted to you directly (see quotes[])."},
    {.name = "measurements",
     .kind = SPEC_ENTRIES,
     .sub = &spec_measurement,
     .offset = offsetof(struct jobspec, measurements),
     .count_offset = offsetof(struct jobspec, n_measurements),
     .def_text = "none",
     .example = "measurements: [{file: bench/vllm-h100.json, gpu: H100 SXM, engine: vllm}]",
     .desc = "Benchmark results that replace the estimate where they match (see "
             "measurements[])."},
    {.name = "jobs",
     .kind = SPEC_ENTRIES,
     .sub = &spec_job,
     .offset = offsetof(struct jobspec, jobs),
     .count_offset = offsetof(struct jobspec, n_jobs),
     .flags = SPEC_REQUIRED,
     .missing = "no 'jobs' list; add 'jobs:' with at least one job "
                "(name, model, hours_per_month or tokens_per_month)",
     .zero = "add at least one job with a name, a model and hours_per_month or "
             "tokens_per_month",
     .example = "jobs: [{name: bot, model: llama-3.1-8b, hours_per_month: 300}]",
     .desc = "The workloads to place, at least one (see jobs[])."},
};

/* Defaults that depend on fx are set again once it is read (resolve_currency). */
static void top_init(void *target)
{
	struct jobspec *sp = target;
	memcpy(sp->currency, "USD", 4);
	sp->usd_to_currency = 1;
	sp->electricity_per_kwh = JOBSPEC_DEFAULT_ELECTRICITY_USD;
	sp->electricity_default = true;
}

_Static_assert(NELEM(owned_keys) <= SPEC_MAX_KEYS, "owned_keys: raise SPEC_MAX_KEYS");
_Static_assert(NELEM(buy_keys) <= SPEC_MAX_KEYS, "buy_keys: raise SPEC_MAX_KEYS");
_Static_assert(NELEM(quote_keys) <= SPEC_MAX_KEYS, "quote_keys: raise SPEC_MAX_KEYS");
_Static_assert(NELEM(top_keys) <= SPEC_MAX_KEYS, "top_keys: raise SPEC_MAX_KEYS");

const struct spec_table spec_top = {
    .intro = "Settings for the whole spec, and the lists below.",
    .keys = top_keys,
    .n = NELEM(top_keys),
    .where = "at the top level",
    .init = top_init,
};
