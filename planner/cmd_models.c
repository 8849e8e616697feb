/* cmd_models.c — `planner models`: the reference models planner knows
 * (schema/models.json) with their architecture, parameter counts and
 * source. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int print_json(const struct refdata *ref)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		cJSON *x = cJSON_CreateObject(), *api = cJSON_CreateArray();
		cJSON_AddStringToObject(x, "id", m->id);
		cJSON_AddStringToObject(x, "name", m->name ? m->name : m->id);
		cJSON_AddNumberToObject(x, "params_total", m->params_total);
		cJSON_AddNumberToObject(x, "params_active", m->params_active);
		cJSON_AddNumberToObject(x, "layers", m->layers);
		cJSON_AddNumberToObject(x, "hidden_size", m->hidden);
		cJSON_AddNumberToObject(x, "attention_heads", m->heads);
		cJSON_AddNumberToObject(x, "kv_heads", m->kv_heads);
		cJSON_AddNumberToObject(x, "head_dim", m->head_dim);
		cJSON_AddNumberToObject(x, "max_context", (double)m->max_context);
		cJSON_AddNumberToObject(x, "experts", m->experts);
		cJSON_AddNumberToObject(x, "experts_active", m->experts_active);
		cJSON_AddNumberToObject(x, "kv_lora_rank", m->kv_lora_rank);
		cJSON_AddNumberToObject(x, "sliding_window", m->sliding_window);
		cJSON_AddNumberToObject(x, "sliding_layers", m->sliding_layers);
		for (size_t a = 0; a < m->n_api_models; a++)
			cJSON_AddItemToArray(api, cJSON_CreateString(m->api_models[a]));
		cJSON_AddItemToObject(x, "api_models", api);
		cJSON_AddStringToObject(x, "source", m->source ? m->source : "");
		cJSON_AddItemToArray(arr, x);
	}
	return cli_print_json(arr);
}

static void print_csv(const struct refdata *ref)
{
	printf("id,name,params_total,params_active,layers,kv_heads,head_dim,max_context,experts,"
	       "experts_active,sliding_window,source\n");
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		csv_field(stdout, m->id);
		putchar(',');
		csv_field(stdout, m->name ? m->name : m->id);
		printf(",%.0f,%.0f,%d,%d,%d,%ld,%d,%d,%d,", m->params_total, m->params_active,
		       m->layers, m->kv_heads, m->head_dim, m->max_context, m->experts,
		       m->experts_active, m->sliding_window);
		csv_field(stdout, m->source ? m->source : "");
		putchar('\n');
	}
}

/* Columns of the full table, its longest notes included: narrower
 * terminals get it without the layer and head columns (in --format
 * json), as offers drops columns by width. */
#define MODELS_FULL_COLUMNS 110

/* One row, or the heading when m is NULL; notes after the figures. */
static void table_row(const struct cli *c, bool narrow, const struct model_spec *m,
                      const char *notes)
{
	if (!m && narrow)
		cli_wrap(c, 4, "%-22s %9s %9s %9s  %s", "model", "params B", "active B", "context",
		         "notes");
	else if (!m)
		cli_wrap(c, 4, "%-22s %9s %9s %6s %8s %8s %9s  %s", "model", "params B", "active B",
		         "layers", "kv heads", "head dim", "context", "notes");
	else if (narrow)
		cli_wrap(c, 4, "%-22s %9.2f %9.2f %9ld  %s", m->id, m->params_total / 1e9,
		         m->params_active / 1e9, m->max_context, notes);
	else
		cli_wrap(c, 4, "%-22s %9.2f %9.2f %6d %8d %8d %9ld  %s", m->id,
		         m->params_total / 1e9, m->params_active / 1e9, m->layers, m->kv_heads,
		         m->head_dim, m->max_context, notes);
}

static void print_table(const struct cli *c, const struct refdata *ref)
{
	bool narrow = c->term_width > 0 && c->term_width < MODELS_FULL_COLUMNS;
	table_row(c, narrow, NULL, NULL);
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		char notes[96] = "";
		size_t n = 0;
		if (m->experts > 0)
			n += (size_t)snprintf(notes + n, sizeof notes - n, "MoE %d of %d; ",
					      m->experts_active, m->experts);
		if (m->kv_lora_rank > 0 && n < sizeof notes)
			n += (size_t)snprintf(notes + n, sizeof notes - n, "MLA latent KV; ");
		if (m->sliding_layers > 0 && n < sizeof notes)
			n += (size_t)snprintf(notes + n, sizeof notes - n, "%d sliding (%d); ",
					      m->sliding_layers, m->sliding_window);
		if (n >= 2 && n < sizeof notes)
			notes[n - 2] = '\0';
		table_row(c, narrow, m, notes);
	}
	printf("\nany other model: give the path of its Hugging Face config.json\n");
}

static int exec_models(struct cli *c, int argc, char **argv)
{
	int rc = cli_common_options_only(c, argc, argv);
	if (rc)
		return rc;
	if (c->format == FORMAT_JSON)
		return print_json(c->ref);
	if (c->format == FORMAT_CSV)
		print_csv(c->ref);
	else
		print_table(c, c->ref);
	return PLANNER_OK;
}

const struct cmd_entry cmd_models_entry = {
	.name = "models",
	.args = "[--format table|json|csv]",
	.summary = "the models planner knows by name, with their architecture",
	.help = "Lists every reference model (schema/models.json) that a job's model: or\n"
		"`planner fit` accepts by name: parameters (total and active per token),\n"
		"layers, KV heads, head size, longest context, experts and sliding-window\n"
		"layers. JSON and CSV carry each model's source. Any other model can be\n"
		"given as the path of its Hugging Face config.json.\n\n"
		"options:\n"
		"  --format F       table (default), json or csv\n\n"
		"example:\n  planner models --format json\n",
	.exec = exec_models,
};
