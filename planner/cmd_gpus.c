/* cmd_gpus.c — `planner gpus`: the GPUs planner knows (schema/gpus.json),
 * with memory, memory type, bandwidth, tensor rates, power and price, each
 * with its source in JSON. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void add_num_or_null(cJSON *o, const char *key, double v)
{
	if (v > 0)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* What a chip or CPU adds: its family, memory sizes, cores and ISA. */
static void add_local_fields(cJSON *x, const struct gpu_spec *g)
{
	if (g->family)
		cJSON_AddStringToObject(x, "family", g->family);
	cJSON *m = cJSON_AddArrayToObject(x, "memory_options_gib");
	for (size_t k = 0; k < g->n_memory_options; k++)
		cJSON_AddItemToArray(m, cJSON_CreateNumber(g->memory_options[k]));
	add_num_or_null(x, "threads", g->threads);
	if (g->isa)
		cJSON_AddStringToObject(x, "isa", g->isa);
}

static int print_json(const struct refdata *ref)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		cJSON *x = cJSON_CreateObject(), *al = cJSON_CreateArray();
		cJSON_AddStringToObject(x, "name", g->name);
		cJSON_AddStringToObject(x, "vendor", g->vendor);
		cJSON_AddStringToObject(x, "kind", device_kind_name(g->kind));
		for (size_t a = 0; a < g->n_aliases; a++)
			cJSON_AddItemToArray(al, cJSON_CreateString(g->aliases[a]));
		cJSON_AddItemToObject(x, "aliases", al);
		cJSON_AddNumberToObject(x, "vram_gib", g->vram_gib);
		cJSON_AddStringToObject(x, "memory_type", g->memory_type ? g->memory_type : "");
		cJSON_AddNumberToObject(x, "bandwidth_gbs", g->bandwidth_gbs);
		cJSON_AddNumberToObject(x, "fp16_tflops", g->fp16_tflops);
		add_num_or_null(x, "fp8_tflops", g->fp8_tflops);
		add_num_or_null(x, "fp4_tflops", g->fp4_tflops);
		add_num_or_null(x, "int8_tops", g->int8_tops);
		cJSON_AddNumberToObject(x, "watts", g->watts);
		add_num_or_null(x, "price_usd", g->price_usd);
		if (g->kind != DEVICE_GPU)
			add_local_fields(x, g);
		cJSON_AddStringToObject(x, "source", g->source ? g->source : "");
		if (g->price_source)
			cJSON_AddStringToObject(x, "price_source", g->price_source);
		cJSON_AddItemToArray(arr, x);
	}
	return cli_print_json(arr);
}

static void print_csv(const struct refdata *ref)
{
	printf("name,vendor,vram_gib,memory_type,bandwidth_gbs,fp16_tflops,fp8_tflops,int8_tops,"
	       "watts,price_usd,source,kind\n");
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		csv_field(stdout, g->name);
		putchar(',');
		csv_field(stdout, g->vendor);
		printf(",%.2f,", g->vram_gib);
		csv_field(stdout, g->memory_type ? g->memory_type : "");
		printf(",%.0f,%.1f,%.1f,%.1f,%.0f,", g->bandwidth_gbs, g->fp16_tflops,
		       g->fp8_tflops, g->int8_tops, g->watts);
		if (g->price_usd > 0)
			printf("%.0f", g->price_usd);
		putchar(',');
		csv_field(stdout, g->source ? g->source : "");
		printf(",%s\n", device_kind_name(g->kind));
	}
}

static void print_table(const struct cli *c, const struct refdata *ref)
{
	cli_wrap(c, 4, "%-18s %-7s %-6s %7s %-7s %6s %7s %7s %5s %7s", "gpu", "kind", "vendor",
	         "GiB", "memory", "GB/s", "fp16", "fp8", "W", "USD");
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		char fp8[16] = "-", price[16] = "-";
		if (g->fp8_tflops > 0)
			snprintf(fp8, sizeof fp8, "%.0f", g->fp8_tflops);
		if (g->price_usd > 0)
			snprintf(price, sizeof price, "%.0f", g->price_usd);
		cli_wrap(c, 4, "%-18s %-7s %-6s %7.2f %-7s %6.0f %7.1f %7s %5.0f %7s", g->name,
		         device_kind_name(g->kind), g->vendor, g->vram_gib,
		         g->memory_type ? g->memory_type : "-", g->bandwidth_gbs, g->fp16_tflops,
		         fp8, g->watts, price);
	}
	printf(
	    "\nfp16/fp8: dense tensor TFLOPS with FP32 accumulate (a CPU: its FP32 SIMD peak); "
	    "GiB: a chip's smallest memory size, a CPU's typical RAM ('planner gpus --format json' "
	    "lists the sizes); reference data as of %s\n",
	    ref->as_of ? ref->as_of : "?");
}

static int exec_gpus(struct cli *c, int argc, char **argv)
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

const struct cmd_entry cmd_gpus_entry = {
    .name = "gpus",
    .args = "[--format table|json|csv]",
    .summary = "the GPUs, Apple chips and CPUs planner knows: memory, bandwidth, TFLOPS, "
               "watts, price",
    .help = "Lists every GPU in planner's reference table (schema/gpus.json): memory in GiB\n"
            "and its type (GDDR or HBM), bandwidth, dense FP16/BF16 and FP8 tensor TFLOPS\n"
            "with FP32 accumulate (the rate PyTorch and serving kernels get; GeForce cards\n"
            "run it at half their FP16-accumulate rate), board power and purchase price.\n"
            "JSON and CSV carry each card's source. The kind column says gpu, unified (an\n"
            "Apple M-series or Strix Halo chip whose GPU shares memory with the CPU) or\n"
            "cpu; fit takes their names with --gpu. A card not listed can be described\n"
            "in a job spec's gpus: block, or to fit with --gpu custom.\n\n"
            "options:\n"
            "  --format F       table (default), json or csv\n\n"
            "example:\n  planner gpus --format json\n",
    .exec = exec_gpus,
};
