/* cmd_init.c — `planner init [-o FILE]`: a first job spec for someone who
 * is not an ML engineer (issue 30). Every question has a flag; on a
 * terminal the questions not given are asked on stderr and answered on
 * stdin; --yes takes the defaults. The spec itself is init_spec.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "init_spec.h"

/* Long options beyond the common ones; values above any character. */
enum {
	OPT_TASK = 300,
	OPT_USERS,
	OPT_REQUESTS,
	OPT_DOCUMENTS,
	OPT_TOKENS,
	OPT_DATA,
	OPT_EU,
	OPT_OFFICE,
	OPT_COUNTRY,
	OPT_USE,
	OPT_OWNED,
	OPT_OWNED_COUNT,
	OPT_FORCE,
	OPT_YES,
};

/* Which answers a flag gave, and the strings they point into (argv's, or
 * the lines read, owned here). */
struct init_run {
	struct init_answers a;
	bool given[OPT_YES - OPT_TASK + 1]; /* by OPT_ - OPT_TASK */
	bool yes;                            /* --yes */
	bool force;                          /* --force */
	bool tty;                            /* stdin and stderr are a terminal */
	char *lines[8];                      /* answers read that a field points to */
	size_t n_lines;
};

#define GIVEN(r, opt) ((r)->given[(opt) - OPT_TASK])

static const char *const opt_names[] = {
    "task",  "users",        "requests-per-user-day", "documents", "tokens-per-document",
    "data",  "eu",           "office-only",           "country",   "use",
    "owned", "owned-count",  "force",                 "yes",
};

/* A count over 0 (K, M suffixes), at most 1e9. */
static bool read_count(const char *s, double *out)
{
	double v;
	if (!parse_count(s, &v) || !(v > 0) || v > 1e9)
		return false;
	*out = v;
	return true;
}

/* Sets the answer of opt from text; false, with *why, when it is not one. */
static bool set_answer(struct init_run *r, int opt, const char *s, const char **why)
{
	struct init_answers *a = &r->a;
	static char hint[256];
	switch (opt) {
	case OPT_TASK:
		if (init_task_parse(s, &a->task))
			return true;
		*why = near_miss_text(s, INIT_TASKS, hint, sizeof hint);
		return false;
	case OPT_DATA:
		if (init_data_parse(s, &a->data))
			return true;
		*why = near_miss_text(s, INIT_DATA_LEVELS, hint, sizeof hint);
		return false;
	case OPT_USE:
		if (!strcasecmp(s, "business") || !strcasecmp(s, "household")) {
			a->use = s;
			return true;
		}
		*why = near_miss_text(s, "business, household", hint, sizeof hint);
		return false;
	case OPT_USERS: *why = "give a count over 0, e.g. 12"; return read_count(s, &a->users);
	case OPT_REQUESTS:
		*why = "give a count over 0, e.g. 20";
		return read_count(s, &a->requests_per_user_day);
	case OPT_DOCUMENTS:
		*why = "give a count over 0, e.g. 2000";
		return read_count(s, &a->documents);
	case OPT_TOKENS:
		*why = "give a count over 0, e.g. 5000";
		return read_count(s, &a->tokens_per_document) && a->tokens_per_document <= 1e8;
	case OPT_OWNED_COUNT:
		*why = "give a whole number from 1 to 64";
		return read_count(s, &a->owned_count) && a->owned_count <= 64 &&
		       a->owned_count == (double)(long)a->owned_count;
	case OPT_COUNTRY: a->country = s; return true;
	case OPT_OWNED: a->owned = s; return true;
	default: return true;
	}
}

/* Reads one answer line from stdin (without its newline, malloc'd), or
 * NULL at its end. */
static char *read_line(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, stdin);
	if (n < 0) {
		free(line);
		return NULL;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	return line;
}

/* Asks the question of opt on stderr until it is answered (an empty line
 * takes def). Returns 0, or the exit status. */
static int ask(struct cli *c, struct init_run *r, int opt, const char *question, const char *def)
{
	for (;;) {
		fprintf(stderr, "%s [%s]: ", question, def);
		fflush(stderr);
		char *line = read_line();
		if (!line)
			return cli_usage(c, "no answer for --%s (standard input ended)",
			                 opt_names[opt - OPT_TASK]);
		const char *why = NULL;
		const char *text = *line ? line : def;
		bool yesno = opt == OPT_EU || opt == OPT_OFFICE;
		if (yesno) {
			bool y = !strcasecmp(text, "y") || !strcasecmp(text, "yes");
			bool n = !strcasecmp(text, "n") || !strcasecmp(text, "no");
			if (y || n) {
				*(opt == OPT_EU ? &r->a.eu : &r->a.office_only) = y;
				free(line);
				return 0;
			}
			why = "answer y or n";
		} else if (!strcmp(text, "none") && (opt == OPT_COUNTRY || opt == OPT_OWNED)) {
			free(line);
			return 0;
		} else if (r->n_lines < NELEM(r->lines) && set_answer(r, opt, text, &why)) {
			/* A country or GPU misspelt is asked again, not found at the end. */
			char *err = NULL;
			if (init_check_answers(c->ref, &r->a, &err) == PLANNER_OK) {
				r->lines[r->n_lines++] = line; /* country, owned, use point into it */
				return 0;
			}
			fprintf(stderr, "planner: %s\n", err);
			free(err);
			r->a.country = opt == OPT_COUNTRY ? NULL : r->a.country;
			r->a.owned = opt == OPT_OWNED ? NULL : r->a.owned;
			free(line);
			continue;
		}
		fprintf(stderr, "planner: '%s' is not an answer: %s\n", text, why ? why : "");
		free(line);
	}
}

/* Gives the question of opt its answer: the flag's, else the default
 * (--yes, or an optional question without a terminal), else the one asked
 * on the terminal. Without a terminal a required one is an error naming
 * its flag. Returns 0, or the exit status. */
static int answer(struct cli *c, struct init_run *r, int opt, bool required, const char *question,
                  const char *def)
{
	if (GIVEN(r, opt) || r->yes)
		return 0;
	if (!r->tty) {
		if (!required)
			return 0;
		return cli_usage(c, "no answer for --%s: give --%s, or --yes for the defaults (not "
		                    "a terminal, so nothing is asked)",
		                 opt_names[opt - OPT_TASK], opt_names[opt - OPT_TASK]);
	}
	return ask(c, r, opt, question, def);
}

static int questions(struct cli *c, struct init_run *r)
{
	char d1[32], d2[32];
	int rc;
	struct init_answers def;
	init_answers_default(&def);
	if ((rc = answer(c, r, OPT_TASK, true,
	                 "what is the model for? chat, documents, coding or finetune", "chat")))
		return rc;
	if (r->a.task == INIT_CHAT || r->a.task == INIT_CODING) {
		snprintf(d1, sizeof d1, "%g", def.users);
		snprintf(d2, sizeof d2, "%g", def.requests_per_user_day);
		if ((rc = answer(c, r, OPT_USERS, true, "how many people use it?", d1)) ||
		    (rc = answer(c, r, OPT_REQUESTS, true,
		                 "how many questions does each ask on a working day?", d2)))
			return rc;
	} else {
		snprintf(d1, sizeof d1, "%g", def.documents);
		snprintf(d2, sizeof d2, "%g", def.tokens_per_document);
		if ((rc = answer(c, r, OPT_DOCUMENTS, true, "how many documents a month?", d1)) ||
		    (rc = answer(c, r, OPT_TOKENS, true,
		                 "tokens in a document (about 4/3 of its words)?", d2)))
			return rc;
	}
	if ((rc = answer(c, r, OPT_DATA, true,
	                 "how sensitive is the data? public, internal, confidential or restricted",
	                 init_data_name(def.data))) ||
	    (rc = answer(c, r, OPT_EU, false, "must the data stay in the EU? y or n", "n")) ||
	    (rc = answer(c, r, OPT_OFFICE, false, "must it stay in the office? y or n", "n")) ||
	    (rc = answer(c, r, OPT_COUNTRY, false,
	                 "which country are you in (a code: NL, DE, US...)? none for US defaults",
	                 "none")))
		return rc;
	if (r->a.country && (rc = answer(c, r, OPT_USE, false,
	                                 "electricity prices for a business or a household?",
	                                 "business")))
		return rc;
	if ((rc = answer(c, r, OPT_OWNED, false,
	                 "a GPU you already have (as 'planner gpus' names it)? none if none",
	                 "none")))
		return rc;
	if (r->a.owned && (rc = answer(c, r, OPT_OWNED_COUNT, false, "how many of them?", "1")))
		return rc;
	return 0;
}

static int write_text(FILE *f, void *arg)
{
	fputs(arg, f);
	return PLANNER_OK;
}

/* The flags into r; every answer a flag gives is checked here. Returns 0,
 * or the exit status. */
static int read_flags(struct cli *c, struct init_run *r, int argc, char **argv)
{
	static const struct option opts[] = {
	    CLI_COMMON_OPTIONS,
	    CLI_OUTPUT_OPTIONS,
	    {"task", required_argument, NULL, OPT_TASK},
	    {"users", required_argument, NULL, OPT_USERS},
	    {"requests-per-user-day", required_argument, NULL, OPT_REQUESTS},
	    {"documents", required_argument, NULL, OPT_DOCUMENTS},
	    {"tokens-per-document", required_argument, NULL, OPT_TOKENS},
	    {"data", required_argument, NULL, OPT_DATA},
	    {"eu", no_argument, NULL, OPT_EU},
	    {"office-only", no_argument, NULL, OPT_OFFICE},
	    {"country", required_argument, NULL, OPT_COUNTRY},
	    {"use", required_argument, NULL, OPT_USE},
	    {"owned", required_argument, NULL, OPT_OWNED},
	    {"owned-count", required_argument, NULL, OPT_OWNED_COUNT},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"yes", no_argument, NULL, OPT_YES},
	    {0, 0, 0, 0}};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "ho:qy", opts, NULL)) != -1) {
		const char *why = NULL;
		if (opt == 'y')
			opt = OPT_YES;
		if (opt < OPT_TASK || opt > OPT_YES) {
			if ((rc = cli_other_option(c, opt, optarg)))
				return rc;
			continue;
		}
		GIVEN(r, opt) = true;
		if (opt == OPT_EU)
			r->a.eu = true;
		else if (opt == OPT_OFFICE)
			r->a.office_only = true;
		else if (opt == OPT_FORCE)
			r->force = true;
		else if (opt == OPT_YES)
			r->yes = true;
		else if (!set_answer(r, opt, optarg, &why))
			return cli_usage(c, "--%s %s: %s", opt_names[opt - OPT_TASK], optarg, why);
	}
	if (optind != argc)
		return cli_usage(c, "unexpected argument '%s'; write the file with -o FILE",
		                 argv[optind]);
	if (c->format != FORMAT_TABLE)
		return cli_usage(c, "init writes a YAML job spec; --format does not apply");
	if (GIVEN(r, OPT_USE) && !GIVEN(r, OPT_COUNTRY))
		return cli_usage(c, "--use chooses the electricity price of --country; give "
		                    "--country too, e.g. --country NL");
	if (GIVEN(r, OPT_OWNED_COUNT) && !GIVEN(r, OPT_OWNED))
		return cli_usage(c, "--owned-count counts the GPUs of --owned; give --owned too, "
		                    "e.g. --owned \"RTX 4090\"");
	return 0;
}

static int exec_init(struct cli *c, int argc, char **argv)
{
	struct init_run r = {0};
	char *text = NULL, *err = NULL;
	int rc;
	init_answers_default(&r.a);
	if ((rc = read_flags(c, &r, argc, argv)))
		goto out;
	/* Refused before a question is asked, not after all of them. */
	if (c->out_path && !r.force && access(c->out_path, F_OK) == 0) {
		errorf("%s exists; give --force to overwrite it, or another -o FILE", c->out_path);
		rc = PLANNER_EINPUT;
		goto out;
	}
	r.tty = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
	if ((rc = questions(c, &r)))
		goto out;
	if ((rc = init_spec_text(c->ref, &r.a, &text, &err)) != PLANNER_OK) {
		errorf("%s", err);
		goto out;
	}
	if ((rc = cli_write_file(c->out_path, write_text, text)) != PLANNER_OK)
		goto out;
	/* The path is not repeated: the spec's first line says how to run it. */
	if (!c->quiet) {
		const struct model_spec *m = init_suggest_model(c->ref, r.a.task);
		notef("model %s is a suggestion, by this rule: %s; change model: to taste", m->id,
		      init_suggest_rule(r.a.task));
	}
out:
	for (size_t i = 0; i < r.n_lines; i++)
		free(r.lines[i]);
	free(text);
	free(err);
	return rc;
}

const struct cmd_entry cmd_init_entry = {
	.name = "init",
	.args = "[-o FILE] [--yes] [--task T] [--users N] [--data D] [--country CC] [OPTIONS]",
	.summary = "write a first job spec from a few questions",
	.help = "Asks what a newcomer can answer and writes a commented job spec that\n"
		"'planner compare' runs, with the arithmetic from people to tokens in its\n"
		"comments. On a terminal, each question no flag answers is asked on stderr\n"
		"(an empty answer takes the default in brackets); without a terminal,\n"
		"--task, its volume flags and --data must be given, or --yes. The model is a\n"
		"suggestion by a stated rule: the smallest dense model of at least 8B\n"
		"parameters (14B for coding) that an API host also serves.\n\n"
		"  --task T           chat, documents, coding or finetune (default chat)\n"
		"  --users N          people who use it (chat, coding; default 10)\n"
		"  --requests-per-user-day N  questions each asks a working day (default 20)\n"
		"  --documents N      documents a month (documents, finetune; default 1000)\n"
		"  --tokens-per-document N  tokens of one (default 5000: about 3750 words)\n"
		"  --data D           public, internal, confidential or restricted\n"
		"                     (default internal, which third-party APIs may see)\n"
		"  --eu               the data stays in the EU (regions: [eu])\n"
		"  --office-only      the data stays in the office (data: restricted)\n"
		"  --country CC       your country, for currency, electricity price and\n"
		"                     time zone (default none: USD and US prices)\n"
		"  --use U            business or household electricity prices (default\n"
		"                     business)\n"
		"  --owned GPU        a GPU you already have, as 'planner gpus' names it\n"
		"  --owned-count N    how many of them (default 1)\n"
		"  -y, --yes          take the default for every question no flag answers\n"
		"  -o, --output FILE  write to FILE instead of standard output\n"
		"  --force            overwrite FILE when it exists\n"
		"  --quiet            no note about the model suggested\n\n"
		"example:\n"
		"  planner init --yes --users 12 --country NL --data confidential -o spec.yaml\n",
	.exec = exec_init,
};
