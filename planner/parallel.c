/* parallel.c — layouts past one node and their speed (parallel.h,
 * docs/estimation.md "Past one node").
 *
 * A step of a layout is the work of one GPU (the single-GPU estimate of
 * speed.c, its MFU and recomputation included) spread over its tp x pp
 * GPUs, stretched by the pipeline bubble, plus what the links cost:
 *   - tensor parallel: 4 all-reduces of the activations per layer and
 *     micro-batch in training (2 forward, 2 backward: Shoeybi et al. 2019,
 *     arXiv:1909.08053 fig. 4), on the critical path, over the node's
 *     GPU-to-GPU link;
 *   - data parallel (FSDP / ZeRO-3): every step gathers the weights twice
 *     and reduce-scatters the gradients, 3 x the 16-bit weights a GPU
 *     holds (Rajbhandari et al. 2020, arXiv:1910.02054 sec. 7.2.2; LoRA:
 *     the two gathers of the frozen weights), overlapped with compute
 *     (FSDP prefetches: Zhao et al. 2023, arXiv:2304.11277 sec. 3.3), over
 *     the inter-node fabric once the group spans nodes;
 *   - expert parallel: 2 all-to-alls per MoE layer forward (dispatch and
 *     combine) and 2 backward of each token's hidden state to its k
 *     experts (Lepikhin et al. 2020, arXiv:2006.16668 sec. 2.2);
 *   - pipeline stages in serving: the next stage gets each token's hidden
 *     state, over the fabric between nodes.
 * Link rates are gpus.json's (node_source cites each), NVLink quoted both
 * directions per GPU so one direction is half; fabrics in Gb/s per GPU. */
#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vram.h"

/* Training: tensor-parallel all-reduces per layer and micro-batch. */
#define TP_ALLREDUCES_PER_LAYER 4.0
/* FSDP bytes per step, in 16-bit weights a GPU holds: full fine-tuning 3
 * (gather, gather, reduce-scatter), LoRA and QLoRA 2 (the gathers). */
#define FSDP_PASSES_FULL 3.0
#define FSDP_PASSES_FROZEN 2.0
/* All-to-alls per MoE layer and micro-batch: 2 forward, 2 more backward. */
#define EP_ALLTOALL_FWD 2.0
#define EP_ALLTOALL_TRAIN 4.0

static const char *const keys[] = {"tp", "pp", "dp", "ep"};

static int *field(struct parallel *l, size_t k)
{
	int *f[] = {&l->tp, &l->pp, &l->dp, &l->ep};
	return f[k];
}

bool parallel_parse(const char *s, struct parallel *out, char *why, size_t len)
{
	*out = (struct parallel){0};
	if (!s || !*s) {
		snprintf(why, len, "empty layout; write it as tp=2,pp=4 (keys tp, pp, dp, ep)");
		return false;
	}
	const char *at = s;
	while (*at) {
		size_t klen = strcspn(at, "=,");
		size_t k = 0;
		while (k < 4 && !(strlen(keys[k]) == klen && !strncmp(at, keys[k], klen)))
			k++;
		if (k == 4) {
			snprintf(why, len, "unknown key '%.*s' in '%s'; use tp, pp, dp, ep", (int)klen,
			         at, s);
			return false;
		}
		if (at[klen] != '=') {
			snprintf(why, len, "'%s' wants a value: %s=N", keys[k], keys[k]);
			return false;
		}
		char *end;
		long v = strtol(at + klen + 1, &end, 10);
		if (end == at + klen + 1 || (*end && *end != ',') || v < 1 ||
		    v > PARALLEL_MAX_TRAIN_GPUS) {
			snprintf(why, len, "%s wants a whole number, 1 to %d", keys[k],
			         PARALLEL_MAX_TRAIN_GPUS);
			return false;
		}
		if (*field(out, k)) {
			snprintf(why, len, "%s given twice in '%s'", keys[k], s);
			return false;
		}
		*field(out, k) = (int)v;
		at = *end ? end + 1 : end;
	}
	return true;
}

int parallel_gpus(const struct parallel *want)
{
	if (!want || !(want->tp || want->pp || want->dp))
		return 0;
	return (want->tp ? want->tp : 1) * (want->pp ? want->pp : 1) * (want->dp ? want->dp : 1);
}

int parallel_nodes(const struct gpu_spec *g, int n)
{
	int per = g->gpus_per_node;
	return per <= 0 || n <= per ? 1 : (n + per - 1) / per;
}

/* What the engine does with n GPUs of one node. */
static struct parallel plain_layout(const struct engine *e, int n, enum task task)
{
	if (task != TASK_INFERENCE || e->multi_gpu == MULTI_DATA_PARALLEL)
		return task != TASK_INFERENCE ? (struct parallel){1, 1, n, 1}
		                              : (struct parallel){1, n, 1, 1};
	if (e->multi_gpu == MULTI_LAYER_SPLIT)
		return (struct parallel){1, n, 1, 1};
	return (struct parallel){n, 1, 1, 1};
}

bool parallel_is_plain(const struct engine *e, const struct gpu_spec *g, int n, enum task task,
                       const struct parallel *l)
{
	(void)g;
	struct parallel p = plain_layout(e, n, task);
	return n <= e->max_tp && p.tp == l->tp && p.pp == l->pp && p.dp == l->dp &&
	       l->ep <= 1;
}

bool parallel_engine_spans_nodes(const struct engine *e)
{
	return e->max_tp > 1 && e->multi_gpu != MULTI_LAYER_SPLIT;
}

bool parallel_check_model(const struct model_spec *m, const struct parallel *l, char *why,
                          size_t len)
{
	if (l->tp > 0 && m->heads > 0 && m->heads % l->tp) {
		snprintf(why, len, "tp=%d does not divide the model's %d attention heads", l->tp,
		         m->heads);
		return false;
	}
	if (m->layers > 0 && l->pp > m->layers) {
		snprintf(why, len, "pp=%d: more pipeline stages than the model's %d layers", l->pp,
		         m->layers);
		return false;
	}
	if (l->ep > 1 && m->experts <= 0) {
		snprintf(why, len, "ep=%d: the model is dense, it has no experts to split", l->ep);
		return false;
	}
	if (l->ep > 1 && m->experts % l->ep) {
		snprintf(why, len, "ep=%d does not divide the model's %d experts", l->ep, m->experts);
		return false;
	}
	return true;
}

/* The checks of a filled layout l of n GPUs (node: GPUs one node holds). */
static bool check_layout(const struct engine *e, const struct model_spec *m,
                         const struct gpu_spec *g, int n, int node, enum task task,
                         const struct parallel *l, char *why, size_t len)
{
	if (l->tp * l->pp * l->dp != n) {
		snprintf(why, len, "tp=%d x pp=%d x dp=%d is %d GPUs, not the %d asked for", l->tp,
		         l->pp, l->dp, l->tp * l->pp * l->dp, n);
		return false;
	}
	if (l->tp > node) {
		snprintf(why, len,
		         "tp=%d spans nodes: tensor parallelism stays inside one node of %d %s", l->tp,
		         node, g->name);
		return false;
	}
	if (l->tp > e->max_tp) {
		snprintf(why, len, "tp=%d: %s splits a layer over at most %d GPUs", l->tp, e->name,
		         e->max_tp);
		return false;
	}
	if (!parallel_check_model(m, l, why, len))
		return false;
	if (task == TASK_INFERENCE && l->dp > 1) {
		snprintf(why, len,
		         "dp=%d: a serving instance holds one copy of the model; replicas of it are "
		         "priced by compare, not laid out by --parallel",
		         l->dp);
		return false;
	}
	if (l->ep > 1 && (l->tp * l->dp) % l->ep) {
		snprintf(why, len, "ep=%d must divide tp x dp = %d", l->ep, l->tp * l->dp);
		return false;
	}
	return true;
}

bool parallel_layout(const struct engine *e, const struct model_spec *m,
                     const struct gpu_spec *g, int n, enum task task,
                     const struct parallel *want, struct parallel *out, char *why, size_t len)
{
	int node = g->gpus_per_node > 0 ? g->gpus_per_node : n;
	bool given = want && (want->tp || want->pp || want->dp || want->ep);
	/* Up to the engine's own largest split, with no layout given, the
	 * single-host estimate stands as it always has (GB200's NVLink domain
	 * spans its 4-GPU trays). */
	if (!given && n <= e->max_tp) {
		*out = plain_layout(e, n, task);
		return true;
	}
	bool multi = g->gpus_per_node > 0 ? n > g->gpus_per_node : n > e->max_tp;
	if (multi && (g->gpus_per_node <= 0 || g->fabric == NODE_FABRIC_UNKNOWN ||
	              g->fabric_gbps <= 0)) {
		snprintf(why, len,
		         "%d %s take more than one node, and planner's GPU table states no node "
		         "size and fabric between nodes for %s: single-node only",
		         n, g->name, g->name);
		return false;
	}
	if (multi && !parallel_engine_spans_nodes(e)) {
		snprintf(why, len, "%s runs a model on one host; %d GPUs take %d nodes", e->name, n,
		         parallel_nodes(g, n));
		return false;
	}
	if (multi && n % node) {
		snprintf(why, len, "%d %s do not fill whole nodes of %d", n, g->name, node);
		return false;
	}
	if (!given) {
		if (task != TASK_INFERENCE)
			*out = (struct parallel){1, 1, n, 1};
		else {
			int tp = node < e->max_tp ? node : e->max_tp;
			*out = (struct parallel){tp, n / tp, 1, 1};
		}
		return check_layout(e, m, g, n, node, task, out, why, len);
	}
	*out = *want;
	int tp = out->tp ? out->tp : 1, pp = out->pp ? out->pp : 1;
	if (!out->dp && (n % (tp * pp) == 0))
		out->dp = n / (tp * pp);
	else if (!out->tp && out->dp && out->pp && n % (out->dp * out->pp) == 0)
		out->tp = n / (out->dp * out->pp);
	else if (!out->pp && out->dp && out->tp && n % (out->dp * out->tp) == 0)
		out->pp = n / (out->dp * out->tp);
	if (!out->tp)
		out->tp = 1;
	if (!out->pp)
		out->pp = 1;
	if (!out->dp)
		out->dp = 1;
	if (!out->ep)
		out->ep = 1;
	return check_layout(e, m, g, n, node, task, out, why, len);
}

double parallel_bubble(int pp, double micro_batches)
{
	if (pp <= 1)
		return 0.0;
	double mb = micro_batches < 1 ? 1 : micro_batches;
	return (pp - 1) / (mb + pp - 1);
}

/* One direction of a link, bytes/s: inside the node (NVLink quoted both
 * ways per GPU) or between nodes (Gb/s per GPU). */
static double node_link_bps(const struct gpu_spec *g)
{
	return g->link_gbs > 0 ? g->link_gbs / 2.0 * 1e9 : 0.0;
}

static double fabric_bps(const struct gpu_spec *g)
{
	return g->fabric_gbps > 0 ? g->fabric_gbps / 8.0 * 1e9 : 0.0;
}

/* Seconds `bytes` take on a link of `bps`; 0 with no bytes, infinite with
 * no link. */
static double link_secs(double bytes, double bps)
{
	if (bytes <= 0)
		return 0.0;
	return bps > 0 ? bytes / bps : INFINITY;
}

/* The link a group of `span` consecutive GPUs talks over: the node's own
 * while it fits one node, else the fabric. */
static double group_bps(const struct gpu_spec *g, int span)
{
	return g->gpus_per_node > 0 && span > g->gpus_per_node ? fabric_bps(g) : node_link_bps(g);
}

/* Bytes one all-to-all of `tokens` tokens moves per GPU: each token's
 * hidden state to its k experts, (ep - 1) / ep of them elsewhere. */
static double alltoall_bytes(const struct model_spec *m, const struct parallel *l, double tokens)
{
	if (l->ep <= 1 || m->experts <= 0)
		return 0.0;
	double moe_layers = m->layers - (m->first_dense > 0 ? m->first_dense : 0);
	return moe_layers / l->pp * tokens * m->experts_active * m->hidden * 2.0 * (l->ep - 1) /
	       l->ep;
}

static void train_speed(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct gpu_spec *g,
                        const struct parallel *l, const struct speed_job *job,
                        struct speed_est *out)
{
	/* Sequences each data-parallel replica takes per step, in
	 * micro-batches of mb: at least one micro-batch each. */
	double mb = job->micro_batch > 0 ? job->micro_batch : 1.0;
	double seqs = (double)job->batch / l->dp;
	if (seqs < mb)
		seqs = mb;
	if (l->pp <= 1 && job->micro_batch <= 0)
		mb = seqs;
	double micro = seqs / mb;
	double ctx = job->context > 0 ? (double)job->context : 1.0;
	struct speed_job one = *job;
	one.micro_batch = (int)mb;
	one.batch = (int)mb;
	struct speed_est s1;
	speed_estimate_job(e, m, p, g, 1, &one, &s1);
	if (s1.train_tps <= 0)
		return;
	double tokens = seqs * ctx; /* per replica per step */
	double compute = tokens / (s1.train_tps * l->tp * l->pp) / (1.0 - parallel_bubble(l->pp, micro));
	double tp_comm = 0.0;
	if (l->tp > 1)
		tp_comm = link_secs((double)m->layers / l->pp * micro * TP_ALLREDUCES_PER_LAYER * 2.0 *
		                        (l->tp - 1) / l->tp * mb * ctx * m->hidden * 2.0,
		                    node_link_bps(g));
	double ep_comm =
	    link_secs(EP_ALLTOALL_TRAIN * alltoall_bytes(m, l, tokens), group_bps(g, l->tp * l->dp));
	double dp_comm = 0.0;
	if (l->dp > 1) {
		double passes =
		    job->task == TASK_FINETUNE_FULL ? FSDP_PASSES_FULL : FSDP_PASSES_FROZEN;
		double held = m->params_total / (l->tp * l->pp) * 2.0;
		dp_comm = link_secs(passes * held * (l->dp - 1) / l->dp,
		                    group_bps(g, l->tp * l->pp * l->dp));
	}
	double step = fmax(compute + tp_comm + ep_comm, dp_comm);
	out->train_tps = step > 0 && isfinite(step) ? l->dp * tokens / step : 0.0;
}

static void serve_speed(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct gpu_spec *g,
                        const struct parallel *l, const struct speed_job *job,
                        struct speed_est *out)
{
	/* Each stage is tp GPUs holding 1/pp of the layers; a token passes
	 * every stage, so a stream runs as on tp GPUs reading the whole model,
	 * and up to pp micro-batches of the streams are in flight at once. */
	int b = job->batch > 0 ? job->batch : 1;
	int inflight = b < l->pp ? b : l->pp;
	int per = (b + inflight - 1) / inflight;
	struct speed_job sj = *job;
	sj.batch = per;
	struct speed_est s;
	speed_estimate_job(e, m, p, g, l->tp, &sj, &s);
	if (s.decode_tps <= 0)
		return;
	/* Each hand-over between stages carries the micro-batch's hidden
	 * states; stages of a node's size sit on different nodes. */
	double hop = link_secs(per * m->hidden * 2.0, group_bps(g, l->tp * l->pp));
	double a2a = link_secs(EP_ALLTOALL_FWD * alltoall_bytes(m, l, per), group_bps(g, l->tp));
	double step = per / s.decode_tps + (l->pp - 1) * hop + a2a;
	out->decode_tps = step > 0 && isfinite(step) ? inflight * per / step : 0.0;
	out->stream_tps = step > 0 && isfinite(step) ? 1.0 / step : 0.0;
	double prompt = job->input_tokens > 0 ? job->input_tokens : (double)job->context;
	double chunk = e->prefill_chunk_tokens > 0 ? e->prefill_chunk_tokens : prompt;
	double chunks = chunk > 0 ? ceil(prompt * b / chunk) : 1.0;
	if (chunks < 1)
		chunks = 1;
	out->prefill_tps = s.prefill_tps * l->pp * (1.0 - parallel_bubble(l->pp, chunks));
	out->output_tps = out->decode_tps;
	if (job->input_tokens > 0 && job->output_tokens > 0 && out->decode_tps > 0 &&
	    out->prefill_tps > 0) {
		double secs =
		    b * job->input_tokens / out->prefill_tps + b * job->output_tokens / out->decode_tps;
		out->output_tps = b * job->output_tokens / secs;
	}
}

void parallel_speed(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *g,
                    const struct parallel *l, const struct speed_job *job, struct speed_est *out)
{
	int n = l->tp * l->pp * l->dp;
	*out = (struct speed_est){0};
	if (parallel_is_plain(e, g, n, job->task, l)) {
		speed_estimate_job(e, m, p, g, n, job, out);
		return;
	}
	if (job->task == TASK_INFERENCE)
		serve_speed(e, m, p, g, l, job, out);
	else
		train_speed(e, m, p, g, l, job, out);
}

void parallel_format(const struct parallel *l, char *buf, size_t len)
{
	if (l->ep > 1)
		snprintf(buf, len, "tp%d pp%d dp%d ep%d", l->tp, l->pp, l->dp, l->ep);
	else
		snprintf(buf, len, "tp%d pp%d dp%d", l->tp, l->pp, l->dp);
}
