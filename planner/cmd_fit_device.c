/* cmd_fit_device.c — fit's device flags: an Apple chip, a Strix Halo PC
 * or a CPU named by --gpu (its variants, --memory-gib, --threads), --gpu
 * cpu's list, --gpu custom, and --offload's split between a GPU and host
 * RAM (local_device.h, offload.h). cmd_fit.c prints the rows. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cmd_fit.h"
#include "offload.h"

/* --gpu custom: the device the flags describe. */
static int fit_custom(struct cli *c, struct fit_args *a)
{
	char why[160];
	enum device_kind kind;
	if (!local_device_check(a->kind, a->memory_gib, a->bandwidth_gbs, a->tflops, a->threads,
	                        true, &kind, why, sizeof why))
		return cli_usage(c, "--gpu custom: %s", why);
	a->custom = (struct gpu_spec){.name = "custom",
	                              .vendor = kind == DEVICE_GPU ? "custom" : "local",
	                              .vram_gib = a->memory_gib,
	                              .bandwidth_gbs = a->bandwidth_gbs,
	                              .fp16_tflops = a->tflops,
	                              .kind = kind,
	                              .threads = a->threads};
	a->variants[0] = (struct local_variant){.gpu = &a->custom, .memory_gib = a->memory_gib};
	a->n_variants = 1;
	return PLANNER_OK;
}

/* --gpu cpu: the CPUs planner knows and how to describe another. */
static int fit_cpu_list(struct cli *c)
{
	char list[1024] = "";
	size_t at = 0;
	for (size_t i = 0; i < c->ref->n_gpus && at < sizeof list; i++)
		if (c->ref->gpus[i].kind == DEVICE_CPU)
			at += (size_t)snprintf(list + at, sizeof list - at, "%s'%s'",
			                       at ? ", " : "", c->ref->gpus[i].name);
	return cli_usage(c,
	                 "--gpu cpu: name the CPU (%s), with --memory-gib N for its RAM, or "
	                 "describe it: --gpu custom --kind cpu --memory-gib N --bandwidth-gbs N "
	                 "--tflops N [--threads N]",
	                 list);
}

/* A name that is not a GPU: the variants of the chip or CPU it names. */
static int fit_local(struct cli *c, struct fit_args *a, const char *gpu)
{
	char sizes[160];
	a->n_variants = local_device_variants(c->ref, gpu, a->memory_gib, a->variants,
	                                      sizeof a->variants / sizeof a->variants[0]);
	if (a->n_variants > sizeof a->variants / sizeof a->variants[0])
		a->n_variants = sizeof a->variants / sizeof a->variants[0];
	if (a->n_variants)
		return PLANNER_OK;
	if (local_device_sizes(c->ref, gpu, sizes, sizeof sizes)[0])
		return cli_usage(c, "--memory-gib %g: %s is sold with %s GiB", a->memory_gib, gpu,
		                 sizes);
	const char *near = local_device_suggest(c->ref, gpu);
	return cli_usage(c,
	                 "unknown GPU '%s'%s%s%s; 'planner gpus' lists them, --gpu custom "
	                 "describes one",
	                 gpu, near ? "; did you mean '" : "", near ? near : "", near ? "'" : "");
}

/* --gpu and the device flags: a GPU of the table, the variants of a chip
 * or CPU, or the device --gpu custom describes. */
static int fit_named(struct cli *c, struct fit_args *a, const char *gpu)
{
	bool described = a->bandwidth_gbs > 0 || a->tflops > 0 || a->kind;
	if (!gpu && (described || a->memory_gib > 0 || a->threads))
		return cli_usage(c, "--memory-gib, --bandwidth-gbs, --tflops, --kind and --threads "
		                    "describe the --gpu: add --gpu NAME or --gpu custom");
	if (!gpu)
		return PLANNER_OK;
	if (!strcasecmp(gpu, "custom"))
		return fit_custom(c, a);
	if (described)
		return cli_usage(c,
		                 "--bandwidth-gbs, --tflops and --kind describe --gpu custom; "
		                 "'%s' has its own",
		                 gpu);
	if (!strcasecmp(gpu, "cpu"))
		return fit_cpu_list(c);
	const struct gpu_spec *g = refdata_gpu(c->ref, gpu);
	if (g && g->kind == DEVICE_GPU) {
		if (a->memory_gib > 0 || a->threads)
			return cli_usage(
			    c,
			    "--%s is for a chip sold with several memory sizes or a CPU; "
			    "%s has %.0f GiB",
			    a->threads ? "threads" : "memory-gib", g->name, g->vram_gib);
		a->gpu = g;
		return PLANNER_OK;
	}
	return fit_local(c, a, gpu);
}

/* Whether fit answers for a Mac, a Strix Halo PC or a CPU. */
static bool fit_is_local(const struct fit_args *a)
{
	return a->n_variants && a->variants[0].gpu->kind != DEVICE_GPU;
}

/* The engine on a Mac or a CPU: llama.cpp, inference, one machine. */
static int fit_local_engine(struct cli *c, struct fit_args *a, const char *engine)
{
	const struct engine *cpp = engine_find("llama.cpp");
	const struct gpu_spec *g = a->variants[0].gpu;
	const char *name = g->family ? g->family : g->name;
	if (engine && a->engine != cpp)
		return cli_usage(c,
		                 "engine '%s' does not run on %s here; planner models llama.cpp on "
		                 "Apple Silicon, Strix Halo and CPUs (--engine llama.cpp)",
		                 a->engine->name, name);
	if (a->task != TASK_INFERENCE)
		return cli_usage(c,
		                 "fine-tuning on %s is not modelled; planner models llama.cpp "
		                 "inference there",
		                 name);
	if (a->gpus > 1)
		return cli_usage(c, "--gpus %d: %s is one machine; leave out --gpus", a->gpus,
		                 name);
	a->engine = cpp;
	return PLANNER_OK;
}

/* --offload needs --ram-gib (planner never reads this machine's RAM into
 * an answer), one GPU at a time, inference and llama.cpp, its default. */
static int fit_offload_check(struct cli *c, struct fit_args *a, const char *engine)
{
	if (a->offload == OFFLOAD_NONE)
		return a->ram_gib > 0 || a->ram_gbs > 0
		           ? cli_usage(c,
		                       "--ram-gib and --ram-gbs describe the host RAM of --offload")
		           : PLANNER_OK;
	if (!(a->ram_gib > 0))
		return cli_usage(c, "--offload needs --ram-gib N, the host RAM free for the model "
		                    "(planner does not read this machine's)");
	if (fit_is_local(a))
		return cli_usage(c,
		                 "--offload splits a model between a GPU and host RAM; %s's "
		                 "memory is already the machine's",
		                 a->variants[0].gpu->name);
	if (a->gpus > 1 || a->task != TASK_INFERENCE || a->batch_max)
		return cli_usage(c, "--offload models inference on one GPU and host RAM%s",
		                 a->gpus > 1    ? "; leave out --gpus"
		                 : a->batch_max ? ", at a given --batch"
		                                : "");
	if (!engine)
		a->engine = engine_find("llama.cpp");
	else if (strcmp(a->engine->name, "llama.cpp"))
		return cli_usage(c,
		                 "--offload: %s's own offload (vLLM --cpu-offload-gb, "
		                 "TensorRT-LLM) is not modelled; --offload is llama.cpp's -ngl",
		                 a->engine->name);
	if (!(a->ram_gbs > 0))
		a->ram_gbs = OFFLOAD_HOST_GBS;
	return PLANNER_OK;
}

/* --memory-gib, --bandwidth-gbs, --tflops, --kind, --threads into a;
 * their ranges are checked with the device (fit_device). */
static int fit_flag_option(struct cli *c, struct fit_args *a, int opt)
{
	static const char *const flag[] = {"memory-gib", "bandwidth-gbs", "tflops"};
	double v;
	if (opt == OPT_KIND) {
		a->kind = optarg;
		return PLANNER_OK;
	}
	if (!parse_count(optarg, &v) || !(v > 0) ||
	    (opt == OPT_THREADS && (v != (int)v || v > 4096)))
		return opt == OPT_THREADS
		           ? cli_usage(c,
		                       "--threads wants a whole number of CPU threads, 1 to 4096")
		           : cli_usage(c, "--%s wants a number above 0",
		                       flag[opt - OPT_MEMORY_GIB]);
	if (opt == OPT_THREADS)
		a->threads = (int)v;
	else
		*(opt == OPT_MEMORY_GIB  ? &a->memory_gib
		  : opt == OPT_BANDWIDTH ? &a->bandwidth_gbs
		                         : &a->tflops) = v;
	return PLANNER_OK;
}

/* --offload, --ram-gib, --ram-gbs into a (checked in fit_offload_check). */
static int fit_offload_option(struct cli *c, struct fit_args *a, int opt)
{
	double v;
	if (opt == OPT_OFFLOAD && !strcmp(optarg, "auto")) {
		a->offload = OFFLOAD_AUTO;
		return PLANNER_OK;
	}
	bool ok = parse_count(optarg, &v) && v >= (opt == OPT_OFFLOAD ? 0 : 1e-3) && v <= 1e6;
	if (opt == OPT_OFFLOAD && (!ok || v != (int)v))
		return cli_usage(c, "--offload wants auto or the layers to keep on the GPU (as "
		                    "llama.cpp's -ngl), e.g. --offload 20");
	if (!ok)
		return cli_usage(c, "--%s wants a number above 0",
		                 opt == OPT_RAM_GIB ? "ram-gib" : "ram-gbs");
	if (opt == OPT_OFFLOAD)
		a->offload = (int)v;
	else
		*(opt == OPT_RAM_GIB ? &a->ram_gib : &a->ram_gbs) = v;
	return PLANNER_OK;
}

int fit_device_check(struct cli *c, struct fit_args *a, const char *engine, const char *gpu)
{
	int rc = fit_named(c, a, gpu);
	if (!rc && fit_is_local(a))
		rc = fit_local_engine(c, a, engine);
	return rc ? rc : fit_offload_check(c, a, engine);
}

int fit_device_option(struct cli *c, struct fit_args *a, int opt)
{
	return opt >= OPT_OFFLOAD ? fit_offload_option(c, a, opt) : fit_flag_option(c, a, opt);
}
