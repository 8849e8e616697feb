/* cmd_probe.c — `planner probe`: the NVIDIA GPUs of this machine, from
 * nvidia-smi, its CPU or Apple chip, from /proc or sysctl, and an
 * `owned:` block to paste into a job spec. */
#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "probe.h"

/* What probe says when nvidia-smi gives no GPU. */
#define PROBE_NO_GPU "no NVIDIA GPU found on this machine"

/* run_tool's status when its output could not be held in memory. */
#define SMI_OUT_OF_MEMORY (-2)

/* Runs the program named by the environment variable env (for tests),
 * else dflt, with args (args[0] is replaced by the program), stdout and
 * stderr into *out. Returns its exit status; 127 when it could not be
 * run, -1 when no process could be started, SMI_OUT_OF_MEMORY when its
 * output did not fit in memory (*out is then NULL). */
static int run_tool(const char *env, const char *dflt, char **args, char **out)
{
	const char *smi = getenv(env);
	if (!smi || !*smi)
		smi = dflt;
	args[0] = (char *)smi;
	int fd[2];
	*out = NULL;
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(smi, args);
		_exit(127);
	}
	close(fd[1]);
	struct buf b = {0};
	char chunk[4096];
	ssize_t n;
	bool oom = false;
	while ((n = read(fd[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && !buf_append(&b, chunk, (size_t)n)) {
			oom = true;
			break;
		}
	close(fd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			buf_free(&b);
			return -1;
		}
	if (oom || !(*out = b.data ? b.data : strdup(""))) {
		buf_free(&b);
		return SMI_OUT_OF_MEMORY;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* This machine's CPU from PLANNER_PROBE_ROOT's (else this machine's)
 * /proc, else Apple's from sysctl (PLANNER_SYSCTL, for tests), with its
 * device-table entry. Returns false when neither says anything. */
static bool read_host(const struct cli *c, struct probe_host *h)
{
	const char *root = getenv("PLANNER_PROBE_ROOT");
	bool ok = probe_host_read(root ? root : "", h);
	if (!ok) {
		char *args[] = {NULL, PROBE_SYSCTL_ARGS, NULL}, *out = NULL;
		/* sysctl names an oid it does not have and exits 1, but prints the others. */
		if (run_tool("PLANNER_SYSCTL", "sysctl", args, &out) != 127 && out)
			ok = probe_host_sysctl(out, h);
		free(out);
	}
	if (ok && !(h->device = probe_host_device(c->ref, h)))
		probe_host_family(c->ref, h, h->family, sizeof h->family);
	return ok;
}

/* The host's line of the table, when there is a host. */
static void print_host(const struct probe_host *h)
{
	char *line = h->kind != PROBE_HOST_NONE ? probe_host_summary(h) : NULL;
	if (line)
		printf("%s%s%s\n", line, h->device ? " = " : "", h->device ? h->device->name : "");
	free(line);
}

static void print_table(const struct cli *c, const struct probe_gpu *g, size_t n,
                        const struct probe_host *host, const char *yaml)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	/* The nvidia-smi name column takes what the terminal has left. */
	int name_w = 28;
	if (c->term_width > 0 && c->term_width - 52 < name_w)
		name_w = c->term_width - 52 > 12 ? c->term_width - 52 : 12;
	if (n == 0)
		printf("%s\n", PROBE_NO_GPU);
	else
		printf("%s%-5s %-14s %-*s %9s %11s%s\n", bold, "index", "gpu", name_w,
		       "nvidia-smi name", "VRAM GiB", "power lim W", off);
	for (size_t i = 0; i < n; i++) {
		char w[16] = "-";
		if (g[i].power_limit_w > 0)
			snprintf(w, sizeof w, "%.0f", g[i].power_limit_w);
		printf("%-5d %-14.14s %-*.*s %9.1f %11s\n", g[i].index,
		       g[i].gpu ? g[i].gpu->name : "(unknown)", name_w, name_w, g[i].name,
		       g[i].vram_gib, w);
	}
	print_host(host);
	printf("\n# paste into your job spec (GPUs on hand: power is paid, the purchase is "
	       "not):\n%s",
	       yaml);
}

/* The host as a JSON object, or null. */
static cJSON *host_json(const struct probe_host *h)
{
	if (h->kind == PROBE_HOST_NONE)
		return cJSON_CreateNull();
	static const struct {
		unsigned bit;
		const char *name;
	} isa[] = {{PROBE_ISA_AVX2, "avx2"},
	           {PROBE_ISA_AVX512, "avx512f"},
	           {PROBE_ISA_AMX, "amx"},
	           {PROBE_ISA_NEON, "neon"},
	           {PROBE_ISA_SVE, "sve"}};
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", h->kind == PROBE_HOST_UNIFIED ? "unified" : "cpu");
	cJSON_AddStringToObject(o, "model", h->model);
	if (h->device)
		cJSON_AddStringToObject(o, "device", h->device->name);
	else
		cJSON_AddNullToObject(o, "device");
	const struct {
		const char *key;
		int v;
	} counts[] = {{"sockets", h->sockets},
	              {"cores", h->cores},
	              {"performance_cores", h->perf_cores},
	              {"threads", h->threads},
	              {"llama_cpp_threads", probe_host_threads(h)}};
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
		if (counts[i].v > 0)
			cJSON_AddNumberToObject(o, counts[i].key, counts[i].v);
		else
			cJSON_AddNullToObject(o, counts[i].key);
	if (h->memory_gib > 0)
		cJSON_AddNumberToObject(o, "memory_gib", round_to(h->memory_gib, 2));
	else
		cJSON_AddNullToObject(o, "memory_gib");
	cJSON *a = cJSON_AddArrayToObject(o, "isa");
	for (size_t i = 0; i < sizeof isa / sizeof *isa; i++)
		if (h->isa & isa[i].bit)
			cJSON_AddItemToArray(a, cJSON_CreateString(isa[i].name));
	return o;
}

static int print_json(const struct probe_gpu *g, size_t n, const struct probe_host *host,
                      const char *yaml)
{
	cJSON *root = json_doc_new("planner/probe/v1");
	cJSON *arr = cJSON_AddArrayToObject(root, "gpus");
	for (size_t i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", g[i].index);
		cJSON_AddStringToObject(o, "name", g[i].name);
		if (g[i].gpu)
			cJSON_AddStringToObject(o, "gpu", g[i].gpu->name);
		else
			cJSON_AddNullToObject(o, "gpu");
		cJSON_AddNumberToObject(o, "vram_gib", round_to(g[i].vram_gib, 2));
		if (g[i].power_limit_w > 0)
			cJSON_AddNumberToObject(o, "power_limit_w", round_to(g[i].power_limit_w, 1));
		else
			cJSON_AddNullToObject(o, "power_limit_w");
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddItemToObject(root, "host", host_json(host));
	cJSON_AddStringToObject(root, "owned_yaml", yaml);
	return cli_print_json(root);
}

static int exec_probe(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, {0, 0, 0, 0}};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind != argc)
		return cli_usage(c, "probe takes no arguments");
	char *out = NULL, *err = NULL, *yaml = NULL;
	char *query[] = {NULL, PROBE_QUERY_ARGS, NULL};
	struct probe_gpu *gpus = NULL;
	size_t n = 0;
	struct probe_host host;
	read_host(c, &host);
	int status = run_tool("PLANNER_NVIDIA_SMI", "nvidia-smi", query, &out);
	rc = PLANNER_OK;
	if (status == SMI_OUT_OF_MEMORY) {
		errorf("out of memory");
		rc = PLANNER_ESYS;
		goto out;
	}
	if (status != 0 || probe_parse(out, c->ref, &gpus, &n, &err) != PLANNER_OK || n == 0) {
		/* No driver, no nvidia-smi, no device: all mean the same here. */
		if (c->verbose)
			notef("nvidia-smi %s: %s", status == 127 ? "could not be run" : "gave no GPUs",
			      err ? err : out && *out ? out : "no output");
		free(gpus);
		gpus = NULL;
		n = 0;
		if (host.kind == PROBE_HOST_NONE) {
			if (c->format == FORMAT_JSON)
				puts("{\"gpus\": [], \"host\": null, \"owned_yaml\": \"\"}");
			else
				printf("%s\n", PROBE_NO_GPU);
			goto out;
		}
	}
	if (!(yaml = probe_owned_yaml_host(gpus, n, &host))) {
		errorf("out of memory");
		rc = PLANNER_ESYS;
		goto out;
	}
	if (c->format == FORMAT_JSON)
		rc = print_json(gpus, n, &host, yaml);
	else
		print_table(c, gpus, n, &host, yaml);
out:
	free(yaml);
	free(gpus);
	free(err);
	free(out);
	return rc;
}

const struct cmd_entry cmd_probe_entry = {
    .name = "probe",
    .args = "[--format table|json]",
    .summary = "this machine's NVIDIA GPUs and CPU or Apple chip, as an owned: block",
    .help = "Lists the NVIDIA GPUs on this machine (name, memory, power limit) by running\n"
            "  nvidia-smi --query-gpu=index,name,memory.total,power.limit \\\n"
            "             --format=csv,noheader,nounits\n"
            "and its CPU (model, sockets, cores, threads, memory, AVX2/AVX-512/AMX/NEON/\n"
            "SVE) from /proc/cpuinfo and /proc/meminfo on Linux, or its Apple chip (or\n"
            "Intel CPU) from `sysctl hw machdep.cpu` on macOS. It maps each to planner's\n"
            "device table and prints an owned: block to paste into a job spec; a CPU or\n"
            "chip the table does not know is written as a commented custom device (the\n"
            "spec's gpus: block, kind cpu or unified) with what to fill in: memory\n"
            "bandwidth and FP16 TFLOPS, which no file gives without root. With no\n"
            "nvidia-smi, no driver or no GPU it says so and exits 0.\n\n"
            "  --format F   table (default) or json\n"
            "  --verbose    say why no GPU was found\n\n"
            "environment:\n"
            "  PLANNER_NVIDIA_SMI   the nvidia-smi program to run (default: from PATH)\n"
            "  PLANNER_PROBE_ROOT   read proc/cpuinfo and proc/meminfo under this\n"
            "                       directory instead of / (recorded files, for tests)\n"
            "  PLANNER_SYSCTL       the sysctl program to run where there is no\n"
            "                       proc/cpuinfo (default: from PATH)\n\n"
            "example:\n  planner probe >> jobs/monthly.yaml.owned\n",
    .exec = exec_probe,
};
