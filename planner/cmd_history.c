/* cmd_history.c — `planner history GPU`: the rented price of one GPU over
 * each provider's refreshes (cheapest and median offer per refresh), with a
 * sparkline per provider. */
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

/* The points of one curve, as a JSON array. */
static cJSON *json_points(const struct history_curve *cv)
{
	cJSON *pts = cJSON_CreateArray();
	for (size_t i = 0; cv && i < cv->n_steps; i++) {
		const struct history_step *s = &cv->steps[i];
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "refreshed_at", s->at);
		cJSON_AddNumberToObject(p, "offers", (double)s->offers);
		cJSON_AddNumberToObject(p, "min", round_to(s->min, 4));
		cJSON_AddNumberToObject(p, "median", round_to(s->median, 4));
		cJSON_AddItemToArray(pts, p);
	}
	return pts;
}

/* One series per provider; with --provider its points also at the top, as
 * before the series (issue 26), for scripts that read them there. */
static int print_json(const char *gpu, const char *provider, const struct history_curve *cv,
                      size_t n, const struct history_fx *fx)
{
	cJSON *root = json_doc_new("planner/history/v1");
	cJSON_AddStringToObject(root, "gpu", gpu);
	if (provider)
		cJSON_AddStringToObject(root, "provider", provider);
	else
		cJSON_AddNullToObject(root, "provider");
	cJSON_AddStringToObject(root, "currency", fx->currency);
	if (fx->note[0])
		cJSON_AddStringToObject(root, "exchange_rates", fx->note);
	cJSON_AddStringToObject(root, "unit", "per GPU-hour");
	if (provider)
		cJSON_AddItemToObject(root, "points", json_points(n ? cv : NULL));
	cJSON *series = cJSON_AddArrayToObject(root, "series");
	for (size_t k = 0; k < n; k++) {
		if (!cv[k].n_steps)
			continue;
		cJSON *one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "provider", cv[k].provider);
		cJSON_AddItemToObject(one, "points", json_points(&cv[k]));
		cJSON_AddItemToArray(series, one);
	}
	return cli_print_json(root);
}

static void print_csv(const struct history_curve *cv, size_t n, const char *currency)
{
	char cur[4];
	for (int i = 0; i < 3; i++) /* fx_code_ok: three upper-case letters */
		cur[i] = (char)(currency[i] - 'A' + 'a');
	cur[3] = 0;
	printf("refreshed_at,offers,min_%s_per_gpu_hour,median_%s_per_gpu_hour,provider\r\n", cur,
	       cur);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < cv[k].n_steps; i++) {
			const struct history_step *s = &cv[k].steps[i];
			printf("%s,%zu,%.4f,%.4f,", s->at, s->offers, round_to(s->min, 4),
		       round_to(s->median, 4));
			csv_field(stdout, cv[k].provider);
			fputs("\r\n", stdout);
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

/* One provider's curve: its table, then a sparkline of each measure over
 * its own refreshes. */
static int print_curve(const struct cli *c, const struct history_curve *cv,
                       const struct history_fx *fx)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	char prov[sizeof cv->provider];
	printf("%s%s at %s%s: %s per GPU-hour over %zu refresh%s (cheapest and median offer)\n",
	       bold, cv->gpu, cli_safe(prov, sizeof prov, cv->provider), off, fx->currency,
	       cv->n_steps, cv->n_steps == 1 ? "" : "es");
	printf("%-22s %7s %10s %10s\n", "refreshed at", "offers", "min", "median");
	for (size_t i = 0; i < cv->n_steps; i++) {
		const struct history_step *s = &cv->steps[i];
		printf("%-22s %7zu %10.4f %10.4f\n", s->at, s->offers, s->min, s->median);
	}
	if (cv->n_steps < 2)
		return PLANNER_OK; /* one point is no trend */
	double *mins = calloc(cv->n_steps, sizeof *mins), *meds = calloc(cv->n_steps, sizeof *meds);
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
	return PLANNER_OK;
}

/* One row per provider: its last refresh and a sparkline of its cheapest
 * offer over its own refreshes. */
static void print_providers(const struct cli *c, const struct history_curve *cv, size_t n,
                            const char *currency)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	printf("%s%s%s: %s per GPU-hour at each provider over its own refreshes\n"
	       "(prices of different providers are not one trend; --provider X lists each "
	       "refresh)\n",
	       bold, cv->gpu, off, currency);
	printf("%-12s %9s %-10s %6s %9s %9s  %s\n", "provider", "refreshes", "last", "offers",
	       "min", "median", "min over its refreshes");
	for (size_t k = 0; k < n; k++) {
		const struct history_curve *h = &cv[k];
		if (!h->n_steps)
			continue;
		const struct history_step *last = &h->steps[h->n_steps - 1];
		char prov[sizeof h->provider], spark[3 * 16 + 1] = "";
		double mins[16];
		size_t from = h->n_steps > 16 ? h->n_steps - 16 : 0;
		for (size_t i = from; i < h->n_steps; i++)
			mins[i - from] = h->steps[i].min;
		if (h->n_steps > 1)
			history_sparkline(mins, h->n_steps - from, spark, sizeof spark);
		printf("%-12s %9zu %-10.10s %6zu %9.4f %9.4f",
		       cli_safe(prov, sizeof prov, h->provider), h->n_steps, last->at, last->offers,
		       last->min, last->median);
		if (h->n_steps > 1)
			printf("  %s %.2f -> %.2f", spark, mins[0], last->min);
		putchar('\n');
	}
}

/* One provider's curve in full, or a row per provider: the snapshot
 * dates of different providers are not one series (issue 26). */
static int print_table(const struct cli *c, const struct history_curve *cv, size_t n,
                       const struct history_fx *fx)
{
	size_t shown = 0, one = 0;
	for (size_t k = 0; k < n; k++)
		if (cv[k].n_steps) {
			shown++;
			one = k;
		}
	int rc = PLANNER_OK;
	if (shown == 1)
		rc = print_curve(c, &cv[one], fx);
	else
		print_providers(c, cv, n, fx->currency);
	if (rc == PLANNER_OK)
		print_fx(c, fx);
	return rc;
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
	size_t with_steps = 0;
	for (size_t k = 0; k < n_curves; k++)
		with_steps += curves[k].n_steps > 0;
	if (!with_steps && !c->quiet)
		notef("no price history for %s%s%s; each 'planner refresh' that finds a new price "
		      "adds a point",
		      g->name, provider ? " at " : "", provider ? provider : "");
	if (c->format != FORMAT_TABLE)
		print_fx(c, &fx);
	if (c->format == FORMAT_JSON)
		rc = print_json(g->name, provider, curves, n_curves, &fx);
	else if (c->format == FORMAT_CSV)
		print_csv(curves, n_curves, fx.currency);
	else if (with_steps)
		rc = print_table(c, curves, n_curves, &fx);
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
		"sparkline of both, for each provider over its own refreshes (prices of\n"
		"different providers, refreshed on different dates, are not one trend).\n"
		"Each price is converted from the currency it was published in with the\n"
		"exchange rates of the last refresh (the ECB's; else the snapshot's), shown\n"
		"under the table. The database records a price when it is new or changes;\n"
		"an unchanged offer keeps its last price. GPU is any spelling planner knows\n"
		"('h100', 'H100 SXM5', 'NVIDIA H100 80GB HBM3').\n\n"
		"  --provider X  one provider's offers only\n"
		"  --currency C  the currency prices are shown in (ISO 4217, default USD)\n"
		"  --format F    table (default), json or csv\n"
		"  --db PATH     price database (else $PLANNER_DB, else\n"
		"                $XDG_DATA_HOME/planner/prices.db)\n\n"
		"example:\n  planner history 'H100 SXM' --provider runpod\n",
	.exec = exec_history,
};
