/* export_serve.c — what the exports of a serving job share: whether a job
 * is a service, its engine's HTTP server (port, health path, bind
 * address), the port its command listens on, and the cron days of its
 * window. The Kubernetes (export_k8s_serve.c), SkyServe and dstack
 * service writers use them. */
#include <stdlib.h>
#include <string.h>

#include "export.h"

/* Default ports and health paths, read 2026-12-02:
 * - vLLM: `vllm serve` listens on 0.0.0.0:8000, GET /health answers 200
 *   once the engine is up (docs.vllm.ai, "OpenAI-Compatible Server" and
 *   `vllm serve --help`: --host default all interfaces, --port 8000).
 * - SGLang: sglang.launch_server --port 30000, GET /health; --host
 *   defaults to 127.0.0.1 (docs.sglang.ai "Server Arguments"; the
 *   project's docker/compose.yaml passes --host 0.0.0.0 --port 30000 and
 *   checks curl http://localhost:30000/health).
 * - llama.cpp's llama-server: --host 127.0.0.1, --port 8080 by default,
 *   GET /health (github.com/ggml-org/llama.cpp, tools/server/README.md,
 *   formerly examples/server/README.md).
 * - TGI: text-generation-launcher in ghcr.io/huggingface/text-generation-
 *   inference listens on port 80 in that image, GET /health
 *   (huggingface.co/docs/text-generation-inference, "Quick Tour").
 * All four take --port N (and --port=N) to listen elsewhere. */
static const struct serve_engine serve_engines[] = {
    {"vllm", "vllm", "vLLM", 8000, false},
    {"sglang", "sglang", "SGLang", 30000, true},
    {"llama-server", "llama.cpp", "llama.cpp server", 8080, true},
    {"text-generation-launcher", NULL, "TGI", 80, false},
};

bool export_serving(const struct job *job)
{
	return job->serving == SERVING_ALWAYS_ON || job->serving == SERVING_WINDOW;
}

const struct serve_engine *export_serve_engine(const struct job *job)
{
	size_t n = sizeof serve_engines / sizeof *serve_engines;
	for (size_t i = 0; job->run_command && i < n; i++)
		if (strstr(job->run_command, serve_engines[i].word))
			return &serve_engines[i];
	for (size_t i = 0; job->engine && i < n; i++)
		if (serve_engines[i].engine && !strcmp(job->engine, serve_engines[i].engine))
			return &serve_engines[i];
	return &serve_engines[0];
}

int export_serve_port(const struct job *job, const struct serve_engine *se)
{
	const char *c = job->run_command;
	for (const char *p = c ? strstr(c, "--port") : NULL; p; p = strstr(p + 1, "--port")) {
		const char *v = p + 6;
		if (p > c && p[-1] != ' ')
			continue;
		if (*v != ' ' && *v != '=')
			continue;
		char *end;
		long port = strtol(v + 1, &end, 10);
		if (end > v + 1 && (*end == '\0' || *end == ' ') && port > 0 && port < 65536)
			return (int)port;
	}
	return se->port;
}

bool export_serve_loopback(const struct job *job, const struct serve_engine *se)
{
	return se->loopback && !(job->run_command && strstr(job->run_command, "--host"));
}

void export_cron_days(unsigned mask, int shift, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (int cron = 0; cron < 7; cron++) {
		int bit = ((cron + 6 - shift) % 7 + 7) % 7; /* cron 1 (Mon) is bit 0 */
		if (mask & (1u << bit))
			n += (size_t)snprintf(out + n, len - n, "%s%d", n ? "," : "", cron);
	}
}

int export_window_end_shift(const struct job_schedule *w)
{
	/* The window ends the next day when it crosses midnight (or ends at
	 * 24:00): the scale-down's days move one on. */
	return w->window_end <= w->window_start || w->window_end == SCHEDULE_MINUTES_PER_DAY;
}

bool export_serve_first(const struct schedule *s, size_t i,
                        bool (*writes)(const struct sched_run *r))
{
	for (size_t k = 0; k < i; k++)
		if (s->runs[k].job == s->runs[i].job && writes(&s->runs[k]))
			return false;
	return true;
}

bool export_service_run(const struct schedule *s, size_t i)
{
	return export_launchable(&s->runs[i]) && export_serving(s->jobs[s->runs[i].job].job);
}

size_t export_service_count(const struct schedule *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_runs; i++)
		n += export_service_run(s, i) && export_serve_first(s, i, export_launchable);
	return n;
}

void export_service_totals(const struct schedule *s, size_t i, double *hours, double *cost)
{
	*hours = *cost = 0;
	for (size_t k = i; k < s->n_runs; k++)
		if (s->runs[k].job == s->runs[i].job && export_launchable(&s->runs[k])) {
			*hours += s->runs[k].hours;
			*cost += s->runs[k].cost;
		}
}

bool export_service_window_note(FILE *f, const struct schedule *s, const struct job *job,
                                const char *tool, const char *up, const char *down)
{
	if (job->serving != SERVING_WINDOW)
		return true;
	const struct job_schedule *w = &job->sched;
	char on[32], off[32];
	int end = w->window_end % SCHEDULE_MINUTES_PER_DAY;
	export_cron_days(w->days_mask, 0, on, sizeof on);
	export_cron_days(w->days_mask, export_window_end_shift(w), off, sizeof off);
	bool ok = export_comment(f,
	                         "%s has no time schedule: start the service at its window and "
	                         "take it down at its end, e.g. from cron in %s:",
	                         tool, s->timezone);
	ok &= export_comment(f, "  %d %d * * %s %s", w->window_start % 60, w->window_start / 60, on,
	                     up);
	ok &= export_comment(f, "  %d %d * * %s %s", end % 60, end / 60, off, down);
	return ok;
}

bool export_service_loopback_note(FILE *f, const struct job *job, const struct serve_engine *se)
{
	if (!export_serve_loopback(job, se))
		return true;
	return export_comment(f,
	                      "%s binds 127.0.0.1 by default: add --host 0.0.0.0 to run.command "
	                      "or the readiness probe cannot reach it.",
	                      se->name);
}

size_t export_task_count(const struct schedule *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_runs; i++)
		n += export_launchable(&s->runs[i]) && !export_service_run(s, i);
	return n;
}

bool export_launch_docs(FILE *f, const struct schedule *s, export_task_fn *task,
                        export_service_fn *service)
{
	bool ok = true;
	size_t k = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (!export_launchable(r))
			continue;
		if (!export_service_run(s, i))
			ok &= task(f, s, r, ++k);
		else if (export_serve_first(s, i, export_launchable))
			ok &= service(f, s, i, ++k);
	}
	return ok;
}
