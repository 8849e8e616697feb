/* probe.c — nvidia-smi output to GPUs and an owned: block (see probe.h). */
#include "probe.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "util.h"

/* Fields of one row: index, name, memory.total, power.limit. */
#define PROBE_FIELDS 4

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* A number, or 0 for nvidia-smi's "[N/A]", "[Not Supported]" and the
 * like. Returns false on anything else. */
static bool field_number(const char *s, double *v)
{
	if (s[0] == '[') {
		*v = 0;
		return true;
	}
	char *end;
	*v = strtod(s, &end);
	return end != s && *trim(end) == '\0' && *v >= 0;
}

/* Parses one row into g; false when it is not a GPU row. */
static bool parse_row(char *line, const struct refdata *ref, struct probe_gpu *g)
{
	char *f[PROBE_FIELDS];
	int k = 0;
	for (char *p = line; k < PROBE_FIELDS; k++) {
		f[k] = p;
		char *comma = strchr(p, ',');
		if (k == PROBE_FIELDS - 1)
			break;
		if (!comma)
			return false;
		*comma = '\0';
		p = comma + 1;
	}
	if (strchr(f[PROBE_FIELDS - 1], ','))
		return false;
	for (int i = 0; i < PROBE_FIELDS; i++)
		f[i] = trim(f[i]);
	char *end;
	long idx = strtol(f[0], &end, 10);
	double mib, watts;
	if (end == f[0] || *end || idx < 0 || !*f[1] || !field_number(f[2], &mib) ||
	    !field_number(f[3], &watts))
		return false;
	memset(g, 0, sizeof *g);
	g->index = (int)idx;
	/* nvidia-smi's name reaches the terminal, the JSON and the report:
	 * the one sanitising step (util.h) keeps escapes and bad UTF-8 out. */
	text_sanitize(g->name, sizeof g->name, f[1], NULL);
	g->gpu = refdata_gpu(ref, f[1]);
	g->vram_gib = mib / 1024.0;
	g->power_limit_w = watts;
	return true;
}

int probe_parse(const char *text, const struct refdata *ref, struct probe_gpu **out, size_t *n,
		char **err)
{
	*out = NULL;
	*n = 0;
	char *copy = strdup(text ? text : "");
	struct probe_gpu *gpus = NULL;
	size_t count = 0, lines = 1;
	for (const char *p = text ? text : ""; *p; p++)
		lines += *p == '\n' || *p == '\r'; /* strtok_r below splits at both */
	if (!copy || !(gpus = calloc(lines, sizeof *gpus))) {
		free(copy);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	char *save = NULL;
	for (char *line = strtok_r(copy, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		char *t = trim(line);
		if (!*t)
			continue;
		char quoted[160];
		snprintf(quoted, sizeof quoted, "%s", t);
		if (!parse_row(t, ref, &gpus[count])) {
			set_err(err, PLANNER_EINPUT, "nvidia-smi printed something other than GPU rows: %s",
				quoted);
			free(gpus);
			free(copy);
			return PLANNER_EINPUT;
		}
		count++;
	}
	free(copy);
	if (count == 0) {
		free(gpus);
		gpus = NULL;
	}
	*out = gpus;
	*n = count;
	return PLANNER_OK;
}

/* s with every byte outside printable ASCII as '?': the block is pasted
 * into a job spec, which must be UTF-8, and printed to a terminal, where
 * a broken driver's escape sequence must do nothing (found by fuzzing);
 * and a quote or backslash would end or escape the quoted name. */
static void printable(const char *s, char *dst, size_t len)
{
	size_t k = 0;
	for (; s[k] && k + 1 < len; k++)
		dst[k] = s[k] >= 0x20 && s[k] < 0x7f && s[k] != '"' && s[k] != '\\' ? s[k] : '?';
	dst[k] = '\0';
}

/* A card planner does not know, as comments: how to describe it in a
 * spec-level gpus: block (what nvidia-smi told, placeholders for what it
 * does not) and own it. */
static bool describe_unknown(struct buf *b, const struct probe_gpu *g, const char *name, int count)
{
	char vram[32] = "VRAM_GIB", watts[32] = "WATTS";
	if (g->vram_gib > 0)
		snprintf(vram, sizeof vram, "%.1f", g->vram_gib);
	if (g->power_limit_w >= 1 && g->power_limit_w <= JOBSPEC_MAX_WATTS)
		snprintf(watts, sizeof watts, "%.0f", g->power_limit_w);
	return buf_printf(b,
			  "  # %dx \"%s\": not in planner's GPU table ('planner gpus' lists the\n"
			  "  # cards it knows). Describe it at the top level of the spec, with\n"
			  "  # bandwidth and dense FP16 TFLOPS from its data sheet, and own it:\n"
			  "  #   gpus:\n"
			  "  #     - {name: \"%s\", vram_gib: %s, bandwidth_gbs: GBS, "
			  "fp16_tflops: TFLOPS, watts: %s}\n"
			  "  #   owned:\n"
			  "  #     - {gpu: \"%s\", count: %d}\n",
			  count, name, name, vram, watts, name, count);
}

/* The owned: entries of the GPUs (comment lines for those planner does
 * not know) into b. */
static bool owned_gpus(struct buf *b, const struct probe_gpu *gpus, size_t n)
{
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const struct probe_gpu *g = &gpus[i];
		bool first = true;
		for (size_t j = 0; j < i; j++)
			if (g->gpu ? gpus[j].gpu == g->gpu : !strcmp(gpus[j].name, g->name))
				first = false;
		if (!first)
			continue;
		int count = 0;
		bool same_watts = true;
		for (size_t j = i; j < n; j++) {
			if (g->gpu ? gpus[j].gpu != g->gpu : strcmp(gpus[j].name, g->name) != 0)
				continue;
			count++;
			same_watts &= gpus[j].power_limit_w == g->power_limit_w;
		}
		if (!g->gpu) {
			char name[sizeof g->name];
			printable(g->name, name, sizeof name);
			ok = describe_unknown(b, g, name, count);
			continue;
		}
		/* The block must read back: a spec takes at most
		 * JOBSPEC_MAX_GPU_COUNT GPUs an entry and watts in 1..JOBSPEC_MAX_WATTS
		 * (a driver's absurd limit is left out). Found by fuzzing. */
		bool watts = same_watts && g->power_limit_w >= 1 &&
			     g->power_limit_w <= JOBSPEC_MAX_WATTS;
		for (int left = count; ok && left > 0; left -= JOBSPEC_MAX_GPU_COUNT) {
			int k = left < JOBSPEC_MAX_GPU_COUNT ? left : JOBSPEC_MAX_GPU_COUNT;
			ok = buf_printf(b, "  - {gpu: %s, count: %d", g->gpu->name, k);
			if (ok && watts)
				ok = buf_printf(b, ", watts: %.0f", g->power_limit_w);
			ok = ok && buf_printf(b, "}\n");
		}
	}
	return ok;
}

char *probe_owned_yaml_host(const struct probe_gpu *gpus, size_t n, const struct probe_host *host)
{
	struct buf b = {0};
	bool ok = buf_printf(&b, "owned:\n") && owned_gpus(&b, gpus, n);
	if (ok && host && host->kind != PROBE_HOST_NONE)
		ok = probe_host_yaml(&b, host);
	if (!ok) {
		buf_free(&b);
		return NULL;
	}
	return b.data;
}

char *probe_owned_yaml(const struct probe_gpu *gpus, size_t n)
{
	return probe_owned_yaml_host(gpus, n, NULL);
}

/* The ISA names of h, each after a space ("" when none). */
static void isa_words(unsigned isa, char *dst, size_t len)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{PROBE_ISA_AVX2, "AVX2"},
	             {PROBE_ISA_AVX512, "AVX-512"},
	             {PROBE_ISA_AMX, "AMX"},
	             {PROBE_ISA_NEON, "NEON"},
	             {PROBE_ISA_SVE, "SVE"}};
	size_t k = 0;
	dst[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof *names && k < len; i++)
		if (isa & names[i].bit)
			k += (size_t)snprintf(dst + k, len - k, " %s", names[i].name);
}

char *probe_host_summary(const struct probe_host *h)
{
	struct buf b = {0};
	char name[sizeof h->model], isa[64];
	printable(h->model, name, sizeof name);
	isa_words(h->isa, isa, sizeof isa);
	bool unified = h->kind == PROBE_HOST_UNIFIED;
	bool ok = buf_printf(&b, "%s: %s", unified ? "chip" : "cpu",
	                     name[0] ? name : "(name not reported)");
	if (ok && h->sockets > 1)
		ok = buf_printf(&b, ", %d sockets", h->sockets);
	if (ok && h->cores > 0)
		ok = buf_printf(&b, ", %d cores", h->cores);
	if (ok && h->perf_cores > 0)
		ok = buf_printf(&b, " (%d performance)", h->perf_cores);
	if (ok && h->threads > 0)
		ok = buf_printf(&b, ", %d threads", h->threads);
	if (ok && h->memory_gib > 0)
		ok = buf_printf(&b, ", %.1f GiB %s", h->memory_gib,
		                unified ? "unified memory" : "memory");
	if (ok && isa[0])
		ok = buf_printf(&b, ",%s", isa);
	if (!ok)
		buf_free(&b);
	return ok ? b.data : NULL;
}

/* A host the table has in several variants (an Apple Max chip's GPU
 * cores): which ones, and how to own the right one. */
static bool describe_family(struct buf *b, const struct probe_host *h)
{
	char *summary = probe_host_summary(h);
	char first[sizeof h->family];
	snprintf(first, sizeof first, "%.*s", (int)strcspn(h->family, ","), h->family);
	bool ok = summary && buf_printf(b,
	                                "  # %s\n"
	                                "  # planner's device table has %s: own the one this\n"
	                                "  # is (an Apple Max or Ultra chip's GPU cores are in 'system_profiler\n"
	                                "  # SPDisplaysDataType'), as in\n"
	                                "  #     - {gpu: \"%s\", count: 1}\n",
	                                summary, h->family, first);
	free(summary);
	return ok;
}

bool probe_host_yaml(struct buf *b, const struct probe_host *h)
{
	bool unified = h->kind == PROBE_HOST_UNIFIED;
	/* A chip sold with several memory sizes is told apart by its memory:
	 * it goes beside the entry. */
	if (h->device && h->memory_gib > 0)
		return buf_printf(b, "  - {gpu: %s, count: 1}  # %.1f GiB %s\n", h->device->name,
				  h->memory_gib, unified ? "unified memory" : "memory");
	if (h->device)
		return buf_printf(b, "  - {gpu: %s, count: 1}\n", h->device->name);
	if (h->family[0])
		return describe_family(b, h);
	char name[sizeof h->model], mem[32] = "MEMORY_GIB", threads[16] = "THREADS";
	printable(h->model, name, sizeof name);
	if (!name[0])
		snprintf(name, sizeof name, "%s", unified ? "CHIP_NAME" : "CPU_NAME");
	if (h->memory_gib > 0)
		snprintf(mem, sizeof mem, "%.1f", h->memory_gib);
	if (probe_host_threads(h) > 0)
		snprintf(threads, sizeof threads, "%d", probe_host_threads(h));
	bool named = h->model[0] != '\0';
	char *summary = probe_host_summary(h);
	bool ok = summary &&
	          buf_printf(
	              b,
	              "  # %s\n"
	              "  # planner's device table does not know this %s yet ('planner gpus'\n"
	              "  # lists what it knows). Describe it at the top level of the spec and\n"
	              "  # own it; fill in %sits memory bandwidth (%s\n"
	              "  #   gpus:\n"
	              "  #     - {name: \"%s\", kind: %s, vram_gib: %s, bandwidth_gbs: GBS, "
	              "fp16_tflops: TFLOPS, threads: %s}\n"
	              "  #   owned:\n"
	              "  #     - {gpu: \"%s\", count: 1}\n",
	              summary, unified ? "chip" : "CPU", named ? "" : "its name, ",
	              unified ? "the chip's data sheet) and FP16\n"
	                        "  # TFLOPS. vram_gib: all of the unified memory; threads: the\n"
	                        "  # performance cores llama.cpp runs on."
	                      : "channels x MT/s x 8 / 1000\n"
	                        "  # GB/s) and FP16 TFLOPS. threads: the physical cores llama.cpp\n"
	                        "  # runs on.",
	              name, unified ? "unified" : "cpu", mem, threads, name);
	free(summary);
	return ok;
}
