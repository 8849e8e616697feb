/* cmd_offers.c — `planner offers`: the rentable catalogue, cheapest first,
 * or with --api the per-token API prices. */
#include <cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_offers.h"
#include "fx.h"
#include "provider.h"
#include "regions.h"

/* Prints the offers; returns the exit status. */
/* The offer column's width: names longer than this go on under it. */
#define OFFER_COLS 28

/* The byte length of the next piece of *s that fits in `cols` columns,
 * broken at a space (a word wider than cols is one piece, whole, unless
 * cut: then its first cols characters); moves *s past the piece and the
 * spaces after it. */
static int name_piece(const char **s, int cols, bool cut)
{
	const char *p = *s;
	int len = 0, fit = 0, c = 0;
	for (; p[len]; len++) {
		if (((unsigned char)p[len] & 0xc0) == 0x80)
			continue;
		if (p[len] == ' ')
			fit = len; /* the piece may end before this space */
		if (++c > cols)
			break;
	}
	if (!p[len])
		fit = len;    /* the rest fits */
	else if (!fit && cut) /* one long word, on a narrow terminal */
		fit = len;
	else if (!fit) /* one long word: whole, never cut */
		fit = (int)strcspn(p, " ");
	*s = p + fit;
	*s += strspn(*s, " ");
	return fit;
}

/* Columns of the full offers table: a narrower terminal gets it without
 * the price per GPU-hour, the published currency and the region name
 * (all in --format json and csv), with the offer's name shorter. */
#define OFFERS_FULL_COLUMNS 112
#define OFFER_COLS_NARROW   19

/* The widths and columns of one offers table. */
struct offers_layout {
	int offer_cols;                /* OFFER_COLS, or OFFER_COLS_NARROW */
	bool narrow;                   /* without /gpu-h, cur and region */
	char per_h[16], per_gpu_h[16]; /* the price headings, with the unit: "EUR/h" */
};

static void offers_layout(const struct cli *c, const char *currency, struct offers_layout *l)
{
	l->narrow = c->term_width > 0 && c->term_width < OFFERS_FULL_COLUMNS;
	l->offer_cols = l->narrow ? OFFER_COLS_NARROW : OFFER_COLS;
	snprintf(l->per_h, sizeof l->per_h, "%s/h", currency);
	snprintf(l->per_gpu_h, sizeof l->per_gpu_h, "%s/gpu-h", currency);
}

/* One row's columns after the offer's name; the heading when o is NULL. */
static void offer_cells(const struct offers_layout *l, const struct offer *o, const char *where,
                        const char *region)
{
	if (!o)
		printf(" %-12s %4s %7s %10s", "gpu", "gpus", l->narrow ? "GiB" : "GiB/gpu",
		       l->per_h);
	else
		printf(" %-12.12s %4d %7.1f %9.3f%c", o->gpu, o->gpu_count, o->vram_gib,
		       o->price_per_hour, o->estimated ? '~' : ' ');
	if (!l->narrow && !o)
		printf(" %9s %-3s", l->per_gpu_h, "cur");
	else if (!l->narrow)
		printf(" %9.3f %-3s", o->price_per_hour / o->gpu_count, o->currency_published);
	const char *spot = o ? (o->spot ? "yes" : "") : "spot";
	/* Narrow: the country alone ("where" holds the group first). */
	const char *cc = strrchr(where, ' ');
	if (l->narrow)
		printf(" %-4s %s\n", spot, o && cc ? cc + 1 : where);
	else
		printf(" %-4s %-9s %s\n", spot, where, region);
}

/* The offers table's rows; says whether one is marked estimated. */
static bool offers_rows(const struct offers_layout *l, const struct offer *o, size_t limit)
{
	/* Prices converted (fx_convert_offers); cur: as each provider publishes. */
	printf("%-10s %-*s", "provider", l->offer_cols, "offer");
	offer_cells(l, NULL, "where", "region");
	bool marked = false;
	for (size_t i = 0; i < limit; i++) {
		char offer[sizeof o->offer], region[sizeof o->region + sizeof o->tier + 3];
		char where[sizeof o->region_group + sizeof o->country + 1];
		/* RunPod's tier stands where a region would. */
		snprintf(region, sizeof region, "%s%s%s", o[i].region,
		         o[i].region[0] && o[i].tier[0] ? " " : "", o[i].tier);
		snprintf(where, sizeof where, "%s%s%s", o[i].region_group,
		         o[i].region_group[0] && o[i].country[0] ? " " : "", o[i].country);
		marked |= o[i].estimated;
		cli_safe(offer, sizeof offer, o[i].offer);
		const char *rest = offer;
		int len = name_piece(&rest, l->offer_cols, l->narrow);
		printf("%-10.10s %-*.*s%*s", o[i].provider, len, len, offer,
		       l->offer_cols - len > 0 ? l->offer_cols - len : 0, "");
		offer_cells(l, &o[i], where[0] ? where : "?",
		            cli_safe(region, sizeof region, region));
		/* The rest of a long name under its start, never cut mid-word. */
		while (*rest) {
			const char *at = rest;
			len = name_piece(&rest, l->offer_cols, l->narrow);
			printf("%-10s %.*s\n", "", len, at);
		}
	}
	return marked;
}

/* What the offers were converted with, for the footer (or stderr). */
struct offers_fx {
	const char *currency; /* the display currency */
	char note[256];       /* "1 EUR = 1.125 USD, ECB 2025-05-09"; "" when none used */
	size_t dropped;       /* rows with no rate for their currency */
};

/* The exchange-rate lines: under the table, else on stderr unless quiet. */
static void print_fx(const struct cli *c, const struct offers_fx *fx)
{
	FILE *f = c->format == FORMAT_TABLE ? stdout : stderr;
	const char *lead = f == stderr ? "planner: note: " : "";
	if (c->format != FORMAT_TABLE && c->quiet)
		return;
	if (fx->note[0])
		fprintf(f, "%sexchange rates: %s\n", lead, fx->note);
	if (fx->dropped)
		fprintf(f, "%s%zu offer%s left out: no exchange rate for %s currency\n", lead,
		        fx->dropped, fx->dropped == 1 ? "" : "s", fx->dropped == 1 ? "its" : "their");
}

/* The converted price of one offer, for json. */
static void add_converted(cJSON *x, const struct offer *o)
{
	cJSON *c = cJSON_AddObjectToObject(x, "converted");
	cJSON_AddStringToObject(c, "currency", o->currency);
	cJSON_AddNumberToObject(c, "price_per_hour", round_to(o->price_per_hour, 6));
	cJSON_AddNumberToObject(c, "price_per_gpu_hour",
	                        round_to(o->price_per_hour / o->gpu_count, 6));
}

/* The price as published; the converted one comes after the currency. */
static void published_price_per_hour(cJSON *x, const struct offer *o)
{
	cJSON_AddNumberToObject(x, "price_per_hour", o->price_published);
}

/* The currency as published, then the price per GPU-hour in it and the
 * converted prices. */
static void published_currency(cJSON *x, const struct offer *o)
{
	cJSON_AddStringToObject(x, "currency", o->currency_published);
	cJSON_AddNumberToObject(x, "price_per_gpu_hour",
	                        round_to(o->price_published / o->gpu_count, 4));
	add_converted(x, o);
}

static void round2(cJSON *x, const char *key, double v)
{
	cJSON_AddNumberToObject(x, key, round_to(v, 2));
}

/* One column of OFFER_COLUMNS (store.h) as its row's json says, when the
 * key to print is its json_at. */
#define OFFER_JSON(name, type, size, role, empty, json, json_at)                                   \
	case json_at:                                                                              \
		OFFER_JSON_##json(name, type);                                                     \
		break;

#define OFFER_JSON_as_is(name, type)     OFFER_JSON_##type(#name, o->name)
#define OFFER_JSON_round2(name, type)    round2(x, #name, o->name)
#define OFFER_JSON_published(name, type) published_##name(x, o)
#define OFFER_JSON_TEXT(key, v)          cJSON_AddStringToObject(x, key, v)
#define OFFER_JSON_INT(key, v)           cJSON_AddNumberToObject(x, key, v)
#define OFFER_JSON_REAL(key, v)          cJSON_AddNumberToObject(x, key, v)
#define OFFER_JSON_BOOL(key, v)          cJSON_AddBoolToObject(x, key, v)

/* The number of offer columns. */
#define OFFER_COUNT(name, type, size, role, empty, json, json_at) +1
enum { OFFER_JSON_KEYS = 0 OFFER_COLUMNS(OFFER_COUNT) };

/* Offer i of the JSON array (cli_print_json_items makes them in turn):
 * every column, in its json_at order (a place used twice does not
 * compile). */
int offers_offer_json(void *ud, size_t i, cJSON **out, char **err)
{
	const struct offer *o = (const struct offer *)ud + i;
	cJSON *x = cJSON_CreateObject();
	(void)err;
	*out = x;
	for (int k = 0; k < OFFER_JSON_KEYS; k++)
		switch (k) {
			OFFER_COLUMNS(OFFER_JSON)
		}
	return PLANNER_OK;
}

static int print_offers(const struct cli *c, const struct offer *o, size_t n, size_t limit,
                        const struct offers_fx *fx)
{
	if (c->format != FORMAT_TABLE)
		print_fx(c, fx);
	if (limit == 0 || limit > n)
		limit = n;
	if (c->format == FORMAT_JSON) {
		cJSON *arr = cJSON_CreateArray();
		return cli_print_json_items(arr, arr, limit, offers_offer_json, (void *)o);
	}
	if (c->format == FORMAT_CSV) {
		fputs("provider,offer,gpu,gpu_count,vram_gib,price_per_hour,spot,region,"
		      "fetched_at,country,region_group,tier,estimated,currency,"
		      "converted_price_per_hour,converted_currency\r\n",
		      stdout);
		for (size_t i = 0; i < limit; i++) {
			csv_field(stdout, o[i].provider);
			putchar(',');
			csv_field(stdout, o[i].offer);
			putchar(',');
			csv_field(stdout, o[i].gpu);
			printf(",%d,%.2f,%.4f,%s,", o[i].gpu_count, o[i].vram_gib,
			       o[i].price_published, o[i].spot ? "true" : "false");
			csv_field(stdout, o[i].region);
			printf(",%s,%s,%s,", o[i].fetched_at, o[i].country, o[i].region_group);
			csv_field(stdout, o[i].tier);
			printf(",%s,%s,%.4f,%s\r\n", o[i].estimated ? "true" : "false",
			       o[i].currency_published, o[i].price_per_hour, o[i].currency);
		}
		return PLANNER_OK;
	}
	struct offers_layout l;
	offers_layout(c, fx->currency, &l);
	bool marked = offers_rows(&l, o, limit);
	if (!l.narrow)
		printf("(cur: the currency the provider publishes in)\n");
	print_fx(c, fx);
	if (marked)
		printf("~ estimated: not read from the provider itself (its source: --format "
		       "json)\n");
	if (limit < n)
		printf("(%zu more; --limit 0 shows all)\n", n - limit);
	return PLANNER_OK;
}

/* The --help text: --provider's list is the rented adapters of
 * provider_list, so a new adapter's row is all it takes to be named here;
 * describe() writes it before anything can print it. */
static char offers_help[4096];

/* --help is filled to fit an 80-column terminal, as the rest of it is. */
#define HELP_WIDTH 79
/* "  --provider X     ": where an option's text starts. */
#define HELP_INDENT 19

#define HELP_HEAD                                                                                  \
	"Lists the offers in the price database, cheapest instance-hour first, each\n"             \
	"published price (the cur column) converted into one currency with the\n"                 \
	"exchange rates of the last refresh (the ECB's; else the snapshot's), shown\n"           \
	"under the table; json and csv keep the published price and add the converted.\n\n"     \
	"  --gpu G          one GPU model, any spelling (h100, \"RTX 4090\")\n"                    \
	"  --min-vram N     at least N GiB per GPU\n"                                              \
	"  --max-price P    at most P per instance-hour, in --currency\n"                          \
	"  --currency C     the currency prices are shown, sorted and compared in\n"               \
	"                   (ISO 4217; default: --spec's currency, else USD)\n"                    \
	"  --spec FILE      a job spec, for its currency\n"                                        \
	"  --provider X     "
#define HELP_TAIL                                                                                  \
	"  --spot           spot / interruptible prices only\n"                                    \
	"  --region R       where it runs: a group (eu, us, asia, …), a country code (DE)\n"     \
	"                   or a provider's region name (eu-central-1); with --api, where\n"       \
	"                   the host processes data\n"                                             \
	"  --term T         1y or 3y: reserved and committed prices (effective per hour\n"      \
	"                   over the term, and the upfront) instead of on-demand ones\n"        \
	"  --api            per-token API prices instead (--model vendor/model, or an\n"          \
	"                   open model's id: llama-3.1-70b finds every hosted copy;\n"            \
	"                   --provider openrouter or litellm picks one feed)\n"                   \
	"  --limit N        at most N rows (a terminal shows 40 unless asked)\n"                   \
	"  --format F       table (default), json or csv\n\n"                                      \
	"example:\n  planner offers --gpu h100 --max-price 3 --format json\n"

static void describe(void)
{
	char rented[512], text[600];
	provider_names(PROVIDER_PICK_RENTED, rented, sizeof rented);
	snprintf(text, sizeof text, "one provider (%s)", rented);
	snprintf(offers_help, sizeof offers_help, "%s", HELP_HEAD);
	cli_fill(offers_help, sizeof offers_help, HELP_INDENT, HELP_INDENT, HELP_WIDTH, text);
	size_t n = strlen(offers_help);
	snprintf(offers_help + n, sizeof offers_help - n, "%s", HELP_TAIL);
}

/* What the command line asks for. */
struct offers_args {
	struct offer_filter f;
	bool api;          /* --api: per-token prices instead of offers */
	const char *term;  /* --term 1y|3y: commitments instead of on-demand offers */
	const char *model; /* --model, with --api */
	double limit;      /* --limit; 0 for all (any count, 1e20 too) */
	const char *currency; /* --currency; "USD" unless given */
	const char *spec;     /* --spec FILE: its currency unless --currency is given */
	char spec_currency[8];
};

/* --provider names no adapter and matched no row (the store takes rows of
 * any provider name, so only then is it a typo): a usage error with the
 * nearest name and the list; 0 to go on. */
static int check_provider(struct cli *c, const struct offers_args *a, size_t n_rows)
{
	char names[512], hint[768];
	if (n_rows > 0 || !a->f.provider || provider_find(a->f.provider))
		return PLANNER_OK;
	provider_names(a->api ? PROVIDER_PICK_ALL : PROVIDER_PICK_RENTED, names, sizeof names);
	return cli_usage(c, "unknown provider '%s'; %s", a->f.provider,
	                 near_miss_text(a->f.provider, names, hint, sizeof hint));
}

/* --region names something the catalogue can hold, else a usage error
 * with the list; 0 to go on. */
static int check_names(struct cli *c, const struct offers_args *a)
{
	char hint[768];
	if (a->f.region && !regions_known(a->f.region))
		return cli_usage(c,
		                 "unknown region '%s'; %s, a country code (DE) or a provider's "
		                 "region name (eu-central-1)",
		                 a->f.region,
		                 near_miss_text(a->f.region, REGIONS_GROUPS, hint, sizeof hint));
	return 0;
}

/* --gpu G: a GPU the table knows, else the nearest and where the list
 * is; 0 to go on. */
static int gpu_option(struct cli *c, const char *name, struct offers_args *a)
{
	const struct gpu_spec *g = refdata_gpu(c->ref, name);
	if (!g) {
		const char *near = refdata_gpu_suggest(c->ref, name);
		return cli_usage(c, "unknown GPU '%s'; %s%s%s'planner gpus' lists them", name,
		                 near ? "did you mean '" : "", near ? near : "", near ? "'? " : "");
	}
	a->f.gpu = g->name;
	return 0;
}

/* --spec FILE without --currency: prices in the spec's currency. Returns
 * 0 to go on, else the exit status after a message. */
static int spec_currency(struct cli *c, struct offers_args *a)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	if (!a->spec || a->currency)
		return 0;
	int rc = jobspec_load(a->spec, c->ref, &spec, &err);
	if (rc != PLANNER_OK) {
		errorf("%s", err ? err : "cannot read job spec");
		free(err);
		return rc;
	}
	snprintf(a->spec_currency, sizeof a->spec_currency, "%s", spec->currency);
	a->currency = a->spec_currency;
	jobspec_free(spec);
	return 0;
}

/* Reads the options into a; returns 0 to go on, else the exit status.
 * layout: long function — one case per option of getopt_long's table. */
static int parse_args(struct cli *c, int argc, char **argv, struct offers_args *a)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
	                                     {"gpu", required_argument, NULL, 'g'},
	                                     {"min-vram", required_argument, NULL, 'm'},
	                                     {"max-price", required_argument, NULL, 'x'},
	                                     {"provider", required_argument, NULL, 'p'},
	                                     {"spot", no_argument, NULL, 's'},
	                                     {"region", required_argument, NULL, 'r'},
	                                     {"api", no_argument, NULL, 'a'},
	                                     {"term", required_argument, NULL, 'T'},
	                                     {"model", required_argument, NULL, 'M'},
	                                     {"limit", required_argument, NULL, 'l'},
	                                     {"currency", required_argument, NULL, 'C'},
	                                     {"spec", required_argument, NULL, 'P'},
	                                     {0, 0, 0, 0}};
	double v;
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if ((rc = gpu_option(c, optarg, a)))
				return rc;
			break;
		case 'm':
			if (!parse_count(optarg, &v))
				return cli_usage(c, "--min-vram wants GiB per GPU, e.g. 48");
			a->f.min_vram_gib = v;
			break;
		case 'x':
			if (!parse_count(optarg, &v) || v <= 0)
				return cli_usage(c, "--max-price wants a price per hour in "
				                    "--currency, e.g. 2.50");
			a->f.max_price = v;
			break;
		case 'p':
			a->f.provider = optarg;
			break;
		case 's':
			a->f.spot = 1;
			break;
		case 'r':
			if (!*optarg)
				return cli_usage(c, "--region wants eu, us, a country code or a "
				                    "provider's region name");
			a->f.region = optarg;
			break;
		case 'a':
			a->api = true;
			break;
		case 'T':
			if (strcmp(optarg, "1y") && strcmp(optarg, "3y"))
				return cli_usage(c, "--term wants 1y or 3y");
			a->term = optarg;
			break;
		case 'M':
			a->model = optarg;
			break;
		case 'C':
			if (!fx_code_ok(optarg))
				return cli_usage(c, "--currency wants an ISO 4217 code, e.g. EUR");
			a->currency = optarg;
			break;
		case 'P':
			a->spec = optarg;
			break;
		case 'l':
			if (!parse_count(optarg, &a->limit))
				return cli_usage(c, "--limit wants a number of rows (0 for all)");
			break;
		default:
			if ((rc = cli_other_option(c, opt, optarg)))
				return rc;
		}
	}
	if (optind != argc)
		return cli_usage(c, "unexpected argument '%s'", argv[optind]);
	if (a->term && a->api)
		return cli_usage(c, "--term lists rented commitments; it does not go with --api");
	if ((rc = spec_currency(c, a)))
		return rc;
	return check_names(c, a);
}

/* Keeps the offers at most max (in their converted price; all when 0). */
static size_t keep_price(struct offer *o, size_t n, double max)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (max <= 0 || o[i].price_per_hour <= max)
			o[kept++] = o[i];
	return kept;
}

/* Units of currency per USD into *rate, else false after a message. */
static bool currency_rate(const struct cli *c, const char *currency, double *rate)
{
	if (fx_rate(c->ref->fx, "USD", currency, rate))
		return true;
	errorf("%s has no ECB reference rate (%s)", currency,
	       c->ref->fx && c->ref->fx->as_of[0] ? c->ref->fx->as_of : "no rates");
	return false;
}

/* The offers the filter keeps, converted into a->currency; the exit status. */
static int list_offers(struct cli *c, struct store *st, const struct offers_args *a)
{
	struct offers_fx fx = {.currency = a->currency};
	struct offer_filter f = a->f;
	struct offer *rows = NULL;
	size_t n = 0;
	char *err = NULL;
	double r;
	int rc;
	if (!currency_rate(c, a->currency, &r))
		return PLANNER_EINPUT;
	f.max_price = 0; /* compared after conversion, in a->currency */
	if ((rc = store_offers(st, &f, &rows, &n, &err)) == PLANNER_OK) {
		fx_convert_offers(c->ref->fx, a->currency, rows, &n, fx.note, sizeof fx.note,
		                  &fx.dropped);
		n = keep_price(rows, n, a->f.max_price);
		rc = check_provider(c, a, n);
		if (!rc && !n)
			fprintf(
			    stderr,
			    "0 offers match%s%s%s%s; `planner refresh` brings the live catalogue, "
			    "and fewer filters widen it\n",
			    a->f.region ? " in " : "", a->f.region ? a->f.region : "",
			    a->f.gpu ? " for " : "", a->f.gpu ? a->f.gpu : "");
		if (!rc)
			rc = print_offers(c, rows, n, (size_t)clamp_llong(a->limit, 0, LLONG_MAX),
			                  &fx);
	} else
		errorf("%s", err ? err : "cannot read the catalogue");
	free(rows);
	free(err);
	return rc;
}

/* The API prices --model, --provider and --region keep, each converted
 * from its currency into a->currency; the exit status. */
static int list_api(struct cli *c, struct store *st, const struct offers_args *a)
{
	struct api_price *rows = NULL;
	size_t n = 0, kept = 0, in_store;
	double *rate = NULL;
	char *err = NULL;
	int rc;
	double r;
	if (!currency_rate(c, a->currency, &r))
		return PLANNER_EINPUT;
	if ((rc = store_api_prices(st, a->model, &rows, &n, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "cannot read the catalogue");
		free(err);
		return rc;
	}
	in_store = n;
	n = offers_api_keep(rows, n, a->f.provider, a->f.region);
	if (!(rate = calloc(n + 1, sizeof *rate))) {
		free(rows);
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	if (!offers_api_convert(c->ref->fx, rows, n, a->currency, rate, &kept)) {
		free(rate);
		free(rows);
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	rc = check_provider(c, a, kept);
	if (!rc && !kept)
		offers_api_empty(a->model, a->f.provider, a->f.region, in_store);
	if (!rc)
		rc = offers_api_print(c, rows, kept, (size_t)clamp_llong(a->limit, 0, LLONG_MAX),
		                      a->currency, rate);
	free(rate);
	free(rows);
	return rc;
}

static int exec_offers(struct cli *c, int argc, char **argv)
{
	struct offers_args a = {.f = {.spot = -1}};
	int rc;
	describe();
	if ((rc = parse_args(c, argc, argv, &a)))
		return rc;
	if (!a.currency)
		a.currency = "USD";
	if (c->format == FORMAT_TABLE && a.limit == 0 && c->term_width > 0)
		a.limit = 40; /* a terminal gets the cheapest screenful */
	struct store *st = cli_store(c, &rc);
	if (!st)
		return rc;
	char *err = NULL;
	if (a.api) {
		rc = list_api(c, st, &a);
	} else if (a.term) {
		double r;
		rc = currency_rate(c, a.currency, &r)
		         ? offers_term_list(c, st, a.term, &a.f, a.currency,
		                            (size_t)clamp_llong(a.limit, 0, LLONG_MAX))
		         : PLANNER_EINPUT;
	} else {
		rc = list_offers(c, st, &a);
	}
	free(err);
	return rc;
}

const struct cmd_entry cmd_offers_entry = {
    .name = "offers",
    .args = "[--gpu G] [--min-vram N] [--max-price P] [--currency C] [--provider X] [--spot] "
            "[--region R] [--api [--model M]] [--term 1y|3y] [--spec FILE] [--limit N] [--format F]",
    .summary = "the rentable GPU catalogue (or --api: per-token prices), cheapest first",
    .help = offers_help,
    .exec = exec_offers,
};
