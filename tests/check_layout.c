/* check_layout.c — the code stays readable as it grows: no source file in
 * planner/ or providers/ over 800 lines and no function over 80, unless a
 * comment says why. A file opts out with "layout: long file" in a
 * comment, a function with "layout: long function" in the comment above
 * it; the reason goes beside the mark. */
#include <check.h>
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
	"END { endfile() }' planner/*.c providers/*.c";

START_TEST(no_file_or_function_outgrows_a_reader_without_a_reason)
{
	char *out = NULL;
	int rc = test_sh(scan, &out);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(out[0] == '\0', "too long, with no reason given:\n%s", out);
	free(out);
}
END_TEST

START_TEST(the_size_check_sees_a_long_function)
{
	char *dir = NULL, *out = NULL;
	ck_assert_int_eq(test_sh("mktemp -d", &dir), 0);
	dir[strcspn(dir, "\n")] = '\0';
	/* One 81-line function in a file of its own, run through the same awk. */
	char *mk = xasprintf("mkdir -p %s/planner %s/providers && { echo 'int f(void)'; "
			     "echo '{'; for i in $(seq 81); do echo '	;'; done; echo '}'; } "
			     "> %s/planner/long.c && touch %s/providers/none.c",
			     dir, dir, dir, dir);
	ck_assert_int_eq(test_sh(mk, NULL), 0);
	char *cmd = xasprintf("cd %s && %s", dir, scan);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	ck_assert_msg(strstr(out, "function int f(void) is 82 lines") != NULL, "%s", out);
	char *rm = xasprintf("rm -rf %s", dir);
	test_sh(rm, NULL);
	free(rm);
	free(cmd);
	free(mk);
	free(out);
	free(dir);
}
END_TEST

Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("sizes");
	tcase_add_test(tc, no_file_or_function_outgrows_a_reader_without_a_reason);
	tcase_add_test(tc, the_size_check_sees_a_long_function);
	suite_add_tcase(s, tc);
	return s;
}
