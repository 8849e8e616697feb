/* json_flat.c — chosen members of one JSON object read straight from its
 * bytes, without a cJSON tree (issue 16: building the tree of a Vast.ai
 * offer's 25 members, to read 12 of them, was most of reading 200,000
 * offers). The reader checks the whole object and gives up (returns 0) on
 * anything it does not read exactly as cJSON would: the caller then parses
 * the object with cJSON, so every object either gets the members a cJSON
 * tree holds or goes through that tree itself. */
#include <cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* Nesting followed inside a skipped member; deeper values go to cJSON
 * (whose own limit is CJSON_NESTING_LIMIT, 1000). */
#define FLAT_MAX_DEPTH 32
/* cJSON 1.7.15 copies a number into a 64-byte buffer for strtod (cJSON.c,
 * parse_number): a longer one reads differently there, so it goes to
 * cJSON. */
#define FLAT_NUMBER_MAX 63
/* A mantissa up to 2^53 and a power of ten up to 10^22 are exact doubles,
 * so one multiplication or division of them is rounded once: the value
 * strtod gives (Clinger's fast path, "How to read floating point numbers
 * accurately", PLDI 1990). */
#define FLAT_EXACT_MANTISSA ((uint64_t)1 << 53)
#define FLAT_EXACT_POW10 22

static const double pow10_exact[FLAT_EXACT_POW10 + 1] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

struct cursor {
	const char *p, *end;
};

/* JSON's whitespace. cJSON skips every byte up to ' ' (control bytes
 * too): those stop this reader and go to cJSON. */
static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

static bool at(const struct cursor *c, char ch)
{
	return c->p < c->end && *c->p == ch;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* A byte cJSON takes into a number (parse_number). */
static bool number_byte(char ch)
{
	return is_digit(ch) || ch == '+' || ch == '-' || ch == 'e' || ch == 'E' || ch == '.';
}

/* Eight bytes at a time: a string's bytes are most of a feed's. */
#define FLAT_ONES 0x0101010101010101ULL
#define FLAT_HIGHS 0x8080808080808080ULL
#define FLAT_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* The high bit of each zero byte of v (and maybe of a 0x01 byte above
 * one: only ever a false stop, which the byte loop then passes). */
static uint64_t zero_bytes(uint64_t v)
{
	return (v - FLAT_ONES) & ~v & FLAT_HIGHS;
}

/* The first quote, backslash or NUL byte at or after p, or end. */
static const char *string_stop(const char *p, const char *end)
{
	while (end - p >= 8) {
		uint64_t v;
		memcpy(&v, p, sizeof v);
		uint64_t stop = zero_bytes(v ^ (FLAT_ONES * '"')) |
		                zero_bytes(v ^ (FLAT_ONES * '\\')) | zero_bytes(v);
		/* the lowest bit set is a true stop (a borrow runs upwards
		 * only): on a little-endian machine, the first of the bytes */
		if (stop && FLAT_LITTLE_ENDIAN)
			return p + __builtin_ctzll(stop) / 8;
		if (stop)
			break;
		p += 8;
	}
	while (p < end && *p != '"' && *p != '\\' && *p)
		p++;
	return p;
}

/* The string whose opening quote is at c->p: its bytes [*s, *s + *len).
 * false on what this reader leaves to cJSON: in a `plain` string (a name,
 * a value read) any backslash or NUL byte (cJSON undoes escapes, and a NUL
 * ends its C string); elsewhere a \u escape (cJSON checks its surrogates)
 * or an escape cJSON refuses. */
static bool read_string(struct cursor *c, bool plain, const char **s, size_t *len)
{
	const char *p = c->p + 1;
	*s = p;
	for (;;) {
		p = string_stop(p, c->end);
		if (p >= c->end)
			return false;
		if (*p == '"')
			break;
		if (!*p && !plain) {
			p++;
			continue;
		}
		if (plain || p + 1 >= c->end || !p[1] || !strchr("\"\\/bfnrt", p[1]))
			return false;
		p += 2;
	}
	*len = (size_t)(p - *s);
	c->p = p + 1;
	return true;
}

/* The value strtod gives for [s, e), a number read_number accepted. */
static double slow_number(const char *s, const char *e)
{
	char buf[FLAT_NUMBER_MAX + 1];
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return strtod(buf, NULL);
}

/* Reads digits into *m while it stays exact (*exact cleared when not);
 * returns how many. */
static int digits(struct cursor *c, uint64_t *m, bool *exact)
{
	int n = 0;
	for (; c->p < c->end && is_digit(*c->p); c->p++, n++) {
		if (*m > (FLAT_EXACT_MANTISSA - 9) / 10)
			*exact = false;
		else
			*m = *m * 10 + (uint64_t)(*c->p - '0');
	}
	return n;
}

/* A number as JSON writes it, at c->p, into *v when v: the value cJSON's
 * strtod of its bytes gives. false when it is not JSON's grammar or cJSON
 * would read other bytes for it ("01", "1.", over FLAT_NUMBER_MAX bytes). */
static bool read_number(struct cursor *c, double *v)
{
	const char *start = c->p;
	uint64_t m = 0, x = 0;
	bool exact = true, neg = at(c, '-'), xexact = true;
	int e10 = 0;
	c->p += neg;
	if (at(c, '0'))
		c->p++;
	else if (!digits(c, &m, &exact))
		return false;
	if (at(c, '.')) {
		c->p++;
		int n = digits(c, &m, &exact);
		if (!n)
			return false;
		e10 -= n; /* (only used while exact) */
	}
	if (at(c, 'e') || at(c, 'E')) {
		c->p++;
		bool eneg = at(c, '-');
		c->p += eneg || at(c, '+');
		if (!digits(c, &x, &xexact))
			return false;
		exact = exact && xexact && x <= FLAT_EXACT_POW10 * 2;
		e10 += eneg ? -(int)(exact ? x : 0) : (int)(exact ? x : 0);
	}
	if (c->p >= c->end || number_byte(*c->p) || c->p - start > FLAT_NUMBER_MAX)
		return false;
	if (!v)
		return true;
	if (exact && e10 >= -FLAT_EXACT_POW10 && e10 <= FLAT_EXACT_POW10) {
		double d = (double)m;
		d = e10 < 0 ? d / pow10_exact[-e10] : d * pow10_exact[e10];
		*v = neg ? -d : d;
	} else {
		*v = slow_number(start, c->p);
	}
	return true;
}

/* null, true or false at c->p: its cJSON type, 0 when none. */
static int read_literal(struct cursor *c)
{
	size_t left = (size_t)(c->end - c->p);
	static const struct {
		const char *word;
		size_t len;
		int type;
	} lit[] = {{"null", 4, cJSON_NULL}, {"true", 4, cJSON_True}, {"false", 5, cJSON_False}};
	for (size_t i = 0; i < sizeof lit / sizeof *lit; i++)
		if (left >= lit[i].len && !memcmp(c->p, lit[i].word, lit[i].len)) {
			c->p += lit[i].len;
			return lit[i].type;
		}
	return 0;
}

static bool skip_value(struct cursor *c, int depth);

/* The object or array at c->p, checked and passed over. */
static bool skip_container(struct cursor *c, int depth)
{
	char close = *c->p == '{' ? '}' : ']';
	const char *s;
	size_t len;
	c->p++;
	skip_ws(c);
	if (at(c, close)) {
		c->p++;
		return true;
	}
	for (;;) {
		if (close == '}') {
			if (!at(c, '"') || !read_string(c, false, &s, &len))
				return false;
			skip_ws(c);
			if (!at(c, ':'))
				return false;
			c->p++;
			skip_ws(c);
		}
		if (!skip_value(c, depth))
			return false;
		skip_ws(c);
		if (at(c, close)) {
			c->p++;
			return true;
		}
		if (!at(c, ','))
			return false;
		c->p++;
		skip_ws(c);
	}
}

/* Any value at c->p, checked and passed over. */
static bool skip_value(struct cursor *c, int depth)
{
	const char *s;
	size_t len;
	if (c->p >= c->end)
		return false;
	switch (*c->p) {
	case '"':
		return read_string(c, false, &s, &len);
	case '{':
	case '[':
		return depth < FLAT_MAX_DEPTH && skip_container(c, depth + 1);
	case 't':
	case 'f':
	case 'n':
		return read_literal(c) != 0;
	default:
		return read_number(c, NULL);
	}
}

/* The value of wanted member k at c->p into f->nodes[k]; strings are
 * copied into f->text (*used bytes of it taken). */
static bool read_member(struct cursor *c, const struct json_flat *f, size_t k, size_t *used)
{
	cJSON *node = &f->nodes[k];
	const char *s;
	size_t len;
	memset(node, 0, sizeof *node);
	if (c->p >= c->end)
		return false;
	switch (*c->p) {
	case '"':
		if (!read_string(c, true, &s, &len) || *used + len + 1 > f->text_size)
			return false;
		node->valuestring = memcpy(f->text + *used, s, len);
		node->valuestring[len] = '\0';
		*used += len + 1;
		node->type = cJSON_String;
		break;
	case '{':
	case '[':
		/* its members are not read: an object or array without them */
		node->type = *c->p == '{' ? cJSON_Object : cJSON_Array;
		if (!skip_value(c, 1))
			return false;
		break;
	case 't':
	case 'f':
	case 'n':
		if (!(node->type = read_literal(c)))
			return false;
		break;
	default:
		if (!read_number(c, &node->valuedouble))
			return false;
		node->type = cJSON_Number;
		/* cJSON's saturation (parse_number) */
		node->valueint = node->valuedouble >= INT32_MAX    ? INT32_MAX
		                 : node->valuedouble <= INT32_MIN ? INT32_MIN
		                                                   : (int)node->valuedouble;
		break;
	}
	f->found[k] = node;
	return true;
}

/* The index of the name [s, s + len) among f->names not found yet, or
 * f->n_names: a repeated name counts once, its first, as
 * cJSON_GetObjectItemCaseSensitive finds it. */
static size_t wanted(const struct json_flat *f, const char *s, size_t len)
{
	for (size_t k = 0; k < f->n_names; k++)
		if (!f->found[k] && f->names[k][0] == s[0] && !strncmp(f->names[k], s, len) &&
		    !f->names[k][len])
			return k;
	return f->n_names;
}

size_t json_flat_object(const char *p, size_t n, const struct json_flat *f)
{
	struct cursor c = {p, p + n};
	size_t used = 0;
	const char *name;
	size_t len;
	memset(f->found, 0, f->n_names * sizeof *f->found);
	if (!at(&c, '{'))
		return 0;
	c.p++;
	skip_ws(&c);
	if (at(&c, '}'))
		return (size_t)(c.p + 1 - p);
	for (;;) {
		if (!at(&c, '"') || !read_string(&c, true, &name, &len))
			return 0;
		skip_ws(&c);
		if (!at(&c, ':'))
			return 0;
		c.p++;
		skip_ws(&c);
		size_t k = len ? wanted(f, name, len) : f->n_names;
		if (k < f->n_names ? !read_member(&c, f, k, &used) : !skip_value(&c, 1))
			return 0;
		skip_ws(&c);
		if (at(&c, '}'))
			return (size_t)(c.p + 1 - p);
		if (!at(&c, ','))
			return 0;
		c.p++;
		skip_ws(&c);
	}
}
