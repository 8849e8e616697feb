/* cli.c — what every command shares: common options, usage errors, the
 * lazily opened store, line wrapping and help text filled to width. */
/* realpath is XSI. */
#define _XOPEN_SOURCE 700

#include "cli.h"
#include "export.h"
#include "fx.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_common_option(struct cli *c, int opt, const char *arg)
{
	switch (opt) {
	case 'D':
		free(c->db_path);
		if (!(c->db_path = strdup(arg))) {
			errorf("out of memory");
			return PLANNER_ESYS;
		}
		return 0;
	case 'F': {
		const struct export_format *ef = export_format_find(arg, EXPORT_DATA);
		char names[128];
		if (!ef)
			return cli_usage(c, "unknown format '%s'; use %s", arg,
			                 export_format_names(EXPORT_DATA, ", ", " or ", false,
			                                     names, sizeof names));
		c->format = ef->data;
		return 0;
	}
	case 'v':
		c->verbose = true;
		return 0;
	case 'o':
		c->out_path = arg;
		return 0;
	case 'q':
		c->quiet = true;
		return 0;
	case 'S':
		if (c->n_sets >= CLI_MAX_SETS)
			return cli_usage(c, "at most %d --set options", CLI_MAX_SETS);
		if (!strchr(arg, '='))
			return cli_usage(c, "--set %s: write KEY=VALUE, e.g. "
			                 "jobs.support-bot.tokens_per_month.input=400M", arg);
		c->sets[c->n_sets++] = arg;
		return 0;
	case 'A':
		c->each_alone = true;
		return 0;
	case 'h':
		printf("usage: %s %s %s\n\n%s", c->prog, c->cmd->name, c->cmd->args, c->cmd->help);
		return CLI_HELP_SHOWN;
	default:
		return -1;
	}
}

/* The command's long option names ("format"), read from its synopsis and
 * --help (every option is documented there) and the common ones; at most
 * max. Returns how many. */
#define MAX_OPTION_NAMES 64
static size_t option_names(const struct cli *c, char names[][32], size_t max)
{
	static const char *const common[] = {"db", "format", "help", "verbose"};
	const char *texts[] = {c->cmd ? c->cmd->args : NULL, c->cmd ? c->cmd->help : NULL};
	size_t n = 0;
	for (size_t i = 0; i < sizeof common / sizeof common[0] && n < max; i++)
		snprintf(names[n++], sizeof names[0], "%s", common[i]);
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
		for (const char *p = texts[t]; p && (p = strstr(p, "--")) && n < max;) {
			p += 2;
			size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz-");
			if (len < 2 || len >= sizeof names[0]) {
				p += len;
				continue;
			}
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = strlen(names[k]) == len && !strncmp(names[k], p, len);
			if (!seen)
				snprintf(names[n++], sizeof names[0], "%.*s", (int)len, p);
			p += len;
		}
	return n;
}

/* getopt_long returned '?': says once what is wrong with the option at
 * argv[optind - 1], with the nearest option name for a misspelt one. */
static int bad_option(struct cli *c)
{
	const char *a = optind > 0 && optind <= c->argc && c->argv ? c->argv[optind - 1] : NULL;
	if (!a || a[0] != '-')
		return cli_usage(c, "unknown option");
	if (a[1] != '-') {
		/* A short option: one the help documents lacks its value. */
		char shortopt[4] = {'-', (char)optopt, 0, 0};
		const char *h = c->cmd && optopt ? c->cmd->help : NULL;
		for (; h && (h = strstr(h, shortopt)); h++)
			if ((h == c->cmd->help || h[-1] != '-') && !isalpha((unsigned char)h[2]))
				return cli_usage(c, "option '-%c' needs a value", optopt);
		return cli_usage(c, "unknown option '-%c'", optopt ? optopt : a[1]);
	}
	char word[64];
	snprintf(word, sizeof word, "%.*s", (int)strcspn(a + 2, "="), a + 2);
	if (optopt)
		return cli_usage(c, strchr(a, '=') ? "option '--%s' takes no value"
		                                   : "option '--%s' needs a value",
		                 word);
	char names[MAX_OPTION_NAMES][32];
	const char *list[MAX_OPTION_NAMES];
	size_t n = option_names(c, names, MAX_OPTION_NAMES);
	for (size_t i = 0; i < n; i++)
		list[i] = names[i];
	const char *near = nearest_name(word, list, n);
	if (near)
		return cli_usage(c, "unknown option '--%s'; did you mean '--%s'?", word, near);
	return cli_usage(c, "unknown option '--%s'", word);
}

int cli_other_option(struct cli *c, int opt, const char *arg)
{
	int rc = cli_common_option(c, opt, arg);
	if (rc < 0)
		return opt == '?' ? bad_option(c) : cli_usage(c, "unknown option");
	return rc;
}

int cli_common_options_only(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, {0, 0, 0, 0}};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	if (optind != argc)
		return cli_usage(c, "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cli_print_json(cJSON *doc)
{
	char *text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text) {
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	puts(text);
	free(text);
	return PLANNER_OK;
}

int cli_print_json_items(cJSON *doc, cJSON *array, size_t n, json_make_fn make, void *ud)
{
	char *err = NULL;
	int rc = json_print_items(stdout, doc, array, n, make, ud, &err);
	cJSON_Delete(doc);
	if (rc != PLANNER_OK) {
		errorf("%s", err);
		free(err);
		return rc;
	}
	putchar('\n');
	return PLANNER_OK;
}

int cli_usage(struct cli *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	errorf("%s", msg);
	fprintf(stderr, "usage: %s %s %s\n", c->prog, c->cmd->name, c->cmd->args);
	fprintf(stderr, "try '%s %s --help' for more\n", c->prog, c->cmd->name);
	return PLANNER_EUSAGE;
}

/* The store's exchange rates (the ECB's of the last refresh, else the
 * snapshot's it was seeded with) replace the compiled-in snapshot's. */
static int load_rates(struct cli *c, char **err)
{
	struct fx_table *t = calloc(1, sizeof *t);
	int rc;
	if (!t)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if ((rc = store_read_fx(c->store, t, err)) == PLANNER_OK && t->n && c->ref->fx)
		*c->ref->fx = *t;
	free(t);
	return rc;
}

struct store *cli_store(struct cli *c, int *status)
{
	char *err = NULL;
	if (c->store)
		return c->store;
	int rc;
	if (!c->db_path && (rc = store_default_path(&c->db_path, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "out of memory");
		free(err);
		*status = rc;
		return NULL;
	}
	rc = store_open(c->db_path, c->ref, &c->store, &err);
	if (rc == PLANNER_OK)
		rc = load_rates(c, &err);
	if (rc != PLANNER_OK) {
		errorf("%s", err ? err : "cannot open database");
		free(err);
		*status = rc;
		return NULL;
	}
	return c->store;
}

void cli_wrap(const struct cli *c, int indent, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (!text_wraps(c->term_width, indent)) { /* not a terminal: the line as it is */
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		return;
	}
	char *line = xvasprintf(fmt, ap);
	va_end(ap);
	if (!line)
		return;
	cli_wrap_to(stdout, c->term_width, indent, line);
	free(line);
}

/* Appends name to the ", "-separated list in buf. */
static void list_add(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

/* One line for every provider whose last refresh failed, saying which
 * prices are still the bundled snapshot and which are from the provider's
 * last good refresh. */
static void warn_stale(const struct plan *p)
{
	char all[512] = "", snap[512] = "", kept[512] = "";
	if (!p->n_stale)
		return;
	for (size_t i = 0; i < p->n_stale; i++) {
		list_add(all, sizeof all, p->stale[i]);
		bool live = !strcmp(plan_provider_source(p, p->stale[i]), "live");
		list_add(live ? kept : snap, live ? sizeof kept : sizeof snap, p->stale[i]);
	}
	warnf("the last refresh of %s failed; %s%s%s%s%s (see 'planner providers')", all,
	      snap[0] ? "prices still the bundled snapshot: " : "", snap,
	      snap[0] && kept[0] ? "; " : "", kept[0] ? "prices from the last good refresh: " : "",
	      kept);
}

/* The oldest and newest date ("YYYY-MM-DD") in the snapshot's list
 * "aws 2026-06-30, openrouter 2025-10-03" into lo and hi (11 bytes
 * each); both "" when it holds none. */
static void date_range(const char *list, char *lo, char *hi)
{
	lo[0] = hi[0] = '\0';
	for (const char *d = list; (d = strchr(d, ' ')); d++) {
		if (strspn(d + 1, "0123456789-") < 10)
			continue;
		if (!lo[0] || strncmp(d + 1, lo, 10) < 0)
			snprintf(lo, 11, "%.10s", d + 1);
		if (!hi[0] || strncmp(d + 1, hi, 10) > 0)
			snprintf(hi, 11, "%.10s", d + 1);
	}
}

/* The provenance note in one line that a terminal shows whole: the
 * range of the snapshot's dates, not each provider's (--verbose). */
static void note_prices_short(const struct plan *p)
{
	char lo[11], hi[11], names[256];
	date_range(p->snapshot_dates, lo, hi);
	if (p->snapshot_only && lo[0])
		notef("prices: bundled snapshot, %s%s%s (--verbose); run 'planner refresh'", lo,
		      strcmp(lo, hi) ? " to " : "", strcmp(lo, hi) ? hi : "");
	else if (p->snapshot_only)
		notef("prices: bundled snapshot of %s; run 'planner refresh'", p->prices_as_of);
	else {
		size_t n = *plan_snapshot_names(p, names, sizeof names) ? 1 : 0;
		for (const char *q = names; (q = strstr(q, ", ")); q++)
			n++;
		notef("prices as of %s; %zu provider%s still on the bundled snapshot (--verbose)",
		      p->prices_as_of, n, n == 1 ? "" : "s");
	}
}

/* The bundled-snapshot rows a route is priced with that are over 90 days
 * older than the snapshot itself (plan.h, old_rows): each provider and
 * date with --verbose or off a terminal, else how many in one short line. */
static void note_old_rows(const struct cli *c, const struct plan *p)
{
	if (!p->old_rows[0])
		return;
	if (c->err_tty && !c->verbose) {
		size_t n = 1;
		for (const char *q = p->old_rows; (q = strstr(q, ", ")); q++)
			n++;
		notef("priced with snapshot rows of %zu date%s over 90 days older than the "
		      "snapshot (--verbose)",
		      n, n == 1 ? "" : "s");
	} else
		notef("priced with bundled-snapshot rows more than 90 days older than the "
		      "snapshot (as of %s): %s; run 'planner refresh'",
		      p->old_rows_as_of, p->old_rows);
}

/* Says where the prices come from, on stderr so data output stays clean:
 * every provider's date with --verbose or off a terminal, else in one
 * short line. */
static void note_prices(const struct cli *c, const struct plan *p)
{
	if (c->quiet)
		return;
	if (c->err_tty && !c->verbose && (p->snapshot_only || !strcmp(p->prices_source, "mixed")))
		note_prices_short(p);
	else if (p->snapshot_only)
		notef("prices are the bundled snapshot of %s; run 'planner refresh' for "
		      "live prices",
		      p->snapshot_dates[0] ? p->snapshot_dates : p->prices_as_of);
	else if (!strcmp(p->prices_source, "mixed")) {
		char names[256];
		notef("prices as of %s; still on the bundled snapshot: %s", p->prices_as_of,
		      plan_snapshot_names(p, names, sizeof names));
	} else
		notef("prices as of %s", p->prices_as_of);
	warn_stale(p);
	note_old_rows(c, p);
}

/* Whether a route of the plan buys GPUs that need a computer around them
 * (a Mac or a CPU box is its own host), and whether one uses power. */
static void plan_uses(const struct plan *p, bool *bare_gpu, bool *power)
{
	*bare_gpu = *power = false;
	for (size_t i = 0; i < p->n_jobs; i++)
		for (size_t k = 0; k < route_count(); k++) {
			const struct route_result *r = &p->jobs[i].routes[k];
			if (!r->feasible || !(route_at(k)->flags & ROUTE_HAS_CAPEX))
				continue;
			*power |= r->power_cost > 0;
			*bare_gpu |= !r->already_owned && r->gpu && r->gpu->kind == DEVICE_GPU;
		}
}

/* What country: chose that the spec did not give: currency, fx: auto and
 * time zone, in one note. */
static void note_country(const struct jobspec *spec)
{
	char what[160] = "";
	size_t at = 0;
	if (spec->currency_from_country)
		at += (size_t)snprintf(what + at, sizeof what - at, ", currency %s", spec->currency);
	if (spec->fx_from_country && at < sizeof what)
		at += (size_t)snprintf(what + at, sizeof what - at, " at fx: auto");
	if (spec->timezone_from_country && at < sizeof what)
		snprintf(what + at, sizeof what - at, ", timezone %s", spec->timezone);
	if (what[0])
		notef("country %s%s (spec keys win)", spec->country->code, what);
}

/* The defaults the plan rests on that the spec did not give, once each:
 * country:'s currency and zone, the electricity price, and a purchase
 * with no host to put it in. */
static void note_assumptions(const struct cli *c, const struct jobspec *spec, const struct plan *p)
{
	bool bare_gpu, power;
	if (c->quiet)
		return;
	plan_uses(p, &bare_gpu, &power);
	note_country(spec);
	const struct country_price *cp = jobspec_country_price(spec);
	if (power && spec->electricity_default && cp)
		/* The country's code, not its name: the note stays within 100
		 * columns (issue 30); electricity_per_kwh overrides it. */
		notef("electricity %.3f %s/kWh: %s, %s %s", spec->electricity_per_kwh,
		      spec->currency, cp->label, spec->country->code, cp->period);
	else if (power && spec->electricity_default)
		notef("electricity %.3f %s/kWh: the US 2023 residential default; set "
		      "electricity_per_kwh",
		      spec->electricity_per_kwh, spec->currency);
	if (bare_gpu && spec->costs.host_price <= 0)
		notef("a GPU bought assumes a computer already paid for; costs: {host: {price: N}} "
		      "adds one");
}

int cli_plan(struct cli *c, const char *path, struct jobspec **spec, struct plan **plan)
{
	char *err = NULL;
	int rc;
	*spec = NULL;
	*plan = NULL;
	if ((rc = jobspec_load_set(path, c->ref, c->sets, c->n_sets, spec, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "cannot read job spec");
		goto fail;
	}
	struct store *st = cli_store(c, &rc);
	if (!st)
		goto fail;
	/* fx: auto resolved the spec with the snapshot's rates; the store's may
	 * be newer (a refresh), so the spec is read again with them. */
	if ((*spec)->fx_auto) {
		jobspec_free(*spec);
		*spec = NULL;
		if ((rc = jobspec_load_set(path, c->ref, c->sets, c->n_sets, spec, &err)) != PLANNER_OK) {
			errorf("%s", err ? err : "cannot read job spec");
			goto fail;
		}
	}
	if (c->measured.file &&
	    (rc = jobspec_add_measured(*spec, c->ref, &c->measured, &err)) != PLANNER_OK) {
		errorf("%s", err);
		goto fail;
	}
	struct plan_opts opts = {.share_owned = c->share_owned && !c->each_alone};
	if ((rc = plan_compare_opts(*spec, c->ref, st, &opts, plan, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "cannot price jobs");
		goto fail;
	}
	note_prices(c, *plan);
	note_assumptions(c, *spec, *plan);
	return PLANNER_OK;
fail:
	free(err);
	jobspec_free(*spec);
	*spec = NULL;
	return rc;
}

/* What "-o path" may replace: a regular file (through symlinks), or a name
 * not taken yet. Sets *target (malloc'd: the file a rename must replace)
 * and *mode (the existing file's permissions, else 0666 less the umask).
 * A device, FIFO, directory or socket is refused: a temporary file cannot
 * be renamed over it, and writing it in place could not be undone. */
static int output_target(const char *path, char **target, mode_t *mode)
{
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	*mode = 0666 & ~mask;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || lstat(path, &st) == 0) {
			errorf("cannot write %s: %s", path,
			       errno == ENOENT ? "a symbolic link to nothing" : strerror(errno));
			return PLANNER_EINPUT;
		}
		*target = strdup(path);
	} else if (!S_ISREG(st.st_mode)) {
		errorf("cannot write %s: not a regular file (a %s); -o takes a file name, and "
		       "without -o the output goes to standard output",
		       path,
		       S_ISDIR(st.st_mode)    ? "directory"
		       : S_ISFIFO(st.st_mode) ? "FIFO"
		       : S_ISSOCK(st.st_mode) ? "socket"
		                              : "device");
		return PLANNER_EINPUT;
	} else {
		*mode = st.st_mode & 07777;
		*target = realpath(path, NULL);
	}
	if (!*target) {
		errorf("cannot write %s: %s", path, strerror(errno));
		return errno == ENOMEM ? PLANNER_ESYS : PLANNER_EINPUT;
	}
	return PLANNER_OK;
}

/* Writes write(f, arg) whole to the open temporary file f, closing it;
 * PLANNER_ESYS after a message naming path when any of it failed. */
static int write_whole(FILE *f, const char *path, int (*write)(FILE *f, void *arg), void *arg)
{
	int rc = write(f, arg);
	bool failed = fflush(f) != 0 || ferror(f) != 0;
	int saved = errno;
	/* On disk before the rename, so a crash leaves the old file or the
	 * new one, never an empty one. */
	if (!failed && fsync(fileno(f)) != 0 && errno != EINVAL) {
		failed = true;
		saved = errno;
	}
	if (fclose(f) != 0 && !failed) {
		failed = true;
		saved = errno;
	}
	if (failed && rc == PLANNER_OK) {
		errorf("cannot write %s: %s", path, strerror(saved));
		rc = PLANNER_ESYS;
	}
	return rc;
}

int cli_write_file(const char *path, int (*write)(FILE *f, void *arg), void *arg)
{
	if (!path)
		return write(stdout, arg); /* main checks stdout on the way out */
	char *target = NULL, *tmp = NULL;
	mode_t mode;
	int rc = output_target(path, &target, &mode), fd = -1;
	bool made = false;
	if (rc != PLANNER_OK)
		return rc;
	/* The temporary file is in the target's directory, so rename() is
	 * atomic: readers see the old file or the new one, and a failed write
	 * leaves the old one as it was. Only the temporary file, which
	 * planner made, is ever removed. */
	const char *slash = strrchr(target, '/');
	tmp = slash ? xasprintf("%.*s/.%s.XXXXXX", (int)(slash - target), target, slash + 1)
	            : xasprintf(".%s.XXXXXX", target);
	if (!tmp) {
		errorf("out of memory");
		rc = PLANNER_ESYS;
		goto out;
	}
	made = (fd = mkstemp(tmp)) >= 0;
	if (!made || fchmod(fd, mode) != 0) {
		errorf("cannot write %s: %s", path, strerror(errno));
		rc = PLANNER_EINPUT;
		goto out;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		errorf("cannot write %s: %s", path, strerror(errno));
		rc = PLANNER_ESYS;
		goto out;
	}
	fd = -1; /* f owns it */
	if ((rc = write_whole(f, path, write, arg)) == PLANNER_OK && rename(tmp, target) != 0) {
		errorf("cannot write %s: %s", path, strerror(errno));
		rc = PLANNER_ESYS;
	}
out:
	if (fd >= 0)
		close(fd);
	if (rc != PLANNER_OK && made)
		unlink(tmp);
	free(tmp);
	free(target);
	return rc;
}

/* Appends k bytes of s to buf (len bytes, holding *n), cutting to fit. */
static void append(char *buf, size_t len, size_t *n, const char *s, size_t k)
{
	if (*n + k >= len)
		k = len - 1 - *n;
	memcpy(buf + *n, s, k);
	*n += k;
	buf[*n] = '\0';
}

char *cli_fill(char *buf, size_t len, int col, int indent, int width, const char *text)
{
	size_t n = strnlen(buf, len);
	bool line_start = true;
	if (n >= len)
		return buf;
	for (const char *w = text; *w;) {
		size_t wl = strcspn(w, " ");
		if (wl) {
			if (!line_start && col + 1 + (int)wl > width) {
				append(buf, len, &n, "\n", 1);
				for (int i = 0; i < indent; i++)
					append(buf, len, &n, " ", 1);
				col = indent;
				line_start = true;
			}
			if (!line_start) {
				append(buf, len, &n, " ", 1);
				col++;
			}
			append(buf, len, &n, w, wl);
			col += (int)wl;
			line_start = false;
		}
		w += wl;
		w += *w == ' ';
	}
	append(buf, len, &n, "\n", 1);
	return buf;
}

/* "2026-03" into year and month; false on anything else. */
bool cli_parse_month(const char *s, int *year, int *month)
{
	char *end;
	/* Digits only: strtol would take "2026-+3" and "2026- 3" too. */
	if (strlen(s) != 7 || s[4] != '-' || strspn(s, "0123456789") != 4 ||
	    strspn(s + 5, "0123456789") != 2)
		return false;
	long y = strtol(s, &end, 10);
	if (end != s + 4)
		return false;
	long m = strtol(s + 5, &end, 10);
	if (*end || y < 1970 || y > 9999 || m < 1 || m > 12)
		return false;
	*year = (int)y;
	*month = (int)m;
	return true;
}

void cli_next_month(int *year, int *month)
{
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	*year = tm.tm_year + 1900 + (tm.tm_mon == 11);
	*month = (tm.tm_mon + 1) % 12 + 1;
}
