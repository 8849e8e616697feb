/* cmd_probe.c — `planner probe`: the NVIDIA GPUs of this machine, from
 * nvidia-smi, and an `owned:` block to paste into a job spec. */
#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "probe.h"

/* run_nvidia_smi's status when its output could not be held in memory. */
#define SMI_OUT_OF_MEMORY (-2)

/* Runs nvidia-smi (or $PLANNER_NVIDIA_SMI, for tests) with the query,
 * stdout and stderr into *out. Returns its exit status; 127 when it could
 * not be run, -1 when no process could be started, SMI_OUT_OF_MEMORY when
 * its output did not fit in memory (*out is then NULL). */
static int run_nvidia_smi(char **out)
{
	const char *smi = getenv("PLANNER_NVIDIA_SMI");
	if (!smi || !*smi)
		smi = "nvidia-smi";
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
		execlp(smi, smi, PROBE_QUERY_ARGS, (char *)NULL);
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

static void print_table(const struct cli *c, const struct probe_gpu *g, size_t n,
			const char *yaml)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	/* The nvidia-smi name column takes what the terminal has left. */
	int name_w = 28;
	if (c->term_width > 0 && c->term_width - 52 < name_w)
		name_w = c->term_width - 52 > 12 ? c->term_width - 52 : 12;
	printf("%s%-5s %-14s %-*s %9s %11s%s\n", bold, "index", "gpu", name_w, "nvidia-smi name",
	       "VRAM GiB", "power lim W", off);
	for (size_t i = 0; i < n; i++) {
		char w[16] = "-";
		if (g[i].power_limit_w > 0)
			snprintf(w, sizeof w, "%.0f", g[i].power_limit_w);
		printf("%-5d %-14.14s %-*.*s %9.1f %11s\n", g[i].index,
		       g[i].gpu ? g[i].gpu->name : "(unknown)", name_w, name_w, g[i].name,
		       g[i].vram_gib, w);
	}
	printf("\n# paste into your job spec (GPUs on hand: power is paid, the purchase is "
	       "not):\n%s",
	       yaml);
}

static int print_json(const struct probe_gpu *g, size_t n, const char *yaml)
{
	cJSON *root = cJSON_CreateObject();
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
	struct probe_gpu *gpus = NULL;
	size_t n = 0;
	int status = run_nvidia_smi(&out);
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
		if (c->format == FORMAT_JSON)
			puts("{\"gpus\": [], \"owned_yaml\": \"\"}");
		else
			printf("no NVIDIA GPU found on this machine\n");
		goto out;
	}
	if (!(yaml = probe_owned_yaml(gpus, n))) {
		errorf("out of memory");
		rc = PLANNER_ESYS;
		goto out;
	}
	if (c->format == FORMAT_JSON)
		rc = print_json(gpus, n, yaml);
	else
		print_table(c, gpus, n, yaml);
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
	.summary = "this machine's NVIDIA GPUs, as an owned: block for a job spec",
	.help = "Lists the NVIDIA GPUs on this machine (name, memory, power limit) by running\n"
		"  nvidia-smi --query-gpu=index,name,memory.total,power.limit \\\n"
		"             --format=csv,noheader,nounits\n"
		"maps each to planner's GPU table, and prints an owned: block to paste into a\n"
		"job spec. With no nvidia-smi, no driver or no GPU it says so and exits 0.\n\n"
		"  --format F   table (default) or json\n"
		"  --verbose    say why no GPU was found\n\n"
		"environment:\n"
		"  PLANNER_NVIDIA_SMI   the nvidia-smi program to run (default: from PATH)\n\n"
		"example:\n  planner probe >> jobs/monthly.yaml.owned\n",
	.exec = exec_probe,
};
