/* cmd_fit.c — `planner fit MODEL`: memory a model needs and which GPUs
 * (and how many) it fits on, before any price is considered. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cmd_fit.h"
#include "confidence.h"
#include "engines.h"
#include "local_device.h"
#include "offload.h"
#include "speed.h"
#include "vram.h"

struct vram_job fit_job(const struct fit_args *a, int b)
{
	return (struct vram_job){.task = a->task,
	                         .context = a->context,
	                         .batch = b,
	                         .kv_bytes_per_element = a->kv_bytes,
	                         .lora_rank = a->lora_rank,
	                         .lora_attention_only = a->lora_attention,
	                         .micro_batch = a->micro_batch,
	                         .optimizer = a->optimizer,
	                         .checkpointing = a->checkpointing};
}

static bool parse_task(const char *s, enum task *t)
{
	for (int i = TASK_INFERENCE; i <= TASK_FINETUNE_FULL; i++)
		if (!strcmp(s, task_name((enum task)i))) {
			*t = (enum task)i;
			return true;
		}
	return false;
}

/* --offload: the split of the model between one GPU and host RAM. */
static void fit_offload_line(const struct fit_args *a, const struct model_spec *m,
                             const struct precision_info *p, const struct vram_need *need,
                             const struct device *d, const struct speed_job *sj, struct fit_line *l)
{
	char why[200];
	l->n = 1;
	l->batch = a->batch;
	l->fits = offload_place(a->engine, m, need, d, a->ram_gib, a->offload, &l->split, why,
	                        sizeof why);
	l->per_gpu = l->split.gpu_gib;
	offload_speed(a->engine, m, p, d, need, sj, a->ram_gbs, &l->split, &l->s);
	l->conf = confidence_of(a->engine, a->task != TASK_INFERENCE, m, d->gpu, 1);
}

void fit_line(const struct fit_args *a, const struct model_spec *m, const struct precision_info *p,
              const struct vram_need *need, const struct gpu_spec *g, struct fit_line *l)
{
	const struct engine *e = a->engine;
	memset(l, 0, sizeof *l);
	l->g = g;
	struct device d = device_from_gpu(g, 1);
	if (a->threads > 0)
		d.threads = a->threads;
	l->needed = vram_device_min_count(e, need, &d);
	struct speed_job sj = {.task = a->task,
	                       .context = a->context,
	                       .batch = a->batch,
	                       .input_tokens = a->input,
	                       .output_tokens = a->output,
	                       .kv_bytes_per_element = a->kv_bytes,
	                       .micro_batch = a->micro_batch,
	                       .checkpointing = a->checkpointing};
	if (a->offload != OFFLOAD_NONE) {
		fit_offload_line(a, m, p, need, &d, &sj, l);
		return;
	}
	/* A Mac or a CPU box is one machine, whether or not the model fits. */
	l->n = a->gpus > 0 ? a->gpus : g->kind != DEVICE_GPU ? 1 : l->needed;
	d.count = l->n;
	l->batch = a->batch;
	struct vram_need at = *need;
	if (a->batch_max && l->n > 0) {
		l->batch = vram_device_max_batch(e, m, p, &d, a->context, a->kv_bytes);
		struct vram_job vj = fit_job(a, l->batch > 0 ? l->batch : 1);
		vram_estimate_job(e, m, p, &vj, &at);
	}
	struct vram_fit fit = {0};
	l->fits = l->n > 0 && l->batch > 0 && vram_place(e, &at, &d, &fit, NULL, 0);
	if (l->n > 0) {
		l->per_gpu = vram_per_gpu_engine(e, &at, l->n);
		sj.batch = l->batch > 0 ? l->batch : 1;
		speed_estimate_device(e, m, p, &d, &sj, &l->s);
		/* Past the engine's own split, or a layout given: the layout's
		 * speed, or none where the model cannot estimate it. */
		if (g->kind == DEVICE_GPU && !fit_line_layout(a, m, p, g, &sj, l))
			l->fits = false;
		/* A given layout under an engine whose optimizer shards apart
		 * (Megatron): each GPU holds what that layout leaves it. */
		if (l->layout_ok && a->parallel_given && e->dist_optimizer_bytes > 0) {
			l->per_gpu =
			    vram_per_gpu_layout(&at, l->layout.tp, l->layout.pp, l->layout.dp);
			l->fits = l->batch > 0 && l->per_gpu <= vram_device_usable(e, &d);
		}
		l->measured = a->measured.file &&
		              measured_entry_matches(&a->measured, a->model, p->name, e->name, g,
		                                     l->n, a->input, a->output);
		if (l->measured)
			measured_entry_apply(&a->measured, &l->s);
		l->conf = confidence_of(e, a->task != TASK_INFERENCE, m, g, l->n);
	}
}

double fit_line_tps(const struct fit_args *a, const struct fit_line *l)
{
	return a->task == TASK_INFERENCE ? l->s.decode_tps : l->s.train_tps;
}

static void json_line(const struct fit_args *a, const struct fit_line *l, cJSON *gpus)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "gpu", l->g->name);
	cJSON_AddStringToObject(o, "vendor", l->g->vendor);
	cJSON_AddNumberToObject(o, "vram_gib", round_to(l->g->vram_gib, 2));
	if (l->needed > 0)
		cJSON_AddNumberToObject(o, "gpus_needed", l->needed);
	else
		cJSON_AddNullToObject(o, "gpus_needed");
	cJSON_AddStringToObject(o, "engine", a->engine->name);
	cJSON_AddBoolToObject(o, "fits", l->fits);
	if (l->g->kind != DEVICE_GPU)
		cJSON_AddStringToObject(o, "kind", device_kind_name(l->g->kind));
	if (a->offload != OFFLOAD_NONE) {
		cJSON *x = cJSON_AddObjectToObject(o, "offload");
		cJSON_AddNumberToObject(x, "gpu_layers", l->split.gpu_layers);
		cJSON_AddNumberToObject(x, "layers", l->split.layers);
		cJSON_AddNumberToObject(x, "ram_gib", round_to(l->split.ram_gib, 2));
	}
	if (l->n > 0) {
		cJSON_AddNumberToObject(o, "gpus", l->n);
		cJSON_AddNumberToObject(o, "batch", l->batch);
		cJSON_AddNumberToObject(o, "per_gpu_gib", round_to(l->per_gpu, 2));
		/* A configuration that does not run has no speed. */
		const char *keys[] = {"tokens_per_second", "decode_tokens_per_second",
		                      "output_tokens_per_second", "prefill_tokens_per_second",
		                      "train_tokens_per_second"};
		double v[] = {fit_line_tps(a, l), l->s.stream_tps, l->s.output_tps,
		              l->s.prefill_tps, l->s.train_tps};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			if (l->fits)
				cJSON_AddNumberToObject(o, keys[k], round_to(v[k], 1));
			else
				cJSON_AddNullToObject(o, keys[k]);
		if (a->measured.file) {
			cJSON_AddStringToObject(o, "speed_source",
			                        l->measured ? "measured" : "estimated");
			if (l->measured)
				cJSON_AddStringToObject(o, "measured_file", a->measured.file);
		}
		cJSON_AddStringToObject(o, "confidence", confidence_name(l->conf));
		fit_line_layout_json(l, o);
	}
	cJSON_AddItemToArray(gpus, o);
}

static void text_line(const struct cli *c, const struct fit_args *a, const struct fit_line *l)
{
	if (c->format == FORMAT_CSV) {
		csv_field(stdout, l->g->name);
		printf(",%.2f,", l->g->vram_gib);
		if (l->needed > 0)
			printf("%d", l->needed);
		if (l->n > 0 && l->fits)
			printf(",%.2f,%.1f", l->per_gpu, fit_line_tps(a, l));
		else if (l->n > 0)
			printf(",%.2f,", l->per_gpu);
		else
			printf(",,");
		printf(",%s,%s\r\n", l->fits ? "true" : "false", a->engine->name);
	} else if (l->n > 0 && l->fits) {
		char tps[32];
		snprintf(tps, sizeof tps, "%s%.0f",
		         !l->measured && confidence_marked(l->conf) ? "~" : "", fit_line_tps(a, l));
		printf("%-16s %8.1f %6d %12.2f %12s %5s", l->g->name, l->g->vram_gib, l->n,
		       l->per_gpu, tps, "yes");
	} else if (l->n > 0) {
		printf("%-16s %8.1f %6d %12.2f %12s %5s", l->g->name, l->g->vram_gib, l->n,
		       l->per_gpu, "-", "no");
	} else {
		printf("%-16s %8.1f %6s %12s %12s %5s", l->g->name, l->g->vram_gib, "no", "-", "-",
		       "no");
	}
	if (c->format != FORMAT_CSV && a->offload != OFFLOAD_NONE)
		printf("  %d of %d layers on the GPU, %.2f GiB in RAM", l->split.gpu_layers,
		       l->split.layers, l->split.ram_gib);
	if (c->format != FORMAT_CSV && l->n > 0 && l->g->kind == DEVICE_GPU && !l->layout_ok &&
	    a->offload == OFFLOAD_NONE)
		printf("  %s", strstr(l->layout_why, "single-node only")
		                   ? "single-node only: no node size or fabric known"
		                   : l->layout_why);
	else if (c->format != FORMAT_CSV)
		fit_line_layout_text(a, l);
	if (c->format != FORMAT_CSV && l->measured)
		printf("  measured (%s)", a->measured.file);
	if (c->format != FORMAT_CSV)
		putchar('\n');
}

static const char *fit_targets(const struct fit_args *a)
{
	return a->lora_attention ? "attention" : "all-linear";
}

/* The optimizer named, else the engine's. */
static const char *fit_optimizer(const struct fit_args *a)
{
	return a->optimizer           ? a->optimizer->name
	       : a->engine->optimizer ? a->engine->optimizer
	                              : "-";
}

static cJSON *json_head(const struct fit_args *a, const struct model_spec *m,
                        const struct precision_info *p, const struct vram_need *need)
{
	cJSON *root = json_doc_new("planner/fit/v1");
	cJSON_AddStringToObject(root, "model", m->id);
	cJSON_AddStringToObject(root, "precision", p->name);
	cJSON_AddStringToObject(root, "task", task_name(a->task));
	cJSON_AddStringToObject(root, "engine", a->engine->name);
	cJSON_AddNumberToObject(root, "context", (double)a->context);
	if (a->batch_max)
		cJSON_AddStringToObject(root, "batch", "max"); /* per GPU entry: its number */
	else
		cJSON_AddNumberToObject(root, "batch", a->batch);
	if (a->task != TASK_INFERENCE) {
		cJSON *t = cJSON_AddObjectToObject(root, "training");
		if (a->task != TASK_FINETUNE_FULL) {
			cJSON_AddNumberToObject(t, "lora_rank",
			                        a->lora_rank ? a->lora_rank : VRAM_LORA_RANK);
			cJSON_AddStringToObject(t, "lora_targets", fit_targets(a));
		}
		cJSON_AddNumberToObject(t, "micro_batch",
		                        a->micro_batch ? a->micro_batch : a->batch);
		cJSON_AddStringToObject(t, "optimizer", fit_optimizer(a));
		cJSON_AddStringToObject(t, "checkpointing", ckpt_name(a->checkpointing));
	}
	cJSON_AddNumberToObject(root, "params_total", m->params_total);
	cJSON_AddNumberToObject(root, "params_active", m->params_active);
	cJSON *n = cJSON_AddObjectToObject(root, "need");
	cJSON_AddNumberToObject(n, "weights_gib", round_to(need->weights_gib, 2));
	cJSON_AddNumberToObject(n, "kv_cache_gib", round_to(need->kv_gib, 2));
	cJSON_AddNumberToObject(n, "training_gib", round_to(need->training_gib, 2));
	cJSON_AddNumberToObject(n, "activation_gib", round_to(need->activation_gib, 2));
	cJSON_AddNumberToObject(n, "overhead_gib", round_to(need->overhead_gib, 2));
	cJSON_AddNumberToObject(n, "total_gib", round_to(need->total_gib, 2));
	cJSON_AddArrayToObject(root, "gpus");
	return root;
}

static void text_head(const struct fit_args *a, const struct model_spec *m,
                      const struct precision_info *p, const struct vram_need *need)
{
	printf("%s at %s, %s under %s, context %ld, batch %d (%.2fB parameters, %.2fB active)\n",
	       m->id, p->name, task_name(a->task), a->engine->name, a->context, a->batch,
	       m->params_total / 1e9, m->params_active / 1e9);
	if (a->task != TASK_INFERENCE) {
		if (a->task != TASK_FINETUNE_FULL)
			printf("  LoRA rank %d on %s layers, ",
			       a->lora_rank ? a->lora_rank : VRAM_LORA_RANK, fit_targets(a));
		else
			printf("  ");
		printf("optimizer %s, micro-batch %d, checkpointing %s\n", fit_optimizer(a),
		       a->micro_batch ? a->micro_batch : a->batch, ckpt_name(a->checkpointing));
	}
	printf("  weights %.2f GiB + KV cache %.2f GiB + training state %.2f GiB + "
	       "activations %.2f GiB + overhead %.2f GiB per GPU\n",
	       need->weights_gib, need->kv_gib, need->training_gib, need->activation_gib,
	       need->overhead_gib);
	printf("  = %.2f GiB on one GPU\n\n", need->total_gib);
	printf("%-16s %8s %6s %12s %12s %5s\n", "gpu", "GiB", "gpus", "GiB per GPU", "tok/s",
	       "fits");
}

/* Row i of the table: a variant of the chip --gpu names (its memory
 * size in *sized), or GPU i of the reference data when --gpu names one or
 * none; NULL for a row that is not shown (another GPU than --gpu's, a
 * device that is not a GPU in the list of every GPU). */
static const struct gpu_spec *fit_row(const struct cli *c, const struct fit_args *a, size_t i,
                                      struct gpu_spec *sized)
{
	if (a->n_variants) {
		*sized = *a->variants[i].gpu;
		sized->vram_gib = a->variants[i].memory_gib;
		return sized;
	}
	const struct gpu_spec *g = &c->ref->gpus[i];
	if (a->gpu ? g != a->gpu : g->kind != DEVICE_GPU)
		return NULL;
	return g;
}

/* Which figure of --measured's file the measured row shows. */
static void fit_measured_note(const struct fit_args *a)
{
	const struct measured *m = &a->measured.m;
	printf("(measured: %s, %s: ", a->measured.file, measured_format_name(m->format));
	if (m->output_tps > 0)
		printf("output throughput %.1f tok/s at concurrency %g", m->output_tps,
		       m->concurrency);
	else
		printf("decode (tg) %.1f tok/s, prefill (pp) %.1f tok/s, one stream", m->decode_tps,
		       m->prefill_tps);
	if (m->input_len > 0)
		printf(", requests of %.0f in / %.0f out", m->input_len, m->output_len);
	printf(")\n");
}

/* What "no", tok/s and (when a row has one) `~` mean, and, for a Mac,
 * how its GPU's share of memory is set. */
static void fit_footnote(const struct fit_args *a, const struct precision_info *p, bool marked)
{
	const char *tps = a->task == TASK_INFERENCE ? "decode, all streams" : "training";
	bool unified = a->n_variants && a->variants[0].gpu->kind == DEVICE_UNIFIED;
	if (a->offload != OFFLOAD_NONE)
		printf(
		    "\n(\"no\": the split does not fit the GPU and %.0f GiB of RAM; tok/s: %s, the "
		    "RAM's layers read at %.1f GB/s)\n",
		    a->ram_gib, tps, a->ram_gbs);
	else if (a->gpus > 0)
		printf("\n(\"no\": does not fit on %d; tok/s: %s)\n", a->gpus, tps);
	else if (a->n_variants)
		printf("\n(\"no\": more than %s; tok/s: %s)\n",
		       unified ? "the GPU's share of unified memory" : "its memory", tps);
	else
		printf("\n(\"no\": more than %d GPUs of that kind; tok/s: %s)\n", a->engine->max_tp,
		       tps);
	if (a->measured.file)
		fit_measured_note(a);
	if (marked)
		printf("%s\n", CONFIDENCE_LEGEND);
	if (unified && !strcmp(a->variants[0].gpu->vendor, "apple"))
		printf(
		    "(macOS lets the GPU wire about 2/3 of unified memory up to 36 GiB, 3/4 above; "
		    "'sudo sysctl iogpu.wired_limit_mb=N' raises it)\n");
	if (p->fp4_compute)
		printf(
		    "(%s: tok/s at the FP4 tensor rate where a card has one; elsewhere weight-only "
		    "at its FP16 rate)\n",
		    p->name);
	printf("(engine %s)\n", a->engine->summary);
}

/* Prints the model's memory need under the engine and, per GPU in the
 * reference data (or the one --gpu names), how many it takes (or whether
 * the --gpus count fits) and how fast they run. */
static int print_fit(const struct cli *c, const struct fit_args *a, const struct model_spec *m,
                     const struct precision_info *p)
{
	struct vram_need need;
	struct vram_job vj = fit_job(a, a->batch_max ? 1 : a->batch);
	vram_estimate_job(a->engine, m, p, &vj, &need);
	cJSON *root = NULL;
	if (c->format == FORMAT_JSON)
		root = json_head(a, m, p, &need);
	else if (c->format == FORMAT_CSV)
		fputs("gpu,vram_gib,gpus_needed,per_gpu_gib,tokens_per_second,fits,engine\r\n",
		      stdout);
	else
		text_head(a, m, p, &need);
	size_t rows = a->n_variants ? a->n_variants : c->ref->n_gpus;
	bool marked = false;
	for (size_t i = 0; i < rows; i++) {
		struct gpu_spec sized;
		const struct gpu_spec *g = fit_row(c, a, i, &sized);
		if (!g)
			continue;
		struct fit_line l;
		fit_line(a, m, p, &need, g, &l);
		marked |= l.n > 0 && l.fits && !l.measured && confidence_marked(l.conf);
		if (root)
			json_line(a, &l, cJSON_GetObjectItem(root, "gpus"));
		else
			text_line(c, a, &l);
	}
	if (root)
		return cli_print_json(root);
	if (c->format == FORMAT_TABLE)
		fit_footnote(a, p, marked);
	return PLANNER_OK;
}

/* --engine, --gpu and --gpus, checked against the task and the table. */
static int fit_check(struct cli *c, struct fit_args *a, const char *engine, const char *gpu)
{
	char names[256], hint[384];
	int rc;
	if (engine && !(a->engine = engine_find(engine)))
		return cli_usage(
		    c, "unknown engine '%s'; %s", engine,
		    near_miss_text(engine, engine_names(names, sizeof names), hint, sizeof hint));
	if ((rc = fit_device_check(c, a, engine, gpu)))
		return rc;
	if (!a->engine)
		a->engine = engine_for(a->task != TASK_INFERENCE, a->precision);
	if (a->task == TASK_INFERENCE ? !a->engine->inference : !a->engine->training)
		return cli_usage(
		    c, "engine '%s' does not run %s; use %s", a->engine->name, task_name(a->task),
		    engine_names_for(a->task != TASK_INFERENCE, ", ", " or ", names, sizeof names));
	if (a->kv_cache && !(a->kv_bytes = engine_kv_bytes(a->engine, a->kv_cache)))
		return cli_usage(c, "--kv-cache %s: %s has bf16%s", a->kv_cache, a->engine->name,
		                 a->engine->kv_fp8_bytes > 0 ? " and fp8" : " only");
	if (a->task == TASK_INFERENCE &&
	    (a->lora_rank || a->micro_batch || a->optimizer || a->checkpointing_given))
		return cli_usage(c,
		                 "--%s is for fine-tuning; add --task finetune-qlora (or "
		                 "finetune-lora, finetune-full)",
		                 a->checkpointing_given ? "checkpointing"
		                 : a->optimizer         ? "optimizer"
		                 : a->micro_batch       ? "micro-batch"
		                                        : "lora-rank");
	if (a->lora_rank && a->task == TASK_FINETUNE_FULL)
		return cli_usage(c, "--lora-rank is for finetune-lora and finetune-qlora");
	if (a->micro_batch > a->batch)
		return cli_usage(c,
		                 "--micro-batch %d is more than --batch %d; give at most %d "
		                 "(gradient accumulation runs batch / micro-batch steps)",
		                 a->micro_batch, a->batch, a->batch);
	if (a->gpus > a->engine->max_tp && !parallel_engine_spans_nodes(a->engine))
		return cli_usage(c, "--gpus %d: %s splits a model over at most %d GPUs", a->gpus,
		                 a->engine->name, a->engine->max_tp);
	return fit_parallel_check(c, a, NULL);
}

static int fit_model(struct cli *c, struct fit_args *a)
{
	const struct precision_info *p = precision_find(a->precision);
	if (!p) {
		char names[1024], hint[1280];
		return cli_usage(c, "unknown precision '%s'; %s", a->precision,
		                 near_miss_text(a->precision, precision_list(names, sizeof names),
		                                hint, sizeof hint));
	}
	struct model_spec owned = {0};
	const struct model_spec *m = refdata_model(c->ref, a->model);
	char *err = NULL;
	int rc;
	if (!m) {
		if (!strstr(a->model, ".json") && !strchr(a->model, '/')) {
			char advice[320];
			errorf("unknown model '%s'; %s", a->model,
			       refdata_model_advice(c->ref, a->model, advice, sizeof advice));
			return PLANNER_EINPUT;
		}
		if ((rc = model_from_config(a->model, &owned, &err)) != PLANNER_OK) {
			errorf("%s", err);
			free(err);
			return rc;
		}
		m = &owned;
	}
	if (a->context > m->max_context && m->max_context > 0)
		warnf("context %ld is beyond %s's maximum of %ld", a->context, m->id,
		      m->max_context);
	rc = fit_parallel_check(c, a, m);
	if (rc == PLANNER_OK)
		rc = print_fit(c, a, m, p);
	model_spec_clear(&owned);
	return rc;
}

/* --lora-rank, --lora-targets, --micro-batch, --optimizer, --checkpointing
 * into a. */
static int fit_train_option(struct cli *c, struct fit_args *a, int opt)
{
	double v;
	switch (opt) {
	case OPT_LORA_RANK:
	case OPT_MICRO_BATCH:
		if (!parse_count(optarg, &v) || v < 1 || v > 4096 || v != (int)v)
			return cli_usage(c, "--%s wants a whole number from 1 to 4096",
			                 opt == OPT_LORA_RANK ? "lora-rank" : "micro-batch");
		*(opt == OPT_LORA_RANK ? &a->lora_rank : &a->micro_batch) = (int)v;
		break;
	case OPT_LORA_TARGETS:
		if (strcmp(optarg, "all-linear") && strcmp(optarg, "attention"))
			return cli_usage(
			    c, "unknown --lora-targets '%s'; use all-linear or attention", optarg);
		a->lora_attention = !strcmp(optarg, "attention");
		break;
	case OPT_CHECKPOINTING:
		if (!ckpt_parse(optarg, &a->checkpointing))
			return cli_usage(
			    c, "unknown --checkpointing '%s'; use on, off or selective", optarg);
		a->checkpointing_given = true;
		break;
	default:
		if (!(a->optimizer = optimizer_find(optarg)))
			return cli_usage(c,
			                 "unknown optimizer '%s'; use adamw, adamw-bf16, "
			                 "adamw-8bit or paged-adamw-8bit",
			                 optarg);
	}
	return PLANNER_OK;
}

/* fit's options: the common ones, then its own. */
static const struct option fit_opts[] = {
    CLI_COMMON_OPTIONS,
    {"precision", required_argument, NULL, 'p'},
    {"context", required_argument, NULL, 'c'},
    {"batch", required_argument, NULL, 'b'},
    {"task", required_argument, NULL, 't'},
    {"engine", required_argument, NULL, 'e'},
    {"gpu", required_argument, NULL, 'g'},
    {"gpus", required_argument, NULL, 'n'},
    {"input", required_argument, NULL, 'i'},
    {"output", required_argument, NULL, 'o'},
    {"kv-cache", required_argument, NULL, 'k'},
    {"lora-rank", required_argument, NULL, OPT_LORA_RANK},
    {"lora-targets", required_argument, NULL, OPT_LORA_TARGETS},
    {"micro-batch", required_argument, NULL, OPT_MICRO_BATCH},
    {"optimizer", required_argument, NULL, OPT_OPTIMIZER},
    {"checkpointing", required_argument, NULL, OPT_CHECKPOINTING},
    {"memory-gib", required_argument, NULL, OPT_MEMORY_GIB},
    {"bandwidth-gbs", required_argument, NULL, OPT_BANDWIDTH},
    {"tflops", required_argument, NULL, OPT_TFLOPS},
    {"kind", required_argument, NULL, OPT_KIND},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"offload", required_argument, NULL, OPT_OFFLOAD},
    {"ram-gib", required_argument, NULL, OPT_RAM_GIB},
    {"ram-gbs", required_argument, NULL, OPT_RAM_GBS},
    {"measured", required_argument, NULL, OPT_MEASURED},
    {"parallel", required_argument, NULL, OPT_PARALLEL},
    {0, 0, 0, 0}};

/* fit's --help: the --engine paragraph names the rows of engines[] and
 * the defaults engine_for gives; describe() writes it here before anything
 * can print it. */
static char fit_help[4096];

/* The column the option texts start at, and the last one the engine list
 * fills to, as the hand-written lines around it. */
#define HELP_INDENT 19
#define HELP_WIDTH  78

#define HELP_HEAD                                                                                  \
	"Estimates the GPU memory MODEL needs (weights at the precision, KV cache\n"               \
	"for context x batch, training state, activations, runtime overhead) and\n"                \
	"lists every GPU in the reference table with the fewest GPUs (1, 2, 4 or 8)\n"             \
	"that hold it under the engine, and the speed there. With --gpu and --gpus\n"              \
	"it answers for that one configuration (\"will it run on my two 4090s?\").\n"              \
	"With --gpu and no MODEL it lists the reference models and quantisations\n"                \
	"that fit that device, fastest first (\"what runs on my Mac?\").\n\n"                      \
	"  MODEL            a reference id (llama-3.1-70b) or a config.json path\n"                \
	"  --precision P    fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q4_k_m iq4_xs int4 awq\n"     \
	"                   gptq gptq-int8 nf4 nvfp4 mxfp4 ... (every llama.cpp type)\n"           \
	"                   (default bf16)\n"                                                      \
	"  --context N      tokens per sequence (default 4096; 128K works)\n"                      \
	"  --batch N        concurrent sequences (default 1), or max: the most\n"                  \
	"                   whose KV cache fits, as a throughput server runs\n"                    \
	"  --task T         inference, finetune-lora, finetune-qlora, finetune-full\n"
#define HELP_TAIL                                                                                  \
	"  --gpu G          only this GPU (a name or alias: 4090, h100, ...), an Apple\n"          \
	"                   chip (\"M3 Max\": each variant a row), a Strix Halo PC, a CPU\n"       \
	"                   (\"Ryzen 9 7950X\"; cpu lists them), or custom (below)\n"              \
	"  --gpus N         exactly N of them: says whether it fits (fits: yes/no);\n"             \
	"                   past one node (up to 1024 training, 64 serving) on GPUs\n"            \
	"                   whose node and fabric planner knows\n"                                 \
	"  --parallel L     the layout of --gpus: tp=2,pp=4[,dp=8,ep=2] (tensor inside\n"         \
	"                   a node, pipeline, data/FSDP, expert); default: planner's\n"           \
	"  --memory-gib N   the chip's memory size, a CPU's RAM, custom's memory\n"                \
	"  --bandwidth-gbs N, --tflops N  custom: memory GB/s, dense FP16 TFLOPS\n"                \
	"                   (a CPU: its FP32 SIMD peak)\n"                                         \
	"  --kind K         custom: gpu (default), unified or cpu\n"                               \
	"  --threads N      CPU threads llama.cpp runs (default: every core)\n"                    \
	"  --offload auto|N llama.cpp -ngl: N layers (auto: the most that fit) on the\n"           \
	"                   GPU, the rest in host RAM; needs --ram-gib N, its free RAM\n"          \
	"  --ram-gbs N      the host RAM's bandwidth (default 83.2, DDR5-5200 x2)\n"               \
	"  --input N        mean prompt tokens per request (with --output: the\n"                  \
	"                   request shape; decode attends to input + output/2)\n"                  \
	"  --output N       mean output tokens per request\n"                                      \
	"  --kv-cache D     bf16 (default) or fp8 (llama.cpp: q8_0)\n"                             \
	"  --lora-rank R    LoRA/QLoRA adapter rank (default 16)\n"                                \
	"  --lora-targets T all-linear (default) or attention (q, k, v, o only)\n"                 \
	"  --micro-batch N  fine-tuning: sequences per GPU at once; gradient\n"                    \
	"                   accumulation makes up --batch (default: the batch,\n"                  \
	"                   split over the GPUs)\n"                                                \
	"  --optimizer O    adamw (fp32 moments), adamw-bf16, adamw-8bit or\n"                     \
	"                   paged-adamw-8bit (default: the engine's)\n"                            \
	"  --measured FILE  a benchmark of this model, precision and engine on --gpu\n"            \
	"                   (--gpus N, default 1): llama-bench -o json, vllm bench\n"              \
	"                   serve --save-result, GuideLLM or AIPerf/genai-perf JSON;\n"            \
	"                   its row shows the measured speed\n"                                    \
	"  --checkpointing C on (default: every layer recomputed), off (every layer\n"             \
	"                   keeps its activations, no recompute) or selective (the\n"              \
	"                   attention core alone recomputed)\n"                                    \
	"  --format F       table (default), json or csv\n\n"                                      \
	"example:\n  planner fit llama-3.1-70b --precision q4_k_m --context 32K\n"                 \
	"  planner fit llama-3.1-70b --precision q4_k_m --gpu 4090 --gpus 2\n"                     \
	"  planner fit llama-3.1-70b --precision q4_k_m --gpu \"M3 Max\" --memory-gib 64\n"        \
	"  planner fit --gpu \"M2 Max\" --memory-gib 32\n"                                         \
	"  planner fit llama-3.1-8b --task finetune-qlora --lora-rank 64 "                         \
	"--optimizer adamw-8bit\n"

static void describe(void)
{
	char inference[256], training[256], text[768];
	snprintf(fit_help, sizeof fit_help, "%s  --engine E       ", HELP_HEAD);
	snprintf(text, sizeof text, "%s (inference);",
	         engine_names_for(false, ", ", ", ", inference, sizeof inference));
	cli_fill(fit_help, sizeof fit_help, HELP_INDENT, HELP_INDENT, HELP_WIDTH, text);
	size_t n = strlen(fit_help);
	snprintf(fit_help + n, sizeof fit_help - n, "%*s", HELP_INDENT, "");
	snprintf(text, sizeof text,
	         "%s (fine-tuning). Default: %s for GGUF precisions, %s for other inference, %s "
	         "for fine-tuning",
	         engine_names_for(true, ", ", ", ", training, sizeof training),
	         engine_for(false, "q4_k_m")->name, engine_default()->name,
	         engine_for(true, NULL)->name);
	cli_fill(fit_help, sizeof fit_help, HELP_INDENT, HELP_INDENT, HELP_WIDTH, text);
	n = strlen(fit_help);
	snprintf(fit_help + n, sizeof fit_help - n, "%s", HELP_TAIL);
}

/* --measured FILE: read it, measured on what fit's own flags say. */
static int fit_measured(struct cli *c, struct fit_args *a)
{
	struct measured_entry *e = &a->measured;
	if (!e->file)
		return PLANNER_OK;
	if (!a->gpu || a->n_variants)
		return cli_usage(c,
		                 "--measured %s needs --gpu G, the GPU it was measured on "
		                 "(with --gpus N when more than one)",
		                 e->file);
	e->gpu = a->gpu;
	e->count = a->gpus > 0 ? a->gpus : 1;
	char *err = NULL;
	int rc = measured_load(e->file, &e->m, &err);
	if (rc != PLANNER_OK) {
		errorf("--measured: %s", err);
		free(err);
		return rc;
	}
	return PLANNER_OK;
}

/* fit's options for the job's shape: --context, --batch, --input, --output. */
static int fit_shape_option(struct cli *c, struct fit_args *a, int opt)
{
	double v;
	switch (opt) {
	case 'c':
		if (!parse_context(optarg, &v) || v < 1 || v > 1e8)
			return cli_usage(c, "--context wants a token count, e.g. 8192 or 128K");
		a->context = (long)v;
		break;
	case 'b':
		if (!strcmp(optarg, "max")) {
			a->batch_max = true;
			break;
		}
		if (!parse_count(optarg, &v) || v < 1 || v > 4096)
			return cli_usage(c, "--batch wants 1 to 4096 concurrent sequences, "
			                    "or max");
		a->batch = (int)v;
		break;
	case 'i':
	case 'o':
		if (!parse_count(optarg, &v) || v < 1 || v > 1e8)
			return cli_usage(c, "--%s wants mean tokens per request, e.g. 512",
			                 opt == 'i' ? "input" : "output");
		*(opt == 'i' ? &a->input : &a->output) = v;
		break;
	}
	return PLANNER_OK;
}

static int exec_fit(struct cli *c, int argc, char **argv)
{
	struct fit_args a = {
	    .precision = "bf16", .context = 4096, .batch = 1, .offload = OFFLOAD_NONE};
	const char *engine = NULL, *gpu = NULL, *precision = NULL;
	int opt, rc;
	double v;
	describe();
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hp:c:b:t:e:g:n:i:o:k:", fit_opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			a.precision = precision = optarg;
			break;
		case 'c':
		case 'b':
		case 'i':
		case 'o':
			if ((rc = fit_shape_option(c, &a, opt)))
				return rc;
			break;
		case 'k':
			a.kv_cache = optarg;
			break;
		case 't':
			if (!parse_task(optarg, &a.task))
				return cli_usage(c,
				                 "unknown task '%s'; use inference, finetune-lora, "
				                 "finetune-qlora or finetune-full",
				                 optarg);
			break;
		case 'e':
			engine = optarg;
			break;
		case 'g':
			gpu = optarg;
			break;
		case 'n':
			if (!parse_count(optarg, &v) || v < 1 || v > PARALLEL_MAX_TRAIN_GPUS ||
			    v != (int)v)
				return cli_usage(c, "--gpus wants a whole number of GPUs, 1 to %d",
				                 PARALLEL_MAX_TRAIN_GPUS);
			a.gpus = (int)v;
			break;
		case OPT_PARALLEL:
			if ((rc = fit_parallel_option(c, &a, optarg)))
				return rc;
			break;
		case OPT_MEASURED:
			a.measured.file = optarg;
			break;
		default:
			/* fit's long-only options, then the common ones. */
			rc = opt >= OPT_MEMORY_GIB  ? fit_device_option(c, &a, opt)
			     : opt >= OPT_LORA_RANK ? fit_train_option(c, &a, opt)
			                            : cli_other_option(c, opt, optarg);
			if (rc)
				return rc;
		}
	}
	/* --gpu alone: the models that fit it (cmd_fit_models.c). */
	if (optind == argc && gpu) {
		if ((rc = fit_check(c, &a, engine, gpu)))
			return rc;
		return fit_models(c, &a, precision != NULL, engine != NULL);
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one model: a reference id or a config.json path (or "
		                    "--gpu G alone to list the models that fit it)");
	a.model = argv[optind];
	if ((rc = fit_check(c, &a, engine, gpu)) || (rc = fit_measured(c, &a)))
		return rc;
	rc = fit_model(c, &a);
	measured_free(&a.measured.m);
	return rc;
}

const struct cmd_entry cmd_fit_entry = {
    .name = "fit",
    .args = "MODEL [--precision P] [--context N] [--batch N] [--task T] [--engine E] "
            "[--gpu G [--gpus N [--parallel L]]] [--memory-gib N] [--bandwidth-gbs N --tflops N] [--kind K] "
            "[--threads N] [--offload auto|N --ram-gib N [--ram-gbs N]] [--input N --output M] "
            "[--kv-cache D] [--lora-rank R] "
            "[--lora-targets T] [--micro-batch N] [--optimizer O] [--checkpointing C] "
            "[--measured FILE] [--format F]",
    .summary = "memory a model needs, and which GPUs (and how many) it fits on",
    .help = fit_help,
    .exec = exec_fit,
};
