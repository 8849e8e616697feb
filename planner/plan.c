/* plan.c — a plan: the offers and rates it reads once, each job priced on
 * every route of the list (route.h; the routes' own files price them) and
 * the break-even points (see plan.h and docs/estimation.md, "Cost"). */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "carbon.h"
#include "fx.h"
#include "offer_index.h"
#include "plan_cache.h"
#include "plan_mix.h"
#include "route_price.h"
#include "util.h"

void plan_job_ctx(const struct route_ctx *base, struct job_result *res, struct route_ctx *c)
{
	*c = *base; /* what every job of the plan shares */
	c->job = res->job;
	c->w = &res->work;
	c->res = res;
	c->shape = size_cache_shape(c->sizes, &res->work);
}

int plan_price_route(const struct route_ctx *c, size_t k, char **err)
{
	struct route_result *r = &c->res->routes[k];
	memset(r, 0, sizeof *r);
	r->route = (enum route)k;
	if (!workload_route_allowed(c->w, r->route, r->why, sizeof r->why))
		return PLANNER_OK;
	int rc = route_at(k)->price(c, r, err);
	if (rc == PLANNER_OK)
		carbon_route(c->spec, r);
	return rc;
}

void plan_job_finish(const struct route_ctx *c)
{
	struct job_result *res = c->res;
	const struct job *j = res->job;
	size_t n = route_count();
	res->best = -1;
	for (size_t k = 0; k < n; k++) {
		const struct route_result *r = &res->routes[k];
		if (!r->feasible)
			continue;
		const struct route_result *b = res->best < 0 ? NULL : &res->routes[res->best];
		if (!b || r->monthly_cost < b->monthly_cost ||
		    (r->monthly_cost == b->monthly_cost &&
		     route_at(k)->tie_rank < route_at((size_t)res->best)->tie_rank))
			res->best = (int)k;
	}
	/* The job's hours: given, else the best route's when it runs on GPUs,
	 * else the first GPU route that can run it (0 when none). */
	res->gpu_hours_per_month = 0;
	if (j->has_hours) {
		res->gpu_hours_per_month = j->hours_per_month;
	} else if (res->best >= 0 && route_has((enum route)res->best, ROUTE_ON_GPUS)) {
		res->gpu_hours_per_month = res->routes[res->best].gpu_hours;
	} else {
		for (size_t k = 0; k < n; k++)
			if (route_has((enum route)k, ROUTE_ON_GPUS) && res->routes[k].feasible) {
				res->gpu_hours_per_month = res->routes[k].gpu_hours;
				break;
			}
	}
	for (size_t i = 0; i < breakeven_count(); i++) {
		const struct breakeven_pair *bp = breakeven_at(i);
		res->be.value[i] =
		    bp->figure(bp, c->spec, res, res->be.note[i], sizeof res->be.note[i]);
	}
	for (size_t k = 0; k < n; k++) {
		struct route_result *r = &res->routes[k];
		double tokens = j->input_tokens + j->output_tokens;
		r->cost_per_mtok = r->feasible && j->has_tokens && tokens > 0
		                       ? r->monthly_cost / (tokens / 1e6)
		                       : NAN;
	}
}

/* Prices the job on every route of the list, picks the cheapest (on a
 * tie the lower tie_rank: less outside dependence) and its break-evens. */
static int price_job(const struct route_ctx *base, const struct job *j, struct job_result *res,
                     char **err)
{
	int rc;
	if ((rc = workload_init(&res->work, base->spec, j, err)))
		return rc;
	res->job = j;
	res->vram_gib = res->work.need.total_gib;
	struct route_ctx c;
	plan_job_ctx(base, res, &c);
	for (size_t k = 0; k < route_count(); k++)
		if ((rc = plan_price_route(&c, k, err)))
			return rc;
	plan_job_finish(&c);
	return PLANNER_OK;
}

/* Fills p->sources and p->prices_source from the providers holding rows:
 * a provider that never refreshed well (a failed first refresh leaves a
 * row with no prices) says nothing about where prices come from. */
static void note_sources(struct plan *p, const struct provider_state *provs, size_t n)
{
	size_t live = 0, snap = 0;
	for (size_t i = 0; i < n; i++) {
		if (provs[i].rows <= 0)
			continue;
		struct plan_source *s = &p->sources[p->n_sources++];
		snprintf(s->name, sizeof s->name, "%s", provs[i].name);
		s->live = !provs[i].from_snapshot && provs[i].last_good[0];
		if (s->live)
			snprintf(s->as_of, sizeof s->as_of, "%s", provs[i].last_good);
		live += s->live;
		snap += !s->live;
	}
	p->snapshot_only = live == 0;
	p->prices_source = live == 0 ? "snapshot" : snap == 0 ? "live" : "mixed";
}

const char *plan_provider_source(const struct plan *p, const char *provider)
{
	for (size_t i = 0; provider && i < p->n_sources; i++)
		if (!strcmp(p->sources[i].name, provider))
			return p->sources[i].live ? "live" : "snapshot";
	return "quote";
}

char *plan_snapshot_names(const struct plan *p, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < p->n_sources && used < len; i++)
		if (!p->sources[i].live)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 p->sources[i].name);
	return buf;
}

/* Rows dated more than this before the bundled snapshot's own as_of are
 * old (issue 29): schema/snapshot/build.py's STALE_DAYS reports the same
 * rows when it builds the snapshot. */
#define SNAPSHOT_STALE_DAYS 90

/* Whether the ", "-separated list holds item whole. */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *q = list; (q = strstr(q, item)); q += n)
		if ((q == list || q[-1] == ' ') && (!q[n] || q[n] == ','))
			return true;
	return false;
}

/* Fills p->old_rows with the provider and date of every bundled-snapshot
 * row a feasible route of the plan is priced with that is dated more than
 * SNAPSHOT_STALE_DAYS before as_of (the snapshot's, never the clock).
 * Rows from a refresh are the provider's own, whatever their date. */
static void note_old_rows(struct plan *p, const char *as_of)
{
	long long t = as_of ? iso_to_epoch(as_of) : -1;
	if (t < 0)
		return;
	time_t cut_t = (time_t)(t - (long long)SNAPSHOT_STALE_DAYS * 86400);
	struct tm tm;
	char cut[16];
	if (!gmtime_r(&cut_t, &tm) || !strftime(cut, sizeof cut, "%Y-%m-%d", &tm))
		return;
	snprintf(p->old_rows_as_of, sizeof p->old_rows_as_of, "%.10s", as_of);
	size_t used = 0;
	for (size_t i = 0; i < p->n_jobs; i++)
		for (size_t k = 0; k < route_count(); k++) {
			const struct route_result *r = &p->jobs[i].routes[k];
			if (!r->feasible || strlen(r->fetched_at) < 10 ||
			    strncmp(r->fetched_at, cut, 10) >= 0 ||
			    strcmp(plan_provider_source(p, r->provider), "snapshot"))
				continue;
			char item[96];
			snprintf(item, sizeof item, "%s %.10s", r->provider, r->fetched_at);
			if (list_has(p->old_rows, item) || used >= sizeof p->old_rows)
				continue;
			used += (size_t)snprintf(p->old_rows + used, sizeof p->old_rows - used,
			                         "%s%s", used ? ", " : "", item);
		}
}

/* Units of code per USD: the spec's own fx first, then the reference
 * rates (*from_ref says so). */
static bool per_usd(const struct jobspec *spec, const struct refdata *ref, const char *code,
		    double *out, bool *from_ref)
{
	*from_ref = false;
	if (!strcmp(code, spec->currency)) {
		*out = spec->usd_to_currency;
		*from_ref = spec->fx_auto && strcmp(code, "USD");
		return true;
	}
	for (size_t i = 0; i < spec->n_fx; i++)
		if (!strcmp(spec->fx[i].code, code)) {
			*out = spec->fx[i].per_usd;
			return true;
		}
	*from_ref = strcmp(code, "USD") != 0;
	return fx_per_usd(ref->fx, code, out);
}

/* Adds "1 X = r CUR" to the footer note once per currency X. */
static void note_rate(struct plan *p, const char *code, double rate)
{
	char pair[64];
	snprintf(pair, sizeof pair, "1 %s = %.4g %s", code, rate, p->currency);
	if (strstr(p->fx_note, pair))
		return;
	size_t n = strlen(p->fx_note);
	snprintf(p->fx_note + n, sizeof p->fx_note - n, "%s%s", n ? ", " : "", pair);
}

/* The factor that prices an offer in the spec's currency from the
 * currency it is published in: through USD with the spec's fx, else the
 * reference rates (refdata fx: the ECB's, through EUR; *ref_rate says
 * so). false when its currency has no rate: the offer is left out. */
static bool currency_rate(const struct jobspec *spec, const struct refdata *ref, const char *cur,
                          double *rate, bool *ref_rate)
{
	double from = 0;
	*rate = 1;
	*ref_rate = false;
	if (!strcmp(cur, spec->currency))
		return true;
	if (!per_usd(spec, ref, cur, &from, ref_rate) || !(from > 0))
		return false;
	*rate = spec->usd_to_currency / from;
	return true;
}

static bool offer_rate(const struct jobspec *spec, const struct refdata *ref, const struct offer *o,
                       double *rate, bool *ref_rate)
{
	return currency_rate(spec, ref, o->currency[0] ? o->currency : "USD", rate, ref_rate);
}

bool plan_currency_rate(const struct jobspec *spec, const struct refdata *ref, const char *cur,
                        double *rate)
{
	bool ref_rate;
	return currency_rate(spec, ref, cur && *cur ? cur : "USD", rate, &ref_rate);
}

/* Prices every offer in the spec's currency, in place, from the currency it
 * is published in (kept in price_published / currency_published): through
 * USD with the spec's fx, else the reference rates (refdata fx: the ECB's,
 * through EUR), noted in the order the currencies first appear. An offer
 * whose currency has no rate is left out and counted. */
void plan_convert_offers(const struct jobspec *spec, const struct refdata *ref, struct plan *p,
			 struct offer *o, size_t *n)
{
	size_t w = 0;
	bool used_ref = spec->fx_auto && strcmp(spec->currency, "USD");
	if (used_ref)
		note_rate(p, "USD", spec->usd_to_currency);
	for (size_t i = 0; i < *n; i++) {
		const char *cur = o[i].currency[0] ? o[i].currency : "USD";
		double rate;
		bool ref_rate;
		if (!offer_rate(spec, ref, &o[i], &rate, &ref_rate)) {
			p->fx_dropped++;
			continue;
		}
		if (ref_rate) {
			used_ref = true;
			note_rate(p, cur, rate);
		}
		o[w] = o[i];
		o[w].price_published = o[i].price_per_hour;
		snprintf(o[w].currency_published, sizeof o[w].currency_published, "%s", cur);
		o[w].price_per_hour *= rate;
		/* a negotiated rate: off the on-demand list price only */
		if (!o[w].spot)
			o[w].price_per_hour *= 1 - jobspec_discount(spec, o[w].provider);
		w++;
	}
	*n = w;
	if (used_ref && ref->fx && ref->fx->as_of[0]) {
		size_t k = strlen(p->fx_note);
		snprintf(p->fx_note + k, sizeof p->fx_note - k, ", ECB %s", ref->fx->as_of);
	}
}

/* The offers a plan reads: every row is counted when no rate converts it,
 * but only the cheapest of each kind is kept (offer_index.h): no other
 * can be chosen for any job. */
struct offer_load {
	const struct jobspec *spec;
	const struct refdata *ref;
	struct plan *p;
	struct offer_kinds kinds;
	struct offer *rows; /* rows[kind]: the kind's first in store_offers' order so far */
	size_t n, cap;
};

static int load_offer(void *ctx, const struct offer *o, char **err)
{
	struct offer_load *l = ctx;
	double rate;
	bool first, ref_rate;
	size_t kind;
	if (!offer_rate(l->spec, l->ref, o, &rate, &ref_rate)) {
		l->p->fx_dropped++;
		return PLANNER_OK;
	}
	int rc = offer_kinds_add(&l->kinds, o, &kind, &first, err);
	if (rc)
		return rc;
	if (!first) {
		if (fx_offer_order(o, &l->rows[kind]) < 0)
			l->rows[kind] = *o;
		return PLANNER_OK;
	}
	if (l->n == l->cap) {
		size_t more = l->cap ? l->cap * 2 : 256;
		struct offer *grown = realloc(l->rows, more * sizeof *grown);
		if (!grown)
			return set_err(err, PLANNER_ESYS, "out of memory");
		l->rows = grown;
		l->cap = more;
	}
	l->rows[l->n++] = *o;
	return PLANNER_OK;
}

/* Reads the available offers into *out (malloc'd), the cheapest of each kind
 * only, cheapest first and priced in the spec's currency; notes the exchange
 * rates used (in the order the currencies first appear) and the prices' dates. */
static int load_offers(struct store *st, const struct jobspec *spec, const struct refdata *ref,
		       struct plan *p, struct offer **out, size_t *n, char **err)
{
	struct offer_load l = {.spec = spec, .ref = ref, .p = p};
	int rc = store_offers_dated(st, load_offer, &l, p->prices_as_of, sizeof p->prices_as_of,
				    p->snapshot_dates, sizeof p->snapshot_dates, err);
	offer_kinds_free(&l.kinds);
	if (rc) {
		free(l.rows);
		return rc;
	}
	qsort(l.rows, l.n, sizeof *l.rows, fx_offer_order);
	plan_convert_offers(spec, ref, p, l.rows, &l.n);
	*out = l.rows;
	*n = l.n;
	return PLANNER_OK;
}

/* The commitments the spec's commit: lets the rented route weigh (none:
 * none read), priced in the spec's currency as offers are but with no
 * discounts: (a negotiated rate is off the on-demand list price); a term
 * whose currency has no rate is left out (counted with the offers). *out
 * is malloc'd (NULL when none). */
static int load_terms(struct store *st, const struct jobspec *spec, const struct refdata *ref,
                      struct plan *p, struct offer_term **out, size_t *n, char **err)
{
	*out = NULL;
	*n = 0;
	if (spec->commit == COMMIT_NONE)
		return PLANNER_OK;
	struct offer_term *t;
	size_t k;
	int rc = store_read_terms(st, NULL, &t, &k, err);
	if (rc)
		return rc;
	size_t w = 0;
	double longest = offer_term_hours(spec->commit == COMMIT_1Y ? "1y" : "3y");
	for (size_t i = 0; i < k; i++) {
		double rate;
		bool ref_rate;
		if (!(offer_term_hours(t[i].term) <= longest))
			continue;
		if (!offer_rate(spec, ref, &t[i].o, &rate, &ref_rate)) {
			p->fx_dropped++;
			continue;
		}
		if (ref_rate)
			note_rate(p, t[i].o.currency[0] ? t[i].o.currency : "USD", rate);
		t[w] = t[i];
		t[w].o.price_published = t[i].o.price_per_hour;
		t[w].o.price_per_hour *= rate;
		t[w].upfront *= rate;
		w++;
	}
	*out = t;
	*n = w;
	return PLANNER_OK;
}

int plan_compare(const struct jobspec *spec, const struct refdata *ref, struct store *st,
		 struct plan **out, char **err)
{
	return plan_compare_opts(spec, ref, st, NULL, out, err);
}

int plan_compare_opts(const struct jobspec *spec, const struct refdata *ref, struct store *st,
		      const struct plan_opts *opts, struct plan **out, char **err)
{
	struct provider_state *provs = NULL;
	struct offer *offers = NULL;
	struct offer_term *terms = NULL;
	struct offer_index idx = {0};
	struct api_cache api = {0};
	struct size_cache sizes = {0};
	size_t n_provs = 0, n_offers = 0, n_terms = 0;
	int rc;
	struct plan *p = calloc(1, sizeof *p);
	if (!p || !(p->jobs = calloc(spec->n_jobs + 1, sizeof *p->jobs))) {
		free(p);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	/* 3.5 KiB a job: 34 MiB for 10,000 jobs, 8,700 page faults (issue 16). */
	advise_huge_pages(p->jobs, (spec->n_jobs + 1) * sizeof *p->jobs);
	snprintf(p->currency, sizeof p->currency, "%s", spec->currency);
	if ((rc = store_providers(st, &provs, &n_provs, err)))
		goto fail;
	p->stale = calloc(n_provs + 1, sizeof *p->stale);
	p->sources = calloc(n_provs + 1, sizeof *p->sources);
	if (!p->stale || !p->sources) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto fail;
	}
	note_sources(p, provs, n_provs);
	if ((rc = load_offers(st, spec, ref, p, &offers, &n_offers, err)) ||
	    (rc = offer_index_build(&idx, ref, offers, n_offers, err)) ||
	    (rc = load_terms(st, spec, ref, p, &terms, &n_terms, err)))
		goto fail;
	for (size_t i = 0; i < n_provs; i++) {
		/* A provider holding no rows prices nothing: not stale. */
		if (strcmp(provs[i].last_status, "failed") || provs[i].rows <= 0)
			continue;
		if (!(p->stale[p->n_stale] = strdup(provs[i].name))) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			goto fail;
		}
		p->n_stale++;
	}
	struct route_ctx base = {.spec = spec,
	                         .ref = ref,
	                         .st = st,
	                         .idx = &idx,
	                         .api = &api,
	                         .sizes = &sizes,
	                         .terms = terms,
	                         .n_terms = n_terms};
	for (size_t i = 0; i < spec->n_jobs; i++) {
		if ((rc = price_job(&base, &spec->jobs[i], &p->jobs[i], err)))
			goto fail;
		p->n_jobs++;
	}
	p->owned_shared = opts && opts->share_owned && spec->n_owned > 0;
	if ((p->owned_shared && (rc = plan_share_owned(&base, p, err))) ||
	    (rc = plan_mix_all(p, spec, err)))
		goto fail;
	note_old_rows(p, ref->snapshot_as_of);
	/* A rented CPU route's device is its group's (the VM's share of the
	 * socket, route_rented.c): the groups live as long as the plan. */
	p->offer_groups = idx.groups;
	idx.groups = NULL;
	offer_index_free(&idx);
	api_cache_free(&api);
	size_cache_free(&sizes);
	free(provs);
	free(offers);
	p->terms = terms; /* fleet shares them across the jobs */
	p->n_terms = n_terms;
	*out = p;
	return PLANNER_OK;
fail:
	offer_index_free(&idx);
	api_cache_free(&api);
	size_cache_free(&sizes);
	free(provs);
	free(offers);
	free(terms);
	plan_free(p);
	return rc;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; p->stale && i < p->n_stale; i++)
		free(p->stale[i]);
	free(p->stale);
	free(p->sources);
	free(p->moves);
	free(p->jobs);
	free(p->offer_groups);
	free(p->terms);
	free(p->mixes);
	free(p);
}

void route_gpu_count_text(char *buf, size_t len, const struct route_result *r)
{
	/* Past one node: "4 nodes of 8x", "2 replicas of 4 nodes of 8x". */
	if (r->nodes > 1 && r->replicas > 1)
		snprintf(buf, len, "%d replicas of %d nodes of %dx", r->replicas, r->nodes,
		         r->gpu_count / r->replicas / r->nodes);
	else if (r->nodes > 1)
		snprintf(buf, len, "%d nodes of %dx", r->nodes, r->gpu_count / r->nodes);
	else if (r->replicas > 1)
		snprintf(buf, len, "%d replicas of %dx", r->replicas, r->gpu_count / r->replicas);
	else
		snprintf(buf, len, "%dx", r->gpu_count);
}

enum confidence route_confidence(const struct workload *w, const struct gpu_spec *g, int n)
{
	return confidence_of(w->engine, w->job->task != TASK_INFERENCE, &w->job->model, g, n);
}

const char *route_speed_mark(const struct route_result *r)
{
	return r->route != ROUTE_API && !r->measured && confidence_marked(r->confidence) ? "~" : "";
}

bool plan_speed_marked(const struct plan *p)
{
	for (size_t i = 0; i < p->n_jobs; i++)
		for (size_t k = 0; k < route_count(); k++) {
			const struct route_result *r = &p->jobs[i].routes[k];
			if (r->feasible && *route_speed_mark(r))
				return true;
		}
	return false;
}

char *plan_payback_text(const struct breakeven *be, char *buf, size_t len)
{
	const struct breakeven_pair *bp = breakeven_at(BREAKEVEN_OWNED_PAYBACK);
	bp->text(buf, len, be->value[BREAKEVEN_OWNED_PAYBACK], be->note[BREAKEVEN_OWNED_PAYBACK]);
	return buf;
}
