/* spec_check.c — the job spec's checks that reach outside the file: the
 * time zone against the zone database, and the providers: list against
 * the adapters and the spec's own quotes. Rows of spec_keys.c name them. */
#include "spec_table.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "provider.h"
#include "util.h"

/* Where the zone database lives unless $TZDIR says (tzset(3)). */
#define ZONEINFO_DIR "/usr/share/zoneinfo"

/* Nearest zone name in the same zoneinfo directory, for "did you mean". */
static char *suggest_zone(const char *zdir, const char *name)
{
	char dir[512], *res = NULL;
	const char *slash = strrchr(name, '/');
	int dl = slash ? (int)(slash - name) : 0;
	snprintf(dir, sizeof dir, "%s/%.*s", zdir, dl, name);
	DIR *dp = opendir(dir);
	if (!dp)
		return NULL;
	const char *base = slash ? slash + 1 : name;
	const char *best = NULL;
	char *names[1024];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp)) && n < NELEM(names))
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(dp);
	best = nearest_name(base, (const char *const *)names, n);
	if (best && strcmp(best, base)) /* not a zone itself (zone.tab) */
		res = xasprintf("%.*s%s%s", dl, name, slash ? "/" : "", best);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return res;
}

/* Whether path is a compiled zone (TZif, RFC 8536 section 3.1: the file
 * begins "TZif"), not leapseconds, tzdata.zi or a .tab table. */
static bool is_tzif(const char *path)
{
	char magic[4] = {0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t got = fread(magic, 1, sizeof magic, f);
	fclose(f);
	return got == sizeof magic && !memcmp(magic, "TZif", 4);
}

int spec_check_timezone(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *tz = r->c->spec->timezone;
	if (!strcmp(tz, "UTC"))
		return PLANNER_OK;
	const char *zdir = getenv("TZDIR");
	if (!zdir || !*zdir)
		zdir = ZONEINFO_DIR;
	bool ok = *tz != '/' && !strstr(tz, "..") && strlen(tz) < 200;
	for (const char *p = tz; ok && *p; p++)
		ok = isalnum((unsigned char)*p) || strchr("/_+-", *p);
	if (ok) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", zdir, tz);
		ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		if (ok && !is_tzif(path))
			return yr_fail(&r->c->y, kv->val->start_mark,
			               "timezone '%s' is a file of the zone database, not a time "
			               "zone; use UTC or an IANA name, e.g. Europe/Amsterdam",
			               tz);
	}
	/* right/ zones count leap seconds in time_t, which POSIX time (and
	 * every clock planner reads) does not: times would be 27 s off. */
	if (ok && !strncmp(tz, "right/", 6))
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "timezone '%s' counts leap seconds, which the system clock does not; "
		               "use '%s'",
		               tz, tz + 6);
	if (ok)
		return PLANNER_OK;
	int rc;
	char *s = *tz != '/' && !strstr(tz, "..") ? suggest_zone(zdir, tz) : NULL;
	if (s)
		rc = yr_fail(&r->c->y, kv->val->start_mark,
		             "unknown timezone '%s'; did you mean '%s'?", tz, s);
	else
		rc = yr_fail(&r->c->y, kv->val->start_mark,
		             "unknown timezone '%s'; use UTC or an IANA name under %s, e.g. "
		             "Europe/Amsterdam",
		             tz, zdir);
	free(s);
	return rc;
}


/* The names providers: may hold: the GPU adapters' and the quotes'. */
static size_t provider_names_known(const struct jobspec *sp, const struct refdata *ref,
                                   const char **names, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; provider_list[i] && n < cap; i++)
		if (provider_list[i]->kind == PROVIDER_RENTED)
			names[n++] = provider_list[i]->name;
	for (size_t i = 0; i < sp->n_quotes && n < cap; i++)
		names[n++] = sp->quotes[i].provider;
	/* The serverless route's providers (schema/serverless.json). */
	for (size_t i = 0; i < ref->n_serverless && n < cap; i++)
		names[n++] = ref->serverless[i].provider;
	return n;
}

int spec_check_providers(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const struct jobspec *sp = r->c->spec;
	const struct keyed *pk = NULL;
	for (size_t i = 0; i < r->t->n; i++)
		if (!strcmp(r->t->keys[i].name, "providers"))
			pk = &r->v[i];
	if (!sp->providers || !pk || !pk->val)
		return PLANNER_OK;
	size_t cap = sp->n_quotes + r->c->ref->n_serverless + 64;
	const char **names = calloc(cap, sizeof *names);
	if (!names)
		return yr_oom(&r->c->y);
	size_t n = provider_names_known(sp, r->c->ref, names, cap);
	int rc = PLANNER_OK;
	for (size_t i = 0; i < sp->n_providers && rc == PLANNER_OK; i++) {
		bool known = false;
		for (size_t j = 0; j < n && !known; j++)
			known = !strcasecmp(sp->providers[i], names[j]);
		if (known)
			continue;
		const char *near = nearest_name(sp->providers[i], names, n);
		yaml_node_t *at = pk->val->type == YAML_SEQUENCE_NODE
		                      ? yaml_document_get_node(&r->c->y.doc,
		                                               pk->val->data.sequence.items.start[i])
		                      : pk->val;
		char list[256];
		rc = yr_fail(&r->c->y, at->start_mark,
		             "unknown provider '%s' in 'providers'; %s%s%suse %s or a quote's "
		             "provider (a name that is neither would exclude every offer)",
		             sp->providers[i], near ? "did you mean '" : "", near ? near : "",
		             near ? "'? " : "",
		             provider_names(PROVIDER_PICK_RENTED, list, sizeof list));
	}
	free(names);
	return rc;
}
