/* api_model.c — the matching key of API model ids (see api_model.h). */
#include "api_model.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Longest key and word handled; longer ids are cut, and match exactly. */
#define KEY_MAX 160
#define WORDS_MAX 24

/* Words a host appends to an open model's name for the same weights
 * (LiteLLM's map of 2026-07-24 and OpenRouter's list of 2026-08-01,
 * tests/fixtures/real/: "-Instruct-Turbo" at Together, "-versatile" and
 * "-instant" at Groq, "-fp8" at Lambda, "-maas" at Vertex, "-it" for
 * Gemma's instruction-tuned weights). */
static const char *const dropped[] = {"instruct", "it",   "turbo", "versatile", "instant",
				      "fp8",      "fp16", "bf16",  "maas",      "hf"};

/* Org prefixes inside the last segment ("Meta-Llama-3.1-…" at DeepInfra,
 * "meta.llama-…" at OCI, "open-mixtral-8x7b" at Mistral). */
static const char *const leading[] = {"meta", "open"};

static bool in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return true;
	return false;
}

/* "70b", "8x7b", "0.5b": a parameter count. */
static bool is_size(const char *w)
{
	size_t n = strlen(w);
	if (n < 2 || w[n - 1] != 'b' || !isdigit((unsigned char)w[0]))
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!isdigit((unsigned char)w[i]) && w[i] != '.' && w[i] != 'x')
			return false;
	return true;
}

/* Rewrites a version word in place: "v3p1" → "3.1", "v0.3" → "0.3". */
static void version_word(char *w)
{
	if (w[0] != 'v' || !isdigit((unsigned char)w[1]))
		return;
	for (size_t i = 1; w[i]; i++)
		if (!isdigit((unsigned char)w[i]) && w[i] != '.' && w[i] != 'p')
			return;
	memmove(w, w + 1, strlen(w));
	for (char *p = w; *p; p++)
		if (*p == 'p')
			*p = '.';
}

/* Splits the lower-cased segment s (modified) into words; returns count. */
static size_t split(char *s, char *words[], size_t max)
{
	size_t n = 0, len = strlen(s);
	for (size_t i = 0; i < len; i++) {
		bool digit_sep = (s[i] == '.' || s[i] == '_') && i > 0 && isdigit((unsigned char)s[i - 1]) &&
				 isdigit((unsigned char)s[i + 1]);
		if (digit_sep)
			s[i] = '.';
		else if (!isalnum((unsigned char)s[i]))
			s[i] = '\0';
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] && (i == 0 || !s[i - 1]) && n < max)
			words[n++] = &s[i];
	return n;
}

/* Appends word w to the key in buf (at *out of len), unless the rule
 * drops it; notes whether it is a parameter count. */
static void emit(const char *w, bool first, char *buf, size_t len, size_t *out, bool *sized)
{
	if (!*w || in_list(w, dropped, sizeof dropped / sizeof *dropped) ||
	    (first && in_list(w, leading, sizeof leading / sizeof *leading)) || *out >= len)
		return;
	*sized = *sized || is_size(w);
	int k = snprintf(buf + *out, len - *out, "%s%s", *out ? "-" : "", w);
	*out = k < 0 || (size_t)k >= len - *out ? len : *out + (size_t)k;
}

bool api_model_key(const char *id, char *buf, size_t len)
{
	char seg[KEY_MAX];
	char *words[WORDS_MAX];
	size_t out = 0;
	bool sized = false;
	const char *slash = strrchr(id ? id : "", '/');
	snprintf(seg, sizeof seg, "%s", slash ? slash + 1 : (id ? id : ""));
	for (char *p = seg; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	size_t n = split(seg, words, WORDS_MAX);
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char *w = words[i], family[KEY_MAX];
		version_word(w);
		if (in_list(w, dropped, sizeof dropped / sizeof *dropped))
			continue; /* whole, before "fp8" could split */
		size_t letters = strspn(w, "abcdefghijklmnopqrstuvwxyz");
		if (letters >= 2 && isdigit((unsigned char)w[letters])) {
			/* "llama3.1": the family, then the version as its own word. */
			snprintf(family, sizeof family, "%.*s", (int)letters, w);
			emit(family, i == 0, buf, len, &out, &sized);
			w += letters;
		}
		emit(w, i == 0, buf, len, &out, &sized);
	}
	return sized && out < len;
}

bool api_model_matches(const char *want, const char *model)
{
	char a[KEY_MAX], b[KEY_MAX];
	if (!strcasecmp(want, model))
		return true;
	if (!api_model_key(want, a, sizeof a))
		return false;
	api_model_key(model, b, sizeof b);
	return !strcmp(a, b);
}
