/* report.c — the self-contained HTML report with inline SVG charts (see
 * report.h). The markup is XHTML-compatible (every element closed, only
 * the five XML escapes, numeric character references otherwise) so an
 * XML parser can check it as well as a browser can show it. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "util.h"

/* Chart geometry in SVG user units (CSS pixels at 100 %). */
#define CHART_W 860
#define CHART_H 380
#define PLOT_L 78  /* room for the y tick labels and the axis title */
#define PLOT_R 24
#define PLOT_T 44  /* room for the legend band */
#define PLOT_B 56  /* room for the x tick labels and the axis title */

#define HIST_W 360
#define HIST_H 200

/* Offers listed per job in the report. */
#define REPORT_OFFERS_SHOWN 5

/* A route's line colour (route_ops.colour; the shipped three are a
 * colour-blind-safe trio, Okabe and Ito, 2008); black when it names none. */
static const char *route_colour(size_t k)
{
	const struct route_ops *ops = route_at(k);
	return ops && ops->colour ? ops->colour : "#000000";
}

/* Writes s with the XML escapes; characters XML 1.0 forbids (C0 controls
 * other than tab and newline) become U+FFFD so a job name cannot break the
 * document. */
void report_esc(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n')
				fputs("&#xFFFD;", f);
			else
				fputc(*p, f);
		}
	}
}

void report_escf(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	report_esc(f, buf);
}

void report_cost_lines(const struct jobspec *spec, const struct job_result *j,
		       struct cost_line out[ROUTE_MAX])
{
	(void)spec;
	for (size_t k = 0; k < route_count(); k++)
		route_cost_line(j, k, &out[k]);
}

double report_crossing(const struct cost_line *a, const struct cost_line *b, double max_hours)
{
	return route_lines_cross(a, b, max_hours);
}

/* A round tick step giving about `target` ticks over range. */
static double nice_step(double range, int target)
{
	if (!(range > 0))
		return 1;
	double raw = range / target, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

/* A tick label: whole numbers when the ticks are whole, else cents. */
static void money(char *buf, size_t len, double v, double step)
{
	snprintf(buf, len, step >= 1 ? "%.0f" : "%.2f", v);
}

/* Scale of one chart: data to SVG coordinates. */
struct scale {
	double x0, x1, y0, y1; /* data ranges */
	double px0, px1, py0, py1; /* plot box: left, right, bottom, top */
};

static double sx(const struct scale *s, double x)
{
	return s->px0 + (x - s->x0) / (s->x1 - s->x0) * (s->px1 - s->px0);
}

static double sy(const struct scale *s, double y)
{
	return s->py0 - (y - s->y0) / (s->y1 - s->y0) * (s->py0 - s->py1);
}

/* Axes, grid and tick labels; x ticks use xfmt ("%.0f" hours), y money. */
static void axes(FILE *f, const struct scale *s, double xstep, double ystep, const char *xtitle,
		 const char *ytitle, int w, int h)
{
	fprintf(f, "<g class=\"grid\">\n");
	for (double y = s->y0; y <= s->y1 + ystep * 1e-6; y += ystep) {
		char lbl[32];
		money(lbl, sizeof lbl, y, ystep);
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			s->px0, sy(s, y), s->px1, sy(s, y), s->px0 - 6, sy(s, y) + 4, lbl);
	}
	for (double x = s->x0; x <= s->x1 + xstep * 1e-6; x += xstep)
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		        "text-anchor=\"middle\">%.*f</text>\n",
		        sx(s, x), s->py0, sx(s, x), s->py1, sx(s, x), s->py0 + 16,
		        xstep < 1 ? 1 : 0, x);
	fprintf(f, "</g>\n");
	fprintf(f,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		s->px0, s->py0, s->px1, s->py0, s->px0, s->py0, s->px0, s->py1);
	fprintf(f, "<text class=\"title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		(s->px0 + s->px1) / 2, h - 10);
	report_esc(f, xtitle);
	fprintf(f, "</text>\n<text class=\"title\" transform=\"translate(16 %.1f) rotate(-90)\" "
		   "text-anchor=\"middle\">",
		(s->py0 + s->py1) / 2);
	report_esc(f, ytitle);
	fputs("</text>\n", f);
	(void)w;
}

/* Most pairs of routes a chart has: every two of ROUTE_MAX. */
#define CHART_PAIRS_MAX (ROUTE_MAX * (ROUTE_MAX - 1) / 2)

/* The pairs of routes whose lines may cross, as the chart labels them:
 * the shipped three in their order, then each registered route against
 * every route before it. Returns how many. */
static size_t route_pairs(int out[CHART_PAIRS_MAX][2])
{
	static const int shipped[][2] = {
	    {ROUTE_OWNED, ROUTE_RENTED}, {ROUTE_API, ROUTE_RENTED}, {ROUTE_API, ROUTE_OWNED}};
	size_t n = 0;
	for (; n < sizeof shipped / sizeof *shipped; n++) {
		out[n][0] = shipped[n][0];
		out[n][1] = shipped[n][1];
	}
	for (int k = ROUTE_BUILTIN; k < (int)route_count(); k++)
		for (int i = 0; i < k; i++, n++) {
			out[n][0] = k;
			out[n][1] = i;
		}
	return n;
}

/* A crossing further than this many times the job's use is not worth
 * squeezing the job into the left edge for: it is named at the right edge
 * instead (off_axis). */
#define AXIS_REACH 4

/* How far the hours axis runs: twice the job's use, far enough to show
 * the crossings within AXIS_REACH times the use (and a month), past the
 * use when it is more than a month; rounded up to a tick. A 3.7 h job is
 * then not a sliver against a 744 h axis. */
static double hours_axis(const struct cost_line lines[ROUTE_MAX], double use, double *xstep)
{
	double want = use > 0 ? use * 2 : HOURS_PER_MONTH;
	int pairs[CHART_PAIRS_MAX][2];
	size_t n_pairs = route_pairs(pairs);
	for (size_t i = 0; i < n_pairs; i++) {
		double h = report_crossing(&lines[pairs[i][0]], &lines[pairs[i][1]], HOURS_PER_MONTH);
		if (isfinite(h) && h * 1.15 > want && (!(use > 0) || h <= use * AXIS_REACH))
			want = h * 1.15;
	}
	if (want > HOURS_PER_MONTH)
		want = HOURS_PER_MONTH;
	if (use * 1.05 > want)
		want = use * 1.1;
	*xstep = nice_step(want, 6);
	return ceil(want / *xstep - 1e-9) * *xstep;
}

/* The cost chart's scale: hours from hours_axis, money 0 to the highest
 * line at the right edge, rounded up to a tick. */
static struct scale cost_scale(const struct cost_line lines[ROUTE_MAX], double use, double *xstep,
                               double *ystep)
{
	double xmax = hours_axis(lines, use, xstep);
	double ymax = 0;
	for (int k = 0; k < (int)route_count(); k++)
		if (lines[k].feasible) {
			double v = lines[k].fixed + lines[k].slope * xmax;
			if (v > ymax)
				ymax = v;
		}
	*ystep = nice_step(ymax > 0 ? ymax : 1, 6);
	struct scale s = {.x0 = 0,
	                  .x1 = xmax,
	                  .y0 = 0,
	                  .y1 = ceil((ymax > 0 ? ymax : 1) / *ystep) * *ystep,
	                  .px0 = PLOT_L,
	                  .px1 = CHART_W - PLOT_R,
	                  .py0 = CHART_H - PLOT_B,
	                  .py1 = PLOT_T};
	if (s.y1 <= 0)
		s.y1 = *ystep;
	return s;
}

/* The routes' lines, clipped to the plot box: a steep API line leaves it
 * early. */
static void route_lines(FILE *f, const struct scale *s, const struct cost_line lines[ROUTE_MAX],
                        size_t index)
{
	double xmax = s->x1;
	fprintf(f,
	        "<clipPath id=\"plot%zu\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	        "height=\"%.1f\"/></clipPath>\n",
	        index, s->px0, s->py1, s->px1 - s->px0, s->py0 - s->py1);
	fprintf(f, "<g clip-path=\"url(#plot%zu)\">\n", index);
	for (int k = 0; k < (int)route_count(); k++) {
		if (!lines[k].feasible)
			continue;
		fprintf(f,
		        "<line class=\"route\" stroke=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		        "y2=\"%.1f\"/>\n",
		        route_colour((size_t)k), sx(s, 0), sy(s, lines[k].fixed), sx(s, xmax),
		        sy(s, lines[k].fixed + lines[k].slope * xmax));
	}
	fputs("</g>\n", f);
}

/* The job's current use: a dashed line and a dot on each route. */
static void use_marker(FILE *f, const struct scale *s, const struct cost_line lines[ROUTE_MAX],
                       double use)
{
	double xmax = s->x1;
	if (!(use > 0 && use <= xmax))
		return;
	fprintf(f,
	        "<line class=\"use\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
	        "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">current use "
	        "%.1f h</text>\n",
	        sx(s, use), s->py0, sx(s, use), s->py1, sx(s, use) + (use < xmax * 0.8 ? 4 : -4),
	        s->py1 + 12, use < xmax * 0.8 ? "start" : "end", use);
	for (int k = 0; k < (int)route_count(); k++) {
		if (!lines[k].feasible)
			continue;
		double y = lines[k].fixed + lines[k].slope * use;
		if (y <= s->y1)
			fprintf(f,
			        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			        "stroke=\"#fff\"/>\n",
			        sx(s, use), sy(s, y), route_colour((size_t)k));
	}
}

/* Where a break-even label's baseline goes: under its point, or over it
 * when under would reach the x axis and its tick labels; below the
 * current-use note; 16 units clear of the labels placed before. */
static double label_y(const struct scale *s, double cy, const double *placed, int n)
{
	const double line = 16, top = s->py1 + 30, bottom = s->py0 - 8;
	double y = cy + 20 <= bottom ? cy + 20 : cy - 12;
	if (y < top)
		y = top;
	for (int moved = 1; moved;) {
		moved = 0;
		for (int i = 0; i < n; i++)
			if (fabs(y - placed[i]) < line) {
				y = placed[i] + line <= bottom ? placed[i] + line
				                               : placed[i] - line;
				moved = 1;
			}
		if (y < top) /* no room left: under the last one */
			break;
	}
	return y;
}

/* Break-even points: where two feasible lines cross within the axis. */
static void crossings(FILE *f, const struct scale *s, const struct cost_line lines[ROUTE_MAX],
                      const char *currency)
{
	double xmax = s->x1, placed[CHART_PAIRS_MAX];
	int marked = 0;
	int pairs[CHART_PAIRS_MAX][2];
	size_t n_pairs = route_pairs(pairs);
	for (size_t i = 0; i < n_pairs; i++) {
		const struct cost_line *a = &lines[pairs[i][0]], *b = &lines[pairs[i][1]];
		double h = report_crossing(a, b, xmax);
		if (!isfinite(h)) {
			/* Past the axis but within a month: named at the right
			 * edge with the same figure the text gives. */
			double far = report_crossing(a, b, HOURS_PER_MONTH);
			if (!isfinite(far))
				continue;
			double ly = label_y(s, s->py1, placed, marked);
			placed[marked++] = ly;
			fprintf(f,
			        "<g class=\"breakeven\"><text class=\"label\" x=\"%.1f\" "
			        "y=\"%.1f\" text-anchor=\"end\">",
			        s->px1 - 4, ly);
			report_escf(f, "%s = %s at %.1f h, %.2f %s (past this axis) \u2192",
			            route_name((enum route)pairs[i][0]),
			            route_name((enum route)pairs[i][1]), far,
			            a->fixed + a->slope * far, currency);
			fputs("</text></g>\n", f);
			continue;
		}
		double y = a->fixed + a->slope * h;
		if (y > s->y1)
			continue;
		double cx = sx(s, h), cy = sy(s, y);
		bool left = h > xmax * 0.6;
		double ly = label_y(s, cy, placed, marked);
		placed[marked++] = ly;
		fprintf(f,
		        "<g class=\"breakeven\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\"/>"
		        "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
		        cx, cy, cx + (left ? -10 : 10), ly, left ? "end" : "start");
		report_escf(f, "%s = %s at %.1f h, %.2f %s",
		            route_name((enum route)pairs[i][0]),
		            route_name((enum route)pairs[i][1]), h, y, currency);
		fputs("</text></g>\n", f);
	}
}

/* Legend in a band above the plot, one entry per route, so it never hides
 * a line, a crossing or the current-use marker: one row of up to three,
 * else two rows (an entry needs about a third of the plot's width). */
static void legend(FILE *f, const struct scale *s, const struct job_result *j, const char *currency)
{
	int n = (int)route_count(), cols = n <= 3 ? n : (n + 1) / 2;
	fputs("<g class=\"legend\">\n", f);
	for (int k = 0; k < n; k++) {
		double x = s->px0 + (k % cols) * (s->px1 - s->px0) / (double)cols;
		double y = n <= 3 ? 18 : 16 + (k / cols) * 16;
		const struct route_result *r = &j->routes[k];
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"3\"%s/><text x=\"%.1f\" y=\"%.1f\">",
			x, y - 4, x + 24, y - 4, route_colour((size_t)k),
			r->feasible ? "" : " stroke-dasharray=\"2 3\"", x + 30, y);
		if (r->feasible)
			report_escf(f, "%s: %.2f %s/month now", route_name((enum route)k),
			            r->monthly_cost, currency);
		else
			report_escf(f, "%s: not possible", route_name((enum route)k));
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* The job's cost-curve chart: every route over hours per month, the
 * crossings marked and labelled, the current use marked, a legend. */
static void cost_chart(FILE *f, const struct jobspec *spec, const struct plan *p,
                       const struct job_result *j, size_t index)
{
	struct cost_line lines[ROUTE_MAX];
	report_cost_lines(spec, j, lines);
	double xstep, ystep;
	struct scale s = cost_scale(lines, j->gpu_hours_per_month, &xstep, &ystep);
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"chart%zu\">\n"
	        "<title id=\"chart%zu\">",
	        CHART_W, CHART_H, CHART_W, CHART_H, index, index);
	report_escf(f,
	            "%s: monthly cost in %s against GPU hours per month for the api, rented and "
	            "owned routes",
	            j->job->name, p->currency);
	fputs("</title>\n", f);
	char ytitle[64];
	snprintf(ytitle, sizeof ytitle, "monthly cost (%s)", p->currency);
	axes(f, &s, xstep, ystep, "hours of work per month (h)", ytitle, CHART_W, CHART_H);
	route_lines(f, &s, lines, index);
	use_marker(f, &s, lines, j->gpu_hours_per_month);
	crossings(f, &s, lines, p->currency);
	legend(f, &s, j, p->currency);
	fputs("</svg>\n", f);
}

/* A small chart of one GPU's min and median price over one provider's
 * refreshes (issue 26: different providers' dates are not a series). */
static void history_chart(FILE *f, const struct history_curve *c, double rate,
			  const char *currency, size_t index)
{
	double lo = INFINITY, hi = 0;
	long long t0 = iso_to_epoch(c->steps[0].at), t1 = iso_to_epoch(c->steps[c->n_steps - 1].at);
	for (size_t i = 0; i < c->n_steps; i++) {
		if (c->steps[i].min * rate < lo)
			lo = c->steps[i].min * rate;
		if (c->steps[i].median * rate > hi)
			hi = c->steps[i].median * rate;
	}
	double ystep = nice_step(hi > lo ? hi - lo : hi > 0 ? hi : 1, 4);
	struct scale s = {.x0 = 0, .x1 = t1 > t0 ? (double)(t1 - t0) : 1,
			  .y0 = floor(lo / ystep) * ystep, .y1 = ceil(hi / ystep) * ystep,
			  .px0 = 60, .px1 = HIST_W - 16, .py0 = HIST_H - 44, .py1 = 16};
	if (s.y1 <= s.y0)
		s.y1 = s.y0 + ystep;
	fprintf(f,
		"<figure class=\"history\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"hist%zu\">\n"
		"<title id=\"hist%zu\">",
		HIST_W, HIST_H, HIST_W, HIST_H, index, index);
	report_escf(f, "%s at %s: price per GPU-hour over its refreshes", c->gpu, c->provider);
	fputs("</title>\n<g class=\"grid\">\n", f);
	for (double y = s.y0; y <= s.y1 + ystep * 1e-6; y += ystep)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
			s.px0, sy(&s, y), s.px1, sy(&s, y), s.px0 - 6, sy(&s, y) + 4, y);
	fputs("</g>\n", f);
	fprintf(f,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">%.10s</text>"
		"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.10s</text>\n",
		s.px0, s.py0, s.px1, s.py0, s.px0, s.py0 + 16, c->steps[0].at, s.px1, s.py0 + 16,
		c->steps[c->n_steps - 1].at);
	fprintf(f, "<text class=\"title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		(s.px0 + s.px1) / 2, HIST_H - 8);
	report_escf(f, "refresh date; %s per GPU-hour", currency);
	fputs("</text>\n", f);
	static const char *const cls[] = {"min", "median"};
	for (int m = 0; m < 2; m++) {
		fprintf(f, "<polyline class=\"%s\" points=\"", cls[m]);
		for (size_t i = 0; i < c->n_steps; i++) {
			double v = (m ? c->steps[i].median : c->steps[i].min) * rate;
			double t = (double)(iso_to_epoch(c->steps[i].at) - t0);
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", sx(&s, t), sy(&s, v));
		}
		fputs("\"/>\n", f);
	}
	fprintf(f,
		"<text class=\"min\" x=\"%.1f\" y=\"%.1f\">min</text>"
		"<text class=\"median\" x=\"%.1f\" y=\"%.1f\">median</text>\n</svg>\n"
		"<figcaption>",
		s.px0 + 8, s.py1 + 10, s.px0 + 48, s.py1 + 10);
	report_escf(f, "%s at %s", c->gpu, c->provider);
	report_escf(f, ": %zu refreshes, now %.2f (min) / %.2f (median) %s per GPU-hour",
	            c->n_steps, c->steps[c->n_steps - 1].min * rate,
	            c->steps[c->n_steps - 1].median * rate, currency);
	fputs("</figcaption></figure>\n", f);
}

static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px auto;"
    "max-width:1100px;color:#222;padding:0 16px}\n"
    "h1{font-size:1.6em;margin-bottom:4px}h2{margin-top:36px;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:8px 0 16px}\n"
    "th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "th{background:#f2f2f2}.muted{color:#666}.best{font-weight:bold;color:#006b4f}\n"
    ".warn{color:#7a4100;background:#fff4e0;border-left:4px solid #e69f00;padding:6px 10px}\n"
    ".headline{font-size:1.1em}\n"
    "svg{font-size:12px;background:#fff}.grid line{stroke:#e4e4e4}\n"
    ".grid text,.tick{fill:#555}.axis{stroke:#333;stroke-width:1.5}\n"
    ".title{fill:#333;font-size:13px}.route{stroke-width:3}\n"
    ".use{stroke:#555;stroke-dasharray:6 4}.note{fill:#444}\n"
    ".breakeven circle{fill:#fff;stroke:#c00;stroke-width:2.5}\n"
    ".breakeven text{fill:#c00;font-weight:bold;paint-order:stroke;stroke:#fff;"
    "stroke-width:4px;stroke-linejoin:round}\n"
    ".legend rect{fill:#fff;fill-opacity:0.9;stroke:#ccc}\n"
    "polyline{fill:none;stroke-width:2.5}polyline.min{stroke:#0072b2}"
    "polyline.median{stroke:#cc79a7}\ntext.min{fill:#0072b2}text.median{fill:#cc79a7}\n"
    "figure.history{display:inline-block;margin:8px 16px 8px 0}\n"
    "figcaption{font-size:0.9em;color:#444;max-width:360px}\n";

/* The break-even sentence, in the chart's unit: the owned vs rented
 * figure is where the chart's lines cross (hours of the job's work), and
 * compare's figure, counted on the owned GPUs, follows when it differs,
 * so the text and the chart never give two numbers for one point. */
static void breakeven_text(FILE *f, const struct jobspec *spec, const struct job_result *j)
{
	struct cost_line l[ROUTE_MAX];
	report_cost_lines(spec, j, l);
	double chart = report_crossing(&l[ROUTE_OWNED], &l[ROUTE_RENTED], HOURS_PER_MONTH);
	double own = j->be.value[BREAKEVEN_OWNED_VS_RENTED];
	char h[160] = "<b>never</b>", pb[48] = "never", t[48] = "never";
	if (isfinite(chart) && isfinite(own) && fabs(chart - own) >= 0.05)
		snprintf(h, sizeof h,
		         "<b>at %.1f h</b> of the job's work a month (compare's %.1f h "
		         "counts hours on the owned GPUs)",
		         chart, own);
	else if (isfinite(chart))
		snprintf(h, sizeof h, "<b>at %.1f h</b> of the job's work a month", chart);
	else if (isfinite(own))
		snprintf(h, sizeof h, "<b>at %.1f h</b> on the owned GPUs a month, past this chart",
		         own);
	plan_payback_text(&j->be, pb, sizeof pb);
	double tokens = j->be.value[BREAKEVEN_API_VS_RENTED];
	if (isfinite(tokens))
		snprintf(t, sizeof t, "%.1f million tokens/month", tokens / 1e6);
	/* GPUs on hand: no purchase to break even or pay back (plan.h). */
	if (breakeven_already_owned(&j->be))
		fprintf(f, "<p>Break-even: <b>%s</b>; api vs rented <b>%s</b>",
		        BREAKEVEN_ALREADY_OWNED, t);
	else
		fprintf(f,
		        "<p>Break-even: owned = rented %s; owned payback <b>%s</b>; api vs "
		        "rented <b>%s</b>",
		        h, pb, t);
	/* A registered route's pairs, as compare's table words them. */
	for (size_t i = BREAKEVEN_BUILTIN; i < breakeven_count(); i++) {
		const struct breakeven_pair *bp = breakeven_at(i);
		char v[64];
		bp->text(v, sizeof v, j->be.value[i], j->be.note[i]);
		fputs("; ", f);
		report_esc(f, bp->label);
		fputs(" <b>", f);
		report_esc(f, v);
		fputs("</b>", f);
	}
	fputs(".</p>\n", f);
}

static void route_rows(FILE *f, const struct jobspec *spec, const struct plan *p,
                       const struct job_result *j)
{
	fprintf(f, "<table>\n<tr><th>route</th><th class=\"num\">monthly cost (%s)</th>"
		   "<th>how</th></tr>\n",
		p->currency);
	for (int k = 0; k < (int)route_count(); k++) {
		const struct route_result *r = &j->routes[k];
		fprintf(f, "<tr><td%s>%s</td>", j->best == k ? " class=\"best\"" : "",
			route_name((enum route)k));
		if (!r->feasible) {
			fputs("<td class=\"num\">-</td><td class=\"muted\">not possible: ", f);
			report_esc(f, r->why);
			fputs("</td></tr>\n", f);
			continue;
		}
		fprintf(f, "<td class=\"num\">%.2f</td><td>", r->monthly_cost);
		const struct route_ops *ops = route_at((size_t)k);
		char how[1024] = "";
		if (ops->report_detail)
			ops->report_detail(how, sizeof how, r, p->currency);
		report_esc(f, how);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	breakeven_text(f, spec, j);
}

static void offers_table(FILE *f, const struct report_input *in, size_t i)
{
	const struct job_result *j = &in->plan->jobs[i];
	size_t n = in->n_offers ? in->n_offers[i] : 0;
	if (n == 0) {
		fputs("<p class=\"muted\">No rentable offer in the database fits this job", f);
		if (!j->routes[ROUTE_RENTED].feasible) {
			fputs(": ", f);
			report_esc(f, j->routes[ROUTE_RENTED].why);
		}
		fputs(".</p>\n", f);
		return;
	}
	fprintf(f, "<table class=\"offers\">\n<tr><th>provider</th><th>offer</th><th>GPUs</th>"
		   "<th class=\"num\">VRAM per GPU (GiB)</th><th>region</th><th>price</th>"
		   "<th class=\"num\">%s per hour</th><th>fetched</th></tr>\n",
		in->plan->currency);
	for (size_t k = 0; k < n && k < REPORT_OFFERS_SHOWN; k++) {
		const struct offer *o = &in->offers[i][k];
		fputs("<tr><td>", f);
		report_esc(f, o->provider);
		fputs("</td><td>", f);
		report_esc(f, o->offer);
		fputs("</td><td>", f);
		report_escf(f, "%dx %s", o->gpu_count, o->gpu);
		fprintf(f, "</td><td class=\"num\">%.0f</td><td>", o->vram_gib);
		report_esc(f, o->region);
		fprintf(f, "</td><td>%s</td><td class=\"num\">%.4g</td><td>%.10s</td></tr>\n",
			o->spot ? "spot" : "on demand", o->price_per_hour,
			o->fetched_at);
	}
	fputs("</table>\n", f);
}

/* Names the providers still on the bundled snapshot when others are live. */
static void still_on_snapshot(FILE *f, const struct plan *p)
{
	char names[256];
	if (!p->snapshot_only && !strcmp(p->prices_source, "mixed"))
		report_escf(f, "; still on the bundled snapshot: %s",
		            plan_snapshot_names(p, names, sizeof names));
}

/* "<lead> <rates>." as a muted paragraph; nothing when no rate was used. */
static void rates_paragraph(FILE *f, const char *lead, const char *rates)
{
	if (!rates || !rates[0])
		return;
	fputs("<p class=\"muted\">", f);
	report_escf(f, "%s %s.", lead, rates);
	fputs("</p>\n", f);
}

/* The price history: a chart per GPU and provider with two points or
 * more. */
static void history_section(FILE *f, const struct report_input *in)
{
	size_t shown = 0;
	for (size_t i = 0; i < in->n_history; i++)
		if (in->history[i].n_steps > 1)
			shown++;
	fputs("<h2 id=\"history\">Price history</h2>\n", f);
	if (shown == 0)
		fputs("<p class=\"muted\">No GPU has more than one price point at one provider "
		      "yet; each planner refresh that finds a new price adds one.</p>\n",
		      f);
	else
		fputs("<p class=\"muted\">Each chart is one provider's offers of one GPU over that "
		      "provider's own refreshes; prices of different providers, refreshed on "
		      "different dates, are not drawn as one trend.</p>\n",
		      f);
	if (shown)
		rates_paragraph(f, "Prices published in other currencies converted at",
		                in->history_fx);
	for (size_t i = 0; i < in->n_history; i++)
		if (in->history[i].n_steps > 1)
			history_chart(f, &in->history[i], in->spec->usd_to_currency, in->plan->currency, i);
}

int report_write_html(FILE *f, const struct report_input *in, char **err)
{
	const struct plan *p = in->plan;
	const struct jobspec *spec = in->spec;
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	      "<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>",
	      f);
	report_escf(f, "planner report: %s", jobspec_title(spec));
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	report_escf(f, "AI workload costs: %s", jobspec_title(spec));
	fputs("</h1>\n<p class=\"muted\">", f);
	report_escf(f,
	            "Monthly cost of each job on a cloud API (per token), a rented GPU (per hour), "
	            "a GPU you own (purchase over %.0f months plus power at %.3f %s/kWh, PUE "
	            "%.2f) and a serverless GPU endpoint (per second). Money in %s. Prices as of "
	            "%s (%s)",
	            spec->amortize_months, spec->electricity_per_kwh, p->currency, spec->pue,
	            p->currency, p->prices_as_of,
	            p->snapshot_only ? "the bundled snapshot; run planner refresh for live prices"
	                             : "last refresh");
	still_on_snapshot(f, p);
	report_escf(f, "; report written %s by planner %s.", in->generated_at, PLANNER_VERSION);
	fputs("</p>\n", f);
	rates_paragraph(f, "Exchange rates:", p->fx_note);
	for (size_t i = 0; i < p->n_stale; i++) {
		fputs("<p class=\"warn\">", f);
		report_escf(f, "Prices from %s are stale: its last refresh failed.", p->stale[i]);
		fputs("</p>\n", f);
	}
	report_summary(f, in);
	report_fleet(f, in);
	report_month(f, in);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		fprintf(f, "<section id=\"job%zu\">\n<h2>", i);
		report_esc(f, j->job->name);
		fputs("</h2>\n<p>", f);
		report_escf(f,
		            "%s %s, %s, data %s; needs %.1f GiB of GPU memory in all; %.1f "
		            "GPU-hours a month",
		            j->job->model_ref, j->job->precision, task_name(j->job->task),
		            data_class_name(j->job->data), j->vram_gib, j->gpu_hours_per_month);
		if (j->job->has_tokens)
			report_escf(f,
			            "; %.0f million input and %.0f million output tokens a month",
			            j->job->input_tokens / 1e6, j->job->output_tokens / 1e6);
		fputs(".</p>\n", f);
		route_rows(f, spec, p, j);
		cost_chart(f, spec, p, j, i);
		fputs("<p class=\"muted\">Each line is a route's monthly cost if the job ran that "
		      "many hours a month (the api line scales the job's tokens with its hours; "
		      "a route on other GPUs needs proportionally more or fewer of its own hours). "
		      "Red circles mark where two routes cost the same.",
		      f);
		fputs("</p>\n<h3>Cheapest rentable offers that fit</h3>\n", f);
		offers_table(f, in, i);
		fputs("</section>\n", f);
	}
	history_section(f, in);
	fputs("</body>\n</html>\n", f);
	if (ferror(f))
		return set_err(err, PLANNER_ESYS, "write error");
	return PLANNER_OK;
}
