/* util.h — small helpers shared by the core: exit codes, error strings,
 * string utilities, size parsing, nearest-name suggestions, and outside
 * text made safe for where it goes (a store, a terminal, a spreadsheet). */
#ifndef PLANNER_UTIL_H
#define PLANNER_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Entries of a static array. */
#define NELEM(a) (sizeof(a) / sizeof *(a))

/* The one exit-code enum, by cause (README.md, "Exit codes"; planner(1),
 * EXIT STATUS); library calls return these too. */
enum planner_status {
	PLANNER_OK = 0,      /* success */
	PLANNER_EINPUT = 1,  /* a job or input problem the user must fix */
	PLANNER_EUSAGE = 2,  /* bad command line */
	PLANNER_ENET = 3,    /* network or provider failure */
	PLANNER_EDB = 4,     /* database error */
	PLANNER_ESYS = 5,    /* the system failed us: out of memory, a write or
	                      * close that failed (full disk, I/O error) */
	PLANNER_EUNPLACED = 6, /* schedule: the plan is incomplete, hours could
	                        * not be placed (--allow-unplaced: 0) */
};

/* Sets *err (when err is not NULL) to a malloc'd formatted message,
 * replacing and freeing any earlier one. Returns code, so callers can write
 * `return set_err(err, PLANNER_EINPUT, "...")`. */
int set_err(char **err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* malloc'd printf; aborts never: returns NULL when out of memory. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list (ap is used up). */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* strdup that accepts NULL (returns NULL). */
char *xstrdup(const char *s);

/* Case-insensitive Levenshtein distance (ASCII). */
size_t edit_distance(const char *a, const char *b);

/* MurmurHash3's 64-bit finaliser (fmix64, aappleby/smhasher,
 * src/MurmurHash3.cpp): spreads a hash's bits over its low ones, which a
 * power-of-two table uses (FNV-1a's cluster for keys differing in a few
 * bytes). */
static inline size_t hash_fmix64(unsigned long long h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (size_t)h;
}

/* arr (of *cap elements of size bytes) reallocated to twice as many (16
 * when empty), *cap updated; NULL, arr and *cap unchanged, when out of
 * memory. */
void *grow_array(void *arr, size_t *cap, size_t size);

/* Of `n` candidates, the one nearest to `word` (case-insensitive edit
 * distance, or a prefix/substring match), or NULL when none is close
 * enough to be a useful suggestion. */
const char *nearest_name(const char *word, const char *const *candidates, size_t n);

/* What to say after "unknown precision 'q4'": "did you mean 'q4_k_m'?
 * use fp32, bf16, ..." — the nearest of the names in list (separated by
 * ", " or by spaces)
 * (nearest_name, else the first that starts with word) and the whole
 * list; "use ..." alone when none is near. Into buf (cut to fit);
 * returns buf. This function can't fail. */
char *near_miss_text(const char *word, const char *list, char *buf, size_t len);

/* Parses a count with an optional suffix: K (1e3), M (1e6), B or G (1e9),
 * T (1e12), e.g. "200M", "1.5B", "3e6". Returns false on anything else or
 * a negative number. */
bool parse_count(const char *s, double *out);

/* When s, a number where one is expected (leading spaces and a sign
 * allowed), is not written in plain decimal — hexadecimal (0x10, 0x1p4),
 * binary (0b10000), octal (0o20), a leading zero (010, which YAML 1.1
 * tools read as octal 8 where strtod reads 10), or an infinity or NaN
 * spelling (inf, .inf, nan) — what it is ("a hexadecimal numeral"), with
 * the fix ("write 16 in decimal") in fix (len bytes); else NULL. Every
 * number planner reads goes through it (issue 26). Can't fail. */
const char *numeral_not_decimal(const char *s, char *fix, size_t len);

/* Parses a context length: a count as parse_count reads it, except that
 * K is 1024 ("32K" is 32768 tokens, as context sizes are powers of two).
 * `fit --context` and a spec's `context:` both read it. */
bool parse_context(const char *s, double *out);

/* x rounded toward zero as a long long, clamped to [lo, hi]; NaN gives lo.
 * A double out of the target type's range cast to it is undefined
 * behaviour (C11 6.3.1.4): a double that input can make large goes to an
 * integer through this. */
long long clamp_llong(double x, long long lo, long long hi);

/* Parses hours: a number with an optional "h" suffix ("300h", "12.5"). */
bool parse_hours(const char *s, double *out);

/* Parses a duration "20h", "30m", "2d", "45s" into seconds. */
bool parse_duration(const char *s, double *seconds);

/* Lowercases ASCII in place; returns s. */
char *str_lower(char *s);

/* Current UTC time as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ" in buf (>= 21 bytes). */
void iso_now(char *buf, size_t len);

/* The time a document says it was written, as iso_now: SOURCE_DATE_EPOCH
 * when it is set to a decimal count of seconds (reproducible builds'
 * convention, https://reproducible-builds.org/specs/source-date-epoch/),
 * else now. The report's "report written" line uses it, so two runs can be
 * compared byte for byte (tests/tools/same_output.sh). */
void iso_written(char *buf, size_t len);

/* Today's date, YYYY-MM-DD (buf >= 11 bytes): $PLANNER_TODAY when it is
 * set to a valid date (tests pin "today" with it), else the UTC date. The
 * one place "today" is read: the exchange-rate feed's dates are checked
 * against it. */
void today_utc(char *buf, size_t len);

/* Seconds since the epoch of an ISO 8601 UTC stamp ("...Z"), or -1. */
long long iso_to_epoch(const char *iso);

/* Growable byte buffer. */
struct buf {
	char *data; /* NUL-terminated contents, owned */
	size_t len; /* bytes used, excluding the NUL */
	size_t cap; /* bytes allocated */
};
/* Appends; returns false when out of memory (buffer left unchanged). */
bool buf_append(struct buf *b, const void *p, size_t n);
bool buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

/* Reads a whole file into a NUL-terminated malloc'd buffer; NULL on error
 * with errno set. */
char *read_file(const char *path, size_t *len);

/* Length of the valid UTF-8 sequence at p (1-4) with its code point in
 * *cp, or 0 when it is not one (overlong forms, surrogates and code points
 * past U+10FFFF included). Can't fail. */
size_t text_utf8_char(const unsigned char *p, unsigned *cp);
/* Control characters a terminal, an XHTML report, an .ics or a YAML 1.1
 * reader would act on: C0, DEL, C1 and U+2028/2029 (line and paragraph
 * separators, line breaks to YAML 1.1). */
bool text_is_control(unsigned cp);
/* The one sanitising step for outside text (feed fields, feed error
 * messages, nvidia-smi's names) before it is stored or printed: copies src
 * into dst (len bytes, always NUL-terminated when len > 0) as valid UTF-8,
 * each invalid byte written as '?', with control characters (C0, DEL, C1,
 * U+2028/2029) dropped, every occurrence of secret (when it is 4 bytes or
 * longer) written as "***", and a cut to fit never splitting a character.
 * dst may be src: the text never grows.
 * Returns the number of changes made (0: src was clean). Can't fail. */
size_t text_sanitize(char *dst, size_t len, const char *src, const char *secret);
/* text_sanitize into a new string; NULL when out of memory. */
char *text_sanitized(const char *src, const char *secret);

/* Outside text where it is shown (the CLI's tables and messages and the
 * exports alike): the core writes tables too, so these live here, not in
 * the command layer. cli.h keeps the commands' names for them. */

/* Copies s into dst (len bytes, cut to fit) with every control character
 * replaced by '?': C0 (ESC, BEL, CR, LF, TAB…), DEL, and the C1 controls
 * U+0080–U+009F as UTF-8 (U+009B is a one-character CSI). Text from a feed
 * or a job spec then cannot clear the screen, move the cursor or set the
 * clipboard (OSC 52) of the terminal it is printed on. Every table printer
 * and message goes through it; CSV, JSON and HTML escape in their own way.
 * dst may be s. Returns dst. Can't fail. */
char *text_safe(char *dst, size_t len, const char *s);
/* Columns of UTF-8 text s (continuation bytes take none). */
size_t text_columns(const char *s);
/* Writes a finished line into f wrapped at spaces to `width` columns (0:
 * no wrap), the lines after the first indented by `indent` columns. A word
 * is never cut, so neither is a figure: one wider than the room left
 * starts the next line whole. */
void text_wrap_to(FILE *f, int width, int indent, const char *line);
/* src into dst (len bytes), cut to fit and always terminated: what
 * snprintf(dst, len, "%s", src) does, without parsing a format. NULL src
 * is "". */
static inline void text_copy(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	size_t n = src ? strnlen(src, len - 1) : 0;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}
/* Whether text_wrap_to wraps at `width` columns with `indent`: false when
 * there is no width (not a terminal) or no room to wrap into. */
static inline bool text_wraps(int width, int indent)
{
	return width > 1 && indent <= width - 10;
}
/* Writes a CSV field (RFC 4180 quoting; a leading = + - @ TAB or CR is
 * prefixed with a quote mark so spreadsheets do not run it as a formula;
 * a plain signed number is left as it is). */
void text_csv_field(FILE *f, const char *s);

/* Rounds to `places` decimals, for printed and JSON figures. */
double round_to(double v, int places);

/* Names and a number for each, to find a repeat in one pass (open
 * addressing, FNV-1a): the job spec's duplicate-name check was quadratic
 * (issue 16). The names are not copied: they must outlive the index. */
struct name_index {
	const char **names; /* NULL = empty slot */
	size_t *ids;
	size_t cap; /* a power of two, at least twice the entries */
	size_t n;
};

/* Adds name with id, unless it is there: then *prev is the id it was added
 * with, else SIZE_MAX. false when out of memory. */
bool name_index_add(struct name_index *x, const char *name, size_t id, size_t *prev);
/* Frees the index's tables (not the names); accepts NULL. */
void name_index_free(struct name_index *x);

/* Asks the kernel to back the whole pages of [p, p + len) with huge pages
 * where it can (Linux madvise MADV_HUGEPAGE; nothing elsewhere, and
 * nothing when it refuses): a large array written once in 4 KiB pages
 * takes one page fault per page. */
void advise_huge_pages(void *p, size_t len);

/* Grows the heap by bytes at the next allocation that needs it, keeps up
 * to twice that free at its top, and asks the kernel for transparent huge
 * pages over those bytes (glibc and MADV_HUGEPAGE only; a no-op
 * elsewhere). */
void heap_huge_pages(size_t bytes);

#endif
