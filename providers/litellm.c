/* litellm.c — LiteLLM's model_prices_and_context_window.json (a public
 * file in BerriAI/litellm, branch main): one object keyed by model name,
 * input_cost_per_token / output_cost_per_token as floats in USD per token.
 * The object is read as it streams, one entry at a time (json_members_new,
 * issue 16): memory is the candidates kept, not the file's cJSON tree. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

static const char path[] = "/BerriAI/litellm/main/model_prices_and_context_window.json";

/* Modes priced per token for generated text; embeddings, images, audio
 * and rerankers are priced otherwise and have no place on the api route. */
static bool text_mode(const char *mode)
{
	return !*mode || !strcmp(mode, "chat") || !strcmp(mode, "completion") ||
	       !strcmp(mode, "responses");
}

/* One text-mode entry, before id collisions are resolved. */
struct cand {
	char id[128];    /* "vendor/model" */
	char key[160];   /* the file's key (cut; only a tie-break) */
	bool prefixed;   /* the key already is the id ("deepseek/deepseek-chat") */
	double in, out;
	double cache_read, cache_write; /* cache_*_token_cost; 0 when absent */
	long ctx;
	struct api_tier tiers[API_MAX_TIERS]; /* ascending by above */
	int n_tiers;
};

/* The collision rule, so the row kept does not depend on the file's key
 * order: for one id, the entry whose key already carries the vendor
 * prefix (LiteLLM's own "vendor/model" spelling) wins over the bare key
 * the prefix was added to; then the lower input + output price; then the
 * key in byte order. In the map of 2026-07-24 the 13 priced collisions
 * (deepseek-chat / deepseek/deepseek-chat, …) are priced alike; the rule
 * still decides the context length kept. */
static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	if (c)
		return c;
	if (x->prefixed != y->prefixed)
		return x->prefixed ? -1 : 1;
	if (x->in + x->out != y->in + y->out)
		return x->in + x->out < y->in + y->out ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The N of a key "input_cost_per_token_above_<N>k_tokens" (N × 1000) or
 * "…_above_<N>_tokens", as LiteLLM's own cost code and peers read it
 * (BerriAI/litellm litellm_core_utils/llm_cost_calc: _is_above_128k is
 * prompt_tokens > 128000); 0 for any other key, e.g. the "_priority"
 * variants ("input_cost_per_token_above_200k_tokens_priority"). */
static long tier_key(const char *key)
{
	static const char stem[] = "input_cost_per_token_above_";
	if (strncmp(key, stem, sizeof stem - 1))
		return 0;
	const char *p = key + sizeof stem - 1;
	char *end;
	long n = strtol(p, &end, 10);
	if (end == p || n <= 0 || n > LONG_MAX / 1000)
		return 0;
	if (*end == 'k') {
		n *= 1000;
		end++;
	}
	return strcmp(end, "_tokens") ? 0 : n;
}

/* The entry's long-prompt tiers (222 entries of the map of 2026-07-24
 * carry *_above_128k/200k/256k/272k_tokens fields): the input price above
 * N, and the output price above N when given, else the base output
 * price. Kept ascending. */
static void read_tiers(const cJSON *m, struct cand *c)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, m)
	{
		long above = tier_key(f->string);
		double in, outp = c->out;
		char okey[96];
		if (!above || !pj_number(m, f->string, &in) || c->n_tiers == API_MAX_TIERS)
			continue;
		snprintf(okey, sizeof okey, "output%s", f->string + strlen("input"));
		pj_number(m, okey, &outp);
		int at = c->n_tiers;
		while (at > 0 && c->tiers[at - 1].above > above) {
			c->tiers[at] = c->tiers[at - 1];
			at--;
		}
		c->tiers[at] = (struct api_tier){
		    .above = above, .input_per_token = in, .output_per_token = outp};
		c->n_tiers++;
	}
}

/* Whether an entry writes text: supported_output_modalities, when there,
 * must name "text". In the map of 2026-07-24 three chat-mode entries
 * write audio only (gemini/gemini-2.5-pro-preview-tts, gemini/lyria-3-*);
 * text models that can also return images or audio (gpt-5.1 ["text",
 * "image"], gpt-audio ["text", "audio"]) are kept, priced per text
 * token. */
static bool text_output(const cJSON *m)
{
	const cJSON *outs = cJSON_GetObjectItemCaseSensitive(m, "supported_output_modalities");
	if (!cJSON_IsArray(outs))
		return true;
	const cJSON *o;
	cJSON_ArrayForEach(o, outs)
	{
		if (cJSON_IsString(o) && !strcmp(o->valuestring, "text"))
			return true;
	}
	return false;
}

/* Reads entry m into c; false (counted as skipped) when it is not a
 * priced text model. Entries priced 0 for input and output (every ollama/
 * and lemonade/ model, LoRA adapters, codestral-latest: 84 in the map of
 * 2026-07-24) are local or unpriced, not free offers. */
static bool read_entry(struct norm *out, const cJSON *m, struct cand *c)
{
	if (!m->string || !strcmp(m->string, "sample_spec") || !cJSON_IsObject(m))
		return false;
	/* A mode or vendor that is there but not a string is a broken entry,
	 * not a missing field: reading it as absent would list an embedding
	 * model as a chat model under a made-up name. */
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "mode");
	const cJSON *vend = cJSON_GetObjectItemCaseSensitive(m, "litellm_provider");
	if ((mode && !cJSON_IsString(mode)) || (vend && !cJSON_IsString(vend))) {
		out->skipped++;
		return false;
	}
	if (!text_mode(pj_str(m, "mode")) || !text_output(m) ||
	    !pj_number(m, "input_cost_per_token", &c->in) ||
	    !pj_number(m, "output_cost_per_token", &c->out) || (c->in == 0 && c->out == 0)) {
		out->skipped++;
		return false;
	}
	/* Keys are "gpt-4o-mini" (provider apart) or already
	 * "anthropic/claude-…"; the store wants "vendor/model". */
	const char *vendor = pj_str(m, "litellm_provider");
	size_t vl = strlen(vendor);
	snprintf(c->key, sizeof c->key, "%s", m->string);
	c->prefixed = !*vendor || (!strncmp(m->string, vendor, vl) && m->string[vl] == '/');
	if (c->prefixed)
		snprintf(c->id, sizeof c->id, "%s", m->string);
	else
		snprintf(c->id, sizeof c->id, "%s/%s", vendor, m->string);
	c->ctx = pj_count(m, "max_input_tokens", LONG_MAX);
	if (c->ctx <= 0)
		c->ctx = pj_count(m, "max_tokens", LONG_MAX);
	c->n_tiers = 0;
	read_tiers(m, c);
	/* Prompt caching: cache_read_input_token_cost (306 entries of the map
	 * of 2026-07-24) and cache_creation_input_token_cost (126), USD per
	 * token like the rest. */
	c->cache_read = c->cache_write = 0;
	pj_number(m, "cache_read_input_token_cost", &c->cache_read);
	pj_number(m, "cache_creation_input_token_cost", &c->cache_write);
	return true;
}

/* The currency a host's numbers in the map are: the file says USD, but a
 * host that publishes in euros is copied as its euro list price.
 * Scaleway: llama-3.3-70b-instruct is 0.90 EUR per million input and
 * output tokens on Scaleway's own billing example (scaleway/docs-content
 * pages/generative-apis/faq.mdx, commit b8bd443, 2025-04-11), and
 * scaleway/meta/llama-3.3-70b-instruct is 9e-07 / 9e-07 in the map of
 * 2026-07-24: the euro figure. */
static const char *host_currency(const char *id)
{
	return !strncmp(id, "scaleway/", 9) ? "EUR" : "USD";
}

/* The entries read so far, resolved into rows when the file has ended. */
struct lite {
	struct norm *out;
	struct cand *cs;
	size_t n, cap;
};

/* One member of the top-level object (json_item_fn). */
static int entry_item(void *ud, const cJSON *m, char **err)
{
	struct lite *l = ud;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct cand *cs = realloc(l->cs, cap * sizeof *cs);
		if (!cs)
			return set_err(err, PLANNER_ESYS, "out of memory");
		l->cs = cs;
		l->cap = cap;
	}
	if (read_entry(l->out, m, &l->cs[l->n]))
		l->n++;
	return PLANNER_OK;
}

/* One row per id, the collision rule's winner (cand_cmp). */
static int resolve(struct lite *l, char **err)
{
	struct norm *out = l->out;
	if (l->n)
		qsort(l->cs, l->n, sizeof *l->cs, cand_cmp);
	for (size_t i = 0; i < l->n; i++) {
		const struct cand *c = &l->cs[i];
		if (i > 0 && !strcmp(c->id, l->cs[i - 1].id)) {
			out->skipped++; /* a collision: the first of the id's entries won */
			continue;
		}
		if (!norm_api(out, c->id, c->in, c->out, c->ctx))
			continue;
		for (int t = 0; t < c->n_tiers; t++)
			provider_api_tier(out, c->tiers[t].above, c->tiers[t].input_per_token,
			                  c->tiers[t].output_per_token);
		if (!provider_api_cache(out, c->cache_read, c->cache_write))
			out->implausible++;
		snprintf(out->apis[out->n_apis - 1].currency, 4, "%s", host_currency(c->id));
	}
	return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
}

/* A body that is not an object: says what it is (HTML, not JSON, …). */
static int not_an_object(const char *body, size_t len, char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	cJSON_Delete(root);
	return set_err(err, PLANNER_ENET, "response is not an object of models");
}

/* The body read by the streaming reader a refresh uses, so the tests and
 * the fuzz harness cover it. */
static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	struct lite l = {.out = out};
	if (next)
		*next = NULL;
	struct json_items *s = json_members_new(entry_item, &l);
	if (!s)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = json_items_feed(s, body, len, err) ? json_items_finish(s, err) : PLANNER_ENET;
	if (rc == JSON_ITEMS_NONE)
		rc = not_an_object(body, len, err);
	if (rc == PLANNER_OK)
		rc = resolve(&l, err);
	json_items_free(s);
	free(l.cs);
	return rc;
}

/* What the stream's sink and reset work on. */
struct lite_stream {
	struct lite l;
	struct json_items *items;
	size_t total, cap;       /* bytes of this attempt; the body cap */
	size_t skipped, implausible; /* the norm's counts before the first attempt */
};

static bool on_chunk(void *ud, const char *p, size_t n, char **err)
{
	struct lite_stream *c = ud;
	c->total += n;
	/* The cap of a buffered body (http.c): an endless body is not a feed. */
	return json_items_capped(c->total, c->cap, err) && json_items_feed(c->items, p, n, err);
}

/* A retried attempt starts over. */
static void on_reset(void *ud)
{
	struct lite_stream *c = ud;
	json_items_reset(c->items);
	c->total = 0;
	c->l.n = 0;
	c->l.out->skipped = c->skipped;
	c->l.out->implausible = c->implausible;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	struct lite_stream c = {.l = {.out = fx->out}, .cap = fx->http->max_body,
	                        .skipped = fx->out->skipped, .implausible = fx->out->implausible};
	const char *headers[] = {"Accept: application/json", NULL};
	struct http_response resp = {0};
	char *url = provider_url(fx, path);
	int rc;
	c.items = json_members_new(entry_item, &c.l);
	if (!url || !c.items) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	struct http_request req = {.url = url, .headers = headers, .sink = on_chunk,
	                           .reset = on_reset, .ud = &c};
	rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK && (rc = json_items_finish(c.items, err)) == JSON_ITEMS_NONE) {
		/* Not an object: an HTML page or an error, read whole when short. */
		size_t len;
		bool whole;
		const char *body = json_items_prefix(c.items, &len, &whole);
		rc = whole ? not_an_object(body, len, err)
		           : set_err(err, PLANNER_ENET, "response is not an object of models");
	}
	if (rc == PLANNER_OK)
		rc = resolve(&c.l, err);
out:
	http_response_free(&resp);
	json_items_free(c.items);
	free(c.l.cs);
	free(url);
	return rc;
}

const struct provider provider_litellm = {
	.name = "litellm",
	.kind = PROVIDER_API,
	.base_url = "https://raw.githubusercontent.com",
	.summary = "LiteLLM's public per-token price map (OpenAI, Anthropic, Bedrock, …)",
	.fetch = fetch,
	.parse = parse,
};
