/* fuzz_provider.c — one provider adapter's parse() on a response body.
 * `make fuzz` builds it once per adapter with -DPROVIDER=<name>. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "provider.h"
#include "util.h"

/* What every row norm_offer and norm_api let through must satisfy. */
static int check_rows(const struct norm *n)
{
	for (size_t i = 0; i < n->n_offers; i++) {
		const struct offer *o = &n->offers[i];
		if (o->gpu_count <= 0 || !(o->price_per_hour > 0) ||
		    !(o->price_per_hour <= NORM_MAX_PRICE_PER_HOUR) || !*o->offer || !*o->gpu)
			return fuzz_fail(n->provider, "an offer with no id, GPU, count or price");
	}
	for (size_t i = 0; i < n->n_apis; i++) {
		const struct api_price *a = &n->apis[i];
		if (!*a->model || !(a->input_per_token >= 0) || !(a->output_per_token >= 0) ||
		    !(a->input_per_token <= NORM_MAX_PRICE_PER_TOKEN) ||
		    !(a->output_per_token <= NORM_MAX_PRICE_PER_TOKEN))
			return fuzz_fail(n->provider, "an API price with no model or a bad price");
	}
	return 0;
}

int fuzz_provider(const char *name, const uint8_t *data, size_t size)
{
	const struct provider *p = provider_find(name);
	if (!p)
		return fuzz_fail(name, "no such provider");
	struct norm n;
	char *next = NULL, *err = NULL;
	norm_init(&n, fuzz_ref(), p->name);
	int rc = p->parse(&n, (const char *)data, size, &next, &err);
	int bad = 0;
	if (rc != PLANNER_OK && !err)
		bad = fuzz_fail(name, "an error without a message");
	else if (rc == PLANNER_OK)
		bad = check_rows(&n);
	if (next && !*next)
		bad = fuzz_fail(name, "an empty next-page link");
	norm_free(&n);
	free(next);
	free(err);
	return bad;
}

#ifdef FUZZ_LIBFUZZER
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_provider(FUZZ_STR(PROVIDER), data, size))
		abort();
	return 0;
}
#endif
