/* fx.c — exchange rates through EUR (see fx.h). */
#include "fx.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

bool fx_code_ok(const char *s)
{
	if (!s || strlen(s) != 3)
		return false;
	for (size_t i = 0; i < 3; i++)
		if (s[i] < 'A' || s[i] > 'Z')
			return false;
	return true;
}

bool fx_set(struct fx_table *t, const char *code, double per_eur)
{
	if (!fx_code_ok(code) || !isfinite(per_eur) || per_eur <= 0)
		return false;
	if (!strcmp(code, "EUR"))
		return per_eur == 1;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].code, code)) {
			t->r[i].per_eur = per_eur;
			return true;
		}
	if (t->n >= FX_MAX_RATES)
		return false;
	memcpy(t->r[t->n].code, code, 4);
	t->r[t->n].per_eur = per_eur;
	t->n++;
	return true;
}

bool fx_per_eur(const struct fx_table *t, const char *code, double *out)
{
	if (!strcmp(code, "EUR")) {
		*out = 1;
		return true;
	}
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->r[i].code, code)) {
			*out = t->r[i].per_eur;
			return true;
		}
	return false;
}

bool fx_per_usd(const struct fx_table *t, const char *code, double *out)
{
	double c, usd;
	if (!strcmp(code, "USD")) {
		*out = 1;
		return true;
	}
	if (!fx_per_eur(t, code, &c) || !fx_per_eur(t, "USD", &usd))
		return false;
	*out = c / usd;
	return true;
}

int fx_from_json(const char *json, struct fx_table *t, char **err)
{
	int rc = PLANNER_OK;
	cJSON *root = cJSON_Parse(json);
	const cJSON *fx = cJSON_GetObjectItemCaseSensitive(root, "fx");
	const cJSON *as_of = cJSON_GetObjectItemCaseSensitive(fx, "as_of");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(fx, "source");
	const cJSON *rates = cJSON_GetObjectItemCaseSensitive(fx, "per_eur");
	memset(t, 0, sizeof *t);
	if (!cJSON_IsString(as_of) || !cJSON_IsString(src) || !cJSON_IsObject(rates)) {
		rc = set_err(err, PLANNER_EINPUT, "snapshot fx: want as_of, source and per_eur");
		goto out;
	}
	snprintf(t->as_of, sizeof t->as_of, "%s", as_of->valuestring);
	snprintf(t->source, sizeof t->source, "%s", src->valuestring);
	const cJSON *it;
	cJSON_ArrayForEach(it, rates)
	{
		if (!cJSON_IsNumber(it) || !fx_set(t, it->string, it->valuedouble)) {
			rc = set_err(err, PLANNER_EINPUT, "snapshot fx: bad rate for %s",
			             it->string ? it->string : "?");
			goto out;
		}
	}
out:
	cJSON_Delete(root);
	return rc;
}
