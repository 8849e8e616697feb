/* probe_host.c — this machine's CPU or Apple chip, from Linux's /proc or
 * macOS's sysctl output, and how it reads in an owned: block (see
 * probe.h). */
#include "probe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobspec.h"

/* Distinct (physical id, core id) pairs /proc/cpuinfo can list: more
 * logical CPUs than any machine planner plans for is counted, not
 * stored. */
#define PROBE_MAX_CORES 4096

/* One "name : value" or "name: value" line, split in place: the name and
 * value trimmed. Returns false for a line with no colon. */
static bool split_line(char *line, char **name, char **value)
{
	char *colon = strchr(line, ':');
	if (!colon)
		return false;
	*colon = '\0';
	char *v = colon + 1, *e = colon;
	while (e > line && isspace((unsigned char)e[-1]))
		*--e = '\0';
	while (isspace((unsigned char)*v))
		v++;
	for (char *t = v + strlen(v); t > v && isspace((unsigned char)t[-1]);)
		*--t = '\0';
	*name = line;
	*value = v;
	return true;
}

/* A whole non-negative integer, or -1. */
static long long whole(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	return end != s && *end == '\0' && v >= 0 ? v : -1;
}

/* Whether the space-separated list holds word. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

/* x86's "flags" or Arm's "Features" line as PROBE_ISA_* bits. */
static unsigned isa_of(const char *flags)
{
	return (has_word(flags, "avx2") ? PROBE_ISA_AVX2 : 0) |
	       (has_word(flags, "avx512f") ? PROBE_ISA_AVX512 : 0) |
	       (has_word(flags, "amx_tile") ? PROBE_ISA_AMX : 0) |
	       (has_word(flags, "asimd") ? PROBE_ISA_NEON : 0) |
	       (has_word(flags, "sve") ? PROBE_ISA_SVE : 0);
}

/* Calls line_fn on each line of text (a copy; NULL text has none). */
static bool each_line(const char *text, void (*line_fn)(char *, char *, void *), void *ctx)
{
	char *copy = strdup(text ? text : "");
	if (!copy)
		return false;
	char *save = NULL;
	for (char *l = strtok_r(copy, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save)) {
		char *name, *value;
		if (split_line(l, &name, &value))
			line_fn(name, value, ctx);
	}
	free(copy);
	return true;
}

/* What /proc/cpuinfo's lines add up to. */
struct cpuinfo_state {
	struct probe_host *h;
	long long physical; /* the current processor's physical id; -1 none */
	int n_pairs;
	long long pairs[PROBE_MAX_CORES][2]; /* distinct (physical id, core id) */
	int n_sockets;
	long long sockets[PROBE_MAX_CORES];
};

static void add_socket(struct cpuinfo_state *st, long long id)
{
	for (int i = 0; i < st->n_sockets; i++)
		if (st->sockets[i] == id)
			return;
	if (st->n_sockets < PROBE_MAX_CORES)
		st->sockets[st->n_sockets++] = id;
}

static void add_core(struct cpuinfo_state *st, long long core)
{
	for (int i = 0; i < st->n_pairs; i++)
		if (st->pairs[i][0] == st->physical && st->pairs[i][1] == core)
			return;
	if (st->n_pairs < PROBE_MAX_CORES) {
		st->pairs[st->n_pairs][0] = st->physical;
		st->pairs[st->n_pairs++][1] = core;
	}
}

static void cpuinfo_line(char *name, char *value, void *ctx)
{
	struct cpuinfo_state *st = ctx;
	struct probe_host *h = st->h;
	if (!strcmp(name, "processor") && whole(value) >= 0) {
		h->threads++;
		st->physical = -1;
	} else if (!strcmp(name, "model name") && !h->model[0]) {
		text_sanitize(h->model, sizeof h->model, value, NULL);
	} else if (!strcmp(name, "physical id") && whole(value) >= 0) {
		st->physical = whole(value);
		add_socket(st, st->physical);
	} else if (!strcmp(name, "core id") && whole(value) >= 0) {
		add_core(st, whole(value));
	} else if (!strcmp(name, "flags") || !strcmp(name, "Features")) {
		h->isa |= isa_of(value);
	}
}

static void meminfo_line(char *name, char *value, void *ctx)
{
	struct probe_host *h = ctx;
	long long kib;
	char unit[8];
	if (!strcmp(name, "MemTotal") && sscanf(value, "%lld %7s", &kib, unit) == 2 &&
	    !strcmp(unit, "kB") && kib > 0)
		h->memory_gib = (double)kib / (1024.0 * 1024.0);
}

bool probe_host_linux(const char *cpuinfo, const char *meminfo, struct probe_host *h)
{
	memset(h, 0, sizeof *h);
	struct cpuinfo_state *st = calloc(1, sizeof *st);
	if (!st)
		return false;
	st->h = h;
	st->physical = -1;
	bool ok = each_line(cpuinfo, cpuinfo_line, st) && each_line(meminfo, meminfo_line, h);
	h->sockets = st->n_sockets;
	/* Arm's /proc/cpuinfo has no core ids: each processor is a core. */
	h->cores = st->n_pairs > 0 ? st->n_pairs : h->threads;
	free(st);
	if (ok && (h->threads > 0 || h->memory_gib > 0))
		h->kind = PROBE_HOST_CPU;
	return h->kind != PROBE_HOST_NONE;
}

/* A sysctl value as a count in 1..max, else 0. */
static int count_of(const char *value, long long max)
{
	long long v = whole(value);
	return v > 0 && v <= max ? (int)v : 0;
}

static void sysctl_line(char *name, char *value, void *ctx)
{
	struct probe_host *h = ctx;
	static const struct {
		const char *name;
		unsigned isa;
	} flags[] = {
	    {"hw.optional.neon", PROBE_ISA_NEON},
	    {"hw.optional.avx2_0", PROBE_ISA_AVX2},
	    {"hw.optional.avx512f", PROBE_ISA_AVX512},
	};
	if (!strcmp(name, "machdep.cpu.brand_string"))
		text_sanitize(h->model, sizeof h->model, value, NULL);
	else if (!strcmp(name, "hw.memsize") && whole(value) > 0)
		h->memory_gib = (double)whole(value) / (1024.0 * 1024.0 * 1024.0);
	else if (!strcmp(name, "hw.logicalcpu") || (!strcmp(name, "hw.ncpu") && !h->threads))
		h->threads = count_of(value, PROBE_MAX_CORES);
	else if (!strcmp(name, "hw.physicalcpu"))
		h->cores = count_of(value, PROBE_MAX_CORES);
	else if (!strcmp(name, "hw.perflevel0.physicalcpu"))
		h->perf_cores = count_of(value, PROBE_MAX_CORES);
	else if (!strcmp(name, "hw.packages"))
		h->sockets = count_of(value, PROBE_MAX_CORES);
	else if (!strcmp(name, "hw.optional.arm64") && whole(value) == 1)
		h->kind = PROBE_HOST_UNIFIED;
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (!strcmp(name, flags[i].name) && whole(value) == 1)
			h->isa |= flags[i].isa;
}

bool probe_host_sysctl(const char *text, struct probe_host *h)
{
	memset(h, 0, sizeof *h);
	if (!each_line(text, sysctl_line, h))
		return false;
	if (!strncmp(h->model, "Apple ", 6))
		h->kind = PROBE_HOST_UNIFIED;
	if (h->kind == PROBE_HOST_NONE && (h->threads > 0 || h->memory_gib > 0))
		h->kind = PROBE_HOST_CPU;
	return h->kind != PROBE_HOST_NONE;
}

bool probe_host_read(const char *root, struct probe_host *h)
{
	char *path = xasprintf("%s/proc/cpuinfo", root ? root : "");
	char *cpuinfo = path ? read_file(path, NULL) : NULL;
	free(path);
	path = xasprintf("%s/proc/meminfo", root ? root : "");
	char *meminfo = path ? read_file(path, NULL) : NULL;
	free(path);
	bool ok = (cpuinfo || meminfo) && probe_host_linux(cpuinfo, meminfo, h);
	if (!ok)
		memset(h, 0, sizeof *h);
	free(cpuinfo);
	free(meminfo);
	return ok;
}

int probe_host_threads(const struct probe_host *h)
{
	/* llama.cpp's default thread count: hw.perflevel0.physicalcpu on
	 * macOS, else the physical cores (distinct thread_siblings on Linux);
	 * ggml-org/llama.cpp common/common.cpp, cpu_get_num_physical_cores,
	 * read 2026-12-02. */
	if (h->perf_cores > 0)
		return h->perf_cores;
	return h->cores > 0 ? h->cores : h->threads;
}

/* Whether tok (n bytes) is a word a brand string adds to the name the
 * device table uses: a vendor, "Processor", "CPU", "16-Core". */
static bool noise_word(const char *tok, size_t n)
{
	static const char *const words[] = {"AMD", "Intel", "Apple", "Processor", "CPU"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (n == strlen(words[i]) && !strncmp(tok, words[i], n))
			return true;
	size_t d = 0;
	while (d < n && isdigit((unsigned char)tok[d]))
		d++;
	return d > 0 && n - d == 5 && !strncmp(tok + d, "-Core", 5);
}

void probe_host_short_name(const char *model, char *dst, size_t len)
{
	size_t k = 0;
	dst[0] = '\0';
	for (const char *p = model; *p && len > 0;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		/* "@ 2.60GHz" and "w/ Radeon 8060S" end the name. */
		if (n == 0 || *p == '@' || (n == 2 && !strncmp(p, "w/", 2)))
			break;
		char tok[64];
		size_t t = 0;
		for (size_t i = 0; i < n && t + 1 < sizeof tok; i++) {
			if (p[i] == '(' && (!strncmp(p + i, "(R)", 3) || !strncmp(p + i, "(TM)", 4))) {
				i += p[i + 2] == ')' ? 2 : 3;
				continue;
			}
			tok[t++] = p[i];
		}
		tok[t] = '\0';
		if (t > 0 && !noise_word(tok, t) && k + t + 2 < len)
			k += (size_t)snprintf(dst + k, len - k, "%s%s", k ? " " : "", tok);
		p += n;
	}
}

const struct gpu_spec *probe_host_device(const struct refdata *ref, const struct probe_host *h)
{
	if (!h->model[0])
		return NULL;
	const struct gpu_spec *g = refdata_gpu(ref, h->model);
	char name[sizeof h->model];
	probe_host_short_name(h->model, name, sizeof name);
	return g ? g : name[0] ? refdata_gpu(ref, name) : NULL;
}

void probe_host_family(const struct refdata *ref, const struct probe_host *h, char *dst,
                       size_t len)
{
	char name[sizeof h->model];
	probe_host_short_name(h->model, name, sizeof name);
	size_t n = strlen(name), k = 0;
	dst[0] = '\0';
	for (size_t i = 0; ref && n > 0 && i < ref->n_gpus && k < len; i++) {
		const char *g = ref->gpus[i].name;
		if (g && !strncasecmp(g, name, n) && g[n] == ' ')
			k += (size_t)snprintf(dst + k, len - k, "%s%s", k ? ", " : "", g);
	}
}
