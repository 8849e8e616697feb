/* cmd_fit.c — `planner fit MODEL`: memory a model needs and which GPUs
 * (and how many) it fits on, before any price is considered. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "speed.h"
#include "vram.h"

struct fit_args {
	const char *model;
	const char *precision; /* default bf16 */
	long context;          /* default 4096 */
	int batch;             /* default 1 */
	enum task task;
};

static bool parse_task(const char *s, enum task *t)
{
	for (int i = TASK_INFERENCE; i <= TASK_FINETUNE_FULL; i++)
		if (!strcmp(s, task_name((enum task)i))) {
			*t = (enum task)i;
			return true;
		}
	return false;
}

/* Prints the model's memory need and, per GPU in the reference data, how
 * many it takes and how fast they run. fit takes no job spec, so no engine
 * profile of a job: it shows the default profile's figures. */
static int print_fit(const struct cli *c, const struct fit_args *a, const struct model_spec *m,
		     const struct precision_info *p)
{
	const struct engine *e = engine_default();
	struct vram_need need;
	vram_estimate(e, m, p, a->task, a->context, a->batch, &need);
	cJSON *root = NULL, *gpus = NULL;
	if (c->format == FORMAT_JSON) {
		root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "model", m->id);
		cJSON_AddStringToObject(root, "precision", p->name);
		cJSON_AddStringToObject(root, "task", task_name(a->task));
		cJSON_AddNumberToObject(root, "context", (double)a->context);
		cJSON_AddNumberToObject(root, "batch", a->batch);
		cJSON_AddNumberToObject(root, "params_total", m->params_total);
		cJSON_AddNumberToObject(root, "params_active", m->params_active);
		cJSON *n = cJSON_AddObjectToObject(root, "need");
		cJSON_AddNumberToObject(n, "weights_gib", round_to(need.weights_gib, 2));
		cJSON_AddNumberToObject(n, "kv_cache_gib", round_to(need.kv_gib, 2));
		cJSON_AddNumberToObject(n, "training_gib", round_to(need.training_gib, 2));
		cJSON_AddNumberToObject(n, "activation_gib", round_to(need.activation_gib, 2));
		cJSON_AddNumberToObject(n, "overhead_gib", round_to(need.overhead_gib, 2));
		cJSON_AddNumberToObject(n, "total_gib", round_to(need.total_gib, 2));
		gpus = cJSON_AddArrayToObject(root, "gpus");
	} else if (c->format == FORMAT_CSV) {
		fputs("gpu,vram_gib,gpus_needed,per_gpu_gib,tokens_per_second\r\n", stdout);
	} else {
		printf("%s at %s, %s, context %ld, batch %d (%.2fB parameters, %.2fB active)\n",
		       m->id, p->name, task_name(a->task), a->context, a->batch,
		       m->params_total / 1e9, m->params_active / 1e9);
		printf("  weights %.2f GiB + KV cache %.2f GiB + training state %.2f GiB + "
		       "activations %.2f GiB + overhead %.2f GiB per GPU\n",
		       need.weights_gib, need.kv_gib, need.training_gib, need.activation_gib,
		       need.overhead_gib);
		printf("  = %.2f GiB on one GPU\n\n", need.total_gib);
		printf("%-16s %8s %6s %12s %12s\n", "gpu", "GiB", "gpus", "GiB per GPU", "tok/s");
	}
	for (size_t i = 0; i < c->ref->n_gpus; i++) {
		const struct gpu_spec *g = &c->ref->gpus[i];
		int n = vram_min_gpus(e, &need, g);
		struct speed_est s = {0};
		if (n > 0)
			speed_estimate(e, m, p, g, n, a->task, a->context, a->batch, &s);
		double tps = a->task == TASK_INFERENCE ? s.decode_tps : s.train_tps;
		double per = n > 0 ? vram_per_gpu(&need, n) : NAN;
		if (gpus) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "gpu", g->name);
			cJSON_AddStringToObject(o, "vendor", g->vendor);
			cJSON_AddNumberToObject(o, "vram_gib", round_to(g->vram_gib, 2));
			if (n > 0) {
				cJSON_AddNumberToObject(o, "gpus_needed", n);
				cJSON_AddNumberToObject(o, "per_gpu_gib", round_to(per, 2));
				cJSON_AddNumberToObject(o, "tokens_per_second", round_to(tps, 1));
			} else {
				cJSON_AddNullToObject(o, "gpus_needed");
			}
			cJSON_AddItemToArray(gpus, o);
		} else if (c->format == FORMAT_CSV) {
			csv_field(stdout, g->name);
			printf(",%.2f,", g->vram_gib);
			if (n > 0)
				printf("%d,%.2f,%.1f", n, per, tps);
			else
				printf(",,");
			fputs("\r\n", stdout);
		} else if (n > 0) {
			printf("%-16s %8.1f %6d %12.2f %12.0f\n", g->name, g->vram_gib, n, per, tps);
		} else {
			printf("%-16s %8.1f %6s %12s %12s\n", g->name, g->vram_gib, "no", "-", "-");
		}
	}
	if (root)
		return cli_print_json(root);
	if (c->format == FORMAT_TABLE) {
		printf(
		    "\n(\"no\": more than %d GPUs of that kind; tok/s: decode, all %d streams)\n",
		    e->max_tp, a->batch);
	}
	return PLANNER_OK;
}

static int exec_fit(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
					     {"precision", required_argument, NULL, 'p'},
					     {"context", required_argument, NULL, 'c'},
					     {"batch", required_argument, NULL, 'b'},
					     {"task", required_argument, NULL, 't'},
					     {0, 0, 0, 0}};
	struct fit_args a = {.precision = "bf16", .context = 4096, .batch = 1};
	int opt, rc;
	double v;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hp:c:b:t:", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			a.precision = optarg;
			break;
		case 'c':
			if (!parse_count(optarg, &v) || v < 1 || v > 1e8)
				return cli_usage(c, "--context wants a token count, e.g. 8192 or 128K");
			/* Context sizes are powers of two: "32K" means 32768. */
			if (strpbrk(optarg, "kK"))
				v = v / 1e3 * 1024;
			a.context = (long)v;
			break;
		case 'b':
			if (!parse_count(optarg, &v) || v < 1 || v > 4096)
				return cli_usage(c, "--batch wants 1 to 4096 concurrent sequences");
			a.batch = (int)v;
			break;
		case 't':
			if (!parse_task(optarg, &a.task))
				return cli_usage(c, "unknown task '%s'; use inference, finetune-lora, "
						    "finetune-qlora or finetune-full",
						 optarg);
			break;
		default:
			if ((rc = cli_other_option(c, opt, optarg)))
				return rc;
		}
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one model: a reference id or a config.json path");
	a.model = argv[optind];
	const struct precision_info *p = precision_find(a.precision);
	if (!p) {
		const char *near = precision_suggest(a.precision);
		return cli_usage(c, "unknown precision '%s'%s%s%s", a.precision,
				 near ? "; did you mean '" : "", near ? near : "", near ? "'" : "");
	}
	struct model_spec owned = {0};
	const struct model_spec *m = refdata_model(c->ref, a.model);
	char *err = NULL;
	if (!m) {
		if (!strstr(a.model, ".json") && !strchr(a.model, '/')) {
			const char *near = refdata_model_suggest(c->ref, a.model);
			errorf("unknown model '%s'%s%s%s; give a reference id or a config.json path",
			       a.model, near ? "; did you mean '" : "", near ? near : "",
			       near ? "'" : "");
			return PLANNER_EINPUT;
		}
		if ((rc = model_from_config(a.model, &owned, &err)) != PLANNER_OK) {
			errorf("%s", err);
			free(err);
			return rc;
		}
		m = &owned;
	}
	if (a.context > m->max_context && m->max_context > 0)
		warnf("context %ld is beyond %s's maximum of %ld", a.context, m->id, m->max_context);
	rc = print_fit(c, &a, m, p);
	model_spec_clear(&owned);
	return rc;
}

const struct cmd_entry cmd_fit_entry = {
	.name = "fit",
	.args = "MODEL [--precision P] [--context N] [--batch N] [--task T] [--format F]",
	.summary = "memory a model needs, and which GPUs (and how many) it fits on",
	.help = "Estimates the GPU memory MODEL needs (weights at the precision, KV cache\n"
		"for context x batch, training state, activations, runtime overhead) and\n"
		"lists every GPU in the reference table with the fewest GPUs (1, 2, 4 or 8,\n"
		"tensor parallel) that hold it, and the decode speed there.\n\n"
		"  MODEL            a reference id (llama-3.1-70b) or a config.json path\n"
		"  --precision P    fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q4_k_m int4 ...\n"
		"                   (default bf16)\n"
		"  --context N      tokens per sequence (default 4096; 128K works)\n"
		"  --batch N        concurrent sequences (default 1)\n"
		"  --task T         inference, finetune-lora, finetune-qlora, finetune-full\n"
		"  --format F       table (default), json or csv\n\n"
		"example:\n  planner fit llama-3.1-70b --precision q4_k_m --context 32K\n",
	.exec = exec_fit,
};
