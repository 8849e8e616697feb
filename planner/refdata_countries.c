/* refdata_countries.c — the countries of the reference data
 * (schema/countries.json): each one's currency, time zones and
 * electricity prices for a business and a household, with the source and
 * period of every price. A job spec's country: reads them (spec_keys.c). */
#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refdata.h"
#include "util.h"

/* Copies a string field of at most len-1 characters into dst; false when
 * it is missing or longer. */
static bool copy_code(const cJSON *o, const char *name, char *dst, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!cJSON_IsString(v) || !v->valuestring || strlen(v->valuestring) != len - 1)
		return false;
	memcpy(dst, v->valuestring, len);
	return true;
}

static char *dup_field(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) && v->valuestring ? strdup(v->valuestring) : NULL;
}

/* One price: its figure, currency, period, and the label and citation of
 * the entry its "source" key names in the file's sources. */
static int load_price(const cJSON *row, const char *which, const cJSON *sources,
                      struct country_price *p, const char *code, char **err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(row, which);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "per_kwh");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
	const cJSON *cite = cJSON_IsString(src)
	                        ? cJSON_GetObjectItemCaseSensitive(sources, src->valuestring)
	                        : NULL;
	p->per_kwh = cJSON_IsNumber(v) ? v->valuedouble : 0;
	p->period = dup_field(o, "period");
	p->label = dup_field(cite, "label");
	p->source = dup_field(cite, "citation");
	if (!(p->per_kwh > 0) || !copy_code(o, "currency", p->currency, sizeof p->currency) ||
	    !p->period || !p->label || !p->source)
		return set_err(err, PLANNER_EINPUT,
		               "embedded countries.json: %s %s needs per_kwh above 0, a currency, a "
		               "period and a source listed in sources",
		               code, which);
	return PLANNER_OK;
}

static int load_country(const cJSON *row, const cJSON *sources, struct country *c, char **err)
{
	const cJSON *zones = cJSON_GetObjectItemCaseSensitive(row, "timezones");
	bool ok = copy_code(row, "code", c->code, sizeof c->code);
	const char *code = ok ? c->code : "a row";
	c->name = dup_field(row, "name");
	ok = ok && c->name && copy_code(row, "currency", c->currency, sizeof c->currency) &&
	     cJSON_IsArray(zones) && cJSON_GetArraySize(zones) > 0;
	if (!ok)
		return set_err(err, PLANNER_EINPUT,
		               "embedded countries.json: %s needs a code, a name, a currency and "
		               "its time zones",
		               code);
	if (!(c->zones = calloc((size_t)cJSON_GetArraySize(zones), sizeof *c->zones)))
		return set_err(err, PLANNER_ESYS, "out of memory");
	const cJSON *z;
	cJSON_ArrayForEach(z, zones)
	{
		if (!cJSON_IsString(z) || !(c->zones[c->n_zones] = strdup(z->valuestring)))
			return set_err(err, PLANNER_EINPUT,
			               "embedded countries.json: %s has a time zone that is not text",
			               code);
		c->n_zones++;
	}
	int rc = load_price(row, "business", sources, &c->business, code, err);
	return rc ? rc : load_price(row, "household", sources, &c->household, code, err);
}

int refdata_load_countries(struct refdata *ref, char **err)
{
	cJSON *root = cJSON_Parse(planner_countries_json);
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "countries");
	const cJSON *sources = cJSON_GetObjectItemCaseSensitive(root, "sources");
	int rc = PLANNER_OK;
	if (!cJSON_IsArray(arr)) {
		rc = set_err(err, PLANNER_EINPUT, "embedded countries.json has no countries list");
		goto out;
	}
	ref->countries = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *ref->countries);
	if (!ref->countries) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		rc = load_country(it, sources, &ref->countries[ref->n_countries++], err);
		if (rc)
			goto out;
	}
out:
	cJSON_Delete(root);
	return rc;
}

static void price_clear(struct country_price *p)
{
	free(p->period);
	free(p->label);
	free(p->source);
}

void refdata_free_countries(struct refdata *ref)
{
	if (!ref)
		return;
	for (size_t i = 0; i < ref->n_countries; i++) {
		struct country *c = &ref->countries[i];
		for (size_t k = 0; k < c->n_zones; k++)
			free(c->zones[k]);
		free(c->zones);
		free(c->name);
		price_clear(&c->business);
		price_clear(&c->household);
	}
	free(ref->countries);
	ref->countries = NULL;
	ref->n_countries = 0;
}

const struct country *refdata_country(const struct refdata *ref, const char *code)
{
	if (!ref || !code || strlen(code) != 2)
		return NULL;
	for (size_t i = 0; i < ref->n_countries; i++)
		if (toupper((unsigned char)code[0]) == ref->countries[i].code[0] &&
		    toupper((unsigned char)code[1]) == ref->countries[i].code[1])
			return &ref->countries[i];
	return NULL;
}

char *refdata_country_codes(const struct refdata *ref, char *buf, size_t len)
{
	size_t at = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; ref && i < ref->n_countries && at < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", ref->countries[i].code);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	return buf;
}
