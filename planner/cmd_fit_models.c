/* cmd_fit_models.c — `planner fit --gpu G` with no model: which of the
 * reference models, at which quantisation, fit this machine, fastest
 * first by decode tokens/s, as LM Studio's model browser lists what runs
 * on the Mac at hand (issue 28.6). The rows are fit's own lines
 * (cmd_fit.c), one per model, precision and variant of the device. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_fit.h"
#include "engines.h"
#include "util.h"

/* The quantisations a model is offered at: llama.cpp's GGUF files as
 * LM Studio and Ollama list them (16-bit, then q8_0 to q4_k_m), and the
 * checkpoints vLLM-class engines load (16-bit, FP8, 4-bit AWQ/GPTQ). */
static const char *const gguf_precisions[] = {"bf16", "q8_0", "q6_k", "q5_k_m", "q4_k_m"};
static const char *const server_precisions[] = {"fp8", "int4"};

/* One model at one precision that fits one variant of the device. */
struct fit_model_row {
	const struct model_spec *m;
	const struct precision_info *p;
	const struct engine *e;
	struct gpu_spec g; /* the variant, its memory size in vram_gib */
	double need_gib;   /* the model's memory at the context and batch */
	double tps;        /* decode tokens/s of one stream */
};

/* What the pass over models x precisions x variants has gathered. */
struct fit_model_list {
	struct fit_model_row *rows;
	size_t n, cap;
	size_t tried; /* pairings looked at, fitting or not */
};

/* The engine row r runs under: --engine, llama.cpp on a Mac or a CPU
 * (fit_device_check set it), else the default for the precision. */
static const struct engine *row_engine(const struct fit_args *a, const char *precision,
                                       bool engine_given)
{
	bool local = a->n_variants && a->variants[0].gpu->kind != DEVICE_GPU;
	return engine_given || local ? a->engine : engine_for(false, precision);
}

/* Adds model m at precision p on every variant it fits to list; returns
 * false when out of memory. */
static bool try_model(const struct fit_args *base, const struct model_spec *m,
                      const struct precision_info *p, const struct engine *e,
                      struct fit_model_list *list)
{
	struct fit_args a = *base;
	a.engine = e;
	a.precision = p->name;
	struct vram_need need;
	struct vram_job vj = fit_job(&a, a.batch);
	vram_estimate_job(e, m, p, &vj, &need);
	size_t rows = a.n_variants ? a.n_variants : 1;
	for (size_t i = 0; i < rows; i++) {
		struct gpu_spec g = a.n_variants ? *a.variants[i].gpu : *a.gpu;
		if (a.n_variants)
			g.vram_gib = a.variants[i].memory_gib;
		struct fit_line l;
		fit_line(&a, m, p, &need, &g, &l);
		list->tried++;
		if (!l.fits)
			continue;
		if (list->n == list->cap) {
			size_t cap = list->cap ? list->cap * 2 : 64;
			void *more = realloc(list->rows, cap * sizeof *list->rows);
			if (!more)
				return false;
			list->rows = more;
			list->cap = cap;
		}
		list->rows[list->n++] = (struct fit_model_row){.m = m,
		                                               .p = p,
		                                               .e = e,
		                                               .g = g,
		                                               .need_gib = need.total_gib,
		                                               .tps = l.s.stream_tps};
	}
	return true;
}

/* Tries model m at each precision the list offers under its engine. */
static bool try_precisions(const struct fit_args *a, const struct model_spec *m,
                           bool precision_given, bool engine_given, struct fit_model_list *list)
{
	if (precision_given) {
		const struct precision_info *p = precision_find(a->precision);
		return try_model(a, m, p, row_engine(a, p->name, engine_given), list);
	}
	const char *const *lists[] = {gguf_precisions, server_precisions};
	size_t lens[] = {sizeof gguf_precisions / sizeof *gguf_precisions,
	                 sizeof server_precisions / sizeof *server_precisions};
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < lens[k]; i++) {
			const struct engine *e = row_engine(a, lists[k][i], engine_given);
			bool gguf = !strcmp(e->name, "llama.cpp");
			/* llama.cpp runs GGUF files; the others the checkpoints. */
			if (k == 1 && gguf)
				continue;
			if (k == 0 && !gguf && i > 0)
				continue;
			if (!try_model(a, m, precision_find(lists[k][i]), e, list))
				return false;
		}
	return true;
}

/* Fastest first; on a tie the smaller need, then the model's id. */
static int row_cmp(const void *x, const void *y)
{
	const struct fit_model_row *a = x, *b = y;
	if (a->tps != b->tps)
		return a->tps > b->tps ? -1 : 1;
	if (a->need_gib != b->need_gib)
		return a->need_gib < b->need_gib ? -1 : 1;
	return strcmp(a->m->id, b->m->id);
}

/* The device asked about: the chip as people name it when --gpu named
 * a family ("M2 Max"), else the one part. */
static const char *fit_models_device(const struct fit_args *a)
{
	const struct gpu_spec *g = a->n_variants ? a->variants[0].gpu : a->gpu;
	return g->family ? g->family : g->name;
}

/* The device column: a variant with its memory size, a GPU by name. */
static const char *row_gpu(const struct fit_args *a, const struct fit_model_row *r, char *buf,
                           size_t len)
{
	if (a->n_variants)
		snprintf(buf, len, "%s %.0f GiB", r->g.name, r->g.vram_gib);
	else
		snprintf(buf, len, "%s", r->g.name);
	return buf;
}

static int print_json(const struct fit_args *a, const struct fit_model_list *list)
{
	cJSON *root = json_doc_new("planner/fit-models/v1");
	cJSON_AddStringToObject(root, "gpu", fit_models_device(a));
	cJSON_AddNumberToObject(root, "context", (double)a->context);
	if (a->batch_max)
		cJSON_AddStringToObject(root, "batch", "max");
	else
		cJSON_AddNumberToObject(root, "batch", a->batch);
	cJSON *arr = cJSON_AddArrayToObject(root, "models");
	for (size_t i = 0; i < list->n; i++) {
		const struct fit_model_row *r = &list->rows[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "model", r->m->id);
		cJSON_AddStringToObject(o, "precision", r->p->name);
		cJSON_AddStringToObject(o, "engine", r->e->name);
		cJSON_AddStringToObject(o, "gpu", r->g.name);
		cJSON_AddNumberToObject(o, "memory_gib", round_to(r->g.vram_gib, 2));
		cJSON_AddNumberToObject(o, "need_gib", round_to(r->need_gib, 2));
		cJSON_AddNumberToObject(o, "decode_tokens_per_second", round_to(r->tps, 1));
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(root, "left_out", (double)(list->tried - list->n));
	return cli_print_json(root);
}

/* --batch as given: a number, or max (each row's most that fit). */
static const char *batch_text(const struct fit_args *a, char *buf, size_t len)
{
	if (a->batch_max)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%d", a->batch);
	return buf;
}

static void print_text(const struct cli *c, const struct fit_args *a,
                       const struct fit_model_list *list)
{
	char gpu[96], batch[16];
	bool csv = c->format == FORMAT_CSV;
	if (csv)
		fputs("model,precision,engine,gpu,memory_gib,need_gib,decode_tokens_per_second\r\n",
		      stdout);
	else
		printf("models that fit %s, context %ld, batch %s, fastest first\n\n",
		       fit_models_device(a), a->context, batch_text(a, batch, sizeof batch));
	if (!csv)
		printf("%-22s %-9s %-10s %-24s %8s %8s\n", "model", "precision", "engine", "gpu",
		       "GiB", "tok/s");
	for (size_t i = 0; i < list->n; i++) {
		const struct fit_model_row *r = &list->rows[i];
		if (csv) {
			csv_field(stdout, r->m->id);
			printf(",%s,%s,", r->p->name, r->e->name);
			csv_field(stdout, r->g.name);
			printf(",%.2f,%.2f,%.1f\r\n", r->g.vram_gib, r->need_gib, r->tps);
		} else
			printf("%-22s %-9s %-10s %-24s %8.2f %8.0f\n", r->m->id, r->p->name,
			       r->e->name, row_gpu(a, r, gpu, sizeof gpu), r->need_gib, r->tps);
	}
	if (csv)
		return;
	if (!list->n)
		printf("(none of the %zu models fits)\n", c->ref->n_models);
	printf("\n(GiB: the model's memory at this context and batch; tok/s: decode, one "
	       "stream; %zu more pairings of model, precision and %s do not fit)\n",
	       list->tried - list->n, a->n_variants ? "memory size" : "GPU");
}

int fit_models(struct cli *c, struct fit_args *a, bool precision_given, bool engine_given)
{
	if (a->task != TASK_INFERENCE)
		return cli_usage(c,
		                 "with no model, fit lists the models that fit for inference; "
		                 "give a model for --task %s",
		                 task_name(a->task));
	if (a->offload != OFFLOAD_NONE)
		return cli_usage(c, "--offload needs a model: planner fit MODEL --gpu G --offload "
		                    "auto --ram-gib N");
	/* One GPU, or --gpus of them: what the machine has, not the most
	 * the engine could split over. */
	if (!a->n_variants && a->gpus == 0)
		a->gpus = 1;
	struct fit_model_list list = {0};
	int rc = PLANNER_OK;
	for (size_t i = 0; i < c->ref->n_models; i++)
		if (!try_precisions(a, &c->ref->models[i], precision_given, engine_given, &list)) {
			errorf("out of memory listing the models that fit");
			rc = PLANNER_EINPUT;
			goto out;
		}
	qsort(list.rows, list.n, sizeof *list.rows, row_cmp);
	if (c->format == FORMAT_JSON)
		rc = print_json(a, &list);
	else
		print_text(c, a, &list);
out:
	free(list.rows);
	return rc;
}
