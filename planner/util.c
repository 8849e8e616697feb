/* util.c — see util.h. */
/* strptime is XSI. */
#define _XOPEN_SOURCE 700

#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <time.h>
#include <unistd.h>

/* vasprintf is GNU and BSD, not POSIX: measured, then printed. */
char *xvasprintf(const char *fmt, va_list ap)
{
	/* Most strings are short: formatted once into buf, and only a longer
	 * one a second time into its own allocation. */
	char buf[256];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s && (size_t)n < sizeof buf)
		memcpy(s, buf, (size_t)n + 1);
	else if (s && vsnprintf(s, (size_t)n + 1, fmt, again) != n) {
		free(s);
		s = NULL;
	}
	va_end(again);
	return s;
}

int set_err(char **err, int code, const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return code;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	free(*err);
	*err = s;
	return code;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = malloc((lb + 1) * sizeof *row);
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = diag + (same ? 0 : 1);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

/* True when hay (hl bytes) contains needle (nl bytes), ASCII case
 * ignored (strcasestr is GNU and BSD, not POSIX). */
static bool contains_nocase(const char *hay, size_t hl, const char *needle, size_t nl)
{
	for (size_t i = 0; i + nl <= hl; i++)
		if (strncasecmp(hay + i, needle, nl) == 0)
			return true;
	return false;
}

/* True when one of a and b starts with the other, or (both at least 3
 * letters) contains it: "region" and "regions", "llama-3.1" and
 * "llama-3.1-8b", case-insensitive. */
static bool overlaps(const char *a, size_t al, const char *b, size_t bl)
{
	if (al < 3 || bl < 3)
		return false;
	return al <= bl ? contains_nocase(b, bl, a, al) : contains_nocase(a, al, b, bl);
}

const char *nearest_name(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_score = (size_t)-1, best_d = (size_t)-1;
	size_t wl = strlen(word);
	if (wl == 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!candidates[i])
			continue;
		size_t d = edit_distance(word, candidates[i]);
		/* A word that is part of a candidate ("llama-3.1"), or holds
		 * one ("regions_eu"), is a near miss even when the edit
		 * distance is large, and beats a mere spelling neighbour at
		 * the same distance ("region": "regions" over "version"). */
		bool part = overlaps(word, wl, candidates[i], strlen(candidates[i]));
		if (part && d > 2)
			d = 2;
		size_t score = 2 * d + !part;
		if (score < best_score) {
			best_score = score;
			best_d = d;
			best = candidates[i];
		}
	}
	/* Suggest only what a person would recognise as the same word: at
	 * most a quarter of its letters changed (one in a short word), and
	 * never more than 3; "region" is 3 edits from "version", no match. */
	size_t limit = wl / 4 + 1;
	if (limit > 3)
		limit = 3;
	return best_d <= limit ? best : NULL;
}

/* Names near_miss_text reads from one list: every engine, provider or
 * precision fits. */
#define NEAR_MISS_MAX 128

char *near_miss_text(const char *word, const char *list, char *buf, size_t len)
{
	char copy[2048];
	const char *names[NEAR_MISS_MAX] = {0};
	size_t n = 0, wl = strlen(word);
	snprintf(copy, sizeof copy, "%s", list);
	/* Names are separated by ", " or by spaces; none holds either. */
	char *save = NULL;
	for (char *p = strtok_r(copy, ", ", &save); p && n < NEAR_MISS_MAX;
	     p = strtok_r(NULL, ", ", &save))
		names[n++] = p;
	const char *near = nearest_name(word, names, n);
	for (size_t i = 0; !near && wl >= 2 && i < n; i++)
		if (!strncasecmp(names[i], word, wl))
			near = names[i];
	snprintf(buf, len, "%s%s%suse %s", near ? "did you mean '" : "", near ? near : "",
	         near ? "'? " : "", list);
	return buf;
}

/* The value of the digits at p in base (2 or 8), up to the first other
 * character; -1 when there is none or a digit is not of the base. */
static double base_digits(const char *p, int base)
{
	double v = 0;
	const char *q = p;
	for (; isalnum((unsigned char)*q); q++) {
		int d = *q - '0';
		if (d < 0 || d >= base)
			return -1;
		v = v * base + d;
	}
	return q == p ? -1 : v;
}

const char *numeral_not_decimal(const char *s, char *fix, size_t len)
{
	while (isspace((unsigned char)*s))
		s++;
	const char *sign = *s == '-' ? "-" : "", *p = s + (*s == '+' || *s == '-');
	double v = -1;
	const char *what = NULL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		char *end;
		v = strtod(p, &end);
		v = end > p + 2 && isfinite(v) ? v : -1;
		what = "a hexadecimal numeral";
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B' || p[1] == 'o' || p[1] == 'O')) {
		bool bin = p[1] == 'b' || p[1] == 'B';
		v = base_digits(p + 2, bin ? 2 : 8);
		what = bin ? "a binary numeral" : "an octal numeral";
	} else if (p[0] == '0' && isdigit((unsigned char)p[1])) {
		size_t z = strspn(p, "0"), n = strspn(p, "0123456789");
		const char *digits = n > z ? p + z : p + n - 1; /* "0" of "00.5" */
		double octal = base_digits(p, 8);
		int m = snprintf(fix, len, "write %s%s without the leading zero", sign, digits);
		if (octal >= 0 && (!p[n] || isspace((unsigned char)p[n])) && m > 0 &&
		    (size_t)m < len)
			snprintf(fix + m, len - (size_t)m, " (YAML 1.1 reads %s as octal, %s%.15g)",
			         p, sign, octal);
		return "a number with a leading zero";
	} else if (!strncasecmp(p, "inf", 3) || !strncasecmp(p, "nan", 3) ||
	           !strncasecmp(p, ".inf", 4) || !strncasecmp(p, ".nan", 4)) {
		snprintf(fix, len, "write a finite number in decimal");
		return "not a finite number";
	} else {
		return NULL;
	}
	if (v >= 0)
		snprintf(fix, len, "write %s%.15g in decimal", sign, v);
	else
		snprintf(fix, len, "write the number in decimal");
	return what;
}

static bool parse_number_suffix(const char *s, double *out, const char *suffixes,
				const double *scales)
{
	char fix[8];
	if (!s || numeral_not_decimal(s, fix, sizeof fix))
		return false;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end) {
		const char *p = strchr(suffixes, toupper((unsigned char)*end));
		if (!p)
			return false;
		v *= scales[p - suffixes];
		end++;
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			return false;
	}
	if (!isfinite(v))
		return false;
	*out = v;
	return true;
}

bool parse_count(const char *s, double *out)
{
	static const double scales[] = {1e3, 1e6, 1e9, 1e9, 1e12};
	return parse_number_suffix(s, out, "KMBGT", scales);
}

bool parse_context(const char *s, double *out)
{
	double v;
	if (!parse_count(s, &v))
		return false;
	/* Context sizes are powers of two: a "32K" model has
	 * max_position_embeddings 32768 (Qwen2.5's config.json). */
	if (strpbrk(s, "kK"))
		v = v / 1e3 * 1024;
	*out = v;
	return true;
}

bool parse_hours(const char *s, double *out)
{
	static const double scales[] = {1};
	return parse_number_suffix(s, out, "H", scales);
}

bool parse_duration(const char *s, double *seconds)
{
	static const double scales[] = {1, 60, 3600, 86400};
	/* A bare number is hours: "--if-older-than 20" reads as 20h. */
	double v;
	if (!parse_number_suffix(s, &v, "SMHD", scales))
		return false;
	const char *p = s + strlen(s);
	while (p > s && isspace((unsigned char)p[-1]))
		p--;
	if (p > s && isdigit((unsigned char)p[-1]))
		v *= 3600;
	*seconds = v;
	return true;
}

char *str_lower(char *s)
{
	for (char *p = s; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

void iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void iso_written(char *buf, size_t len)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	char *end = NULL;
	errno = 0;
	long long secs = env && *env ? strtoll(env, &end, 10) : -1;
	struct tm tm;
	time_t t = (time_t)secs;
	if (!env || !*env || *end || errno || secs < 0 || (long long)t != secs || !gmtime_r(&t, &tm)) {
		iso_now(buf, len);
		return;
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void today_utc(char *buf, size_t len)
{
	const char *env = getenv("PLANNER_TODAY");
	struct tm tm = {0};
	const char *end = env ? strptime(env, "%Y-%m-%d", &tm) : NULL;
	if (end && !*end && strlen(env) == 10) {
		snprintf(buf, len, "%s", env);
		return;
	}
	time_t t = time(NULL);
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d", &tm);
}

/* Seconds since the epoch of a broken-down UTC time with its fields in
 * range (timegm is BSD and GNU, in POSIX only since 2024): the day count
 * is H. Hinnant's days_from_civil
 * (https://howardhinnant.github.io/date_algorithms.html). */
static long long utc_seconds(const struct tm *tm)
{
	long long y = tm->tm_year + 1900LL - (tm->tm_mon < 2);
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long mp = tm->tm_mon < 2 ? tm->tm_mon + 10 : tm->tm_mon - 2;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + (153 * mp + 2) / 5 + tm->tm_mday - 1;
	long long days = era * 146097 + doe - 719468;
	return ((days * 24 + tm->tm_hour) * 60 + tm->tm_min) * 60 + tm->tm_sec;
}

long long iso_to_epoch(const char *iso)
{
	struct tm tm = {0};
	if (!iso)
		return -1;
	const char *end = strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end) {
		memset(&tm, 0, sizeof tm);
		end = strptime(iso, "%Y-%m-%d", &tm);
		if (!end)
			return -1;
	}
	return utc_seconds(&tm);
}

bool buf_append(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return false;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return true;
}

bool buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (!s)
		return false;
	bool ok = buf_append(b, s, strlen(s));
	free(s);
	return ok;
}

void buf_free(struct buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (!buf_append(&b, chunk, n)) {
			buf_free(&b);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		buf_free(&b);
		errno = EIO;
		return NULL;
	}
	if (!b.data && !buf_append(&b, "", 0))
		return NULL;
	if (len)
		*len = b.len;
	return b.data;
}

size_t text_utf8_char(const unsigned char *p, unsigned *cp)
{
	unsigned c = p[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0x80, c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

bool text_is_control(unsigned cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 ||
	       cp == 0x2029;
}

size_t text_sanitize(char *dst, size_t len, const char *src, const char *secret)
{
	size_t changes = 0, used = 0, klen = secret ? strlen(secret) : 0;
	if (len == 0)
		return 0;
	const unsigned char *p = (const unsigned char *)(src ? src : "");
	while (*p) {
		if (klen >= 4 && !strncmp((const char *)p, secret, klen)) {
			if (used + 3 >= len)
				break;
			memmove(dst + used, "***", 3);
			used += 3;
			p += klen;
			changes++;
			continue;
		}
		unsigned cp;
		size_t n = text_utf8_char(p, &cp);
		if (n == 0) {
			if (used + 1 >= len)
				break;
			dst[used++] = '?';
			p++;
			changes++;
			continue;
		}
		if (text_is_control(cp)) {
			/* A tab or line break between words reads as a space. */
			if ((cp == '\t' || cp == '\n' || cp == '\r') && used && dst[used - 1] != ' ' &&
			    used + 1 < len)
				dst[used++] = ' ';
			p += n;
			changes++;
			continue;
		}
		if (used + n >= len)
			break;
		memmove(dst + used, p, n); /* dst may be src (in place) */
		used += n;
		p += n;
	}
	dst[used] = '\0';
	return changes;
}

char *text_sanitized(const char *src, const char *secret)
{
	size_t n = strlen(src ? src : "") + 1;
	char *out = malloc(n);
	if (out)
		text_sanitize(out, n, src, secret);
	return out;
}

long long clamp_llong(double x, long long lo, long long hi)
{
	if (!(x > (double)lo)) /* NaN too */
		return lo;
	/* (double)hi may round up to 2^63: compare before the cast. */
	if (x >= (double)hi)
		return hi;
	return (long long)x;
}

static size_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64-bit offset basis and prime */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* Where name is, or the empty slot where it would go. */
static size_t name_slot(const struct name_index *x, const char *name)
{
	size_t i = name_hash(name) & (x->cap - 1);
	while (x->names[i] && strcmp(x->names[i], name))
		i = (i + 1) & (x->cap - 1);
	return i;
}

bool name_index_add(struct name_index *x, const char *name, size_t id, size_t *prev)
{
	*prev = SIZE_MAX;
	if (x->cap) {
		size_t i = name_slot(x, name);
		if (x->names[i]) {
			*prev = x->ids[i];
			return true;
		}
	}
	if ((x->n + 1) * 2 > x->cap) {
		struct name_index big = {.cap = x->cap ? x->cap * 2 : 64, .n = x->n};
		big.names = calloc(big.cap, sizeof *big.names);
		big.ids = calloc(big.cap, sizeof *big.ids);
		if (!big.names || !big.ids) {
			free(big.names);
			free(big.ids);
			return false;
		}
		for (size_t i = 0; i < x->cap; i++)
			if (x->names[i]) {
				size_t j = name_slot(&big, x->names[i]);
				big.names[j] = x->names[i];
				big.ids[j] = x->ids[i];
			}
		name_index_free(x);
		*x = big;
	}
	size_t i = name_slot(x, name);
	x->names[i] = name;
	x->ids[i] = id;
	x->n++;
	return true;
}

void name_index_free(struct name_index *x)
{
	if (!x)
		return;
	free(x->names);
	free(x->ids);
	x->names = NULL;
	x->ids = NULL;
	x->cap = x->n = 0;
}

void advise_huge_pages(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	long page = sysconf(_SC_PAGESIZE);
	if (!p || page <= 0)
		return;
	uintptr_t start = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~((uintptr_t)page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

/* glibc's largest mmap threshold on 64-bit (mallopt(3)), and the block
 * that grows the heap: larger than the initial heap's free room. */
#define HEAP_MMAP_THRESHOLD (32 << 20)
#define HEAP_GROW_BLOCK     (1 << 20)

void heap_huge_pages(size_t bytes)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
	if (bytes > INT_MAX / 2)
		bytes = INT_MAX / 2;
	mallopt(M_TOP_PAD, (int)bytes);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * bytes));
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD);
	/* A block from the heap (under the mmap threshold) larger than any
	 * free room makes it grow by the block and the pad. */
	char *base = sbrk(0);
	void *p = malloc(HEAP_GROW_BLOCK);
	char *top = sbrk(0);
	free(p);
	/* Only when the heap grew by the pad (not under a sanitizer's
	 * allocator, or where brk could not grow). */
	if (p && base != (char *)-1 && top != (char *)-1 && top - base >= (ptrdiff_t)bytes)
		advise_huge_pages(top - bytes, bytes);
#else
	(void)bytes;
#endif
}

void *grow_array(void *arr, size_t *cap, size_t size)
{
	size_t n = *cap ? *cap * 2 : 16;
	if (n < *cap || n > SIZE_MAX / size)
		return NULL;
	void *p = realloc(arr, n * size);
	if (p)
		*cap = n;
	return p;
}

double round_to(double v, int places)
{
	if (!isfinite(v))
		return v;
	double k = pow(10, places);
	double r = round(v * k) / k;
	return r == 0 ? 0 : r; /* no "-0" */
}

void text_csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	/* The characters that start a formula, after OWASP's "CSV Injection"
	 * (https://owasp.org/www-community/attacks/CSV_Injection, read
	 * 2026-11-30): = + - @, and TAB and CR, which spreadsheets skip
	 * before reading the formula that follows. */
	bool formula = s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
	/* A plain number is data, not a formula, even with a sign. */
	if (formula && (s[0] == '-' || s[0] == '+')) {
		char *end;
		strtod(s, &end);
		if (end != s && *end == '\0')
			formula = false;
	}
	bool quote = formula || strpbrk(s, ",\"\r\n") != NULL;
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

char *text_safe(char *dst, size_t len, const char *s)
{
	size_t k = 0;
	if (!len)
		return dst;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && k + 1 < len; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			dst[k++] = '?';
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			dst[k++] = '?';
			p++; /* the C1 control's second byte */
		} else {
			dst[k++] = (char)*p;
		}
	}
	dst[k] = '\0';
	return dst;
}

/* Columns of s[i..] up to the next space or the end: UTF-8 continuation
 * bytes and SGR colour sequences (ESC [ ... m) take none. Sets *end to
 * the byte after the word. */
static int word_cols(const char *s, size_t i, size_t *end)
{
	int cols = 0;
	while (s[i] && s[i] != ' ') {
		if (s[i] == '\033' && s[i + 1] == '[') {
			i += 2;
			while (s[i] && s[i] != 'm')
				i++;
			if (s[i])
				i++;
			continue;
		}
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			cols++;
		i++;
	}
	*end = i;
	return cols;
}

size_t text_columns(const char *s)
{
	size_t cols = 0;
	for (; s && *s; s++)
		cols += ((unsigned char)*s & 0xc0) != 0x80;
	return cols;
}

void text_wrap_to(FILE *f, int width, int indent, const char *line)
{
	if (!text_wraps(width, indent)) {
		fprintf(f, "%s\n", line);
		return;
	}
	int col = 0;
	size_t i = 0;
	/* Leading spaces are the line's own indent: kept as they are. */
	while (line[i] == ' ') {
		fputc(' ', f);
		col++;
		i++;
	}
	bool first = true;
	while (line[i]) {
		size_t end;
		int spaces = 0;
		while (line[i + (size_t)spaces] == ' ')
			spaces++;
		int w = word_cols(line, i + (size_t)spaces, &end);
		if (!line[i + (size_t)spaces])
			break; /* trailing spaces: dropped */
		if (!first && col + spaces + w > width) {
			/* A word that does not fit starts the next line, whole:
			 * a figure is never cut, even when it is wider than the
			 * room left. */
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			spaces = 0;
			i += (size_t)strspn(line + i, " ");
		}
		fprintf(f, "%*s%.*s", spaces, "", (int)(end - i - (size_t)spaces),
		        line + i + spaces);
		col += spaces + w;
		i = end;
		first = false;
	}
	fputc('\n', f);
}
