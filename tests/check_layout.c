/* check_layout.c — the code stays readable as it grows: no source file in
 * planner/ or providers/ over 800 lines and no function over 80, unless a
 * comment says why. A file opts out with "layout: long file" in a
 * comment, a function with "layout: long function" in the comment above
 * it; the reason goes beside the mark. And the core (planner/ less the
 * command layer, and providers/) never includes cli.h. Each scan says how
 * many files it read, so a glob that matches nothing fails. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"

/* awk over every core source: a function body runs from a "{" alone at
 * column 0 to the next "}" at column 0 (the project's brace style); the
 * comment above the header is what came since the previous body. */
static const char *const scan =
    "awk -v maxf=800 -v maxfn=80 '"
    "FNR == 1 { if (NR > 1) endfile(); lines = 0; longfile = 0; note = \"\"; start = 0 }"
    "{ lines++ }"
    "/layout: long file/ { longfile = 1 }"
    "/layout: long function/ { note = \"yes\" }"
    "/^[{]$/ { start = FNR; header = prev }"
    "/^[}]/ && start { if (FNR - start > maxfn && note == \"\")"
    "  printf \"%s:%d: function %s is %d lines\\n\", FILENAME, start, header, FNR - start;"
    "  start = 0; note = \"\" }"
    "{ prev = $0 }"
    "function endfile() { if (lines > maxf && !longfile)"
    "  printf \"%s: %d lines\\n\", fname, lines }"
    "{ fname = FILENAME }"
    "END { endfile(); printf \"scanned %d\\n\", ARGC - 1 }' planner/*.c providers/*.c";

/* Every core source and header that includes cli.h. The command layer is
 * the Makefile's CLI_SRC (main.c, cli.c, msg.c, cmd_*.c) and cli.h. */
static const char *const core_cli =
    "n=0; for f in planner/*.[ch] providers/*.[ch]; do "
    "[ -f \"$f\" ] || continue; "
    "case $f in planner/main.c|planner/cli.[ch]|planner/msg.c|planner/cmd_*.c) continue;; esac; "
    "n=$((n + 1)); "
    "if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]cli[.]h[>\"]' \"$f\"; "
    "then echo \"$f includes cli.h\"; fi; "
    "done; echo \"scanned $n\"";

/* Every place that could ask for GNU extensions or ELF-only assembly
 * (issue 28: the tree builds on macOS by construction; `make posix-check`
 * catches the calls, this the switches). */
static const char *const gnu_only =
    "n=0; for f in Makefile tests/fuzz/fuzz.mk planner/*.[ch] providers/*.[ch] tests/*.[ch] "
    "tests/fuzz/*.[ch]; do [ -f \"$f\" ] || continue; n=$((n + 1)); "
    "grep -Hn -E '^[[:space:]]*#[[:space:]]*define[[:space:]]+_GNU_SOURCE|-D[_]GNU_SOURCE|"
    "__[a]sm__|\"[.]incbin' \"$f\"; done; echo \"scanned $n\"";

/* Runs a scan (in dir when not NULL): its findings into *found (malloc'd,
 * the "scanned N" line taken off) and the number of files it read. */
static long run_scan(const char *scan_cmd, const char *dir, char **found)
{
	char *cmd = dir ? xasprintf("cd %s && %s", dir, scan_cmd) : xasprintf("%s", scan_cmd);
	char *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	char *last = strstr(out, "scanned ");
	ck_assert_msg(last != NULL, "no file count from the scan:\n%s", out);
	while (strstr(last + 1, "scanned "))
		last = strstr(last + 1, "scanned ");
	long n = strtol(last + strlen("scanned "), NULL, 10);
	*last = '\0';
	*found = out;
	free(cmd);
	return n;
}

/* A new empty directory, its path malloc'd: a made-up tree to scan. */
static char *tree_new(void)
{
	char *dir = NULL;
	ck_assert_int_eq(test_sh("mktemp -d", &dir), 0);
	dir[strcspn(dir, "\n")] = '\0';
	return dir;
}

/* Removes the tree and frees its path. */
static void tree_free(char *dir)
{
	char *rm = xasprintf("rm -rf %s", dir);
	test_sh(rm, NULL);
	free(rm);
	free(dir);
}

/* Fails the test unless the scan, run here, read files and found none
 * (what: the message before its findings). */
static void assert_clean(const char *scan_cmd, const char *what)
{
	char *out = NULL;
	ck_assert_int_gt(run_scan(scan_cmd, NULL, &out), 0);
	ck_assert_msg(out[0] == '\0', "%s:\n%s", what, out);
	free(out);
}

START_TEST(no_file_or_function_outgrows_a_reader_without_a_reason)
{
	assert_clean(scan, "too long, with no reason given");
}
END_TEST

START_TEST(no_core_source_includes_the_command_layer)
{
	assert_clean(core_cli, "the core must not depend on the CLI");
}
END_TEST

START_TEST(no_source_or_build_file_asks_for_gnu_extensions_or_elf_assembly)
{
	assert_clean(gnu_only, "not portable to macOS and the BSDs");
}
END_TEST

START_TEST(the_include_check_sees_cli_h_in_a_core_file_and_no_scan_passes_on_no_files)
{
	char *dir = tree_new(), *out = NULL;
	ck_assert_int_eq(run_scan(core_cli, dir, &out), 0);
	free(out);
	/* The size scan given no files fails outright (awk cannot open the
	 * unexpanded glob). */
	char *none = xasprintf("cd %s && { %s; } 2>/dev/null", dir, scan);
	ck_assert_int_ne(test_sh(none, NULL), 0);
	free(none);
	char *mk = xasprintf("mkdir -p %s/planner %s/providers && cd %s && "
	                     "echo '#include \"cli.h\"' > planner/core.c && "
	                     "echo '#  include \"cli.h\"' > providers/p.h && "
	                     "echo '#include \"cli.h\"' > planner/cmd_x.c && "
	                     "echo '#include \"util.h\"' > planner/ok.c",
	                     dir, dir, dir);
	ck_assert_int_eq(test_sh(mk, NULL), 0);
	ck_assert_int_eq(run_scan(core_cli, dir, &out), 3);
	ck_assert_str_eq(out, "planner/core.c includes cli.h\nproviders/p.h includes cli.h\n");
	free(mk);
	free(out);
	tree_free(dir);
}
END_TEST

START_TEST(the_size_check_sees_a_long_function)
{
	char *dir = tree_new(), *out = NULL;
	/* One 81-line function in a file of its own, run through the same awk. */
	char *mk = xasprintf("mkdir -p %s/planner %s/providers && { echo 'int f(void)'; "
			     "echo '{'; for i in $(seq 81); do echo '	;'; done; echo '}'; } "
			     "> %s/planner/long.c && touch %s/providers/none.c",
			     dir, dir, dir, dir);
	ck_assert_int_eq(test_sh(mk, NULL), 0);
	ck_assert_int_eq(run_scan(scan, dir, &out), 2);
	ck_assert_msg(strstr(out, "function int f(void) is 82 lines") != NULL, "%s", out);
	free(mk);
	free(out);
	tree_free(dir);
}
END_TEST

/* The core archive beside the binary needs nothing the command layer's
 * archive defines: a core file that declared errorf itself, not through
 * cli.h, would show here. Skipped without nm. */
START_TEST(the_core_library_needs_no_symbol_of_the_command_layer)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!bin || !*bin)
		bin = "build/planner";
	if (test_sh("command -v nm >/dev/null", NULL) != 0) {
		fprintf(stderr, "layout: no nm, the core's symbols not checked\n");
		return;
	}
	char *dir = xasprintf("%s", bin), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, "."); /* bin is not empty: room for "." */
	char *cmd =
	    xasprintf("cd %s && t=$(mktemp) && nm -g --defined-only libplanner-cli.a | "
	              "awk 'NF == 3 { print $3 }' | sort -u > $t && n=$(wc -l < $t) && "
	              "nm -u libplanner.a | awk '{ print $NF }' | sort -u | comm -12 $t - && "
	              "rm -f $t && echo \"defined $n\"",
	              dir);
	char *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	/* The command layer's archive was read: it defines the commands. */
	char *count = strstr(out, "defined ");
	ck_assert_msg(count && strtol(count + 8, NULL, 10) > 0, "%s", out);
	*count = '\0';
	ck_assert_msg(out[0] == '\0', "the core uses the command layer's:\n%s", out);
	free(out);
	free(cmd);
	free(dir);
}
END_TEST

Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("sizes");
	tcase_add_test(tc, no_file_or_function_outgrows_a_reader_without_a_reason);
	tcase_add_test(tc, the_size_check_sees_a_long_function);
	tcase_add_test(tc, no_core_source_includes_the_command_layer);
	tcase_add_test(tc, no_source_or_build_file_asks_for_gnu_extensions_or_elf_assembly);
	tcase_add_test(tc, the_core_library_needs_no_symbol_of_the_command_layer);
	tcase_add_test(tc,
	               the_include_check_sees_cli_h_in_a_core_file_and_no_scan_passes_on_no_files);
	suite_add_tcase(s, tc);
	return s;
}
