/* check_fuzz.c — replays the fuzz corpora and every crash reproducer
 * (tests/fuzz/corpus/<harness>/, tests/fuzz/regressions/<harness>/)
 * through the harness bodies in tests/fuzz/, so `make check` (and, under
 * the sanitizers, `make asan`) keeps each parser fixed. No clang needed. */
#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "provider.h"
#include "testutil.h"
#include "util.h"

#define CORPUS_DIR "tests/fuzz/corpus"
#define REGRESSION_DIR "tests/fuzz/regressions"

/* Harnesses other than the per-provider ones ("provider_<name>"). */
static const struct harness {
	const char *name;
	int (*run)(const uint8_t *data, size_t size);
} harnesses[] = {
	{"jobspec", fuzz_jobspec},
	{"config", fuzz_config},
	{"aws_csv", fuzz_aws_csv},
	{"probe", fuzz_probe},
	{"dbfile", fuzz_dbfile},
};
#define N_HARNESSES (sizeof harnesses / sizeof harnesses[0])

static size_t n_providers(void)
{
	size_t n = 0;
	while (provider_list[n])
		n++;
	return n;
}

/* Runs harness `name` on one input copied into a buffer of exactly its
 * size, so a read past the end is caught under ASan. */
static int run_one(const char *name, const char *text, size_t len)
{
	uint8_t *data = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(data);
	memcpy(data, text, len);
	int rc = -1;
	if (!strncmp(name, "provider_", 9))
		rc = fuzz_provider(name + 9, data, len);
	for (size_t i = 0; i < N_HARNESSES; i++)
		if (!strcmp(harnesses[i].name, name))
			rc = harnesses[i].run(data, len);
	free(data);
	return rc;
}

/* Replays every file in dir/name; returns how many there were. */
static size_t replay_dir(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char file[1024];
		snprintf(file, sizeof file, "%s/%s", path, e->d_name);
		size_t len = 0;
		char *text = read_file(file, &len);
		ck_assert_msg(text != NULL, "cannot read %s", file);
		ck_assert_msg(run_one(name, text, len) == 0, "%s breaks the %s harness", file, name);
		free(text);
		n++;
	}
	closedir(d);
	return n;
}

static void harness_name(int i, char *buf, size_t len)
{
	if ((size_t)i < N_HARNESSES)
		snprintf(buf, len, "%s", harnesses[i].name);
	else
		snprintf(buf, len, "provider_%s", provider_list[(size_t)i - N_HARNESSES]->name);
}

START_TEST(every_corpus_file_and_regression_parses_cleanly)
{
	char name[64];
	harness_name(_i, name, sizeof name);
	size_t seeds = replay_dir(CORPUS_DIR, name);
	replay_dir(REGRESSION_DIR, name);
	ck_assert_msg(seeds > 0, "%s/%s has no seed inputs", CORPUS_DIR, name);
}
END_TEST

/* Too big for a committed corpus file: the fuzzer's inputs stop at 4 KB.
 * Before the fix a line over the cap failed when it straddled two chunks
 * and passed when it arrived in one. */
START_TEST(an_aws_line_over_the_cap_fails_however_the_stream_is_split)
{
	static const char head[] = "\"TermType\",\"Instance Type\",\"PricePerUnit\",\"GPU\"\n\"";
	size_t len = sizeof head - 1 + (1u << 20) + 2;
	uint8_t *data = malloc(len);
	ck_assert_ptr_nonnull(data);
	memcpy(data, head, sizeof head - 1);
	memset(data + sizeof head - 1, 'x', len - (sizeof head - 1));
	data[len - 1] = '\n';
	ck_assert_int_eq(fuzz_aws_csv(data, len), 0);
	free(data);
}
END_TEST

/* A directory no harness reads would be a regression silently not run. */
static void check_dirs_name_harnesses(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		bool known = false;
		char name[64];
		for (size_t i = 0; !known && i < N_HARNESSES + n_providers(); i++) {
			harness_name((int)i, name, sizeof name);
			known = !strcmp(name, e->d_name);
		}
		ck_assert_msg(known, "%s/%s names no fuzz harness", dir, e->d_name);
	}
	closedir(d);
}

START_TEST(every_corpus_directory_names_a_harness)
{
	check_dirs_name_harnesses(CORPUS_DIR);
	check_dirs_name_harnesses(REGRESSION_DIR);
}
END_TEST

Suite *fuzz_suite(void)
{
	Suite *s = suite_create("fuzz");
	TCase *tc = tcase_create("replay");
	/* Hundreds of inputs per harness under the sanitizers. */
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_corpus_file_and_regression_parses_cleanly, 0,
			    (int)(N_HARNESSES + n_providers()));
	tcase_add_test(tc, every_corpus_directory_names_a_harness);
	tcase_add_test(tc, an_aws_line_over_the_cap_fails_however_the_stream_is_split);
	suite_add_tcase(s, tc);
	return s;
}
