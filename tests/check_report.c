/* check_report.c — `planner report`: the cost lines behind the charts
 * reproduce the plan's figures; the HTML is well-formed XML (parsed by
 * Python's xml.etree), self-contained and escapes what it shows; price
 * history charts appear once a GPU has two price points; the fleet and
 * the month's schedule are those planner fleet and planner schedule
 * give on the same spec and database; and headless
 * Chromium renders it to a screenshot with ink on it and no console
 * errors (skipped, saying so, only where /usr/bin/chromium is absent). */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plan.h"
#include "report.h"
#include "testutil.h"
#include "util.h"

#define PYTHON "/usr/bin/python3"
#define CHROMIUM "/usr/bin/chromium"

/* The value of "key=value" line `key` in text, as a number (-1 if none). */
static double stat_of(const char *text, const char *key)
{
	char *k = xasprintf("%s=", key);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, k, strlen(k))) {
			double v = atof(p + strlen(k));
			free(k);
			return v;
		}
	free(k);
	return -1;
}

/* Two refreshes of a made-up provider a week apart: the H100 SXM gets two
 * price points, so the report must draw its history. */
static void add_history(const char *db)
{
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	static const char *const when[] = {"2026-12-01T03:00:00Z", "2026-12-08T03:00:00Z",
					   "2026-12-15T03:00:00Z"};
	static const double price[] = {2.40, 2.10, 2.25};
	for (int i = 0; i < 3; i++) {
		struct offer o = {.provider = "histco", .offer = "h100-1x", .gpu = "H100 SXM",
				  .gpu_count = 1, .vram_gib = 80, .price_per_hour = price[i],
				  .available = true};
		snprintf(o.fetched_at, sizeof o.fetched_at, "%s", when[i]);
		ck_assert_int_eq(store_replace_offers(st, "histco", &o, 1, &err), PLANNER_OK);
	}
	store_close(st);
}

/* Writes the report of spec into dir/report.html; returns its path. */
static char *make_report(const char *dir, const char *spec, bool history)
{
	char *db = xasprintf("%s/prices.db", dir), *html = xasprintf("%s/report.html", dir);
	char *err = NULL;
	if (history)
		add_history(db);
	const char *argv[] = {"report", spec, "-o", html, "--db", db, NULL};
	int rc = test_run_planner(argv, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_ptr_nonnull(strstr(err, "wrote"));
	free(err);
	free(db);
	return html;
}

static char *xhtml_stats(const char *html)
{
	char *cmd = xasprintf("%s tests/tools/xhtml_stats.py '%s'", PYTHON, html), *out = NULL;
	ck_assert_msg(test_sh(cmd, &out) == 0, "%s is not well-formed XML", html);
	free(cmd);
	return out;
}

/* The text of "key=value" line `key` in text, malloc'd ("" if none). */
static char *text_of(const char *text, const char *key)
{
	char *k = xasprintf("\n%s=", key);
	const char *p = strstr(text, k);
	char *v = xasprintf("%.*s", p ? (int)strcspn(p + strlen(k), "\n") : 0,
			    p ? p + strlen(k) : "");
	free(k);
	return v;
}

/* The JSON planner prints for argv (with --quiet), parsed. */
static cJSON *planner_json(const char *const *argv)
{
	char *out = NULL, *err = NULL;
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", argv[0], rc, err);
	cJSON *doc = cJSON_Parse(out);
	ck_assert_msg(doc != NULL, "%s printed no JSON:\n%s", argv[0], out);
	free(out);
	free(err);
	return doc;
}

static double json_num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	ck_assert_msg(cJSON_IsNumber(v), "no number %s", k);
	return v->valuedouble;
}

/* Writes the report of spec for month into dir/report.html; returns its path. */
static char *make_month_report(const char *dir, const char *spec, const char *month)
{
	char *db = xasprintf("%s/prices.db", dir), *html = xasprintf("%s/report.html", dir);
	char *err = NULL;
	const char *argv[] = {"report", spec, "-o", html, "--db", db, "--month", month, NULL};
	int rc = test_run_planner(argv, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	free(err);
	free(db);
	return html;
}

/* Removes dir and what it holds, and frees its name. */
static void remove_dir(char *dir)
{
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}

START_TEST(each_cost_line_passes_through_its_route_cost_and_crosses_at_the_break_even)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *err = NULL;
	struct jobspec *spec = NULL;
	struct store *st = NULL;
	struct plan *p = NULL;
	ck_assert_int_eq(jobspec_load("jobs/monthly.yaml", test_ref(), &spec, &err), PLANNER_OK);
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	ck_assert_int_eq(plan_compare(spec, test_ref(), st, &p, &err), PLANNER_OK);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		struct cost_line l[ROUTE_MAX];
		report_cost_lines(spec, j, l);
		for (int k = 0; k < (int)route_count(); k++) {
			ck_assert(l[k].feasible == j->routes[k].feasible);
			if (!l[k].feasible)
				continue;
			double at_use = l[k].fixed + l[k].slope * j->gpu_hours_per_month;
			ck_assert_msg(fabs(at_use - j->routes[k].monthly_cost) < 1e-6,
				      "%s %s: line %.4f, plan %.4f", j->job->name,
				      route_name((enum route)k), at_use, j->routes[k].monthly_cost);
		}
		/* Where both routes run the same hours, the drawn crossing is the
		 * break-even compare prints. */
		double h = report_crossing(&l[ROUTE_OWNED], &l[ROUTE_RENTED], 744);
		if (j->job->has_hours && isfinite(j->be.value[BREAKEVEN_OWNED_VS_RENTED]) &&
		    j->be.value[BREAKEVEN_OWNED_VS_RENTED] > 0) {
			ck_assert_msg(fabs(h - j->be.value[BREAKEVEN_OWNED_VS_RENTED]) < 1e-6, "%s: %.3f vs %.3f",
				      j->job->name, h, j->be.value[BREAKEVEN_OWNED_VS_RENTED]);
		}
	}
	/* Parallel lines, and lines crossing beyond the axis, do not cross. */
	struct cost_line a = {true, 10, 1}, b = {true, 20, 1}, c = {true, 0, 2};
	ck_assert(isnan(report_crossing(&a, &b, 744)));
	ck_assert_double_eq_tol(report_crossing(&a, &c, 744), 10, 1e-12);
	ck_assert(isnan(report_crossing(&a, &c, 5)));
	plan_free(p);
	store_close(st);
	jobspec_free(spec);
	unlink(db);
	rmdir(dir);
	free(db);
	free(dir);
}
END_TEST

START_TEST(the_report_is_well_formed_self_contained_xhtml_with_a_chart_per_job)
{
	char *dir = test_tmpdir(), *html = make_report(dir, "jobs/monthly.yaml", false);
	char *stats = xhtml_stats(html);
	ck_assert_msg(strstr(stats, "root={http://www.w3.org/1999/xhtml}html") != NULL, "%s", stats);
	/* One chart per job of the tour, and one per GPU whose USD prices have
	 * two points: the snapshot stamps each provider's rows with its
	 * sources' newest date (oci's are of 2026-09-18); and the horizon chart
	 * (it buys). */
	ck_assert_int_eq((int)(stat_of(stats, "svg") - stat_of(stats, "history")), 7);
	ck_assert_int_eq((int)stat_of(stats, "script"), 0);
	ck_assert_int_eq((int)stat_of(stats, "external"), 0);
	ck_assert_int_eq((int)stat_of(stats, "img"), 0);
	ck_assert_int_ge((int)stat_of(stats, "breakeven"), 2); /* code-assistant, finetune */
	ck_assert_int_ge((int)stat_of(stats, "use"), 6);
	ck_assert_ptr_nonnull(strstr(stats, "h2=nightly-summaries"));
	char *text = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(text, "savings vs next best"));
	ck_assert_ptr_nonnull(strstr(text, "hours of work per month (h)"));
	ck_assert_ptr_nonnull(strstr(text, "monthly cost (EUR)"));
	ck_assert_ptr_nonnull(strstr(text, "owned = rented at "));
	/* adapter-finetune: rented is best, so the chart counts rented hours:
	 * compare's 486.3 owned-GPU hours in rented ones. (nightly-summaries
	 * was the example until its window's 248 h left it no owned route.) */
	ck_assert_ptr_nonnull(strstr(text, "counts hours on the owned GPUs"));
	ck_assert_ptr_nonnull(strstr(text, "owned = rented at 358.0 h"));
	/* The text gives the chart's figure first, compare's after it. */
	ck_assert_ptr_nonnull(strstr(text, "owned = rented <b>at 358.0 h</b> of the job's work"));
	ck_assert_ptr_nonnull(strstr(text, "compare's 486.3 h counts hours on the owned GPUs"));
	ck_assert_ptr_nonnull(strstr(text, "Cheapest rentable offers that fit"));
	ck_assert_ptr_nonnull(strstr(text, "2026-11-30")); /* the snapshot's newest date */
	/* The snapshot alone has two dates for the GPUs Scaleway lists (its EUR
	 * rows of 2026-10-01 and another provider's), which are no trend
	 * (issue 26): no chart, and the rates of none. */
	ck_assert_ptr_null(strstr(text, "H100 PCIe: 2 refreshes"));
	ck_assert_ptr_null(strstr(text, " refreshes, now "));
	ck_assert_ptr_nonnull(strstr(text, "more than one price point at one provider"));
	ck_assert_ptr_null(strstr(text, "http://www.w3.org/1999/xlink"));
	free(text);
	free(stats);
	unlink(html);
	free(html);
	free(dir);
}
END_TEST

START_TEST(the_chart_marks_the_break_even_compare_prints_for_a_job_of_fixed_hours)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "steady.yaml",
				"version: 1\ncurrency: USD\nelectricity_per_kwh: 0.2\n"
				"buy:\n  - {gpu: RTX 5090, price: 1200, watts: 575}\n"
				"jobs:\n  - name: steady\n    model: llama-3.1-8b\n"
				"    precision: bf16\n    hours_per_month: 400\n"
				"    data: confidential\n");
	char *html = make_report(dir, spec, false), *db = xasprintf("%s/prices.db", dir);
	const char *argv[] = {"compare", spec, "--db", db, "--quiet", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	const char *be = strstr(out, "owned vs rented ");
	ck_assert_ptr_nonnull(be);
	double hours = atof(be + strlen("owned vs rented "));
	ck_assert(hours > 0 && hours < 744);
	char *label = xasprintf("owned = rented at %.1f h", hours);
	char *text = test_slurp(html);
	ck_assert_msg(strstr(text, label) != NULL, "no '%s' in the report", label);
	free(text);
	free(label);
	free(out);
	free(db);
	free(html);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(markup_in_a_job_name_is_escaped_not_interpreted)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "odd.yaml",
				"version: 1\njobs:\n  - name: \"<script>alert('x')</script> & co\"\n"
				"    model: llama-3.1-8b\n    precision: q4_k_m\n"
				"    hours_per_month: 300\n");
	char *html = make_report(dir, spec, false);
	char *stats = xhtml_stats(html);
	ck_assert_int_eq((int)stat_of(stats, "script"), 0);
	ck_assert_ptr_nonnull(strstr(stats, "h2=<script>alert('x')</script> & co"));
	free(stats);
	free(html);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_route_run_as_replicas_says_so_and_its_figures_multiply_to_its_cost)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "many.yaml",
				"version: 1\njobs:\n  - name: many\n    model: llama-3.1-70b\n"
				"    hours_per_month: 10\n"
				"    tokens_per_month: {input: 1B, output: 1B}\n"
				"    batch: max\n    kv_cache: fp8\n"
				"    request: {input: 500, output: 500}\n");
	char *html = make_report(dir, spec, false);
	char *body = test_slurp(html);
	/* "3 replicas of 2x": the hourly price and the hours are each copy's. */
	const char *at = strstr(body, " replicas of ");
	ck_assert_msg(at != NULL, "no replica count in the rented line");
	ck_assert_ptr_nonnull(strstr(at, " h each, "));
	free(body);
	free(html);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_gpu_with_several_price_points_gets_a_history_chart)
{
	/* The snapshot alone: each provider's rows are of one date, and the
	 * dates of different providers are not a series (issue 26: they drew
	 * one H100 SXM trend over "4 refreshes" of four providers). */
	char *dir0 = test_tmpdir(), *html0 = make_report(dir0, "jobs/monthly.yaml", false);
	char *stats0 = xhtml_stats(html0);
	ck_assert_int_eq((int)stat_of(stats0, "history"), 0);
	free(stats0);
	char *text0 = test_slurp(html0);
	ck_assert_ptr_null(strstr(text0, " refreshes, now "));
	char *dir = test_tmpdir(), *html = make_report(dir, "jobs/monthly.yaml", true);
	char *stats = xhtml_stats(html);
	ck_assert_int_eq((int)stat_of(stats, "history"), 1); /* histco's, three refreshes */
	ck_assert_int_eq((int)(stat_of(stats, "svg") - stat_of(stats, "history")), 7);
	char *text = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(text, "H100 SXM at histco: 3 refreshes"));
	free(text);
	free(text0);
	free(html0);
	free(dir0);
	free(stats);
	free(html);
	free(dir);
}
END_TEST

/* Renders url with headless Chromium; the screenshot goes to png (when not
 * NULL), the browser's log (console messages included) to log. Returns
 * the exit status. */
static int chromium(const char *dir, const char *url, const char *png, const char *log,
		    char **dom)
{
	static int run;
	char *profile = xasprintf("%s/profile%d", dir, run++);
	char *cmd = xasprintf(CHROMIUM " --headless --no-sandbox --disable-gpu --disable-quic "
				       "--no-first-run --disable-background-networking "
				       "--disable-component-update --disable-sync "
				       "--user-data-dir='%s' --enable-logging=stderr --v=0 "
				       "--window-size=1200,2000 %s%s%s '%s' 2>'%s'",
			      profile, png ? "--screenshot='" : "--dump-dom", png ? png : "",
			      png ? "'" : "", url, log);
	int rc = test_sh(cmd, dom);
	char *rm = xasprintf("rm -rf '%s'", profile);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(cmd);
	free(profile);
	return rc;
}

static bool console_error(const char *log)
{
	return strstr(log, "Uncaught") || strstr(log, ":CONSOLE") || strstr(log, "CONSOLE(");
}

START_TEST(chromium_renders_the_report_with_ink_and_no_console_errors)
{
	if (access(CHROMIUM, X_OK) != 0) {
		printf("report: browser test skipped: %s is not installed "
		       "(apt-get install chromium)\n",
		       CHROMIUM);
		return;
	}
	char *dir = test_tmpdir(), *html = make_report(dir, "jobs/monthly.yaml", true);
	char *url = xasprintf("file://%s", html), *png = xasprintf("%s/shot.png", dir);
	char *log = xasprintf("%s/chromium.log", dir);
	ck_assert_int_eq(chromium(dir, url, png, log, NULL), 0);
	char *cmd = xasprintf("%s tests/tools/png_stats.py '%s'", PYTHON, png), *out = NULL;
	ck_assert_msg(test_sh(cmd, &out) == 0, "screenshot %s is not a PNG", png);
	int w = 0, h = 0, colours = 0;
	double ink = 0;
	ck_assert_int_eq(sscanf(out, "%d %d %d %lf", &w, &h, &colours, &ink), 4);
	ck_assert_int_eq(w, 1200);
	ck_assert_int_eq(h, 2000);
	/* Text, tables and three coloured lines: hundreds of colours, and a
	 * good share of the page is not background. A blank page has 1 and 0. */
	ck_assert_msg(colours >= 64 && ink >= 0.05, "screenshot looks blank: %s", out);
	char *text = test_slurp(log);
	ck_assert_msg(!console_error(text), "console errors:\n%s", text);
	free(text);
	free(out);
	/* The DOM Chromium built has the charts, so they were parsed as SVG. */
	char *dom = NULL;
	ck_assert_int_eq(chromium(dir, url, NULL, log, &dom), 0);
	ck_assert_ptr_nonnull(strstr(dom, "<svg"));
	ck_assert_ptr_nonnull(strstr(dom, "<polyline"));
	ck_assert_ptr_nonnull(strstr(dom, "nightly-summaries"));
	free(dom);
	/* A control: the same check does see a page's console error. */
	char *bad = test_write(dir, "bad.html",
			       "<!DOCTYPE html><html><body><p>x</p>"
			       "<script>no_such_function();</script></body></html>");
	char *bad_url = xasprintf("file://%s", bad);
	ck_assert_int_eq(chromium(dir, bad_url, png, log, NULL), 0);
	text = test_slurp(log);
	ck_assert_msg(console_error(text), "the console check missed an error:\n%s", text);
	free(text);
	free(bad_url);
	free(bad);
	free(cmd);
	free(log);
	free(png);
	free(url);
	free(html);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

/* The report of spec laid out by Chromium and measured by
 * tests/tools/label_boxes.js, injected into a copy (the report itself has
 * no script); the measurements as text ("overlaps=0" ...), malloc'd. */
static char *geometry(const char *dir, const char *spec)
{
	char *html = make_report(dir, spec, false), *page = test_slurp(html);
	char *js = test_slurp("tests/tools/label_boxes.js");
	ck_assert_ptr_nonnull(page);
	ck_assert_ptr_nonnull(js);
	char *end = strstr(page, "</body>");
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	char *probe = xasprintf("%s<script>\n%s</script>\n</body></html>\n", page, js);
	char *probed = test_write(dir, "probed.html", probe);
	char *url = xasprintf("file://%s", probed), *log = xasprintf("%s/geom.log", dir);
	char *dom = NULL;
	ck_assert_int_eq(chromium(dir, url, NULL, log, &dom), 0);
	const char *at = strstr(dom, "<pre id=\"geom\">");
	ck_assert_msg(at != NULL, "the measuring script did not run:\n%s", log);
	char *out = xstrdup(at + strlen("<pre id=\"geom\">"));
	char *stop = strstr(out, "end=1");
	ck_assert_ptr_nonnull(stop);
	stop[0] = '\0';
	free(dom);
	free(log);
	free(url);
	free(probed);
	free(probe);
	free(js);
	free(page);
	free(html);
	return out;
}

START_TEST(chart_labels_never_overlap_each_other_or_the_x_axis_ticks)
{
	if (access(CHROMIUM, X_OK) != 0) {
		printf("report: layout test skipped: %s is not installed\n", CHROMIUM);
		return;
	}
	char *dir = test_tmpdir();
	/* The tour, and a job whose owned and rented lines cross low, near
	 * the x axis and its tick labels. */
	char *steady = test_write(dir, "steady.yaml",
	                          "version: 1\ncurrency: USD\nelectricity_per_kwh: 0.2\n"
	                          "buy:\n  - {gpu: RTX 5090, price: 1200, watts: 575}\n"
	                          "jobs:\n  - name: steady\n    model: llama-3.1-8b\n"
	                          "    precision: bf16\n    hours_per_month: 400\n"
	                          "    data: confidential\n");
	/* 3.7 h: its lines cross at about 53 h and 11 USD, low on the chart. */
	char *small = test_write(dir, "small.yaml",
	                         "version: 1\njobs:\n  - name: small\n    model: llama-3.1-8b\n"
	                         "    precision: q4_k_m\n    hours_per_month: 3.7\n");
	const char *specs[] = {"jobs/monthly.yaml", steady, small};
	for (size_t i = 0; i < 3; i++) {
		char *g = geometry(dir, specs[i]);
		ck_assert_msg(stat_of(g, "labels") >= 1, "%s: no break-even label:\n%s", specs[i],
		              g);
		ck_assert_msg(stat_of(g, "overlaps") == 0, "%s: text boxes overlap:\n%s", specs[i],
		              g);
		ck_assert_msg(stat_of(g, "below") == 0, "%s: a label sits on the x axis:\n%s",
		              specs[i], g);
		free(g);
	}
	free(steady);
	free(small);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

START_TEST(the_hours_axis_is_scaled_to_the_job_not_a_whole_month)
{
	if (access(CHROMIUM, X_OK) != 0) {
		printf("report: layout test skipped: %s is not installed\n", CHROMIUM);
		return;
	}
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "small.yaml",
	                        "version: 1\njobs:\n  - name: small\n    model: llama-3.1-8b\n"
	                        "    precision: q4_k_m\n    hours_per_month: 3.7\n");
	char *g = geometry(dir, spec);
	const char *use = strstr(g, "use 0=");
	ck_assert_msg(use != NULL, "no current-use marker:\n%s", g);
	/* 3.7 h against 0-744 h is 0.005 of the axis: a sliver at its edge. */
	double at = atof(use + strlen("use 0="));
	ck_assert_msg(at > 0.25 && at < 0.95, "current use at %.3f of the axis", at);
	free(g);
	free(spec);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

START_TEST(the_first_screen_gives_totals_capex_payback_regions_and_decisions)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "eu.yaml",
	                        "version: 1\nregions: [eu]\n"
	                        "buy:\n  - {gpu: RTX 5090, price: 2400, watts: 575}\n"
	                        "jobs:\n  - name: steady\n    model: qwen2.5-7b\n"
	                        "    precision: bf16\n    hours_per_month: 380\n"
	                        "    data: confidential\n");
	char *html = make_report(dir, spec, false), *text = test_slurp(html);
	char *summary = strstr(text, "<h2 id=\"summary\">");
	ck_assert_ptr_nonnull(summary);
	char *first = strstr(summary, "<section");
	ck_assert_ptr_nonnull(first);
	*first = '\0'; /* only what comes before the first job */
	ck_assert_ptr_nonnull(strstr(summary, "The plan: buy <b>"));
	ck_assert_ptr_nonnull(strstr(summary, "id=\"headline-monthly\""));
	ck_assert_ptr_nonnull(
	    strstr(summary, "jobs priced one by one, each on its cheapest route (USD/month)"));
	ck_assert_ptr_nonnull(strstr(summary, "every job it can run on it alone"));
	ck_assert_ptr_nonnull(strstr(summary, "capex"));
	ck_assert_ptr_nonnull(strstr(summary, "only in eu"));
	ck_assert_ptr_nonnull(strstr(summary, "href=\"#fleet\""));
	ck_assert_ptr_nonnull(strstr(summary, "href=\"#month\""));
	ck_assert_ptr_nonnull(strstr(summary, "<th>decision</th>"));
	ck_assert_msg(strstr(summary, "buy ") || strstr(summary, "rent "), "no decision:\n%s",
	              summary);
	/* issue 15: the purchase up front and the whole horizon, not only a
	 * monthly figure; the horizon chart marks the month the text names */
	ck_assert_ptr_nonnull(strstr(summary, "<b>cash over the horizon</b>"));
	ck_assert_ptr_nonnull(strstr(summary, "Over the horizon"));
	const char *pays = strstr(summary, "In cash, buying has paid from month ");
	if (pays) {
		int month = atoi(pays + strlen("In cash, buying has paid from month "));
		char *mark = xasprintf(">cash: paid from month %d</text>", month);
		ck_assert_msg(strstr(summary, mark), "no marker for month %d", month);
		free(mark);
	} else {
		ck_assert_msg(strstr(summary, "In cash, buying does not pay within") ||
		                  strstr(summary, "Those jobs buy nothing."),
		              "no horizon sentence:\n%s", summary);
	}
	free(text);
	free(html);
	free(spec);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

START_TEST(a_stale_warning_is_styled_as_a_warning_not_as_the_best_route)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	ck_assert_int_eq(store_record_run(st, "vast", "rented", "2026-12-01T03:00:00Z",
	                                  "2026-12-01T03:00:05Z", "failed", 0, 0,
	                                  "could not resolve host", &err),
	                 PLANNER_OK);
	store_close(st);
	char *html = make_report(dir, "jobs/monthly.yaml", false), *text = test_slurp(html);
	const char *warn = strstr(text, "Prices from vast are stale");
	ck_assert_msg(warn != NULL, "no stale warning");
	/* The paragraph holding it is a warning, not the best route's green. */
	const char *open = warn;
	while (open > text && strncmp(open, "<p", 2))
		open--;
	ck_assert_msg(!strncmp(open, "<p class=\"warn\">", 16), "warning styled as %.24s", open);
	ck_assert_ptr_nonnull(strstr(text, ".warn{"));
	free(text);
	free(html);
	free(db);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

START_TEST(the_report_shows_the_fleet_planner_fleet_proposes_beside_its_alternatives)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *html = make_month_report(dir, "jobs/monthly.yaml", "2026-03");
	char *stats = xhtml_stats(html);
	ck_assert_msg(strstr(stats, "\nh2id=fleet\n") != NULL, "%s", stats);
	const char *argv[] = {"fleet", "jobs/monthly.yaml", "--month", "2026-03", "--format",
			      "json", "--db", db, "--quiet", NULL};
	cJSON *fl = planner_json(argv);
	/* The purchase as planner fleet prints it: "2x RTX 5090, ..." */
	char want[512] = "";
	size_t used = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(fl, "purchase"))
		used += (size_t)snprintf(want + used, sizeof want - used, "%s%dx %s",
					 used ? ", " : "", (int)json_num(x, "count"),
					 cJSON_GetObjectItem(x, "gpu")->valuestring);
	ck_assert_msg(used > 0, "the tour's fleet buys nothing: the test needs a purchase");
	char *buy = text_of(stats, "cell.fleet-purchase");
	ck_assert_str_eq(buy, want);
	ck_assert_double_eq_tol(stat_of(stats, "cell.fleet-capex"), json_num(fl, "capex"), 0.005);
	ck_assert_double_eq_tol(stat_of(stats, "cell.fleet-total"), json_num(fl, "monthly_total"),
				0.005);
	const cJSON *routes = cJSON_GetObjectItem(fl, "by_route");
	static const char *const names[] = {"api", "rented", "owned"};
	for (int r = 0; r < 3; r++) {
		char *key = xasprintf("cell.fleet-%s", names[r]);
		ck_assert_double_eq_tol(stat_of(stats, key), json_num(routes, names[r]), 0.005);
		free(key);
	}
	/* Beside buying nothing and one purchase per job, with the payback. */
	char *text = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(text, ">buy nothing</th>"));
	ck_assert_ptr_nonnull(strstr(text, ">one purchase per job</th>"));
	ck_assert_ptr_nonnull(strstr(text, "<th>payback</th>"));
	const cJSON *none = cJSON_GetObjectItem(cJSON_GetObjectItem(fl, "alternatives"),
					       "buy_nothing");
	char *alt = xasprintf("<td class=\"num\">%.2f</td>", json_num(none, "monthly_total"));
	ck_assert_msg(strstr(text, alt) != NULL, "no '%s'", alt);
	free(alt);
	free(text);
	free(buy);
	cJSON_Delete(fl);
	free(stats);
	free(html);
	free(db);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

/* Issue 26: one report gave four figures for one plan (2282.93 a month
 * paying back in 25.5 months first, 2270.06 and 23.9 under What to buy,
 * 2136.72 under The month, "pays from month 26" in the horizon). The
 * headline is fleet's plan, its figure and payback the ones planner fleet
 * prints; compare's figure is labelled "jobs priced one by one" and is
 * compare's own; the month and the horizon say what they are. */
START_TEST(the_report_names_one_headline_plan_with_fleets_figure_and_labels_the_rest)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *html = make_month_report(dir, "jobs/monthly.yaml", "2026-03");
	char *stats = xhtml_stats(html), *text = test_slurp(html);
	const char *fleet[] = {"fleet", "jobs/monthly.yaml", "--month", "2026-03", "--format",
			       "json", "--db", db, "--quiet", NULL};
	const char *compare[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db,
				 "--quiet", NULL};
	cJSON *fl = planner_json(fleet), *cmp = planner_json(compare);
	double monthly = json_num(fl, "monthly_total");
	ck_assert_double_eq_tol(stat_of(stats, "cell.headline-monthly"), monthly, 0.005);
	char *pay = text_of(stats, "cell.headline-payback");
	char *want = xasprintf("%.1f months", json_num(fl, "payback_months"));
	ck_assert_str_eq(pay, want);
	double by_one = json_num(cJSON_GetObjectItem(cmp, "total"), "monthly_cost");
	ck_assert_double_eq_tol(stat_of(stats, "cell.compare-monthly"), by_one, 0.005);
	ck_assert_msg(fabs(by_one - monthly) > 0.005, "the test needs two figures");
	/* The headline's figure stands once as a sentence's figure. */
	char *fig = xasprintf("%.2f %s a month", monthly, "EUR");
	const char *first = strstr(text, fig);
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_null(strstr(first + 1, fig));
	/* The others say what they are. */
	ck_assert_ptr_null(strstr(text, "The cheapest plan costs"));
	ck_assert_ptr_nonnull(strstr(text, "<b>jobs priced one by one</b>"));
	ck_assert_ptr_nonnull(strstr(text, "the month as scheduled costs"));
	ck_assert_ptr_nonnull(strstr(text, "Cash over the horizon: "));
	ck_assert_ptr_null(strstr(text, ">pays from month"));
	free(fig);
	free(want);
	free(pay);
	cJSON_Delete(fl);
	cJSON_Delete(cmp);
	free(text);
	free(stats);
	free(html);
	free(db);
	remove_dir(dir);
}
END_TEST

/* The platform team's spec of issue 26: the headline equals fleet's
 * figure for its plan, and says so when work is left unpriced. */
START_TEST(the_platform_teams_headline_is_fleets_figure_and_owns_up_to_unpriced_work)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	const char *spec = "tests/fixtures/jobs/platform-team.yaml";
	char *html = make_month_report(dir, spec, "2026-03"), *stats = xhtml_stats(html);
	char *text = test_slurp(html);
	const char *fleet[] = {"fleet", spec,   "--month", "2026-03", "--format",
	                       "json",  "--db", db,        "--quiet", NULL};
	cJSON *fl = planner_json(fleet);
	ck_assert_double_eq_tol(stat_of(stats, "cell.headline-monthly"),
	                        json_num(fl, "monthly_total"), 0.005);
	const char *headline = strstr(text, "id=\"headline\"");
	ck_assert_ptr_nonnull(headline);
	const char *end = strstr(headline, "</p>");
	bool unpriced =
	    strstr(headline, "are not priced") && strstr(headline, "are not priced") < end;
	ck_assert_int_eq(unpriced, json_num(fl, "unplaced_hours") > 0);
	ck_assert_ptr_nonnull(strstr(text, "<title>planner report: platform-team.yaml</title>"));
	cJSON_Delete(fl);
	free(text);
	free(stats);
	free(html);
	free(db);
	remove_dir(dir);
}
END_TEST

/* A spec with nothing to buy (buy: []): compare's total is the headline,
 * the figure compare's summary line states. */
START_TEST(without_anything_to_buy_the_headline_is_compares_total)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *spec = test_write(dir, "steady.yaml",
	                        "version: 1\nbuy: []\njobs:\n  - name: steady\n"
	                        "    model: qwen2.5-7b\n    precision: bf16\n"
	                        "    hours_per_month: 380\n");
	char *html = make_report(dir, spec, false), *stats = xhtml_stats(html);
	char *text = test_slurp(html);
	const char *compare[] = {"compare", spec, "--format", "json", "--db", db, "--quiet", NULL};
	cJSON *cmp = planner_json(compare);
	ck_assert_double_eq_tol(stat_of(stats, "cell.headline-monthly"),
				json_num(cJSON_GetObjectItem(cmp, "total"), "monthly_cost"), 0.005);
	ck_assert_ptr_nonnull(strstr(text, "The plan: each job on its cheapest route, priced one "
					   "by one (planner compare)"));
	cJSON_Delete(cmp);
	free(text);
	free(stats);
	free(html);
	free(spec);
	free(db);
	remove_dir(dir);
}
END_TEST

/* Issue 26: the title was the spec's absolute path. It is the spec's
 * name:, else its file's base name. */
START_TEST(the_title_is_the_specs_name_else_its_file_name_never_its_path)
{
	char *dir = test_tmpdir();
	char *named = test_write(dir, "team.yaml",
	                         "version: 1\nname: Platform & friends\njobs:\n  - name: a\n"
	                         "    model: llama-3.1-8b\n    precision: q4_k_m\n"
	                         "    hours_per_month: 10\n");
	char *html = make_report(dir, named, false), *text = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(text, "<title>planner report: Platform &amp; friends</title>"));
	ck_assert_ptr_nonnull(strstr(text, "<h1>AI workload costs: Platform &amp; friends</h1>"));
	free(text);
	free(html);
	char *plain = test_write(dir, "plain.yaml",
	                         "version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n"
	                         "    precision: q4_k_m\n    hours_per_month: 10\n");
	ck_assert_int_eq(plain[0], '/'); /* given by its absolute path */
	html = make_report(dir, plain, false);
	text = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(text, "<title>planner report: plain.yaml</title>"));
	ck_assert_ptr_nonnull(strstr(text, "<h1>AI workload costs: plain.yaml</h1>"));
	free(text);
	free(html);
	free(plain);
	free(named);
	remove_dir(dir);
}
END_TEST

START_TEST(the_report_lays_out_the_month_planner_schedule_gives_with_its_totals)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *html = make_month_report(dir, "jobs/monthly.yaml", "2026-03");
	char *stats = xhtml_stats(html);
	ck_assert_msg(strstr(stats, "\nh2id=month\n") != NULL, "%s", stats);
	/* The tour has a fleet: the month is laid out on it. */
	const char *argv[] = {"schedule", "jobs/monthly.yaml", "--month", "2026-03", "--fleet",
			      "--format", "json", "--db", db, "--quiet", NULL};
	cJSON *sc = planner_json(argv);
	ck_assert_double_eq_tol(stat_of(stats, "cell.month-total"), json_num(sc, "total_cost"),
				0.005);
	double unplaced = 0;
	const cJSON *u;
	cJSON_ArrayForEach(u, cJSON_GetObjectItem(sc, "unplaced"))
		unplaced += json_num(u, "hours");
	ck_assert_double_eq_tol(stat_of(stats, "cell.month-unplaced"), unplaced, 0.05);
	/* A row per job, in the schedule's order, and the summary points here
	 * instead of saying the report does not lay the month out. */
	char *text = test_slurp(html), *month = strstr(text, "<h2 id=\"month\">");
	ck_assert_ptr_nonnull(month);
	const char *at = month;
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(sc, "jobs")) {
		char *cell = xasprintf("<tr><td>%s</td>",
				       cJSON_GetObjectItem(j, "name")->valuestring);
		const char *row = strstr(at, cell);
		ck_assert_msg(row != NULL, "no row '%s' in order", cell);
		at = row;
		free(cell);
	}
	ck_assert_ptr_nonnull(strstr(text, "href=\"#month\""));
	ck_assert_ptr_null(strstr(text, "this report prices whole months"));
	ck_assert_ptr_nonnull(strstr(text, "on the recommended fleet: the GPUs already owned plus its "
					   "purchase (2x RTX 5090)"));
	free(text);
	cJSON_Delete(sc);
	free(stats);
	free(html);
	free(db);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

START_TEST(a_spec_with_nothing_to_buy_says_so_in_place_of_the_fleet)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "rent.yaml",
				"version: 1\ncurrency: USD\n"
				"jobs:\n  - name: steady\n    model: llama-3.1-8b\n"
				"    precision: bf16\n    hours_per_month: 100\n");
	char *html = make_month_report(dir, spec, "2026-03"), *text = test_slurp(html);
	char *stats = xhtml_stats(html);
	ck_assert_ptr_nonnull(strstr(stats, "\nh2id=fleet\n"));
	ck_assert_ptr_nonnull(strstr(text, "No fleet: "));
	ck_assert_ptr_null(strstr(text, "id=\"fleet-capex\""));
	ck_assert_ptr_nonnull(strstr(text, "id=\"month-total\""));
	ck_assert_ptr_nonnull(strstr(text, "out (744 h, UTC) on the GPUs already owned,"));
	free(stats);
	free(text);
	free(html);
	free(spec);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(dir);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("html");
	tcase_set_timeout(tc, 0); /* no wall-clock limit: a browser start is slow */
	tcase_add_test(tc, each_cost_line_passes_through_its_route_cost_and_crosses_at_the_break_even);
	tcase_add_test(tc, the_report_is_well_formed_self_contained_xhtml_with_a_chart_per_job);
	tcase_add_test(tc, the_chart_marks_the_break_even_compare_prints_for_a_job_of_fixed_hours);
	tcase_add_test(tc, markup_in_a_job_name_is_escaped_not_interpreted);
	tcase_add_test(tc, a_route_run_as_replicas_says_so_and_its_figures_multiply_to_its_cost);
	tcase_add_test(tc, a_gpu_with_several_price_points_gets_a_history_chart);
	tcase_add_test(tc, chromium_renders_the_report_with_ink_and_no_console_errors);
	tcase_add_test(tc, chart_labels_never_overlap_each_other_or_the_x_axis_ticks);
	tcase_add_test(tc, the_hours_axis_is_scaled_to_the_job_not_a_whole_month);
	tcase_add_test(tc, the_first_screen_gives_totals_capex_payback_regions_and_decisions);
	tcase_add_test(tc, a_stale_warning_is_styled_as_a_warning_not_as_the_best_route);
	tcase_add_test(tc, the_report_shows_the_fleet_planner_fleet_proposes_beside_its_alternatives);
	tcase_add_test(tc, the_report_lays_out_the_month_planner_schedule_gives_with_its_totals);
	tcase_add_test(tc, the_report_names_one_headline_plan_with_fleets_figure_and_labels_the_rest);
	tcase_add_test(tc, without_anything_to_buy_the_headline_is_compares_total);
	tcase_add_test(tc,
	               the_platform_teams_headline_is_fleets_figure_and_owns_up_to_unpriced_work);
	tcase_add_test(tc, the_title_is_the_specs_name_else_its_file_name_never_its_path);
	tcase_add_test(tc, a_spec_with_nothing_to_buy_says_so_in_place_of_the_fleet);
	suite_add_tcase(s, tc);
	return s;
}
