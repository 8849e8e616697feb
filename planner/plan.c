/* plan.c — the three cost routes per job and their break-even points (see
 * plan.h and docs/estimation.md, "Cost"). */
#include "plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"
#include "offer_index.h"
#include "plan_cache.h"
#include "util.h"

/* Everything one job's pricing needs, gathered once. */
struct job_ctx {
	const struct jobspec *spec;
	const struct refdata *ref;
	const struct job *job;
	const struct workload *w; /* &res->work */
	struct job_result *res;
	struct offer_index *idx; /* the available catalogue, read and grouped once per plan */
	struct api_cache *api;   /* API prices per model, read once per plan */
	struct size_cache *sizes; /* estimates per shape of job, made once per plan */
	size_t shape;            /* the job's shape in sizes */
};

static void why(struct route_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(struct route_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	r->feasible = false;
}

static int price_api(const struct job_ctx *c, struct store *st, char **err)
{
	const struct job *j = c->job;
	struct route_result *r = &c->res->routes[ROUTE_API];
	r->route = ROUTE_API;
	if (!workload_route_allowed(c->w, ROUTE_API, r->why, sizeof r->why))
		return PLANNER_OK;
	if (!j->has_tokens) {
		why(r, "no tokens_per_month; give the job's token volume to price the api route");
		return PLANNER_OK;
	}
	char *const *models = j->api_models ? j->api_models : j->model.api_models;
	size_t n_models = j->api_models ? j->n_api_models : j->model.n_api_models;
	if (n_models == 0) {
		why(r, "no API serves %s that planner knows of; list alternatives in api_models",
		    j->model.id);
		return PLANNER_OK;
	}
	double best = INFINITY;
	size_t elsewhere = 0; /* prices left out by the job's regions */
	for (size_t m = 0; m < n_models; m++) {
		const struct api_price *rows = NULL;
		size_t n = 0;
		int rc = api_cache_prices(c->api, st, models[m], &rows, &n, err);
		if (rc)
			return rc;
		for (size_t i = 0; i < n; i++) {
			/* A row's context is the model's window there. */
			if (rows[i].context > 0 && rows[i].context < j->context)
				continue;
			if (!workload_region_allowed(c->w, NULL, rows[i].country,
			                             rows[i].region_group)) {
				elsewhere++;
				continue;
			}
			/* A long-prompt tier bills the whole request, prompt and
			 * completion, by the job's mean prompt (request.input). */
			const struct api_tier *t = api_price_tier(&rows[i], j->request_input);
			double in = t ? t->input_per_token : rows[i].input_per_token;
			double out = t ? t->output_per_token : rows[i].output_per_token;
			double usd = j->input_tokens * in + j->output_tokens * out;
			double cost = usd * c->spec->usd_to_currency;
			if (cost < best) {
				best = cost;
				r->feasible = true;
				r->monthly_cost = cost;
				snprintf(r->provider, sizeof r->provider, "%s", rows[i].provider);
				snprintf(r->offer, sizeof r->offer, "%s", rows[i].model);
				r->input_per_mtok = in * 1e6 * c->spec->usd_to_currency;
				r->output_per_mtok = out * 1e6 * c->spec->usd_to_currency;
			}
		}
	}
	if (!r->feasible && elsewhere)
		why(r,
		    "no API host of %s%s processes data in the job's regions (%zu priced "
		    "elsewhere or of unknown location)",
		    models[0], n_models > 1 ? " or its alternatives" : "", elsewhere);
	else if (!r->feasible)
		why(r, "no API price for %s%s in the database; run `planner refresh` or set "
		       "api_models",
		    models[0], n_models > 1 ? " or its alternatives" : "");
	return PLANNER_OK;
}

/* The configuration that fit in memory but not in time, closest to
 * doing the work: its reason becomes the route's when nothing else fits. */
struct short_of {
	bool any;
	double tps;
	size_t at; /* the offer's index; SIZE_MAX for quotes and owned GPUs */
	char why[256];
};

/* Keeps the fastest; on a tie the first in the offers' order, as one
 * pass over the offers, then the quotes, would (SIZE_MAX: after every
 * offer, in the order of the calls). */
static void note_short_at(struct short_of *sh, const struct workload_run *run, const char *why,
			  size_t at)
{
	if (sh->any && (run->tps < sh->tps || (run->tps == sh->tps && at >= sh->at)))
		return;
	sh->any = true;
	sh->tps = run->tps;
	sh->at = at;
	snprintf(sh->why, sizeof sh->why, "%s", why);
}

static void note_short(struct short_of *sh, const struct workload_run *run, const char *why)
{
	note_short_at(sh, run, why, SIZE_MAX);
}

/* A rented route: what renting `count` GPUs at `price` costs when the job
 * needs `run`. */
struct rental {
	const struct gpu_spec *gpu;
	int count;
	double price;
	bool spot;
	const char *provider, *offer, *region;
	int max_replicas; /* offers: up to WORKLOAD_MAX_GPUS; a quote: itself only */
};

/* Considers one rentable configuration; keeps it in r when it is cheaper. */
static void consider_rental(const struct job_ctx *c, struct route_result *r, const struct rental *o,
			    struct short_of *sh)
{
	struct workload_run run;
	char why_short[256];
	if (!size_cache_size(c->sizes, c->shape, c->w, o->gpu, o->count, o->max_replicas, &run,
			     why_short, sizeof why_short)) {
		note_short(sh, &run, why_short);
		return;
	}
	double setup = tco_setup_cost(c->spec, c->job, run.hours, run.replicas, o->price);
	double cost = run.replicas * run.hours * o->price + setup;
	if (r->feasible && (cost > r->monthly_cost ||
			    (cost == r->monthly_cost && o->price >= r->price_per_hour)))
		return;
	r->feasible = true;
	r->gpu = o->gpu;
	r->gpu_count = o->count * run.replicas;
	r->replicas = run.replicas;
	r->batch = run.batch;
	r->work_hours = run.work_hours;
	r->spot = o->spot;
	r->price_per_hour = o->price;
	r->gpu_hours = run.hours;
	r->tokens_per_second = run.tps * run.replicas;
	r->monthly_cost = cost;
	r->setup_cost = setup;
	snprintf(r->provider, sizeof r->provider, "%s", o->provider);
	snprintf(r->offer, sizeof r->offer, "%s", o->offer);
	snprintf(r->region, sizeof r->region, "%s", o->region ? o->region : "");
}

/* The rental an offer is (prices converted by load_offers). */
static struct rental offer_rental(const struct offer *o, const struct gpu_spec *gpu)
{
	return (struct rental){.gpu = gpu,
			       .count = o->gpu_count,
			       .price = o->price_per_hour,
			       .spot = o->spot,
			       .provider = o->provider,
			       .offer = o->offer,
			       .region = o->region,
			       .max_replicas = WORKLOAD_MAX_GPUS / o->gpu_count};
}

/* The cheapest offer for the job, as a pass over every offer keeping the
 * cheaper (then lower-priced, then earlier) would find it: the offers of a
 * group share memory and speed, so each group is sized once and priced by
 * the cheapest offer the job's filters let through (offer_index.h). */
static int rent_offers(const struct job_ctx *c, struct route_result *r, struct short_of *sh,
		       double *max_vram, int *max_count, size_t *considered, char **err)
{
	const struct offer_index *x = c->idx;
	const struct offer_hits *h;
	int rc = offer_index_hits(c->idx, c->w, &h, err);
	if (rc)
		return rc;
	size_t best = OFFER_NONE;
	const struct gpu_spec *best_gpu = NULL;
	double best_cost = 0;
	for (size_t k = 0; k < x->n_groups; k++) {
		const struct offer_group *g = &x->groups[k];
		size_t i = h->cheapest[k];
		if (i == OFFER_NONE)
			continue;
		(*considered)++;
		if (g->sized.vram_gib > *max_vram)
			*max_vram = g->sized.vram_gib;
		if (g->count > *max_count)
			*max_count = g->count;
		if (!workload_fits(c->w, &g->sized, g->count))
			continue;
		struct workload_run run;
		char why_short[256];
		if (!size_cache_size(c->sizes, c->shape, c->w, g->gpu, g->count,
				     WORKLOAD_MAX_GPUS / g->count, &run, why_short, sizeof why_short)) {
			note_short_at(sh, &run, why_short, h->first[k]);
			continue;
		}
		double cost = run.replicas * run.hours * x->offers[i].price_per_hour;
		double best_price = best == OFFER_NONE ? 0 : x->offers[best].price_per_hour;
		if (best == OFFER_NONE || cost < best_cost ||
		    (cost == best_cost && (x->offers[i].price_per_hour < best_price ||
					   (x->offers[i].price_per_hour == best_price && i < best)))) {
			best = i;
			best_gpu = g->gpu;
			best_cost = cost;
		}
	}
	if (best != OFFER_NONE) {
		struct rental rent = offer_rental(&x->offers[best], best_gpu);
		consider_rental(c, r, &rent, sh);
	}
	return PLANNER_OK;
}

static int price_rented(const struct job_ctx *c, char **err)
{
	const struct job *j = c->job;
	const struct jobspec *spec = c->spec;
	struct route_result *r = &c->res->routes[ROUTE_RENTED];
	r->route = ROUTE_RENTED;
	if (!workload_route_allowed(c->w, ROUTE_RENTED, r->why, sizeof r->why))
		return PLANNER_OK;
	double max_vram = 0;
	int max_count = 0;
	size_t considered = 0;
	struct short_of sh = {0};
	int rc = rent_offers(c, r, &sh, &max_vram, &max_count, &considered, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < spec->n_quotes; i++) {
		const struct quote *q = &spec->quotes[i];
		if (!workload_rental_allowed(c->w, q->provider, q->gpu, q->spot))
			continue;
		considered++;
		if (q->gpu->vram_gib > max_vram)
			max_vram = q->gpu->vram_gib;
		if (q->count > max_count)
			max_count = q->count;
		if (!workload_fits(c->w, q->gpu, q->count))
			continue;
		char offer[64];
		snprintf(offer, sizeof offer, "quote %dx %s", q->count, q->gpu->name);
		/* A quote prices what it names, so it is never replicated. */
		struct rental rent = {.gpu = q->gpu,
				      .count = q->count,
				      .price = q->price_per_hour,
				      .spot = q->spot,
				      .provider = q->provider,
				      .offer = offer,
				      .region = "",
				      .max_replicas = 1};
		consider_rental(c, r, &rent, &sh);
	}
	if (r->feasible)
		return PLANNER_OK;
	if (sh.any)
		why(r, "%s", sh.why);
	else if (considered == 0)
		why(r,
		    "no rentable offer matches (%s%s%s%s); run `planner refresh`, widen providers "
		    "or allow accelerator: any",
		    j->interruptible ? "" : "on-demand only, ",
		    j->any_accelerator ? "any accelerator" : "NVIDIA only",
		    spec->providers ? ", listed providers only" : "",
		    j->regions || spec->regions ? ", listed regions only" : "");
	else
		why(r, "needs %.1f GiB; largest offer has %.0f GiB per GPU and %d GPUs",
		    c->w->need.total_gib, max_vram, max_count);
	return PLANNER_OK;
}

/* Considers owning up to max_sets sets of n GPUs of kind g (as many as
 * the work needs); keeps it when cheaper. */
static void consider_owned(const struct job_ctx *c, struct route_result *r,
			   const struct gpu_spec *g, int n, double capex_per_gpu, double watts,
			   double idle_watts, bool on_hand, int max_sets, struct short_of *sh)
{
	struct workload_run run;
	char why_short[256];
	if (!size_cache_size(c->sizes, c->shape, c->w, g, n, max_sets, &run, why_short,
			     sizeof why_short)) {
		note_short(sh, &run, why_short);
		return;
	}
	/* One set runs at most the job's hours (or a month's); more work
	 * needs more sets, each running run.hours. */
	int sets = run.replicas;
	struct tco_owned t;
	tco_owned_month(c->spec, n * sets, capex_per_gpu, watts, idle_watts, run.hours, on_hand, &t);
	double cost = t.monthly;
	if (r->feasible &&
	    (cost > r->monthly_cost || (cost == r->monthly_cost && (r->already_owned || !on_hand))))
		return;
	r->feasible = true;
	r->gpu = g;
	/* gpu_count x watts x gpu_hours is the energy used. */
	r->gpu_count = n * sets;
	r->replicas = sets;
	r->batch = run.batch;
	r->work_hours = run.work_hours;
	r->already_owned = on_hand;
	r->capex = t.capex;
	r->watts = watts;
	r->power_cost = t.power;
	r->tco = t;
	r->gpu_hours = run.hours;
	r->tokens_per_second = run.tps * sets;
	r->monthly_cost = cost;
	snprintf(r->offer, sizeof r->offer, "%s %dx %s", on_hand ? "owned" : "buy", n * sets,
		 g->name);
}

static void price_owned(const struct job_ctx *c)
{
	const struct job *j = c->job;
	const struct jobspec *spec = c->spec;
	const struct refdata *ref = c->ref;
	struct route_result *r = &c->res->routes[ROUTE_OWNED];
	const struct vram_need *need = &c->w->need;
	r->route = ROUTE_OWNED;
	double max_vram = 0;
	int considered = 0;
	struct short_of sh = {0};
	for (size_t i = 0; i < spec->n_owned; i++) {
		const struct owned_gpu *o = &spec->owned[i];
		if (!workload_gpu_allowed(c->w, o->gpu))
			continue;
		considered++;
		if (o->gpu->vram_gib > max_vram)
			max_vram = o->gpu->vram_gib;
		int n = workload_min_gpus(c->w, o->gpu);
		if (n > 0 && n <= o->count)
			consider_owned(c, r, o->gpu, n, 0, o->watts, o->idle_watts, true,
				       o->count / n, &sh);
	}
	if (spec->has_buy) {
		for (size_t i = 0; i < spec->n_buy; i++) {
			const struct buy_option *b = &spec->buy[i];
			if (!workload_gpu_allowed(c->w, b->gpu))
				continue;
			considered++;
			if (b->gpu->vram_gib > max_vram)
				max_vram = b->gpu->vram_gib;
			int n = workload_min_gpus(c->w, b->gpu);
			if (n > 0 && n <= b->max_count)
				consider_owned(c, r, b->gpu, n, b->price, b->watts,
					       b->idle_watts, false, b->max_count / n, &sh);
		}
	} else {
		for (size_t i = 0; i < ref->n_gpus; i++) {
			const struct gpu_spec *g = &ref->gpus[i];
			if (g->price_usd <= 0 || g->watts <= 0 || !workload_gpu_allowed(c->w, g))
				continue;
			considered++;
			if (g->vram_gib > max_vram)
				max_vram = g->vram_gib;
			int n = workload_min_gpus(c->w, g);
			if (n > 0)
				consider_owned(c, r, g, n, g->price_usd * spec->usd_to_currency,
					       g->watts, 0, false, WORKLOAD_MAX_GPUS / n, &sh);
		}
	}
	if (r->feasible)
		return;
	if (sh.any)
		why(r, "%s", sh.why);
	else if (considered == 0)
		why(r, "no GPU to own or buy%s; list one under owned: or buy:",
		    j->any_accelerator ? "" : " (NVIDIA only)");
	else
		why(r,
		    "needs %.1f GiB; the largest GPU on hand or to buy has %.0f GiB, and %d of "
		    "them are not enough",
		    need->total_gib, max_vram, c->w->engine->max_tp);
}

static void breakevens(const struct job_ctx *c)
{
	const struct jobspec *spec = c->spec;
	struct job_result *res = c->res;
	const struct route_result *api = &res->routes[ROUTE_API];
	const struct route_result *rent = &res->routes[ROUTE_RENTED];
	const struct route_result *own = &res->routes[ROUTE_OWNED];
	struct breakeven *be = &res->be;
	be->owned_vs_rented_hours = NAN;
	be->owned_payback_months = NAN;
	be->api_vs_rented_tokens = NAN;
	if (rent->feasible && own->feasible && own->gpu_hours > 0) {
		/* Compare equal work: when the hours come from tokens, the owned
		 * GPUs may need more or fewer hours than the rented ones, so an
		 * owned hour replaces rent_hours / own_hours rented hours. With
		 * given hours the ratio is 1 and this is docs/estimation.md's H*. */
		double power_per_hour = own->tco.per_hour;
		double rent_per_own_hour =
			rent->price_per_hour * rent->replicas * rent->gpu_hours / own->gpu_hours +
			rent->setup_cost / own->gpu_hours;
		double margin = rent_per_own_hour - power_per_hour;
		if (margin > 0) {
			double h = own->tco.fixed / margin;
			if (h <= HOURS_PER_MONTH)
				be->owned_vs_rented_hours = h;
		}
		/* GPUs on hand have nothing to pay back: they win at once when
		 * their running costs are below the rental, and never otherwise.
		 * A payback past amortize_months, the hardware's life in the
		 * plan, does not happen in it. */
		double saving = rent->monthly_cost - own->power_cost - own->tco.maintenance;
		double months = saving > 0 ? own->capex / saving : NAN;
		if (months <= spec->amortize_months)
			be->owned_payback_months = months;
		else if (isfinite(months))
			snprintf(be->payback_note, sizeof be->payback_note, "not within %.0f months",
			         spec->amortize_months);
		else
			snprintf(be->payback_note, sizeof be->payback_note, "never");
	}
	/* The API bill and a rented bill for fixed hours cross at the token
	 * volume whose API cost equals the rental; when the hours themselves
	 * come from the tokens both bills grow in step and never cross. */
	const struct job *j = c->job;
	if (api->feasible && rent->feasible && j->has_hours) {
		/* k replicas cost k x one's bill and carry k x one's tokens, so
		 * the API line meets the rented steps inside the first replica's
		 * capacity or never. */
		double tokens = j->input_tokens + j->output_tokens;
		double per_token = api->monthly_cost / tokens;
		double one = rent->monthly_cost / rent->replicas;
		double capacity = rent->work_hours > 0 ? tokens * rent->gpu_hours / rent->work_hours
						       : INFINITY;
		if (per_token > 0 && one / per_token <= capacity)
			be->api_vs_rented_tokens = one / per_token;
	}
}

static int price_job(const struct job_ctx *base, struct store *st, const struct job *j,
		     struct job_result *res, char **err)
{
	struct job_ctx c = *base; /* what every job of the plan shares */
	c.job = j;
	c.w = &res->work;
	c.res = res;
	int rc;
	if ((rc = workload_init(&res->work, c.spec, j, err)))
		return rc;
	c.shape = size_cache_shape(c.sizes, &res->work);
	res->job = j;
	res->vram_gib = res->work.need.total_gib;
	if ((rc = price_api(&c, st, err)))
		return rc;
	if ((rc = price_rented(&c, err)))
		return rc;
	price_owned(&c);
	res->best = -1;
	/* Cheapest wins; on a tie the route with less outside dependence. */
	static const enum route order[] = {ROUTE_OWNED, ROUTE_RENTED, ROUTE_API};
	for (size_t i = 0; i < 3; i++) {
		const struct route_result *r = &res->routes[order[i]];
		if (r->feasible && (res->best < 0 || r->monthly_cost < res->routes[res->best].monthly_cost))
			res->best = (int)order[i];
	}
	if (j->has_hours)
		res->gpu_hours_per_month = j->hours_per_month;
	else if (res->best == ROUTE_OWNED || res->best == ROUTE_RENTED)
		res->gpu_hours_per_month = res->routes[res->best].gpu_hours;
	else if (res->routes[ROUTE_RENTED].feasible)
		res->gpu_hours_per_month = res->routes[ROUTE_RENTED].gpu_hours;
	else
		res->gpu_hours_per_month = res->routes[ROUTE_OWNED].gpu_hours;
	breakevens(&c);
	for (int k = 0; k < ROUTE_COUNT; k++) {
		struct route_result *r = &res->routes[k];
		double tokens = j->input_tokens + j->output_tokens;
		r->cost_per_mtok = r->feasible && j->has_tokens && tokens > 0
					   ? r->monthly_cost / (tokens / 1e6)
					   : NAN;
	}
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
static bool offer_rate(const struct jobspec *spec, const struct refdata *ref,
		       const struct offer *o, double *rate, bool *ref_rate)
{
	const char *cur = o->currency[0] ? o->currency : "USD";
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

/* store_offers' order: price, then provider, offer, region, spot (the
 * primary key, so no two rows tie). */
static int offer_order(const void *pa, const void *pb)
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
		if (offer_order(o, &l->rows[kind]) < 0)
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
	qsort(l.rows, l.n, sizeof *l.rows, offer_order);
	plan_convert_offers(spec, ref, p, l.rows, &l.n);
	*out = l.rows;
	*n = l.n;
	return PLANNER_OK;
}

int plan_compare(const struct jobspec *spec, const struct refdata *ref, struct store *st,
		 struct plan **out, char **err)
{
	struct provider_state *provs = NULL;
	struct offer *offers = NULL;
	struct offer_index idx = {0};
	struct api_cache api = {0};
	struct size_cache sizes = {0};
	size_t n_provs = 0, n_offers = 0;
	int rc;
	struct plan *p = calloc(1, sizeof *p);
	if (!p || !(p->jobs = calloc(spec->n_jobs + 1, sizeof *p->jobs))) {
		free(p);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	/* 2.4 KiB a job: 24 MiB for 10,000 jobs, 6,000 page faults (issue 16). */
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
	    (rc = offer_index_build(&idx, ref, offers, n_offers, err)))
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
	struct job_ctx base = {.spec = spec, .ref = ref, .idx = &idx, .api = &api, .sizes = &sizes};
	for (size_t i = 0; i < spec->n_jobs; i++) {
		if ((rc = price_job(&base, st, &spec->jobs[i], &p->jobs[i], err)))
			goto fail;
		p->n_jobs++;
	}
	offer_index_free(&idx);
	api_cache_free(&api);
	size_cache_free(&sizes);
	free(provs);
	free(offers);
	*out = p;
	return PLANNER_OK;
fail:
	offer_index_free(&idx);
	api_cache_free(&api);
	size_cache_free(&sizes);
	free(provs);
	free(offers);
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
	free(p->jobs);
	free(p);
}

void route_gpu_count_text(char *buf, size_t len, const struct route_result *r)
{
	if (r->replicas > 1)
		snprintf(buf, len, "%d replicas of %dx", r->replicas, r->gpu_count / r->replicas);
	else
		snprintf(buf, len, "%dx", r->gpu_count);
}

char *plan_payback_text(const struct breakeven *be, char *buf, size_t len)
{
	if (isfinite(be->owned_payback_months))
		snprintf(buf, len, "%.1f months", be->owned_payback_months);
	else
		snprintf(buf, len, "%s", be->payback_note[0] ? be->payback_note : "never");
	return buf;
}
