/* check_docs.c — the manual page (planner.1) and the bash completion
 * (completion/planner.bash) cover every command in the binary's table;
 * groff renders the page without a warning (skipped, saying so, where
 * groff is absent); the completion parses and completes commands, options
 * and option values when driven through COMP_WORDS as bash would. The
 * lists of providers, engines and routes they keep are held to their
 * registries in check_doc_lists.c. */
#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export.h"
#include "testutil.h"
#include "util.h"

#define GROFF "/usr/bin/groff"

/* Runs a shell command; stdout and stderr into *out. Returns the exit
 * status, or -1. */
static int run_sh(const char *cmd, char **out)
{
	char *full = xasprintf("%s 2>&1", cmd);
	int rc = test_sh(full, out);
	free(full);
	return rc;
}

/* The command names `planner --help` lists, as a NULL-terminated array of
 * malloc'd strings. */
static char **commands(void)
{
	const char *argv[] = {"--help", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	char **names = calloc(64, sizeof *names);
	size_t n = 0;
	char *p = strstr(out, "commands:\n");
	ck_assert_ptr_nonnull(p);
	for (p = strchr(p, '\n') + 1; !strncmp(p, "  ", 2) && n < 63; p = strchr(p, '\n') + 1) {
		char name[32];
		ck_assert_int_eq(sscanf(p, " %31s", name), 1);
		names[n++] = strdup(name);
	}
	free(out);
	ck_assert_int_ge(n, 7);
	return names;
}

static void free_names(char **names)
{
	for (size_t i = 0; names[i]; i++)
		free(names[i]);
	free(names);
}

START_TEST(every_command_has_help_with_an_example_a_man_section_and_completion)
{
	char **names = commands();
	char *man = test_slurp("planner.1"), *comp = test_slurp("completion/planner.bash");
	ck_assert_ptr_nonnull(man);
	ck_assert_ptr_nonnull(comp);
	const char *list = strstr(comp, "local commands=\"");
	ck_assert_ptr_nonnull(list);
	list += strlen("local commands=\"");
	/* " compare fit ... probe ": every name between spaces. */
	char *words = xasprintf(" %.*s ", (int)(strchr(list, '"') - list), list);
	for (size_t i = 0; names[i]; i++) {
		const char *argv[] = {names[i], "--help", NULL};
		char *out = NULL;
		ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
		ck_assert_msg(strstr(out, "example") != NULL, "%s --help has no example", names[i]);
		free(out);
		char *section = xasprintf(".SS \"planner %s", names[i]);
		ck_assert_msg(strstr(man, section) != NULL, "planner.1 has no section for %s",
			      names[i]);
		free(section);
		char *word = xasprintf(" %s ", names[i]);
		ck_assert_msg(strstr(words, word) != NULL, "completion does not offer %s", names[i]);
		free(word);
	}
	static const char *const man_sections[] = {".SH EXIT STATUS", ".SH ENVIRONMENT",
						   ".SH FILES", ".SH EXAMPLES", "PLANNER_DB",
						   "NO_COLOR", "PLANNER_NVIDIA_SMI"};
	for (size_t i = 0; i < sizeof man_sections / sizeof *man_sections; i++)
		ck_assert_msg(strstr(man, man_sections[i]) != NULL, "planner.1 lacks %s",
			      man_sections[i]);
	free(words);
	free(man);
	free(comp);
	free_names(names);
}
END_TEST

/* A misspelt option gets one message with the nearest option, from every
 * command, and getopt's own line is not printed beside it (issue 13). */
START_TEST(every_command_suggests_the_option_a_misspelt_one_meant_in_one_message)
{
	char **names = commands();
	for (size_t i = 0; names[i]; i++) {
		const char *argv[] = {names[i], "--frmat", "json", NULL};
		char *err = NULL;
		ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), PLANNER_EUSAGE);
		ck_assert_msg(strstr(err, "unknown option '--frmat'; did you mean '--format'?\n") &&
				      !strstr(err, "unrecognized"),
			      "%s: %s", names[i], err);
		/* The message, then the usage lines: one "planner:" line. */
		ck_assert_msg(!strstr(strstr(err, "planner:") + 1, "planner:"), "%s: %s", names[i],
			      err);
		free(err);
	}
	const char *month[] = {"schedule", "jobs/monthly.yaml", "--month", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(month, NULL, NULL, &err), PLANNER_EUSAGE);
	ck_assert_ptr_nonnull(strstr(err, "option '--month' needs a value"));
	free(err);
	free_names(names);
}
END_TEST

/* Every example spec (installed into share/planner/examples) prices, and
 * together they show the keys the tour leaves out (issue 13). */
START_TEST(every_example_spec_prices_and_the_examples_show_the_less_common_keys)
{
	char *list = NULL;
	ck_assert_int_eq(test_sh("ls jobs/*.yaml", &list), 0);
	char *all = xasprintf("%s", "");
	size_t n = 0;
	for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n"), n++) {
		const char *argv[] = {"compare", line, "--quiet", NULL};
		char *err = NULL;
		ck_assert_msg(test_run_planner(argv, NULL, NULL, &err) == 0, "%s: %s", line, err);
		free(err);
		char *text = test_slurp(line), *both = xasprintf("%s%s", all, text);
		free(text);
		free(all);
		all = both;
	}
	ck_assert_uint_ge(n, 2);
	static const char *const keys[] = {"\n    api_models:", "\nproviders:", "max_run:",
					   "max_count:", "\n    accelerator:", "regions:",
					   "\n    context: 32K"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		ck_assert_msg(strstr(all, keys[i]) != NULL, "no example shows %s", keys[i] + 1);
	free(all);
	free(list);
	/* make install puts them beside the man pages. */
	char *mk = test_slurp("Makefile");
	ck_assert_ptr_nonnull(strstr(mk, "share/planner/examples"));
	ck_assert_ptr_nonnull(strstr(mk, "man5/planner-spec.5"));
	free(mk);
}
END_TEST

/* A relative link or image in README.md and docs/ names a file of the
 * repository: a clone has no ../shared (issue 13). */
START_TEST(every_relative_link_in_the_markdown_names_a_file_in_the_repository)
{
	char *files = NULL;
	ck_assert_int_eq(test_sh("ls README.md CHANGELOG.md docs/*.md", &files), 0);
	for (char *f = strtok(files, "\n"); f; f = strtok(NULL, "\n")) {
		char *text = test_slurp(f);
		ck_assert_ptr_nonnull(text);
		char *dir = xasprintf("%s", f);
		char *slash = strrchr(dir, '/');
		if (slash)
			slash[1] = 0;
		else
			dir[0] = 0;
		for (const char *p = text; (p = strstr(p, "](")); p += 2) {
			size_t len = strcspn(p + 2, ")# ");
			char *target = xasprintf("%.*s", (int)len, p + 2);
			if (len && !strstr(target, "://") && strncmp(target, "mailto:", 7)) {
				char *path = xasprintf("%s%s", dir, target);
				ck_assert_msg(strncmp(target, "../", 3) != 0 || !strcmp(dir, "docs/"),
					      "%s links outside the repository: %s", f, target);
				ck_assert_msg(access(path, F_OK) == 0, "%s links to %s, which is missing",
					      f, target);
				free(path);
			}
			free(target);
		}
		free(dir);
		free(text);
	}
	free(files);
}
END_TEST

/* `make run` shows the answer, not the build: before the table, two lines
 * of make's and the compare's notes only (where the prices come from, the
 * bundled rows over 90 days older than the snapshot, the host computer),
 * no compiler or make lines (issue 13). Run on the build the tests use,
 * which is up to date (make check builds it first). */
START_TEST(make_run_prints_the_answer_without_the_build)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!bin || access("/usr/bin/make", X_OK) != 0) {
		printf("docs: make run check skipped: no PLANNER_BIN or no make\n");
		return;
	}
	char *build = xasprintf("%s", bin);
	*strrchr(build, '/') = 0;
	/* As a person types it: not a sub-make of `make check`. */
	char *cmd = xasprintf("env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make run BUILD=%s", build);
	char *out = NULL;
	ck_assert_int_eq(run_sh(cmd, &out), 0);
	const char *table = strstr(out, "\njob ");
	ck_assert_msg(table != NULL, "%s", out);
	int lines = 0;
	for (const char *p = out; p < table; p++)
		lines += *p == '\n';
	ck_assert_msg(lines <= 4, "%d lines before the answer:\n%s", lines, out);
	ck_assert_msg(!strstr(out, "make[") && !strstr(out, "cc ") && !strstr(out, "-Wall"), "%s",
		      out);
	free(out);
	free(cmd);
	free(build);
}
END_TEST

/* tests/tools/readme_walk.py --check on readme with the binary's directory
 * on PATH; its exit status, its report in *out. */
static int readme_walk(const char *readme, const char *bindir, char **out)
{
	char *cmd = xasprintf("python3 tests/tools/readme_walk.py --check '%s' '%s' 2>&1", readme,
			      bindir);
	int rc = run_sh(cmd, out);
	free(cmd);
	return rc;
}

START_TEST(the_readme_commands_print_what_the_readme_shows)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!bin) {
		printf("docs: README walk skipped: no PLANNER_BIN\n");
		return;
	}
	char *bindir = xasprintf("%s", bin);
	*strrchr(bindir, '/') = 0;
	char *out = NULL;
	const char *pages[] = {"README.md", "docs/tour.md"};
	for (size_t i = 0; i < 2; i++) {
		int rc = readme_walk(pages[i], bindir, &out);
		ck_assert_msg(rc == 0, "%s output differs (regenerate with `make readme`):\n%s",
			      pages[i], out);
		ck_assert_msg(strstr(out, " 0 differ") && !strstr(out, "\n0 commands run"), "%s",
			      out);
		free(out);
	}
	/* A control: one figure changed in a copy is found. */
	char *dir = test_tmpdir(), *copy = xasprintf("%s/tour.md", dir);
	char *cmd = xasprintf("sed '0,/^support-bot  /s/^support-bot            api             "
			      "[0-9.]*/support-bot            api             999.99/' docs/tour.md > "
			      "'%s'",
			      copy);
	ck_assert_int_eq(run_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(readme_walk(copy, bindir, &out), 0);
	ck_assert_msg(strstr(out, "-support-bot            api             999.99"), "%s", out);
	free(out);
	free(cmd);
	free(copy);
	free(dir);
	free(bindir);
}
END_TEST

START_TEST(groff_renders_the_man_page_without_a_warning)
{
	if (access(GROFF, X_OK) != 0) {
		printf("docs: man page check skipped: %s is not installed (apt-get install "
		       "groff-base)\n",
		       GROFF);
		return;
	}
	char *out = NULL;
	ck_assert_int_eq(run_sh(GROFF " -man -Tutf8 -ww -z planner.1", &out), 0);
	ck_assert_msg(*out == '\0', "groff warnings:\n%s", out);
	free(out);
	/* Spaces squeezed: groff justifies a long heading with double spaces. */
	ck_assert_int_eq(run_sh(GROFF " -man -Tutf8 -P-c -P-b -P-u planner.1 | tr -s ' '", &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "EXIT STATUS"));
	ck_assert_ptr_nonnull(strstr(out, "planner breakeven FILE"));
	free(out);
	/* planner-spec(5), the job spec's keys (issue 13). */
	ck_assert_int_eq(run_sh(GROFF " -man -Tutf8 -ww -z planner-spec.5", &out), 0);
	ck_assert_msg(*out == '\0', "groff warnings in planner-spec.5:\n%s", out);
	free(out);
	ck_assert_int_eq(run_sh(GROFF " -man -Tutf8 -P-c -P-b -P-u planner-spec.5", &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "jobs[].schedule.min_run"));
	ck_assert_ptr_nonnull(strstr(out, "Default:"));
	free(out);
}
END_TEST

START_TEST(bash_completes_commands_options_and_their_values)
{
	char *out = NULL;
	ck_assert_int_eq(run_sh("bash -n completion/planner.bash", &out), 0);
	free(out);
	static const struct {
		const char *words;
		int cword;
		const char *want;
	} cases[] = {
	    {"planner re", 1, "refresh report\n"},
	    {"planner hi", 1, "history\n"},
	    {"planner breakeven jobs/monthly.yaml --o", 3, "--output\n"},
	    {"planner report x.yaml -", 3,
	     "--output -o --quiet --set --each-alone --db --format --help --verbose\n"},
	    {"planner fit llama --precision q4", 4, "q4_k_m q4_k_s q4_1 q4_0\n"},
	    {"planner history h100 --provider ru", 4, "runpod\n"},
	    {"planner compare jobs/month", 2, "jobs/monthly.yaml\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		out = test_bash_complete(cases[i].words, cases[i].cword);
		ck_assert_msg(!strcmp(out, cases[i].want), "'%s' completed to '%s', want '%s'",
			      cases[i].words, out, cases[i].want);
		free(out);
	}
}
END_TEST

/* `prov<Tab>` completes the command even beside a directory providers/ (the
 * repository root): `complete` carries no -o filenames, which would make
 * readline append a slash; file names get it from compopt where they are
 * completed. Model and GPU names come from the planner being completed. */
START_TEST(bash_completes_commands_not_directories_and_model_and_gpu_names)
{
	char *out = NULL;
	ck_assert_int_eq(run_sh("bash --norc --noprofile -c 'source completion/planner.bash; "
				"complete -p planner'",
				&out),
			 0);
	ck_assert_str_eq(out, "complete -F _planner planner\n");
	free(out);
	out = test_bash_complete("planner prov", 1);
	ck_assert_str_eq(out, "providers\n");
	free(out);
	const char *bin = getenv("PLANNER_BIN");
	if (!bin)
		return;
	static const struct {
		const char *words;
		int cword;
		const char *want;
	} cases[] = {
	    {"%s fit llama-3.1-4", 2, "llama-3.1-405b\n"},
	    {"%s offers --gpu \"RTX 409\"", 3, "RTX\\ 4090\n"},
	    {"%s offers --gpu \"RTX\\\\ 409\"", 3, "RTX\\ 4090\n"},
	    {"%s offers --model qwen2.5-7", 3, "qwen2.5-7b qwen2.5-72b\n"},
	    {"%s history H10", 2, "H100\\ PCIe H100\\ SXM H100\\ NVL\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *words = xasprintf(cases[i].words, bin);
		out = test_bash_complete(words, cases[i].cword);
		ck_assert_msg(!strcmp(out, cases[i].want), "'%s' completed to '%s', want '%s'", words,
			      out, cases[i].want);
		free(out);
		free(words);
	}
}
END_TEST

/* The zsh and fish completions parse (when the shell is installed) and name
 * every command and every schedule format, as the bash one must. */
START_TEST(zsh_and_fish_completions_parse_and_name_every_command_and_format)
{
	static const struct {
		const char *shell, *path, *check;
	} files[] = {
	    {"zsh", "completion/_planner", "zsh -n completion/_planner 2>&1"},
	    {"fish", "completion/planner.fish", "fish --no-execute completion/planner.fish 2>&1"},
	};
	char **names = commands();
	for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
		char *text = test_slurp(files[f].path), *out = NULL;
		ck_assert_ptr_nonnull(text);
		if (test_have_shell(files[f].shell)) {
			ck_assert_msg(run_sh(files[f].check, &out) == 0, "%s: %s", files[f].path,
				      out);
			free(out);
		} else {
			printf("docs: %s syntax check skipped: %s is not installed\n", files[f].path,
			       files[f].shell);
		}
		for (size_t i = 0; names[i]; i++)
			ck_assert_msg(test_has_word(text, names[i]), "%s does not offer %s",
			              files[f].path, names[i]);
		for (size_t i = 0; export_formats[i]; i++)
			ck_assert_msg(test_has_word(text, export_formats[i]->name),
			              "%s does not offer format %s", files[f].path,
			              export_formats[i]->name);
		ck_assert_msg(strstr(text, "models --format csv") || strstr(text, "$1 --format csv") ||
				      strstr(text, "$argv[1] --format csv"),
			      "%s does not read model and GPU names from planner", files[f].path);
		free(text);
	}
	free_names(names);
}
END_TEST

/* fish completes commands, formats and GPU names as a user's Tab would
 * (`complete -C`), when fish is installed. */
START_TEST(fish_completes_commands_formats_and_gpu_names)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!test_have_shell("fish") || !bin) {
		printf("docs: fish completion run skipped: fish or PLANNER_BIN missing\n");
		return;
	}
	char *cmd = xasprintf("PATH=\"$(dirname '%s'):$PATH\" fish --no-config -c '"
			      "source completion/planner.fish; complete -C\"planner prov\"; "
			      "complete -C\"planner schedule x --format \"; "
			      "complete -C\"planner fit --gpu RTX\\\\ 409\"' 2>&1",
			      bin);
	char *out = NULL;
	ck_assert_int_eq(run_sh(cmd, &out), 0);
	const char *want = "providers\teach price feed\n";
	/* fish sorts the formats; each must be on a line of its own. */
	ck_assert_msg(!strncmp(out, want, strlen(want)), "fish: %s", out);
	for (size_t i = 0; export_formats[i]; i++) {
		if (!(export_formats[i]->applies & EXPORT_SCHEDULE))
			continue;
		char *line = xasprintf("\n%s\n", export_formats[i]->name);
		ck_assert_msg(strstr(out, line) != NULL, "fish does not offer format %s: %s",
			      export_formats[i]->name, out);
		free(line);
	}
	ck_assert_msg(strstr(out, "\nRTX 4090\n") != NULL, "fish: %s", out);
	free(out);
	free(cmd);
}
END_TEST

/* Every row of export_formats shows up wherever formats are offered: the
 * help and usage of the commands it applies to, planner.1, the README's
 * command table, and the bash completion, which offers exactly the list's
 * names in its order. A new
 * format that is one row in the list fails here until it is documented. */
START_TEST(every_export_format_has_help_a_man_entry_and_completion)
{
	static const struct {
		unsigned kind;
		const char *cmd;   /* a command whose --format takes the kind */
		const char *man;   /* where planner.1 lists them */
		const char *words; /* COMP_WORDS asking for its --format */
		int cword;
	} kinds[] = {
	    {EXPORT_SCHEDULE, "schedule", ".SS \"planner schedule",
	     "planner schedule x --format \"\"", 4},
	    {EXPORT_DATA, "compare", ".BI \\-\\-format", "planner compare x --format \"\"", 4},
	    {EXPORT_DATA, "offers", ".BI \\-\\-format", "planner offers --format \"\"", 3},
	    {EXPORT_DATA, "fit", ".BI \\-\\-format", "planner fit m --format \"\"", 4},
	    {EXPORT_DATA, "history", ".BI \\-\\-format", "planner history h100 --format \"\"", 4},
	};
	char *man = test_slurp("planner.1"), *readme = test_slurp("docs/tour.md");
	ck_assert_ptr_nonnull(man);
	ck_assert_ptr_nonnull(readme);
	/* The README's command table gives schedule's synopsis. */
	const char *synopsis = strstr(readme, "| `planner schedule FILE");
	ck_assert_ptr_nonnull(synopsis);
	char *row = xasprintf("%.*s", (int)strcspn(synopsis, "\n"), synopsis);
	for (size_t i = 0; export_formats[i]; i++)
		if (export_formats[i]->applies & EXPORT_SCHEDULE)
			ck_assert_msg(test_has_word(row, export_formats[i]->name),
			              "README's schedule synopsis lacks %s",
			              export_formats[i]->name);
	free(row);
	free(readme);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		const char *argv[] = {kinds[k].cmd, "--help", NULL};
		char *help = NULL, *section = test_man_part(man, "planner.1", kinds[k].man);
		ck_assert_int_eq(test_run_planner(argv, NULL, &help, NULL), 0);
		char names[256] = "", *want = NULL;
		for (size_t i = 0; export_formats[i]; i++) {
			const struct export_format *ef = export_formats[i];
			if (!(ef->applies & kinds[k].kind))
				continue;
			ck_assert_msg(test_has_word(help, ef->name),
			              "%s --help does not name format %s", kinds[k].cmd, ef->name);
			ck_assert_msg(test_has_word(section, ef->name),
			              "planner.1's '%s' does not name %s", kinds[k].man, ef->name);
			if (ef->summary && kinds[k].kind == EXPORT_SCHEDULE) {
				char *note = xasprintf("%s (%.6s", ef->name, ef->summary);
				ck_assert_msg(strstr(help, note) != NULL, "%s --help lacks '%s …)'",
				              kinds[k].cmd, note);
				free(note);
			}
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
			         names[0] ? " " : "", ef->name);
		}
		want = xasprintf("%s\n", names);
		char *got = test_bash_complete(kinds[k].words, kinds[k].cword);
		ck_assert_msg(!strcmp(got, want), "completion of %s --format: '%s', want '%s'",
		              kinds[k].cmd, got, want);
		free(got);
		free(want);
		free(section);
		free(help);
	}
	free(man);
}
END_TEST

/* Every exit status, 0 to PLANNER_EUNPLACED, is in planner.1's EXIT STATUS, the
 * README's table and the top-level --help. */
START_TEST(every_exit_status_is_documented)
{
	const char *argv[] = {"--help", NULL};
	char *help = NULL, *man = test_slurp("planner.1"), *readme = test_slurp("docs/tour.md");
	ck_assert_ptr_nonnull(man);
	ck_assert_ptr_nonnull(readme);
	ck_assert_int_eq(test_run_planner(argv, NULL, &help, NULL), 0);
	const char *codes = strstr(help, "exit codes:");
	ck_assert_ptr_nonnull(codes);
	for (int k = PLANNER_OK; k <= PLANNER_EUNPLACED; k++) {
		char *tp = xasprintf(".TP\n.B %d\n", k), *row = xasprintf("\n| %d | ", k),
		     *word = xasprintf("%s%d ", k ? ", " : " ", k);
		ck_assert_msg(strstr(man, tp) != NULL, "planner.1 lacks exit status %d", k);
		ck_assert_msg(strstr(readme, row) != NULL, "README lacks exit code %d", k);
		/* "exit codes: 0 ok, 1 job …": the help wraps after a comma. */
		char *flat = xasprintf("%s", codes);
		for (char *p = flat; *p; p++)
			if (*p == '\n')
				*p = ' ';
		ck_assert_msg(strstr(flat, word) != NULL, "--help lacks exit code %d", k);
		free(flat);
		free(tp);
		free(row);
		free(word);
	}
	free(help);
	free(man);
	free(readme);
}
END_TEST

/* A clone is all a reader has: nothing the project ships may send them to
 * the founders' briefing (../shared/ and its DESIGN.md, ESTIMATION.md,
 * STYLE.md, PROVIDERS.md), and every relative link in README.md and docs/
 * must name a file that exists. The recorded third-party data under
 * tests/calibration and tests/fixtures/real is quoted, not ours, and is
 * left out. */
START_TEST(the_repository_stands_alone)
{
	char *out = NULL;
	int rc = run_sh("grep -rnE --exclude=check_docs.c '[.][.]/shared|(DESIGN|ESTIMATION|STYLE|PROVIDERS)[.]md' "
			"README.md CHANGELOG.md Makefile planner.1 .clang-tidy docs planner "
			"providers completion jobs bench tests/*.c tests/*.h tests/*.py "
			"tests/fixtures/jobs tests/fuzz/*.c tests/fuzz/*.md",
			&out);
	ck_assert_msg(rc == 1, "citations of files a clone lacks:\n%s", out);
	free(out);
	out = NULL;
	/* Each [text](target) whose target is a relative path, resolved
	 * against the Markdown file's folder. */
	rc = run_sh("for f in README.md docs/*.md; do d=$(dirname \"$f\"); "
		    "grep -oE '\\]\\([^)#]+' \"$f\" | sed 's/^](//' | "
		    "grep -vE '^(https?|mailto):' | while read -r t; do "
		    "[ -e \"$d/$t\" ] || echo \"$f: $t\"; done; done",
		    &out);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(out[0] == '\0', "links to missing files:\n%s", out);
	free(out);
}
END_TEST

Suite *docs_suite(void)
{
	Suite *s = suite_create("docs");
	TCase *tc = tcase_create("man page and completion");
	tcase_set_timeout(tc, 0); /* no wall-clock limit: one run per command */
	tcase_add_test(tc, every_command_has_help_with_an_example_a_man_section_and_completion);
	tcase_add_test(tc, groff_renders_the_man_page_without_a_warning);
	tcase_add_test(tc, bash_completes_commands_options_and_their_values);
	tcase_add_test(tc, bash_completes_commands_not_directories_and_model_and_gpu_names);
	tcase_add_test(tc, zsh_and_fish_completions_parse_and_name_every_command_and_format);
	tcase_add_test(tc, fish_completes_commands_formats_and_gpu_names);
	tcase_add_test(tc, every_export_format_has_help_a_man_entry_and_completion);
	tcase_add_test(tc, every_exit_status_is_documented);
	tcase_add_test(tc, every_example_spec_prices_and_the_examples_show_the_less_common_keys);
	tcase_add_test(tc, every_relative_link_in_the_markdown_names_a_file_in_the_repository);
	tcase_add_test(tc, make_run_prints_the_answer_without_the_build);
	tcase_add_test(tc, every_command_suggests_the_option_a_misspelt_one_meant_in_one_message);
	tcase_add_test(tc, the_repository_stands_alone);
	tcase_add_test(tc, the_readme_commands_print_what_the_readme_shows);
	suite_add_tcase(s, tc);
	return s;
}
