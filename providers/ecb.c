/* ecb.c — the European Central Bank's euro foreign exchange reference
 * rates (GET /stats/eurofxref/eurofxref-daily.xml on www.ecb.europa.eu):
 * the rates of one day, each currency's units per EUR, published around
 * 16:00 CET on TARGET working days. Keyless, one small XML document, no
 * paging:
 *
 *   <gesmes:Envelope xmlns:gesmes=... xmlns=".../eurofxref">
 *     <Cube><Cube time='2025-05-09'>
 *       <Cube currency='USD' rate='1.1252'/> ... (30 currencies)
 *     </Cube></Cube>
 *   </gesmes:Envelope>
 *
 * Endpoint and shape: the recorded response in tests/fixtures/real/ecb/
 * (github.com/xpt-nl/ecb eurofxref-daily.xml, commit d582ef56, data of
 * 2025-05-09), and the same URL in the fetchers of many public projects
 * (e.g. a Python FMV module's _ECB_URL, found 2026-11-30 with the search
 * tools). The format is simple enough to read without an XML library:
 * only Cube elements carry data, each with its attributes in one tag. A
 * body without the closing </gesmes:Envelope> is a cut transfer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"
#include "provider.h"

/* The attribute `name` of the tag that begins at tag and ends at end, in
 * single or double quotes, into buf; false when the tag has none. */
static bool attr(const char *tag, const char *end, const char *name, char *buf, size_t len)
{
	size_t nl = strlen(name);
	for (const char *p = tag; p + nl + 2 < end; p++) {
		if (strncmp(p, name, nl) || (p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n') ||
		    p[nl] != '=' || (p[nl + 1] != '\'' && p[nl + 1] != '"'))
			continue;
		const char *v = p + nl + 2, *q = memchr(v, p[nl + 1], (size_t)(end - v));
		if (!q || (size_t)(q - v) >= len)
			return false;
		memcpy(buf, v, (size_t)(q - v));
		buf[q - v] = '\0';
		return true;
	}
	return false;
}

/* Whether s is a date YYYY-MM-DD. */
static bool is_date(const char *s)
{
	int y, m, d, n = 0;
	return strlen(s) == 10 && sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && n == 10 &&
	       m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/* Reads every <Cube ...> tag of the text into t. */
static int read_cubes(const char *body, struct fx_table *t, char **err)
{
	char code[8], rate[32], time[16];
	for (const char *p = strstr(body, "<Cube"); p; p = strstr(p + 1, "<Cube")) {
		const char *end = strchr(p, '>');
		double v;
		if (!end)
			return set_err(err, PLANNER_ENET, "ECB rates: a Cube element is cut off");
		if (attr(p, end, "time", time, sizeof time)) {
			if (t->as_of[0] || !is_date(time))
				return set_err(err, PLANNER_ENET,
				               "ECB rates: want one day's rates with a date");
			snprintf(t->as_of, sizeof t->as_of, "%s", time);
		}
		if (!attr(p, end, "currency", code, sizeof code))
			continue;
		if (!attr(p, end, "rate", rate, sizeof rate) || !norm_number(rate, &v) ||
		    !fx_set(t, code, v))
			return set_err(err, PLANNER_ENET, "ECB rates: bad rate for %.8s", code);
	}
	return PLANNER_OK;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	char *text = malloc(len + 1);
	struct fx_table *t = calloc(1, sizeof *t);
	int rc = PLANNER_OK;
	if (next)
		*next = NULL;
	if (!text || !t) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	memcpy(text, body, len);
	text[len] = '\0';
	if (strlen(text) != len || !strstr(text, "<gesmes:Envelope")) {
		rc = set_err(err, PLANNER_ENET, "response is not the ECB's rates document%s",
		             strstr(text, "<html") || strstr(text, "<!DOCTYPE") ? " (an HTML page)"
		                                                                : "");
		goto out;
	}
	if (!strstr(text, "</gesmes:Envelope>")) {
		rc = set_err(err, PLANNER_ENET, "ECB rates: the document is cut off");
		goto out;
	}
	if ((rc = read_cubes(text, t, err)))
		goto out;
	double usd;
	if (!t->as_of[0] || !fx_per_eur(t, "USD", &usd)) {
		rc = set_err(err, PLANNER_ENET, "ECB rates: no dated USD rate in the document");
		goto out;
	}
	snprintf(t->source, sizeof t->source, "ECB euro reference rates of %s (%.100s)", t->as_of,
	         out->source[0] ? out->source : "eurofxref-daily.xml");
	free(out->fx);
	out->fx = t;
	t = NULL;
out:
	free(text);
	free(t);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, "/stats/eurofxref/eurofxref-daily.xml");
	const char *headers[] = {"Accept: application/xml, text/xml", NULL};
	struct http_response resp;
	int rc;
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	struct http_request req = {.url = url, .headers = headers};
	rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK)
		rc = parse(fx->out, resp.body.data ? resp.body.data : "", resp.body.len, NULL, err);
	http_response_free(&resp);
	free(url);
	return rc;
}

const struct provider provider_ecb = {
    .name = "ecb",
    .kind = PROVIDER_FX,
    .base_url = "https://www.ecb.europa.eu",
    .key_env = NULL,
    .summary = "exchange rates: the ECB's daily euro reference rates (keyless)",
    .currency = "EUR", /* the base: every rate is units per EUR */
    .fetch = fetch,
    .parse = parse,
};
