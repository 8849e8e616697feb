/* fuzz_aws_csv.c — the AWS price-list CSV stream parser. The input is fed
 * three ways: whole, in pieces whose sizes (empty ones included) come from
 * the input itself, and whole again after aws_csv_reset. The stream is
 * documented to accept "any split", so all three must agree. */
#include <stdbool.h>
#include <stdlib.h>

#include "aws.h"
#include "fuzz.h"

/* Largest piece fed at once in the split run; small, so lines and quoted
 * fields straddle pieces often. */
#define FUZZ_MAX_PIECE 64

struct outcome {
	bool ok;        /* feed and finish both succeeded */
	size_t rows;    /* aws_csv_rows */
	size_t offers;  /* rows the normaliser kept */
	size_t skipped; /* rows it dropped */
};

static bool feed_split(struct aws_csv *a, const uint8_t *data, size_t size, char **err)
{
	/* A fixed xorshift seeded from the input: the same input always splits
	 * the same way, so a reproducer replays. */
	uint32_t x = 2463534242u ^ (uint32_t)size ^ (size ? data[0] : 0);
	size_t off = 0;
	while (off < size) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		size_t piece = x % (FUZZ_MAX_PIECE + 1);
		if (piece > size - off)
			piece = size - off;
		if (!aws_csv_feed(a, (const char *)data + off, piece, err))
			return false;
		off += piece;
	}
	return true;
}

/* mode 0: whole; 1: split; 2: split, reset, whole. */
static int run(int mode, const uint8_t *data, size_t size, struct outcome *res)
{
	struct norm n;
	char *err = NULL;
	norm_init(&n, fuzz_ref(), "aws");
	struct aws_csv *a = aws_csv_new(&n, "us-east-1");
	if (!a) {
		norm_free(&n);
		return fuzz_fail("aws_csv", "aws_csv_new failed");
	}
	bool ok = true;
	if (mode == 0)
		ok = aws_csv_feed(a, (const char *)data, size, &err);
	else
		ok = feed_split(a, data, size, &err);
	if (mode == 2) {
		free(err);
		err = NULL;
		aws_csv_reset(a);
		ok = aws_csv_feed(a, (const char *)data, size, &err);
	}
	ok = ok && aws_csv_finish(a, &err);
	int bad = !ok && !err ? fuzz_fail("aws_csv", "a failure without a message") : 0;
	*res = (struct outcome){.ok = ok,
				.rows = aws_csv_rows(a),
				.offers = n.n_offers,
				.skipped = n.skipped};
	aws_csv_free(a);
	norm_free(&n);
	free(err);
	return bad;
}

int fuzz_aws_csv(const uint8_t *data, size_t size)
{
	struct outcome whole, split, again;
	if (run(0, data, size, &whole) || run(1, data, size, &split) ||
	    run(2, data, size, &again))
		return -1;
	if (whole.ok != split.ok || (whole.ok && (whole.rows != split.rows ||
						  whole.offers != split.offers)))
		return fuzz_fail("aws_csv", "feeding in pieces gives a different result");
	if (whole.ok != again.ok || (whole.ok && (whole.rows != again.rows ||
						  whole.offers != again.offers)))
		return fuzz_fail("aws_csv", "aws_csv_reset does not start over");
	return 0;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_aws_csv(data, size))
		abort();
	return 0;
}
#endif
