/* cmd_history.c — `planner history GPU`: the rented price of one GPU over
 * refreshes (cheapest and median offer per refresh), with a sparkline. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fx.h"
#include "history.h"

/* Columns a table row needs besides the sparkline's label. */
#define SPARK_LABEL_COLS 8

/* The currency prices are shown in and what they were converted with. */
struct history_fx {
	const char *currency;
	char note[256]; /* "1 EUR = 1.125 USD, ECB 2025-05-09"; "" when none used */
	size_t dropped; /* price rows with no rate for their currency */
};

/* The exchange-rate lines: under the table, else on stderr unless quiet. */
static void print_fx(const struct cli *c, const struct history_fx *fx)
{
	FILE *f = c->format == FORMAT_TABLE ? stdout : stderr;
	const char *lead = f == stderr ? "planner: note: " : "";
	if (c->format != FORMAT_TABLE && c->quiet)
		return;
	if (fx->note[0])
		fprintf(f, "%sexchange rates: %s (the same rate for every point)\n", lead,
		        fx->note);
	if (fx->dropped)
		fprintf(f, "%s%zu price%s left out: no exchange rate for %s currency\n", lead,
		        fx->dropped, fx->dropped == 1 ? "" : "s", fx->dropped == 1 ? "its" : "their");
}

static int print_json(const char *gpu, const char *provider, const struct history_curve *cv,
                      const struct history_fx *fx)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "gpu", gpu);
	if (provider)
		cJSON_AddStringToObject(root, "provider", provider);
	else
		cJSON_AddNullToObject(root, "provider");
	cJSON_AddStringToObject(root, "currency", fx->currency);
	if (fx->note[0])
		cJSON_AddStringToObject(root, "exchange_rates", fx->note);
	cJSON_AddStringToObject(root, "unit", "per GPU-hour");
	cJSON *pts = cJSON_AddArrayToObject(root, "points");
	for (size_t i = 0; cv && i < cv->n_steps; i++) {
		const struct history_step *s = &cv->steps[i];
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "refreshed_at", s->at);
		cJSON_AddNumberToObject(p, "offers", (double)s->offers);
		cJSON_AddNumberToObject(p, "min", round_to(s->min, 4));
		cJSON_AddNumberToObject(p, "median", round_to(s->median, 4));
		cJSON_AddItemToArray(pts, p);
	}
	return cli_print_json(root);
}

static void print_csv(const struct history_curve *cv, const char *currency)
{
	char cur[4];
	for (int i = 0; i < 3; i++) /* fx_code_ok: three upper-case letters */
		cur[i] = (char)(currency[i] - 'A' + 'a');
	cur[3] = 0;
	printf("refreshed_at,offers,min_%s_per_gpu_hour,median_%s_per_gpu_hour\r\n", cur, cur);
	for (size_t i = 0; cv && i < cv->n_steps; i++) {
		const struct history_step *s = &cv->steps[i];
		printf("%s,%zu,%.4f,%.4f\r\n", s->at, s->offers, round_to(s->min, 4),
		       round_to(s->median, 4));
	}
}

/* One sparkline row; only the newest points that fit the terminal. */
static void spark_row(const struct cli *c, const char *label, const double *v, size_t n)
{
	size_t room = c->term_width > SPARK_LABEL_COLS + 24 ? (size_t)c->term_width - SPARK_LABEL_COLS - 24
							     : 60;
	size_t from = n > room ? n - room : 0;
	char buf[3 * 256 + 1];
	history_sparkline(v + from, n - from, buf, sizeof buf);
	printf("%-*s%s  %.2f -> %.2f\n", SPARK_LABEL_COLS, label, buf, v[from], v[n - 1]);
}

static int print_table(const struct cli *c, const struct history_curve *cv, const char *provider,
                       const struct history_fx *fx)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	printf("%s%s%s%s%s: %s per GPU-hour over %zu refresh%s (cheapest and median offer)\n",
	       bold, cv->gpu, provider ? " at " : "", provider ? provider : "", off, fx->currency,
	       cv->n_steps,
	       cv->n_steps == 1 ? "" : "es");
	printf("%-22s %7s %10s %10s\n", "refreshed at", "offers", "min", "median");
	for (size_t i = 0; i < cv->n_steps; i++) {
		const struct history_step *s = &cv->steps[i];
		printf("%-22s %7zu %10.4f %10.4f\n", s->at, s->offers, s->min, s->median);
	}
	/* +1: a curve with no steps still gets a real allocation. */
	double *mins = calloc(cv->n_steps + 1, sizeof *mins),
	       *meds = calloc(cv->n_steps + 1, sizeof *meds);
	if (!mins || !meds) {
		free(mins);
		free(meds);
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	for (size_t i = 0; i < cv->n_steps; i++) {
		mins[i] = cv->steps[i].min;
		meds[i] = cv->steps[i].median;
	}
	putchar('\n');
	spark_row(c, "min", mins, cv->n_steps);
	spark_row(c, "median", meds, cv->n_steps);
	free(mins);
	free(meds);
	print_fx(c, fx);
	return PLANNER_OK;
}

/* PLANNER_OK when the rates hold `currency`, else says so: PLANNER_EINPUT. */
static int known_currency(const struct cli *c, const char *currency)
{
	double r;
	if (fx_rate(c->ref->fx, "USD", currency, &r))
		return PLANNER_OK;
	errorf("%s has no ECB reference rate (%s)", currency,
	       c->ref->fx && c->ref->fx->as_of[0] ? c->ref->fx->as_of : "no rates");
	return PLANNER_EINPUT;
}

static int exec_history(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
					     {"provider", required_argument, NULL, 'p'},
					     {"currency", required_argument, NULL, 'C'},
					     {0, 0, 0, 0}};
	const char *provider = NULL;
	struct history_fx fx = {.currency = "USD"};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'p') {
			provider = optarg;
			continue;
		}
		if (opt == 'C') {
			if (!fx_code_ok(optarg))
				return cli_usage(c, "--currency wants an ISO 4217 code, e.g. EUR");
			fx.currency = optarg;
			continue;
		}
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind >= argc)
		return cli_usage(c, "name a GPU, e.g. 'H100 SXM'");
	/* `planner history H100 SXM` reads as one name, quoted or not. */
	struct buf name = {0};
	for (int i = optind; i < argc; i++)
		if (!buf_printf(&name, "%s%s", i > optind ? " " : "", argv[i])) {
			buf_free(&name);
			errorf("out of memory");
			return PLANNER_ESYS;
		}
	struct history_curve *curves = NULL;
	size_t n_curves = 0;
	char *err = NULL;
	const struct gpu_spec *g = refdata_gpu(c->ref, name.data);
	if (!g) {
		const char *near = refdata_gpu_suggest(c->ref, name.data);
		errorf("unknown GPU '%s'%s%s%s", name.data, near ? "; did you mean '" : "",
		       near ? near : "", near ? "'?" : "");
		rc = PLANNER_EINPUT;
		goto out;
	}
	struct store *st = cli_store(c, &rc);
	if (!st)
		goto out;
	if ((rc = known_currency(c, fx.currency)))
		goto out;
	if ((rc = history_load(st, g->name, provider, c->ref->fx, fx.currency, fx.note,
	                       sizeof fx.note, &fx.dropped, &curves, &n_curves, &err))) {
		errorf("%s", err ? err : "cannot read price history");
		goto out;
	}
	const struct history_curve *cv = n_curves ? &curves[0] : NULL;
	if (!cv && !c->quiet)
		notef("no price history for %s%s%s; each 'planner refresh' that finds a new price "
		      "adds a point",
		      g->name, provider ? " at " : "", provider ? provider : "");
	if (c->format != FORMAT_TABLE)
		print_fx(c, &fx);
	if (c->format == FORMAT_JSON)
		rc = print_json(g->name, provider, cv, &fx);
	else if (c->format == FORMAT_CSV)
		print_csv(cv, fx.currency);
	else if (cv)
		rc = print_table(c, cv, provider, &fx);
out:
	free(err);
	history_curves_free(curves, n_curves);
	buf_free(&name);
	return rc;
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.args = "GPU [--provider X] [--currency C] [--format table|json|csv] [--db PATH]",
	.summary = "a GPU's rented price over refreshes, with a sparkline",
	.help = "Shows how the rented price of one GPU moved over the refreshes in the\n"
		"database: at each refresh, the number of offers, the cheapest and the median\n"
		"price per GPU-hour (an instance's price divided by its GPUs), and a\n"
		"sparkline of both. Each price is converted from the currency it was\n"
		"published in with the exchange rates of the last refresh (the ECB's; else\n"
		"the snapshot's), shown under the table. The database records a price when\n"
		"it is new or changes; an unchanged offer keeps its last price. GPU is any\n"
		"spelling planner knows\n"
		"('h100', 'H100 SXM5', 'NVIDIA H100 80GB HBM3').\n\n"
		"  --provider X  one provider's offers only\n"
		"  --currency C  the currency prices are shown in (ISO 4217, default USD)\n"
		"  --format F    table (default), json or csv\n"
		"  --db PATH     price database (else $PLANNER_DB, else\n"
		"                $XDG_DATA_HOME/planner/prices.db)\n\n"
		"example:\n  planner history 'H100 SXM' --provider runpod\n",
	.exec = exec_history,
};
