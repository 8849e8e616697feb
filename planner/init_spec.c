/* init_spec.c — `planner init`'s answers into a commented job spec (issue
 * 30). The spec is written, then parsed as compare parses it, and the
 * parser's own arithmetic (job_usage_text, schedule_month_hours) goes into
 * the comments: what the comment says is what compare will price. */
#include "init_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobspec.h"

/* The default answers. The request shape is the staff assistant's
 * (jobs/staff-assistant.yaml, issue 27): a question of about 1500 tokens
 * with its context and an answer of 300. */
#define DEFAULT_USERS 10
#define DEFAULT_REQUESTS_PER_USER_DAY 20
#define DEFAULT_DOCUMENTS 1000
/* A document of about 3750 words: OpenAI's rule of thumb that a token is
 * about 3/4 of an English word (https://help.openai.com/en/articles/4936856,
 * "What are tokens and how to count them?", read 2026-12-02). */
#define DEFAULT_TOKENS_PER_DOCUMENT 5000
#define REQUEST_INPUT 1500
#define REQUEST_OUTPUT 300
/* The office hours a chat or coding service is up: weekdays 08:00-18:00. */
#define OFFICE_WINDOW "08:00-18:00"
/* The spec's default context (spec.md, jobs[].context): a document
 * longer than it gets the next power of two that holds it. */
#define DEFAULT_CONTEXT 4096
/* Parameters of the smallest model suggested: 8B for chat, documents and
 * fine-tuning, 14B for coding. An estimate, not a published threshold (no
 * source found): 8B is the smallest size class the open model families
 * (Llama 3.1, Qwen 2.5/3) publish as a general assistant, and coding gets
 * the next class up. */
#define MIN_PARAMS_GENERAL 8e9
#define MIN_PARAMS_CODING 14e9

const char INIT_TASKS[] = "chat, documents, coding, finetune";
const char INIT_DATA_LEVELS[] = "public, internal, confidential, restricted";

static const char *const task_names[] = {"chat", "documents", "coding", "finetune"};
static const char *const data_names[] = {"public", "internal", "confidential", "restricted"};

void init_answers_default(struct init_answers *a)
{
	*a = (struct init_answers){
	    .task = INIT_CHAT,
	    .users = DEFAULT_USERS,
	    .requests_per_user_day = DEFAULT_REQUESTS_PER_USER_DAY,
	    .documents = DEFAULT_DOCUMENTS,
	    .tokens_per_document = DEFAULT_TOKENS_PER_DOCUMENT,
	    .data = INIT_DATA_INTERNAL,
	    .owned_count = 1,
	};
}

static bool parse_name(const char *s, const char *const *names, size_t n, int *out)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcasecmp(s, names[i])) {
			*out = (int)i;
			return true;
		}
	return false;
}

const char *init_task_name(enum init_task t)
{
	return task_names[t];
}

bool init_task_parse(const char *s, enum init_task *out)
{
	int v;
	if (!parse_name(s, task_names, NELEM(task_names), &v))
		return false;
	*out = (enum init_task)v;
	return true;
}

const char *init_data_name(enum init_data d)
{
	return data_names[d];
}

bool init_data_parse(const char *s, enum init_data *out)
{
	int v;
	if (!parse_name(s, data_names, NELEM(data_names), &v))
		return false;
	*out = (enum init_data)v;
	return true;
}

const struct model_spec *init_suggest_model(const struct refdata *ref, enum init_task t)
{
	double min = t == INIT_CODING ? MIN_PARAMS_CODING : MIN_PARAMS_GENERAL;
	const struct model_spec *best = NULL;
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		if (m->experts || m->params_total < min || !m->n_api_models)
			continue;
		if (!best || m->params_total < best->params_total)
			best = m;
	}
	return best;
}

const char *init_suggest_rule(enum init_task t)
{
	return t == INIT_CODING
	           ? "the smallest dense model of at least 14B parameters that an API host serves"
	           : "the smallest dense model of at least 8B parameters that an API host serves";
}

/* The spec's data: class for the answer, and why, for the comment. */
static const char *data_class(const struct init_answers *a, const char **why)
{
	if (a->office_only) {
		*why = "the data stays in the office: owned or bought GPUs only";
		return "restricted";
	}
	switch (a->data) {
	case INIT_DATA_PUBLIC: *why = "every route may see it"; return "public";
	case INIT_DATA_INTERNAL:
		*why = "internal: the spec has no class between public and confidential,\n"
		       "    # so third-party APIs may see it; write confidential if they may not";
		return "public";
	case INIT_DATA_CONFIDENTIAL: *why = "no third-party API sees it"; return "confidential";
	case INIT_DATA_RESTRICTED: break;
	}
	*why = "owned or bought GPUs only";
	return "restricted";
}

/* Context that holds one document (a power of two, at least the spec's
 * default). */
static long document_context(double tokens)
{
	long c = DEFAULT_CONTEXT;
	while (c < tokens && c < (1L << 30))
		c *= 2;
	return c;
}

/* The country's lines (and the unknown-country error). */
static int country_lines(const struct refdata *ref, const struct init_answers *a, struct buf *b,
                         char **err)
{
	if (!a->country) {
		buf_printf(b, "# no country: prices in USD, the EIA's US electricity price, UTC\n");
		return PLANNER_OK;
	}
	const struct country *c = refdata_country(ref, a->country);
	if (!c) {
		char codes[1024], hint[1200];
		return set_err(err, PLANNER_EINPUT, "--country %s: unknown country; %s", a->country,
		               near_miss_text(a->country,
		                              refdata_country_codes(ref, codes, sizeof codes), hint,
		                              sizeof hint));
	}
	bool household = a->use && !strcasecmp(a->use, "household");
	const struct country_price *p = household ? &c->household : &c->business;
	buf_printf(b,
	           "# %s: defaults only (where the data may go is regions:): prices in %s%s,\n"
	           "# time zone %s, electricity %.4g %s/kWh:\n# the %s, %s, for %s use\n"
	           "country: %s\n",
	           c->name, c->currency, strcmp(c->currency, "USD") ? " with fx: auto" : "",
	           c->n_zones ? c->zones[0] : "UTC", p->per_kwh, p->currency, p->label, p->period,
	           household ? "household" : "business", c->code);
	if (a->use)
		buf_printf(b, "country_use: %s\n", household ? "household" : "business");
	if (c->n_zones > 1)
		buf_printf(b, "timezone: %s          # %s has %zu zones: write yours\n", c->zones[0],
		           c->name, c->n_zones);
	return PLANNER_OK;
}

/* The owned: lines (and the unknown-GPU error). */
static int owned_lines(const struct refdata *ref, const struct init_answers *a, struct buf *b,
                       char **err)
{
	if (!a->owned)
		return PLANNER_OK;
	const struct gpu_spec *g = refdata_gpu(ref, a->owned);
	if (!g) {
		/* near_miss_text splits a list at spaces too, and GPU names have
		 * them: the nearest whole name, and where the list is. */
		const char *near = refdata_gpu_suggest(ref, a->owned);
		return set_err(err, PLANNER_EINPUT, "--owned %s: unknown GPU; %s%s%s'planner gpus' lists "
		               "them", a->owned, near ? "did you mean '" : "", near ? near : "",
		               near ? "'? " : "");
	}
	buf_printf(b,
	           "owned:                          # on hand: the purchase is paid, power is not\n"
	           "  - {gpu: \"%s\", count: %.0f}\n",
	           g->name, a->owned_count);
	return PLANNER_OK;
}

/* The job's lines; usage is the arithmetic comment (empty on the first
 * pass), hours the window's hours in compare's month (0: not known yet). */
static void job_lines(const struct init_answers *a, const struct model_spec *m,
                      const char *usage, double hours, struct buf *b)
{
	const char *why;
	const char *data = data_class(a, &why);
	bool people = a->task == INIT_CHAT || a->task == INIT_CODING;
	buf_printf(b, "jobs:\n  - name: %s\n", a->task == INIT_CHAT        ? "assistant"
	                                       : a->task == INIT_CODING    ? "coding-assistant"
	                                       : a->task == INIT_DOCUMENTS ? "documents"
	                                                                   : "fine-tune");
	buf_printf(b, "    # %s, a suggestion by this rule:\n    # %s\n", m->name,
	           init_suggest_rule(a->task));
	buf_printf(b, "    model: %s\n", m->id);
	if (a->task == INIT_FINETUNE)
		buf_printf(b, "    task: finetune-qlora          # LoRA adapters on 4-bit weights: "
		              "the least memory\n");
	buf_printf(b, "    # %s\n    data: %s\n", why, data);
	if (people) {
		buf_printf(b,
		           "    # %s\n"
		           "    usage: {users: %g, requests_per_user_day: %g}\n"
		           "    # the mean request, an assumption: a question of about 1500 tokens\n"
		           "    # with its context, an answer of 300\n"
		           "    request: {input: %d, output: %d}\n"
		           "    # up during office hours (the default: weekdays %s)\n",
		           usage, a->users, a->requests_per_user_day, REQUEST_INPUT, REQUEST_OUTPUT,
		           OFFICE_WINDOW);
		if (hours > 0)
			buf_printf(b, "    # (%.1f h of compare's 31-day month)\n", hours);
		buf_printf(b,
		           "    serving: window\n"
		           "    schedule: {window: \"%s\", days: weekdays}\n",
		           OFFICE_WINDOW);
		return;
	}
	buf_printf(b,
	           "    # %s\n"
	           "    # tokens a document: about 4/3 of its words (OpenAI: a token is about 3/4 "
	           "of a word,\n"
	           "    # https://help.openai.com/en/articles/4936856)\n"
	           "    usage: {documents_per_month: %g, tokens_per_document: %g}\n",
	           usage, a->documents, a->tokens_per_document);
	if (a->task == INIT_DOCUMENTS)
		buf_printf(b, "    # output_per_document: 300    # add what is written per document "
		              "(a summary), inside usage:\n");
	long ctx = document_context(a->tokens_per_document);
	if (ctx > DEFAULT_CONTEXT)
		buf_printf(b, "    context: %ld                 # one document fits\n", ctx);
	buf_printf(b, "    # a batch: it runs whenever it is cheapest, no office hours\n");
}

int init_check_answers(const struct refdata *ref, const struct init_answers *a, char **err)
{
	struct buf b = {0};
	int rc = country_lines(ref, a, &b, err);
	if (rc == PLANNER_OK)
		rc = owned_lines(ref, a, &b, err);
	buf_free(&b);
	return rc;
}

static int build(const struct refdata *ref, const struct init_answers *a,
                 const struct model_spec *m, const char *usage, double hours, struct buf *b,
                 char **err)
{
	int rc;
	buf_printf(b,
	           "# Written by planner init; run it with: planner compare FILE\n"
	           "# Every value is an answer or a default: edit them (docs/spec.md says\n"
	           "# what each key means).\n"
	           "version: 1\n");
	if ((rc = country_lines(ref, a, b, err)) != PLANNER_OK)
		return rc;
	if (a->eu)
		buf_printf(b, "regions: [eu]                    # rent and call APIs in the EU only\n");
	if ((rc = owned_lines(ref, a, b, err)) != PLANNER_OK)
		return rc;
	job_lines(a, m, usage, hours, b);
	return PLANNER_OK;
}

int init_spec_text(const struct refdata *ref, const struct init_answers *a, char **out,
                   char **err)
{
	struct buf b = {0};
	struct jobspec *spec = NULL;
	char usage[256] = "";
	double hours = 0;
	int rc;
	*out = NULL;
	const struct model_spec *m = init_suggest_model(ref, a->task);
	if (!m)
		return set_err(err, PLANNER_EINPUT, "no model of the reference data fits the rule: %s",
		               init_suggest_rule(a->task));
	/* Twice: the first text is parsed for the arithmetic the second shows. */
	for (int pass = 0; pass < 2; pass++) {
		buf_free(&b);
		b = (struct buf){0};
		if ((rc = build(ref, a, m, usage, hours, &b, err)) != PLANNER_OK)
			goto out;
		if (!b.data) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			goto out;
		}
		jobspec_free(spec);
		spec = NULL;
		if ((rc = jobspec_parse("planner init", b.data, b.len, ref, &spec, err)) != PLANNER_OK)
			goto out;
		job_usage_text(&spec->jobs[0], usage, sizeof usage);
		if (spec->jobs[0].usage.interactive)
			hours = schedule_month_hours(&spec->jobs[0].sched);
	}
	*out = b.data;
	b.data = NULL;
out:
	jobspec_free(spec);
	buf_free(&b);
	return rc;
}
