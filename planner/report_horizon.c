/* report_horizon.c — the report's horizon chart: the plan's cumulative
 * cash month by month with its purchases and without any (horizon.c),
 * growth applied, and the month from which buying has paid marked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "horizon.h"
#include "report.h"
#include "util.h"

#define HZ_W  720
#define HZ_H  300
#define HZ_X0 80.0  /* plot box: left, right, bottom, top */
#define HZ_X1 700.0
#define HZ_Y0 250.0
#define HZ_Y1 20.0

/* Colours of the two strategies (Okabe–Ito, as the route colours). */
#define HZ_BUY     "#009e73"
#define HZ_NO_BUY  "#e69f00"

static double hz_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static double hx(int months, double m)
{
	return HZ_X0 + m / months * (HZ_X1 - HZ_X0);
}

static double hy(double top, double v)
{
	return HZ_Y0 - v / top * (HZ_Y0 - HZ_Y1);
}

static void hz_axes(FILE *f, int months, double top, double step, const char *currency)
{
	fputs("<g class=\"grid\">\n", f);
	for (double v = 0; v <= top + step * 1e-6; v += step)
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text class=\"tick\" "
		        "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
		        HZ_X0, hy(top, v), HZ_X1, hy(top, v), HZ_X0 - 6, hy(top, v) + 4, v);
	int xs = months <= 12 ? 1 : months <= 36 ? 6 : 12;
	for (int m = 0; m <= months; m += xs)
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text class=\"tick\" "
		        "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n",
		        hx(months, m), HZ_Y0, hx(months, m), HZ_Y1, hx(months, m), HZ_Y0 + 16, m);
	fprintf(f,
	        "</g>\n<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
	        "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n"
	        "<text class=\"title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">month</text>\n"
	        "<text class=\"title\" transform=\"translate(16 %.1f) rotate(-90)\" "
	        "text-anchor=\"middle\">paid so far (%s)</text>\n",
	        HZ_X0, HZ_Y0, HZ_X1, HZ_Y0, HZ_X0, HZ_Y0, HZ_X0, HZ_Y1, (HZ_X0 + HZ_X1) / 2,
	        HZ_H - 6, (HZ_Y0 + HZ_Y1) / 2, currency);
}

static void hz_line(FILE *f, const double *cum, int months, double top, const char *colour)
{
	fprintf(f, "<polyline style=\"stroke:%s\" points=\"%.1f,%.1f", colour, hx(months, 0),
	        hy(top, 0));
	for (int m = 1; m <= months; m++)
		fprintf(f, " %.1f,%.1f", hx(months, m), hy(top, cum[m - 1]));
	fputs("\"/>\n", f);
}

static void hz_chart(FILE *f, const struct horizon_plan *h, const char *currency)
{
	double top = fmax(h->with_buy[h->months - 1], h->without_buy[h->months - 1]);
	for (int m = 0; m < h->months; m++)
		top = fmax(top, fmax(h->with_buy[m], h->without_buy[m]));
	double step = hz_step(top > 0 ? top : 1);
	top = ceil(top / step) * step;
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" role=\"img\" aria-labelledby=\"horizon-title\">\n<title "
	        "id=\"horizon-title\">cash over %d months with each job's own purchase and "
	        "without</title>\n",
	        HZ_W, HZ_H, HZ_W, HZ_H, h->months);
	hz_axes(f, h->months, top, step, currency);
	hz_line(f, h->without_buy, h->months, top, HZ_NO_BUY);
	hz_line(f, h->with_buy, h->months, top, HZ_BUY);
	fprintf(f,
	        "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"190\" height=\"44\"/>"
	        "<text x=\"%.1f\" y=\"%.1f\" style=\"fill:%s\">each job's own purchase</text>"
	        "<text x=\"%.1f\" y=\"%.1f\" style=\"fill:%s\">buying nothing</text></g>\n",
	        HZ_X0 + 10, HZ_Y1 + 6, HZ_X0 + 18, HZ_Y1 + 24, HZ_BUY, HZ_X0 + 18, HZ_Y1 + 42,
	        HZ_NO_BUY);
	if (h->pays_from > 0) {
		double x = hx(h->months, h->pays_from), y = hy(top, h->with_buy[h->pays_from - 1]);
		fprintf(f,
		        "<g class=\"breakeven\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">cash: paid from month %d</text>"
		        "</g>\n",
		        x, y, x, y + 22, x > (HZ_X0 + HZ_X1) / 2 ? "end" : "start", h->pays_from);
	}
	fputs("</svg>\n", f);
}

void report_horizon(FILE *f, const struct report_input *in)
{
	const struct plan *p = in->plan;
	struct horizon_plan h;
	char *err = NULL;
	if (horizon_plan(in->spec, p, &h, &err) != PLANNER_OK) {
		free(err); /* out of memory: the report goes on without the chart */
		return;
	}
	fputs("<h3 id=\"horizon\">Over the horizon</h3>\n<p>", f);
	/* Cash over the horizon of compare's plan (horizon_plan): named so,
	 * as its month of payback is not the headline's payback. */
	report_escf(f,
	            "Cash over the horizon: paid month by month over %d months (purchases when "
	            "made, then power, upkeep and bills; growth %g%% a month), for each job's own "
	            "purchase as jobs priced one by one make it: %.0f %s with those purchases "
	            "(%.0f up front), %.0f without any. ",
	            h.months, in->spec->growth_percent, h.with_buy[h.months - 1], p->currency,
	            h.capex, h.without_buy[h.months - 1]);
	if (h.capex <= 0)
		report_escf(f, "Those jobs buy nothing.");
	else if (h.pays_from > 0)
		report_escf(f, "In cash, buying has paid from month %d.", h.pays_from);
	else
		report_escf(f, "In cash, buying does not pay within %d months.", h.months);
	fputs("</p>\n", f);
	if (h.capex > 0)
		hz_chart(f, &h, p->currency);
	horizon_plan_free(&h);
}
