/* fx.c — exchange rates through EUR (see fx.h). */
#include "fx.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
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

bool fx_rate(const struct fx_table *t, const char *from, const char *to, double *out)
{
	double f, x;
	if (!strcmp(from, to)) {
		*out = 1;
		return true;
	}
	if (!fx_per_eur(t, from, &f) || !fx_per_eur(t, to, &x) || !(f > 0))
		return false;
	*out = x / f;
	return true;
}

void fx_note_add(char *note, size_t len, const char *from, const char *to, double rate)
{
	char pair[64];
	snprintf(pair, sizeof pair, "1 %s = %.4g %s", from, rate, to);
	if (strstr(note, pair))
		return;
	size_t n = strlen(note);
	if (n < len)
		snprintf(note + n, len - n, "%s%s", n ? ", " : "", pair);
}

void fx_note_date(char *note, size_t len, const struct fx_table *t)
{
	size_t n = strlen(note);
	if (n && n < len && t && t->as_of[0])
		snprintf(note + n, len - n, ", ECB %s", t->as_of);
}

int fx_offer_order(const void *pa, const void *pb)
{
	const struct offer *a = pa, *b = pb;
	int c;
	if (a->price_per_hour != b->price_per_hour)
		return a->price_per_hour < b->price_per_hour ? -1 : 1;
	if ((c = strcmp(a->provider, b->provider)) || (c = strcmp(a->offer, b->offer)) ||
	    (c = strcmp(a->region, b->region)))
		return c;
	return (int)a->spot - (int)b->spot;
}

/* The rate from `cur` ("" is USD) to `to`, noted when it is not 1:1. */
static bool rate_noted(const struct fx_table *t, const char *cur, const char *to, double *rate,
                       char *note, size_t len)
{
	const char *from = cur[0] ? cur : "USD";
	if (!fx_rate(t, from, to, rate))
		return false;
	if (strcmp(from, to))
		fx_note_add(note, len, from, to, *rate);
	return true;
}

void fx_convert_offers(const struct fx_table *t, const char *to, struct offer *o, size_t *n,
                       char *note, size_t len, size_t *dropped)
{
	size_t w = 0;
	size_t noted = strlen(note);
	for (size_t i = 0; i < *n; i++) {
		double rate;
		if (!rate_noted(t, o[i].currency, to, &rate, note, len)) {
			(*dropped)++;
			continue;
		}
		o[w] = o[i];
		o[w].price_published = o[i].price_per_hour;
		snprintf(o[w].currency_published, sizeof o[w].currency_published, "%s",
		         o[i].currency[0] ? o[i].currency : "USD");
		o[w].price_per_hour *= rate;
		snprintf(o[w].currency, sizeof o[w].currency, "%s", to);
		w++;
	}
	*n = w;
	if (strlen(note) != noted)
		fx_note_date(note, len, t);
	fx_sort_offers(o, w);
}

void fx_sort_offers(struct offer *o, size_t n)
{
	if (n > 1)
		qsort(o, n, sizeof *o, fx_offer_order);
}

void fx_convert_points(const struct fx_table *t, const char *to, struct price_point *p,
                       size_t *n, char *note, size_t len, size_t *dropped)
{
	size_t w = 0;
	size_t noted = strlen(note);
	for (size_t i = 0; i < *n; i++) {
		double rate;
		if (!rate_noted(t, p[i].currency, to, &rate, note, len)) {
			(*dropped)++;
			continue;
		}
		p[w] = p[i];
		p[w].price_per_hour *= rate;
		snprintf(p[w].currency, sizeof p[w].currency, "%s", to);
		w++;
	}
	*n = w;
	if (strlen(note) != noted)
		fx_note_date(note, len, t);
}

bool fx_convert_point(const struct fx_table *t, const char *to, struct price_point *p,
                      char *note, size_t len)
{
	double rate;
	if (!rate_noted(t, p->currency, to, &rate, note, len))
		return false;
	p->price_per_hour *= rate;
	if (strcmp(p->currency, to)) /* most rows are in `to` already */
		snprintf(p->currency, sizeof p->currency, "%s", to);
	return true;
}
