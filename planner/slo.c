/* slo.c — a serving job's replicas and batch from its latency targets
 * (slo.h; docs/estimation.md, "Latency targets"). One replica is a
 * continuous-batching server: each step decodes one token of every running
 * sequence and carries a chunk of waiting prompts in the rest of its token
 * budget (chunked prefill). Its step time is the speed model's: a decode
 * step of n sequences takes n / decode_tps(n), and prompt tokens add at the
 * prefill rate. At a Poisson peak of λ split over r replicas:
 *   prefill share ρp = (λ/r)·in / prefill_tps; a step stretches by 1/(1-ρp);
 *   decoding sequences n = (λ/r)·out·TPOT (Little's law), solved with TPOT;
 *   TPOT at the percentile: the step at the n's Poisson quantile;
 *   TTFT = the wait for one of the b batch slots (M/G/c, Erlang C with
 *   Allen-Cunneen's (ca²+cs²)/2 and an exponential tail for the
 *   percentile) + the M/D/1 wait of the prefill queue + the prompt's own
 *   prefill, one chunk a step beside the decode.
 * A peak_concurrency C is a closed loop: C/r in flight per replica. The
 * cheapest configuration is the fewest replicas (each costs the same);
 * among the batch caps that meet both targets there, the lowest TTFT. */
#include "slo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* vLLM's max_num_batched_tokens, the tokens one step carries, for its
 * OpenAI server: 2048, and 8192 on the cards that get max_num_seqs 1024
 * (vllm-project/vllm, vllm/engine/arg_utils.py,
 * EngineArgs.get_batch_defaults, OPENAI_API_SERVER usage context, v0.10
 * and later; read 2026-11-30, as WORKLOAD_MAX_SEQS). */
#define SLO_BUDGET_SMALL 2048.0
#define SLO_BUDGET_LARGE 8192.0
/* Fixed-point rounds of TPOT and the decode concurrency: each round moves
 * the concurrency by less than the step grows, so a few settle it. */
#define SLO_ROUNDS 30
/* The batches the step time is estimated at grow by this factor: the
 * step is near linear in the batch between them (the weights' read plus
 * each sequence's KV, or the compute of each token). */
#define SLO_POINT_STEP 4
/* Erlang C exactly up to this many servers, by Halfin-Whitt above. */
#define SLO_EXACT_SERVERS 64

/* slo_model_build, reusing `at_max` (when not NULL): w->shape's estimate
 * on d at the most sequences that fit, max_batch of them, which the caller
 * has already made (workload_size_est). The estimate is a pure function of
 * the shape and device, so the model is the same as built afresh. */
static void model_build(const struct workload *w, const struct device *d, int max_batch,
                        const struct speed_est *at_max, struct slo_model *m)
{
	memset(m, 0, sizeof *m);
	struct workload_shape s = w->shape;
	s.batch = 0;
	m->max_batch = at_max ? max_batch : workload_shape_batch(&s, d);
	m->budget = m->max_batch > WORKLOAD_MAX_SEQS ? SLO_BUDGET_LARGE : SLO_BUDGET_SMALL;
	for (int b = 1; m->n_points < SLO_MAX_POINTS; b *= SLO_POINT_STEP) {
		int at = b < m->max_batch ? b : m->max_batch;
		struct speed_est e;
		int got;
		s.batch = at;
		if (at_max && at == m->max_batch)
			e = *at_max;
		else
			workload_shape_estimate(&s, d, &got, &e);
		m->batch[m->n_points] = at;
		m->step_s[m->n_points] = e.decode_tps > 0 ? at / e.decode_tps : INFINITY;
		if (m->n_points == 0)
			m->prefill_tps = e.prefill_counted ? 0 : e.prefill_tps;
		m->n_points++;
		if (at == m->max_batch)
			break;
	}
}

void slo_model_build(const struct workload *w, const struct device *d, struct slo_model *m)
{
	model_build(w, d, 0, NULL, m);
}

double slo_step_s(const struct slo_model *m, double n, double k)
{
	double pre = m->prefill_tps > 0 ? k / m->prefill_tps : 0;
	if (m->n_points == 0)
		return INFINITY;
	if (n <= m->batch[0])
		return m->step_s[0] + pre;
	for (int i = 1; i < m->n_points; i++)
		if (n <= m->batch[i]) {
			double f = (n - m->batch[i - 1]) / (m->batch[i] - m->batch[i - 1]);
			return m->step_s[i - 1] + f * (m->step_s[i] - m->step_s[i - 1]) + pre;
		}
	return m->step_s[m->n_points - 1] + pre;
}

/* The standard normal quantile (Acklam's rational approximation, |error|
 * < 1.2e-9 on (0, 1)). */
static double normal_quantile(double p)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
	                           -2.759285104469687e+02, 1.383577518672690e+02,
	                           -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
	                           -1.556989798598866e+02, 6.680131188771972e+01,
	                           -1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
	                           -2.400758277161838e+00, -2.549732539343734e+00,
	                           4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
	                           2.445134137142996e+00, 3.754408661907416e+00};
	double q, r;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* Erlang C: the chance an arrival waits, c servers at offered load a < c
 * (Erlang B by its recurrence, then C = B / (1 - (a/c)(1 - B))). */
static double erlang_c(int c, double a)
{
	/* Far below c servers (Halfin-Whitt's beta = (c - a) / sqrt(a) over
	 * 6) the chance is under 1e-8: no percentile here sees a wait. */
	double beta = (c - a) / sqrt(a);
	if (beta > 6 + 6 / sqrt(a))
		return 0;
	/* Many servers: Halfin and Whitt's limit (Operations Research 29(3),
	 * 1981), 1 / (1 + beta Phi(beta) / phi(beta)), within a few percent
	 * of the exact chance from 64 servers on; below, the exact one. */
	if (c > SLO_EXACT_SERVERS) {
		double phi = exp(-beta * beta / 2) / 2.5066282746310002 /* sqrt(2 pi) */;
		double big_phi = 0.5 * erfc(-beta / sqrt(2));
		return 1 / (1 + beta * big_phi / phi);
	}
	double bl = 1;
	for (int k = 1; k <= c; k++)
		bl = a * bl / (k + a * bl);
	double rho = a / c;
	return bl / (1 - rho * (1 - bl));
}

/* A wait whose chance is pw and whose tail beyond 0 is exponential with
 * mean `mean_if`: its q-quantile. */
static double wait_quantile(double pw, double mean_if, double q)
{
	return pw > 1 - q ? mean_if * log(pw / (1 - q)) : 0;
}

/* The decoding sequences n = k t(n) (Little's law with k = λ O / (1 - ρ)):
 * t is piecewise linear and rising, so n solves it on one segment.
 * INFINITY when none holds it (the decode cannot keep up). */
static double decode_concurrency(const struct slo_model *m, double k)
{
	if (m->n_points == 0)
		return INFINITY;
	double n = k * m->step_s[0];
	if (n <= m->batch[0])
		return n;
	for (int i = 1; i < m->n_points; i++) {
		double x0 = m->batch[i - 1], x1 = m->batch[i], y0 = m->step_s[i - 1];
		double sl = (m->step_s[i] - y0) / (x1 - x0), den = 1 - k * sl;
		if (den > 0) {
			n = k * (y0 - x0 * sl) / den;
			if (n >= x0 && n <= x1)
				return n;
		}
	}
	n = k * m->step_s[m->n_points - 1]; /* flat past the last point */
	return n > m->batch[m->n_points - 1] ? n : INFINITY;
}

double slo_z(double q)
{
	return normal_quantile(q);
}

void slo_eval(const struct slo_model *m, int b, double rps, double concurrency, double in,
              double out, double q, double z, struct slo_latency *lat)
{
	memset(lat, 0, sizeof *lat);
	lat->ttft_ms = lat->tpot_ms = INFINITY;
	double pre_s = m->prefill_tps > 0 ? in / m->prefill_tps : 0; /* one prompt, alone */
	if (rps <= 0) { /* closed loop: concurrency in flight, b of them decoding */
		double n = fmin(concurrency, b);
		double step = slo_step_s(m, n, 0);
		double chunks = ceil(in / fmax(m->budget - n, m->budget / 8));
		double own = pre_s + (chunks + 1) * step; /* its prompt, to the first token */
		if (!isfinite(step))
			return;
		/* Completions a second x = n / (own + out TPOT), and TPOT is the
		 * step stretched by the prompts x brings: solved together (the
		 * mean of old and new x settles it). */
		double x = n / (own + out * step), tpot = step;
		for (int i = 0; i < SLO_ROUNDS; i++) {
			double rho = fmin(x * pre_s, 0.99);
			tpot = step / (1 - rho);
			double next = 0.5 * (x + n / (own + out * tpot));
			bool settled = fabs(next - x) <= 1e-6 * x;
			x = next;
			if (settled)
				break;
		}
		double queue = fmax(0, concurrency - b) / x; /* the waiters ahead drain */
		lat->tpot_ms = tpot * 1e3;
		lat->ttft_ms = (queue + own) * 1e3;
		lat->stable = true;
		return;
	}
	double rho = rps * pre_s;
	if (!(rho < 1))
		return;
	double n = decode_concurrency(m, rps * out / (1 - rho));
	double tpot = slo_step_s(m, n, 0) / (1 - rho);
	if (!isfinite(tpot) || !(n < b * 0.999))
		return; /* the slots never empty: the queue grows without end */
	double nq = fmin(b, n + z * sqrt(fmax(n, 1)));
	/* A request's TPOT is the mean of its decode life: the prompts that
	 * arrive in it (Poisson, rps x life) stretch its steps, at their
	 * quantile too. */
	double life = out * tpot, arrivals = rps * life;
	double rho_q = fmin(rho * (1 + z / sqrt(fmax(arrivals, 1))), 0.99);
	if (!(rho_q > rho))
		rho_q = rho;
	double tpot_q = slo_step_s(m, nq, 0) / (1 - rho_q);
	double chunks = ceil(in / fmax(m->budget - nq, m->budget / 8));
	/* Its prompt's prefill, a chunk a step beside the decode, after the
	 * step in progress when it arrives; those steps carry other prompts'
	 * chunks too (the mean stretch). */
	double own = pre_s + (chunks + 1) * slo_step_s(m, nq, 0) / (1 - rho);
	/* b slots, each busy a request's decode and prefill: M/G/c. */
	double serve = out * slo_step_s(m, nq, 0) / (1 - rho) + own;
	double a = rps * serve;
	double slot_wait = 0;
	if (a >= b)
		return;
	double pw = a > 0 ? erlang_c(b, a) : 0;
	lat->slot_wait_free = pw == 0 && nq < b;
	if (pw > 0) {
		double cs2 = 0; /* the mean request shape: service times alike */
		double mean = pw / (b / serve - rps) * (1 + cs2) / 2;
		slot_wait = wait_quantile(pw, mean / pw, q);
	}
	/* The prompts queue for the prefill share: M/D/1, exponential tail. */
	double pre_wait = 0;
	if (rho > 0) {
		double mean = rho * pre_s / (2 * (1 - rho));
		pre_wait = wait_quantile(rho, mean / rho, q);
	}
	lat->tpot_ms = tpot_q * 1e3;
	lat->ttft_ms = (slot_wait + pre_wait + own) * 1e3;
	lat->stable = true;
}

/* How far lat is from the targets: the larger of its ratios to them (1 or
 * less meets both; a target not given counts 0). */
static double miss(const struct job_slo *t, const struct slo_latency *lat)
{
	if (!lat->stable)
		return INFINITY;
	double x = t->ttft_ms > 0 ? lat->ttft_ms / t->ttft_ms : 0;
	double y = t->tpot_ms > 0 ? lat->tpot_ms / t->tpot_ms : 0;
	return fmax(x, y);
}

/* The best batch cap of r replicas: all caps that meet the targets rank
 * alike, then by TTFT; below them by how far they miss. Returns its miss. */
static double best_cap(const struct slo_model *m, const struct workload *w, double peak, int r,
                       int fixed, int *cap, struct slo_latency *best)
{
	const struct job *j = w->job;
	double rps = peak / r, conc = j->load.peak_concurrency / r;
	double q = j->slo.percentile / 100, z = m->z, least = NAN;
	for (int i = 0; i < m->n_points; i++) {
		int b = fixed > 0 ? fixed : (int)m->batch[i];
		struct slo_latency lat;
		slo_eval(m, b, rps, conc, j->request_input, j->request_output, q, z, &lat);
		double x = miss(&j->slo, &lat);
		bool better = isnan(least) || fmax(x, 1) < fmax(least, 1) ||
		              (fmax(x, 1) == fmax(least, 1) && lat.ttft_ms < best->ttft_ms);
		if (better) {
			least = x;
			*cap = b;
			*best = lat;
		}
		/* A cap above every sequence that ever waits changes nothing. */
		if (fixed > 0 || (lat.stable && lat.slot_wait_free))
			break;
	}
	return least;
}

/* Why no replica count within the route's meets the targets: the best
 * latency its most replicas reach. */
static void fail_why(const struct job *j, const struct device *d, int most, int cap,
                     const struct slo_latency *lat, double peak, char *why, size_t len)
{
	if (!why || !len)
		return;
	if (lat->stable)
		snprintf(why, len,
		         "no configuration meets slo (p%g TTFT %g ms, TPOT %g ms): %d replicas of "
		         "%dx %s at batch %d reach TTFT %.0f ms, TPOT %.1f ms",
		         j->slo.percentile, j->slo.ttft_ms, j->slo.tpot_ms, most, d->count, d->name,
		         cap, lat->ttft_ms, lat->tpot_ms);
	else
		snprintf(why, len,
		         "no configuration meets slo: %d replicas of %dx %s cannot keep up with "
		         "%.3g requests a second",
		         most, d->count, d->name, peak);
}

bool slo_size(const struct workload *w, const struct device *d, int max_replicas, int batch,
              const struct speed_est *est, struct workload_run *out, char *why, size_t len)
{
	const struct job *j = w->job;
	struct slo_model m;
	/* The caller's estimate is at the most that fit only when the job's
	 * batch is max (shape batch 0); otherwise build it all. */
	bool at_max = est && w->shape.batch == 0;
	model_build(w, d, batch, at_max ? est : NULL, &m);
	m.z = slo_z(j->slo.percentile / 100);
	/* An explicit batch over 1 is the cap; the default 1 or max lets it choose. */
	int fixed = !j->batch_max && j->batch > 1 ? j->batch : 0;
	double peak = w->peak_rps;
	int lo = out->replicas > 1 ? out->replicas : 1,
	    most = max_replicas > lo ? max_replicas : lo;
	/* Below the prefill's and the decode's capacity no replica count
	 * keeps up: start there. */
	if (peak > 0 && m.prefill_tps > 0) {
		double need = peak * j->request_input / m.prefill_tps;
		double top = m.batch[m.n_points - 1];
		need = fmax(need, peak * j->request_output * m.step_s[m.n_points - 1] / top);
		if (need >= lo && need < most)
			lo = (int)floor(need);
		lo = lo < 1 ? 1 : lo;
	}
	/* Meeting the targets only gets easier with replicas: double until
	 * they hold (or the route's most), then bisect. */
	int cap = 1, hi = lo;
	struct slo_latency lat = {.ttft_ms = INFINITY, .tpot_ms = INFINITY};
	/* No load makes a step faster than one sequence's, nor a prompt's
	 * first token sooner than its prefill: past those, go to the most. */
	double floor_tpot = m.step_s[0] * 1e3;
	double floor_ttft = (m.prefill_tps > 0 ? j->request_input / m.prefill_tps : 0) * 1e3;
	if ((j->slo.tpot_ms > 0 && floor_tpot > j->slo.tpot_ms) ||
	    (j->slo.ttft_ms > 0 && floor_ttft > j->slo.ttft_ms))
		hi = most;
	while (best_cap(&m, w, peak, hi, fixed, &cap, &lat) > 1) {
		if (hi >= most) {
			fail_why(j, d, hi, cap, &lat, peak, why, len);
			out->ttft_ms = lat.ttft_ms;
			out->tpot_ms = lat.tpot_ms;
			out->slo_sized = true;
			out->slo_met = false;
			return false;
		}
		lo = hi + 1;
		hi = hi * 2 < most ? hi * 2 : most;
	}
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c;
		struct slo_latency l;
		if (best_cap(&m, w, peak, mid, fixed, &c, &l) <= 1) {
			hi = mid;
			cap = c;
			lat = l;
		} else {
			lo = mid + 1;
		}
	}
	/* cap and lat are hi's (= lo's) best_cap, kept from its evaluation. */
	out->replicas = lo;
	out->batch = cap;
	out->tps = cap / slo_step_s(&m, cap, 0); /* one replica's decode rate at the cap */
	out->ttft_ms = lat.ttft_ms;
	out->tpot_ms = lat.tpot_ms;
	out->slo_sized = true;
	out->slo_met = true;
	return true;
}
