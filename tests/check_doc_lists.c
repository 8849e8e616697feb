/* check_doc_lists.c — every list of names kept by hand in the docs and the
 * completions holds the rows of the registry it copies: the providers
 * (provider_list and the ecb step, providers/provider.c), the engines
 * (engines[], planner/engines.c) and the routes (route_name,
 * planner/workload.c). A row added to a registry fails here until each
 * list names it. The lists a program writes (help texts, messages) are
 * built from the registries; they are checked too, so a buffer that cuts
 * one shows here. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "provider.h"
#include "testutil.h"
#include "util.h"
#include "vram.h"
#include "workload.h"

/* The text of s from the first `from` up to the next `to` (or the end);
 * malloc'd. Fails the test when s has no `from`. */
static char *part(const char *s, const char *what, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	ck_assert_msg(p != NULL, "%s has no '%s'", what, from);
	const char *e = strstr(p + strlen(from), to);
	return xasprintf("%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
}

/* Whether word appears in text, and before `marker` exactly when before
 * is true: "lambda, … (rented GPUs) and openrouter, … (per-token …)". */
static bool named_on_its_side(const char *text, const char *word, const char *marker, bool before)
{
	const char *w = test_find_word(text, word), *m = strstr(text, marker);
	return w && m && (w < m) == before;
}

/* name as roff writes it: each '-' as "\-"; malloc'd. */
static char *roff(const char *name)
{
	char *out = calloc(2 * strlen(name) + 1, 1);
	ck_assert_ptr_nonnull(out);
	for (char *o = out; *name; name++) {
		if (*name == '-')
			*o++ = '\\';
		*o++ = *name;
	}
	return out;
}

/* Appends word to the space-separated list in buf (len bytes). */
static void add_word(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, "%s%s", n ? " " : "", word);
}

/* The values completion/_planner offers for --option of the command whose
 * case arm starts "\tarm)": the words in the parentheses of its
 * '--option[…]:…:(…)' spec, as written; malloc'd. */
static char *zsh_values(const char *zsh, const char *arm, const char *option)
{
	char *head = xasprintf("\n\t%s)", arm), *spec = xasprintf("'--%s[", option);
	char *body = part(zsh, "completion/_planner", head, ";;");
	const char *p = strstr(body, spec);
	ck_assert_msg(p != NULL, "completion/_planner: %s has no %s", arm, spec);
	const char *open = strstr(p, ":("), *close = open ? strchr(open, ')') : NULL;
	ck_assert_msg(open && close, "completion/_planner: %s %s has no list", arm, spec);
	char *values = xasprintf("%.*s", (int)(close - open - 2), open + 2);
	free(body);
	free(spec);
	free(head);
	return values;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The space-separated words of list, sorted, space-separated; malloc'd
 * (fish sorts what it offers, so its answer and a registry's order are
 * compared this way). */
static char *sorted(const char *list)
{
	char *copy = xasprintf("%s", list), *save = NULL, *words[256];
	size_t n = 0;
	for (char *w = strtok_r(copy, " \n", &save); w && n < 256; w = strtok_r(NULL, " \n", &save))
		words[n++] = w;
	qsort(words, n, sizeof *words, by_name);
	char *out = calloc(strlen(list) + 2, 1);
	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < n; i++)
		add_word(out, strlen(list) + 2, words[i]);
	free(copy);
	return out;
}

/* What fish offers for the command line `line` (complete -C), one word a
 * line, sorted and space-separated; malloc'd. */
static char *fish_values(const char *line)
{
	char *cmd = xasprintf("fish --no-config -c 'source completion/planner.fish; "
	                      "complete -C\"%s\"' 2>&1",
	                      line),
	     *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	char *values = sorted(out);
	free(out);
	free(cmd);
	return values;
}

/* Every step refresh runs: provider_list's rows, then the ecb step
 * (kept out of the list: it prices nothing), into all; their count. */
static size_t refresh_steps(const struct provider **all, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; provider_list[i] && n + 1 < cap; i++)
		all[n++] = provider_list[i];
	all[n++] = &provider_ecb;
	return n;
}

/* Whether README's refresh paragraph names p on its side: a rented feed
 * before "(rented GPUs)", an API feed after it, the FX step after the API
 * feeds' "(per-token". */
static bool in_refresh_paragraph(const char *text, const struct provider *p)
{
	if (p->kind == PROVIDER_FX)
		return named_on_its_side(text, p->name, "(per-token", false);
	return named_on_its_side(text, p->name, "(rented", p->kind == PROVIDER_RENTED);
}

/* Every row of provider_list is named wherever the providers are listed by
 * hand: README's `planner providers` example (a row of the right kind, the
 * ecb step's too), its refresh paragraph (on the rented or the API side)
 * and its list of key variables (needed or optional), planner.1's refresh
 * section and ENVIRONMENT. The help text is built from the list; it is
 * checked too, so a buffer that cuts it shows here. A new adapter that is
 * one row in the list fails here until it is documented. */
START_TEST(every_provider_is_in_the_help_readme_and_man_page)
{
	char *man = test_slurp("planner.1"), *readme = test_slurp("docs/tour.md");
	ck_assert_ptr_nonnull(man);
	ck_assert_ptr_nonnull(readme);
	char *example = part(readme, "docs/tour.md", "$ planner providers\n", "\n$ ");
	char *fetches = part(readme, "docs/tour.md", "`planner refresh` fetches", "\n\n");
	char *keys = part(readme, "docs/tour.md", "* **Keys**", "\n* ");
	char *refresh_man = test_man_part(man, "planner.1", ".SS \"planner refresh");
	char *env_man = part(man, "planner.1", ".SH ENVIRONMENT", "\n.SH");
	const char *refresh_argv[] = {"refresh", "--help", NULL};
	const char *offers_argv[] = {"offers", "--help", NULL};
	char *refresh_help = NULL, *offers_help = NULL;
	ck_assert_int_eq(test_run_planner(refresh_argv, NULL, &refresh_help, NULL), 0);
	ck_assert_int_eq(test_run_planner(offers_argv, NULL, &offers_help, NULL), 0);
	/* By enum provider_kind: what `planner providers` prints, and where
	 * the refresh paragraph names the kind. */
	static const char *const kinds[] = {"rented", "api", "fx"};
	static const char *const where[] = {"among the rented feeds", "among the API feeds",
	                                    "after the feeds"};
	_Static_assert(PROVIDER_RENTED == 0 && PROVIDER_API == 1 && PROVIDER_FX == 2,
	               "kinds[] and where[] follow enum provider_kind");
	const struct provider *steps[64];
	size_t n = refresh_steps(steps, 64);
	for (size_t i = 0; i < n; i++) {
		const struct provider *p = steps[i];
		bool rented = p->kind == PROVIDER_RENTED;
		const char *kind = kinds[p->kind];
		char *row = xasprintf("\n%s ", p->name), *at = strstr(example, row), got[16] = "";
		ck_assert_msg(at != NULL, "README's `planner providers` example has no row for %s",
		              p->name);
		ck_assert_int_eq(sscanf(at + strlen(row), " %15s", got), 1);
		ck_assert_msg(!strcmp(got, kind),
		              "README's `planner providers` shows %s as %s, not %s", p->name, got,
		              kind);
		free(row);
		ck_assert_msg(in_refresh_paragraph(fetches, p),
		              "README's refresh paragraph does not name %s %s", p->name,
		              where[p->kind]);
		ck_assert_msg(test_has_word(refresh_man, p->name),
		              "planner.1's refresh section does not name %s", p->name);
		ck_assert_msg(test_has_word(refresh_help, p->name),
		              "refresh --help does not name %s", p->name);
		ck_assert_msg(!rented || test_has_word(offers_help, p->name),
		              "offers --help does not name %s", p->name);
		if (p->key_env) {
			ck_assert_msg(
			    named_on_its_side(keys, p->key_env, "(needed)", !p->key_optional),
			    "README's keys do not list %s as %s", p->key_env,
			    p->key_optional ? "optional" : "needed");
			ck_assert_msg(test_has_word(env_man, p->key_env),
			              "planner.1's ENVIRONMENT does not name %s", p->key_env);
			ck_assert_msg(test_has_word(refresh_help, p->key_env),
			              "refresh --help does not name %s", p->key_env);
		}
	}
	free(offers_help);
	free(refresh_help);
	free(env_man);
	free(refresh_man);
	free(keys);
	free(fetches);
	free(example);
	free(readme);
	free(man);
}
END_TEST

/* Each shell's completion of --provider offers the registry: offers and
 * history every row of provider_list (bash and zsh in its order, fish
 * sorted), refresh those and its ecb step, which it can run alone
 * (issue 26: none offered ecb). */
START_TEST(every_shell_completes_each_provider_and_refresh_the_ecb_step)
{
	static const struct {
		const char *cmd, *bash; /* the command, COMP_WORDS asking for its --provider */
		int cword;
	} cmds[] = {
	    {"offers", "planner offers --provider \"\"", 3},
	    {"history", "planner history h100 --provider \"\"", 4},
	    {"refresh", "planner refresh --provider \"\"", 3},
	};
	char *zsh = test_slurp("completion/_planner");
	ck_assert_ptr_nonnull(zsh);
	bool fish = test_have_shell("fish");
	if (!fish)
		printf("doc_lists: fish --provider completion skipped: fish is not installed\n");
	for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
		const struct provider *steps[64];
		size_t n = refresh_steps(steps, 64);
		char want[1024] = "";
		bool refresh = !strcmp(cmds[c].cmd, "refresh");
		for (size_t i = 0; i < n; i++)
			if (refresh || steps[i]->kind != PROVIDER_FX)
				add_word(want, sizeof want, steps[i]->name);
		char *got = test_bash_complete(cmds[c].bash, cmds[c].cword);
		got[strcspn(got, "\n")] = '\0';
		ck_assert_msg(!strcmp(got, want), "bash: %s --provider offers '%s', want '%s'",
		              cmds[c].cmd, got, want);
		free(got);
		got = zsh_values(zsh, cmds[c].cmd, "provider");
		ck_assert_msg(!strcmp(got, want), "zsh: %s --provider offers '%s', want '%s'",
		              cmds[c].cmd, got, want);
		free(got);
		if (fish) {
			char *line = xasprintf("planner %s --provider ", cmds[c].cmd);
			char *sorted_want = sorted(want);
			got = fish_values(line);
			ck_assert_msg(!strcmp(got, sorted_want),
			              "fish: %s --provider offers '%s', want '%s'", cmds[c].cmd,
			              got, sorted_want);
			free(got);
			free(sorted_want);
			free(line);
		}
	}
	free(zsh);
}
END_TEST

/* The engines, in engines[] order, space-separated into buf. */
static void engine_words(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n_engines; i++)
		add_word(buf, len, engines[i].name);
}

/* Every row of engines[] is named, on the side of its task, wherever the
 * engines are listed by hand: README's Engines paragraph (inference, then
 * fine-tuning after ';'), planner.1's --engine, the reference's `engine`
 * key (docs/spec.md and planner-spec.5, rendered from spec_job.c's
 * table), and a row of docs/estimation.md's table; fit --help and its
 * message are built from the rows and checked too. */
START_TEST(every_engine_is_in_the_help_readme_man_pages_and_reference)
{
	char *readme = test_slurp("docs/tour.md"), *man = test_slurp("planner.1"),
	     *spec = test_slurp("docs/spec.md"), *spec5 = test_slurp("planner-spec.5"),
	     *estimation = test_slurp("docs/estimation.md"), *help = NULL;
	ck_assert(readme && man && spec && spec5 && estimation);
	const char *argv[] = {"fit", "--help", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &help, NULL), 0);
	char *readme_list = part(readme, "docs/tour.md", "* **Engines**", "\n* ");
	char *man_list = part(man, "planner.1", ".B \\-\\-engine\n", "\n.B ");
	char *spec_row = part(spec, "docs/spec.md", "| `jobs[].engine` |", "\n");
	char *spec5_entry = part(spec5, "planner-spec.5", ".B jobs[].engine\n", "\n.TP");
	char *spec5_list = part(spec5_entry, "planner-spec.5's jobs[].engine", "Allowed:", "\n");
	char *help_list = part(help, "fit --help", "  --engine E", "\n  --");
	for (size_t i = 0; i < n_engines; i++) {
		const struct engine *e = &engines[i];
		const char *task = e->inference ? "inference" : "fine-tuning";
		char *r = roff(e->name), *row = xasprintf("\n| %s | %s |", e->name, task);
		ck_assert_msg(named_on_its_side(readme_list, e->name, ";", e->inference),
		              "README's Engines paragraph does not list %s for %s", e->name, task);
		ck_assert_msg(named_on_its_side(man_list, r, "for inference", e->inference),
		              "planner.1's --engine does not list %s for %s", e->name, task);
		ck_assert_msg(named_on_its_side(spec_row, e->name, "(inference)", e->inference),
		              "docs/spec.md's jobs[].engine does not list %s for %s", e->name,
		              task);
		ck_assert_msg(named_on_its_side(spec5_list, r, "(inference)", e->inference),
		              "planner-spec.5's jobs[].engine does not list %s for %s", e->name,
		              task);
		ck_assert_msg(strstr(estimation, row) != NULL,
		              "docs/estimation.md's Engines table has no row '%s'", row + 1);
		ck_assert_msg(named_on_its_side(help_list, e->name, "(inference)", e->inference),
		              "fit --help's --engine does not list %s for %s", e->name, task);
		free(row);
		free(r);
	}
	free(help_list);
	free(spec5_list);
	free(spec5_entry);
	free(spec_row);
	free(man_list);
	free(readme_list);
	free(help);
	free(estimation);
	free(spec5);
	free(spec);
	free(man);
	free(readme);
}
END_TEST

/* Each shell's completion of fit's option `flag` offers exactly `want`'s
 * words (bash and zsh in its order, fish sorted). */
static void assert_shells_complete(const char *flag, const char *want)
{
	char words[64];
	snprintf(words, sizeof words, "planner fit m --%s \"\"", flag);
	char *got = test_bash_complete(words, 4);
	got[strcspn(got, "\n")] = '\0';
	ck_assert_msg(!strcmp(got, want), "bash: --%s offers '%s', want '%s'", flag, got, want);
	free(got);
	char *zsh = test_slurp("completion/_planner");
	ck_assert_ptr_nonnull(zsh);
	got = zsh_values(zsh, "fit", flag);
	ck_assert_msg(!strcmp(got, want), "zsh: --%s offers '%s', want '%s'", flag, got, want);
	free(got);
	free(zsh);
	if (!test_have_shell("fish")) {
		printf("doc_lists: fish --%s completion skipped: fish is not installed\n", flag);
		return;
	}
	char *sorted_want = sorted(want);
	snprintf(words, sizeof words, "planner fit m --%s ", flag);
	got = fish_values(words);
	ck_assert_msg(!strcmp(got, sorted_want), "fish: --%s offers '%s', want '%s'", flag, got,
	              sorted_want);
	free(got);
	free(sorted_want);
}

/* Each shell's completion of fit --engine offers exactly the rows of
 * engines[]. */
START_TEST(every_shell_completes_each_engine)
{
	char want[512];
	engine_words(want, sizeof want);
	assert_shells_complete("engine", want);
}
END_TEST

/* ... and fit --precision every precision planner knows (issue 25: every
 * llama.cpp type and mix, gptq-int8, nvfp4, mxfp4). */
START_TEST(every_shell_completes_each_precision)
{
	char want[1024];
	assert_shells_complete("precision", precision_list(want, sizeof want));
}
END_TEST

/* Every route (route_name) is named wherever the docs list the routes: a
 * formula of README's, a row of docs/design.md's table, docs/diff.md's
 * `….route` values, docs/fleet.md's `by_route` and `runs_on` rows and the
 * zsh completion's description of compare. */
START_TEST(every_route_is_in_the_docs_that_list_the_routes)
{
	char *readme = test_slurp("docs/tour.md"), *design = test_slurp("docs/design.md"),
	     *diff = test_slurp("docs/diff.md"), *fleet = test_slurp("docs/fleet.md"),
	     *zsh = test_slurp("completion/_planner");
	ck_assert(readme && design && diff && fleet && zsh);
	char *diff_row = part(diff, "docs/diff.md", "| `….route` |", "\n");
	char *by_route = part(fleet, "docs/fleet.md", "| `by_route` |", "\n");
	char *runs_on = part(fleet, "docs/fleet.md", "| `jobs[].runs_on` |", "\n");
	char *compare = part(zsh, "completion/_planner", "'compare:", "'\n");
	/* The routes planner ships (a test's registered route is not one). */
	for (int r = 0; r < ROUTE_BUILTIN; r++) {
		const char *name = route_at((size_t)r)->name;
		char *formula = xasprintf("\n* **%s** =", name), *row = xasprintf("\n| %s |", name),
		     *value = xasprintf("`%s`", name);
		ck_assert_msg(strstr(readme, formula) != NULL, "README has no formula '%s'",
		              formula + 1);
		ck_assert_msg(strstr(design, row) != NULL,
		              "docs/design.md's table of routes has no row '%s'", row + 1);
		ck_assert_msg(strstr(diff_row, value) != NULL,
		              "docs/diff.md's ….route does not name %s", value);
		ck_assert_msg(test_has_word(by_route, name), "docs/fleet.md's by_route lacks %s",
		              name);
		ck_assert_msg(test_has_word(runs_on, name), "docs/fleet.md's runs_on lacks %s",
		              name);
		ck_assert_msg(test_has_word(compare, name),
		              "completion/_planner's compare description lacks %s", name);
		free(value);
		free(row);
		free(formula);
	}
	free(compare);
	free(runs_on);
	free(by_route);
	free(diff_row);
	free(zsh);
	free(fleet);
	free(diff);
	free(design);
	free(readme);
}
END_TEST

Suite *doc_lists_suite(void)
{
	Suite *s = suite_create("doc_lists");
	TCase *tc = tcase_create("registries");
	tcase_set_timeout(tc, 0); /* no wall-clock limit: shells and the binary run */
	tcase_add_test(tc, every_provider_is_in_the_help_readme_and_man_page);
	tcase_add_test(tc, every_shell_completes_each_provider_and_refresh_the_ecb_step);
	tcase_add_test(tc, every_engine_is_in_the_help_readme_man_pages_and_reference);
	tcase_add_test(tc, every_shell_completes_each_engine);
	tcase_add_test(tc, every_shell_completes_each_precision);
	tcase_add_test(tc, every_route_is_in_the_docs_that_list_the_routes);
	suite_add_tcase(s, tc);
	return s;
}
