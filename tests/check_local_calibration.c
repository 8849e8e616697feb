/* check_local_calibration.c — the speed model for Macs, Strix Halo PCs
 * and CPUs (local_device.c) against the published llama.cpp runs of
 * tests/calibration/local_devices.tsv, held out by source
 * (docs/estimation.md, "Held out by source").
 *
 * Every row names its device (the gpu column up to " ("), its model, its
 * precision and, in notes, the threads it ran. Rows with split = fit set
 * the constants; a source is wholly fit or wholly holdout. The suite
 * prints each row's measured / estimated ratio and each source's median
 * error:
 *
 *   CK_RUN_SUITE=local_calibration build/tests/run
 *
 * and holds the median over the held-out sources of each source's median
 * error to the targets: decode 25 %, prefill 35 %. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "speed.h"
#include "testutil.h"
#include "util.h"

#define TSV         "tests/calibration/local_devices.tsv"
#define MAX_ROWS    64
#define MAX_SOURCES 16

/* Issue 28's targets on held-out sources. */
#define DECODE_TARGET  0.25
#define PREFILL_TARGET 0.35

enum col { C_KIND, C_MODEL, C_PREC, C_GPU, C_IN, C_VALUE, C_SOURCE, C_NOTES, C_SPLIT, N_COLS };
static const char *const col_names[N_COLS] = {
    "kind", "model", "precision", "gpu", "input_tokens", "value", "source", "notes", "split"};

struct row {
	const char *c[N_COLS];
};

/* LLaMA 7B as meta-llama/Llama-2-7b-hf's config.json gives it (the
 * reference table has no Llama 2). */
static const char llama7b[] =
    "{\"num_hidden_layers\":32,\"hidden_size\":4096,\"num_attention_heads\":32,"
    "\"num_key_value_heads\":32,\"head_dim\":128,\"intermediate_size\":11008,"
    "\"vocab_size\":32000,\"max_position_embeddings\":4096,\"tie_word_embeddings\":false}";

static size_t read_rows(struct row *rows, size_t max)
{
	char *text = test_slurp(TSV);
	ck_assert_msg(text != NULL, "cannot read %s", TSV);
	int map[40];
	size_t n = 0;
	bool header = true;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		const char *cells[40] = {0};
		size_t nc = 0;
		for (char *p = line; nc < 40; nc++) {
			cells[nc] = p;
			if (!(p = strchr(p, '\t'))) {
				nc++;
				break;
			}
			*p++ = '\0';
		}
		if (header) {
			for (size_t i = 0; i < nc; i++) {
				map[i] = -1;
				for (int k = 0; k < N_COLS; k++)
					if (!strcmp(cells[i], col_names[k]))
						map[i] = k;
			}
			header = false;
			continue;
		}
		ck_assert(n < max);
		for (size_t i = 0; i < nc; i++)
			if (map[i] >= 0)
				rows[n].c[map[i]] = cells[i];
		n++;
	}
	return n;
}

/* The model a row's model column means. */
static const struct model_spec *row_model(const char *name, struct model_spec *own)
{
	static const struct {
		const char *has, *id;
	} ids[] = {
	    {"3.2-3B", "llama-3.2-3b"}, {"3.1-8B", "llama-3.1-8b"}, {"3.3-70B", "llama-3.3-70b"}};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (strstr(name, ids[i].has))
			return refdata_model(test_ref(), ids[i].id);
	char *err = NULL;
	ck_assert_msg(strstr(name, "LLaMA 7B"), "no model for '%s'", name);
	ck_assert(model_from_config_text("llama-7b", llama7b, strlen(llama7b), own, &err) ==
	          PLANNER_OK);
	return own;
}

/* The estimate for a row, tokens/s. */
static double estimate(const struct row *r)
{
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(r->c[C_GPU], "("), r->c[C_GPU]);
	for (size_t n = strlen(name); n > 0 && name[n - 1] == ' '; n--)
		name[n - 1] = '\0';
	const struct gpu_spec *g = refdata_gpu(test_ref(), name);
	ck_assert_msg(g && g->kind != DEVICE_GPU, "no device '%s'", name);
	char prec[16];
	snprintf(prec, sizeof prec, "%s", r->c[C_PREC]);
	for (char *p = prec; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	const struct precision_info *p = precision_find(prec);
	ck_assert_msg(p, "no precision '%s'", prec);
	struct model_spec own = {0};
	const struct model_spec *m = row_model(r->c[C_MODEL], &own);
	struct device d = device_from_gpu(g, 1);
	const char *t = strstr(r->c[C_NOTES], "threads=");
	if (t && g->kind == DEVICE_CPU)
		d.threads = atoi(t + 8);
	bool prefill = !strcmp(r->c[C_KIND], "prefill");
	struct speed_job job = {.task = TASK_INFERENCE, .batch = 1, .context = prefill ? 512 : 128};
	if (prefill)
		job.input_tokens = 512;
	struct speed_est s;
	speed_estimate_device(engine_find("llama.cpp"), m, p, &d, &job, &s);
	model_spec_clear(&own);
	return prefill ? s.prefill_tps : s.stream_tps;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Median over the held-out sources of each one's median error for kind,
 * printing every row and source. */
static double holdout_error(const char *kind)
{
	static struct row rows[MAX_ROWS];
	size_t n = read_rows(rows, MAX_ROWS);
	const char *src[MAX_SOURCES];
	double per_source[MAX_SOURCES];
	size_t ns = 0, held = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(rows[i].c[C_KIND], kind))
			continue;
		double est = estimate(&rows[i]), got = atof(rows[i].c[C_VALUE]);
		printf("%-8s %-8s %-40.40s %8.2f est %8.2f (x%.2f)\n", kind, rows[i].c[C_SPLIT],
		       rows[i].c[C_GPU], got, est, got / est);
		bool seen = false;
		for (size_t k = 0; k < ns; k++)
			seen |= !strcmp(src[k], rows[i].c[C_SOURCE]);
		if (seen)
			continue;
		double err[MAX_ROWS];
		size_t ne = 0;
		for (size_t j = i; j < n; j++)
			if (!strcmp(rows[j].c[C_KIND], kind) &&
			    !strcmp(rows[j].c[C_SOURCE], rows[i].c[C_SOURCE]))
				err[ne++] =
				    fabs(estimate(&rows[j]) / atof(rows[j].c[C_VALUE]) - 1.0);
		ck_assert(ns < MAX_SOURCES);
		src[ns++] = rows[i].c[C_SOURCE];
		double med = median(err, ne);
		printf("  source %s: %s, median error %.0f %% over %zu rows\n", rows[i].c[C_SPLIT],
		       rows[i].c[C_SOURCE], 100 * med, ne);
		if (!strcmp(rows[i].c[C_SPLIT], "holdout"))
			per_source[held++] = med;
	}
	ck_assert_msg(held >= 2, "fewer than two held-out sources for %s", kind);
	return median(per_source, held);
}

START_TEST(held_out_decode_on_macs_and_cpus_is_within_25_percent)
{
	double e = holdout_error("decode");
	printf("decode: held-out sources' median error %.0f %%\n", 100 * e);
	ck_assert_msg(e <= DECODE_TARGET, "held-out decode error %.0f %% > %.0f %%", 100 * e,
	              100 * DECODE_TARGET);
}
END_TEST

START_TEST(held_out_prefill_on_macs_and_cpus_is_within_35_percent)
{
	double e = holdout_error("prefill");
	printf("prefill: held-out sources' median error %.0f %%\n", 100 * e);
	ck_assert_msg(e <= PREFILL_TARGET, "held-out prefill error %.0f %% > %.0f %%", 100 * e,
	              100 * PREFILL_TARGET);
}
END_TEST

START_TEST(a_source_is_wholly_fit_or_wholly_held_out)
{
	static struct row rows[MAX_ROWS];
	size_t n = read_rows(rows, MAX_ROWS);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (!strcmp(rows[i].c[C_SOURCE], rows[j].c[C_SOURCE]))
				ck_assert_str_eq(rows[i].c[C_SPLIT], rows[j].c[C_SPLIT]);
}
END_TEST

Suite *local_calibration_suite(void)
{
	Suite *s = suite_create("local_calibration");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, held_out_decode_on_macs_and_cpus_is_within_25_percent);
	tcase_add_test(tc, held_out_prefill_on_macs_and_cpus_is_within_35_percent);
	tcase_add_test(tc, a_source_is_wholly_fit_or_wholly_held_out);
	suite_add_tcase(s, tc);
	return s;
}
