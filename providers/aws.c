/* aws.c — the EC2 bulk price list, one CSV per region
 * (/offers/v1.0/aws/AmazonEC2/current/<region>/index.csv, hundreds of MB).
 * The CSV is parsed as it streams in: one partial line is carried between
 * chunks, so memory does not grow with the file. Five preamble lines come
 * before the header row; non-empty values are quoted, empty ones are bare
 * ("USD",,"3yr": tests/fixtures/real/aws, the 2025-09-12 index). Prices are USD per
 * instance-hour; the GPU model comes from the instance family (a table),
 * the GPU count from the GPU column. A CPU-only family of the table is one
 * offer of its CPU part, sized by its vCPU and Memory columns (issue 28).
 * No spot prices in this file. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws.h"
#include "provider.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A price-list row is under 2 KB; a "line" of a megabyte is not CSV. */
#define AWS_MAX_LINE (1L << 20)

/* Regions asked for when neither --aws-regions nor PLANNER_AWS_REGIONS
 * says: the US ones with every current GPU family, and the EU ones with
 * GPU instances (Ireland, Frankfurt, Stockholm; AWS "Amazon EC2 instance
 * types by Region", docs.aws.amazon.com/ec2/latest/instancetypes/
 * ec2-instance-regions.html, read 2026-11-30; issue 11). */
#define AWS_DEFAULT_REGIONS "us-east-1,us-west-2,eu-west-1,eu-central-1,eu-north-1"

/* Instance families with GPUs, from the EC2 accelerated-computing
 * instance pages (aws.amazon.com/ec2/instance-types/#Accelerated_Computing,
 * docs.aws.amazon.com/ec2/latest/instancetypes/ac.html), read 2026-11-30,
 * and gpuhunt's AWS allow-list (dstackai/gpuhunt, src/gpuhunt/providers/
 * aws.py, snapshot 35841515de3792fe6be73b0422ac8901b6b929c8). A GPU
 * planner's table lacks (GB200, B300, T4G, Radeon Pro V520, RTX PRO) is
 * reported by its name until schema/gpus.json has it. The longer family
 * name must come first where one is a prefix of the other only through
 * the '.' (matching is on the whole name before the '.'). */
static const struct aws_family {
	const char *family; /* the instance type before the '.' */
	const char *gpu;    /* canonical name or an alias: a GPU, or (cpu_families)
	                     * the CPU part */
} families[] = {
	{"p6-b200", "B200"},   {"p5en", "H200"},      {"p5e", "H200"},    {"p5", "H100 SXM"},
	{"p4de", "A100 80GB"}, {"p4d", "A100 40GB"},  {"p3dn", "V100 32GB"},
	{"p3", "V100 16GB"},   {"g6e", "L40S"},       {"g6", "L4"},       {"g5", "A10G"},
	{"g4dn", "T4"},
	/* Gr6: L4 GPUs with a higher CPU:memory ratio (AWS, "Amazon EC2 G6
	 * instances", aws.amazon.com/ec2/instance-types/g6/). */
	{"gr6", "L4"},
	/* G5g: Graviton2 with "NVIDIA T4G Tensor Core GPUs" (aws.amazon.com/
	 * ec2/instance-types/g5g/). */
	{"g5g", "T4G"},
	/* G4ad: "AMD Radeon Pro V520 GPUs" (aws.amazon.com/ec2/instance-types/
	 * g4/). */
	{"g4ad", "Radeon Pro V520"},
	/* P6-B300 (B300) and P6e-GB200 (GB200 NVL72 UltraServers): AWS, "Amazon
	 * EC2 P6 instances", aws.amazon.com/ec2/instance-types/p6/. */
	{"p6-b300", "B300"},
	{"p6e-gb200", "GB200"},
	/* G7e: RTX PRO 6000 Blackwell Server Edition (nvidia.com/gpu.product
	 * label in aws/sagemaker-hyperpod-cli PR 390, 2026-03-17); G7: RTX PRO
	 * 4500 Blackwell Server Edition (kubernetes/autoscaler issue 9854,
	 * GA 2026-06-18) (unconfirmed at an AWS page). */
	{"g7e", "RTX PRO 6000 Blackwell Server Edition"},
	{"g7", "RTX PRO 4500 Blackwell Server Edition"},
};

/* CPU-only families whose part schema/gpus.json has (issue 28): a
 * small model on llama.cpp is priced on them beside the GPUs. C7i:
 * Xeon Platinum 8488C (Sapphire Rapids); C7a: EPYC 9R14 (Genoa);
 * the parts' entries give their sources. Only the compute-optimised
 * families for now: their memory (2 GiB a vCPU) tells their sizes
 * apart, and compare's offer kinds are keyed by memory, not vCPUs
 * (plan.c, offer_kinds_add), so m7i/r7i sizes of the same memory
 * as a c7i would be taken for it. Flex and burstable families (the
 * type before the '.' is "c7i-flex", "t3") are not matched: they do
 * not sustain their vCPUs. */
static const struct aws_family cpu_families[] = {
	{"c7i", "Xeon Platinum 8488C"},
	{"c7a", "EPYC 9R14"},
};

/* The columns read, by header name. */
enum col {
	C_TERM, C_UNIT, C_PRICE, C_CURRENCY, C_TYPE, C_VCPU, C_MEMORY, C_GPU, C_TENANCY, C_OS,
	C_SOFTWARE, C_CAPACITY, C_MARKET, C_REGION, C_SKU, C_TERM_CODE, C_LEASE, C_PURCHASE,
	C_CLASS, C_COUNT
};
static const char *const col_names[C_COUNT] = {
	[C_TERM] = "TermType",
	[C_UNIT] = "Unit",
	[C_PRICE] = "PricePerUnit",
	[C_CURRENCY] = "Currency",
	[C_TYPE] = "Instance Type",
	[C_VCPU] = "vCPU",
	[C_MEMORY] = "Memory",
	[C_GPU] = "GPU",
	[C_TENANCY] = "Tenancy",
	[C_OS] = "Operating System",
	[C_SOFTWARE] = "Pre Installed S/W",
	[C_CAPACITY] = "CapacityStatus",
	[C_MARKET] = "MarketOption",
	[C_REGION] = "Region Code",
	[C_SKU] = "SKU",
	[C_TERM_CODE] = "OfferTermCode",
	[C_LEASE] = "LeaseContractLength",
	[C_PURCHASE] = "PurchaseOption",
	[C_CLASS] = "OfferingClass",
};

/* A value a row must have in a column to be kept; NULL: no test. Tested
 * as soon as the field is reached, so most rows end after a few fields. */
static const char *const must_be[C_COUNT] = {
	[C_CURRENCY] = "USD",   [C_TENANCY] = "Shared",  [C_OS] = "Linux",
	[C_CAPACITY] = "Used",
};

/* A Reserved term (issue 29) comes as two rows of one SKU and
 * OfferTermCode, one after the other in the price list: the hourly rate
 * (Unit "Hrs") and, unless it is No Upfront, the "Upfront Fee" (Unit
 * "Quantity"). Seen in the recorded head of the 2025-09-12 list
 * (tests/fixtures/real/aws, SKU 2223B6PCG6QAUYY6). The rows of one term
 * are gathered here and made one commitment when the next term begins. */
struct aws_pending {
	bool open;
	char key[64];        /* SKU.OfferTermCode */
	char type[64], region[64], term[4], option[32];
	const struct aws_family *fam;
	int gpus;
	double vcpu, mem, hourly, upfront;
	bool have_hourly, have_fee;
};

struct span {
	const char *p;
	size_t n;
};

struct aws_csv {
	struct norm *out;        /* rows go here (borrowed) */
	char region[64];         /* the file's region, when a row lacks Region Code */
	char *carry;             /* the partial line between chunks (owned) */
	size_t carry_len, carry_cap;
	size_t peak;             /* largest carry_cap, for the memory test */
	bool have_header;
	/* The columns read, in the order they come in a row: a row skips
	 * the fields between two of them without looking at their values. */
	struct {
		int idx;      /* the column's index in the row (< 256) */
		enum col col;
	} plan[C_COUNT];
	int n_plan;
	unsigned have;           /* bit c: the header has column c */
	struct aws_pending pend; /* the Reserved term being read */
	size_t terms_at_start;   /* norm commitments before this stream */
	size_t rows;             /* data rows seen */
	size_t offers_at_start;  /* norm rows before this stream (reset drops back) */
	size_t apis_at_start;
	/* The status of the last failure: the streaming sink can hand libcurl
	 * only true or false, and http.c reports any sink abort as a feed
	 * error (3), so fetch reads the cause here: out of memory is 5. */
	int fail;
};

struct aws_csv *aws_csv_new(struct norm *out, const char *region)
{
	struct aws_csv *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->out = out;
	snprintf(a->region, sizeof a->region, "%s", region ? region : "");
	a->offers_at_start = norm_offers_total(out); /* flushed ones too (norm_truncate) */
	a->apis_at_start = out->n_apis;
	a->terms_at_start = out->n_terms;
	return a;
}

void aws_csv_reset(struct aws_csv *a)
{
	norm_truncate(a->out, a->offers_at_start, a->apis_at_start);
	if (a->out->n_terms > a->terms_at_start)
		a->out->n_terms = a->terms_at_start;
	a->pend.open = false;
	a->carry_len = 0;
	a->have_header = false;
	a->rows = 0;
	a->fail = PLANNER_OK;
	a->n_plan = 0;
	a->have = 0;
}

void aws_csv_free(struct aws_csv *a)
{
	if (!a)
		return;
	free(a->carry);
	free(a);
}

size_t aws_csv_rows(const struct aws_csv *a)
{
	return a->rows;
}

size_t aws_csv_peak_buffer(const struct aws_csv *a)
{
	return a->peak;
}

static bool span_is(struct span s, const char *v)
{
	size_t n = strlen(v);
	return s.n == n && !memcmp(s.p, v, n);
}

/* span_is for the must_be values, whose first byte rules most rows out
 * without a strlen or memcmp call. */
static bool span_must(struct span s, const char *v)
{
	return s.n > 0 && s.p[0] == v[0] && span_is(s, v);
}

/* Copies a field, undoing "" escapes, into a NUL-terminated buffer. */
static void span_copy(struct span s, char *dst, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < s.n && k + 1 < len; i++) {
		if (s.p[i] == '"' && i + 1 < s.n && s.p[i + 1] == '"')
			i++;
		dst[k++] = s.p[i];
	}
	dst[k] = '\0';
}

/* The first byte c in [q, end), or NULL: memchr inline, sixteen bytes a
 * step with SSE2 (every x86-64 has it). A field is 1-60 bytes; a call to
 * memchr for each one, and before it a byte loop, were the largest
 * user-space cost of a refresh (perf, bench/README.md). */
static inline const char *find_byte(const char *q, const char *end, char c)
{
#if defined(__SSE2__)
	const __m128i pat = _mm_set1_epi8(c);
	for (; end - q >= 16; q += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, pat));
		if (m)
			return q + __builtin_ctz(m);
	}
	for (; q < end; q++)
		if (*q == c)
			return q;
	return NULL;
#else
	return q < end ? memchr(q, c, (size_t)(end - q)) : NULL;
#endif
}

/* The next field of line [*p, end): its value without quotes (escapes
 * left in), and *p moved past the comma. false at the end of the line.
 * A gigabyte of rows is scanned up to column 3 for all of them and up to
 * column 20 for a quarter (the OnDemand ones); this and find_byte are
 * most of the parser's time. */
static inline bool next_field(const char **p, const char *end, struct span *f)
{
	const char *s = *p;
	if (s > end)
		return false;
	if (s < end && *s == '"') {
		const char *q = s + 1;
		for (;;) {
			q = find_byte(q, end, '"');
			if (!q) { /* unterminated quote: take the rest */
				f->p = s + 1;
				f->n = (size_t)(end - s - 1);
				*p = end + 1;
				return true;
			}
			if (q + 1 < end && q[1] == '"') {
				q += 2;
				continue;
			}
			break;
		}
		f->p = s + 1;
		f->n = (size_t)(q - s - 1);
		*p = q + 1 < end ? q + 2 : end + 1; /* past '",' */
		return true;
	}
	const char *c = find_byte(s, end, ',');
	if (!c)
		c = end;
	f->p = s;
	f->n = (size_t)(c - s);
	*p = c + 1;
	return true;
}

static const struct aws_family *family_of(struct span type)
{
	const char *dot = memchr(type.p, '.', type.n);
	size_t n = dot ? (size_t)(dot - type.p) : type.n;
	/* The first byte and the length rule out all but one or two rows of
	 * the table before any memcmp. */
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (n && families[i].family[0] == type.p[0] &&
		    strnlen(families[i].family, n + 1) == n && !memcmp(families[i].family, type.p, n))
			return &families[i];
	for (size_t i = 0; i < sizeof cpu_families / sizeof cpu_families[0]; i++)
		if (n && strnlen(cpu_families[i].family, n + 1) == n &&
		    !memcmp(cpu_families[i].family, type.p, n))
			return &cpu_families[i];
	return NULL;
}

/* Whether f is a CPU-only family (of cpu_families). */
static bool cpu_family(const struct aws_family *f)
{
	return f >= cpu_families && f < cpu_families + sizeof cpu_families / sizeof cpu_families[0];
}

static void read_header(struct aws_csv *a, const char *p, const char *end)
{
	struct span f;
	int idx = 0;
	a->n_plan = 0;
	a->have = 0;
	while (idx < 256 && next_field(&p, end, &f)) {
		for (int c = 0; c < C_COUNT; c++)
			if (!(a->have & 1u << c) && span_is(f, col_names[c])) {
				a->plan[a->n_plan].idx = idx;
				a->plan[a->n_plan++].col = (enum col)c;
				a->have |= 1u << c;
			}
		idx++;
	}
	/* The preamble rows ("FormatVersion","v1.0" …) have none of these. */
	a->have_header = (a->have & 1u << C_TERM) && (a->have & 1u << C_TYPE) &&
	                 (a->have & 1u << C_PRICE) && (a->have & 1u << C_GPU);
	if (!a->have_header) {
		a->n_plan = 0;
		a->have = 0;
	}
}

/* Whether column c's value f lets the row go on, given the row's values
 * v read so far; *fam is set at the instance type. A row is an OnDemand
 * hour, or a Reserved term's hourly rate or upfront fee. */
static bool field_passes(enum col c, struct span f, const struct span *v,
                         const struct aws_family **fam)
{
	if (must_be[c] && !span_must(f, must_be[c]))
		return false;
	if (c == C_TERM && !span_must(f, "OnDemand") && !span_must(f, "Reserved"))
		return false;
	if (c == C_UNIT && !span_must(f, "Hrs") &&
	    !(span_is(v[C_TERM], "Reserved") && span_must(f, "Quantity")))
		return false;
	if (c == C_TYPE && !(*fam = family_of(f))) {
		/* GPU families the table lacks start with g or p (g4ad,
		 * g5g, p2): read on so the GPU column can report them. */
		if (!f.n || (f.p[0] != 'g' && f.p[0] != 'p'))
			return false;
	}
	if (c == C_SOFTWARE && f.n && !span_is(f, "NA"))
		return false;
	if (c == C_MARKET && f.n && !span_is(f, "OnDemand"))
		return false;
	return true;
}

/* Reads the columns of the plan in order, skipping the fields between
 * them, and stops at the first that fails: most rows end at TermType
 * (column 4) or Instance Type (20). false when the row is left out. */
static bool read_fields(const struct aws_csv *a, const char *p, const char *end, struct span *v,
                        const struct aws_family **fam)
{
	struct span f;
	int idx = 0;
	for (int k = 0; k < a->n_plan; k++) {
		for (; idx < a->plan[k].idx; idx++)
			if (!next_field(&p, end, &f))
				return false; /* short row */
		if (!next_field(&p, end, &f))
			return false;
		idx++;
		enum col c = a->plan[k].col;
		v[c] = f;
		if (!field_passes(c, f, v, fam))
			return false;
	}
	for (int c = 0; c < C_COUNT; c++) /* columns the header lacks: empty */
		if (!(a->have & 1u << c))
			v[c] = (struct span){0};
	return true;
}

/* The pending term as a commitment; nothing when none is open. */
static void emit_pending(struct aws_csv *a)
{
	struct aws_pending *t = &a->pend;
	if (!t->open)
		return;
	t->open = false;
	/* A fee with no rate, or a Partial or All Upfront rate whose fee row
	 * is missing (the recorded head ends after one such rate, SKU
	 * 222AMNDXSFRESBBK HU7G6KETJZ): not a whole term, so not a price. */
	if (!t->have_hourly || (strncmp(t->option, "No Upfront", 10) && !t->have_fee)) {
		a->out->skipped++;
		return;
	}
	struct raw_offer r = {
		.offer = t->type,
		.region = *t->region ? t->region : a->region,
		.gpu_name = t->fam->gpu,
		.gpu_count = t->gpus,
		.vcpus = t->vcpu,
		.ram_gib = t->mem,
		.price = t->hourly,
		.available = true,
	};
	norm_term(a->out, &r, t->term, t->option, t->upfront);
}

/* One Reserved row of a known family into the pending term: a new
 * SKU.OfferTermCode ends the one before. */
static void add_reserved(struct aws_csv *a, const struct span *v, const struct aws_family *fam,
                         int gpus, double vcpu, double mem, double price)
{
	char key[64], lease[16], option[20], cls[16];
	struct span sku = v[C_SKU], code = v[C_TERM_CODE];
	snprintf(key, sizeof key, "%.*s.%.*s", (int)(sku.n < 30 ? sku.n : 30), sku.p,
	         (int)(code.n < 30 ? code.n : 30), code.p);
	struct aws_pending *t = &a->pend;
	if (t->open && strcmp(t->key, key))
		emit_pending(a);
	if (!t->open) {
		memset(t, 0, sizeof *t);
		t->open = true;
		snprintf(t->key, sizeof t->key, "%s", key);
		span_copy(v[C_TYPE], t->type, sizeof t->type);
		span_copy(v[C_REGION], t->region, sizeof t->region);
		span_copy(v[C_LEASE], lease, sizeof lease);
		span_copy(v[C_PURCHASE], option, sizeof option);
		span_copy(v[C_CLASS], cls, sizeof cls);
		/* "1yr" / "3yr"; anything else stays "", a term norm_term counts */
		if (!strcmp(lease, "1yr") || !strcmp(lease, "3yr"))
			snprintf(t->term, sizeof t->term, "%cy", lease[0]);
		/* a convertible term is its own price beside the standard one */
		snprintf(t->option, sizeof t->option, "%s%s", option,
		         !strcmp(cls, "convertible") ? " convertible" : "");
		t->fam = fam;
		t->gpus = gpus;
		t->vcpu = vcpu;
		t->mem = mem;
	}
	if (span_is(v[C_UNIT], "Hrs")) {
		t->hourly = price;
		t->have_hourly = true;
	} else {
		t->upfront = price;
		t->have_fee = true;
	}
}

static void read_row(struct aws_csv *a, const char *p, const char *end)
{
	struct span v[C_COUNT] = {{0}};
	const struct aws_family *fam = NULL;
	a->rows++;
	if (!read_fields(a, p, end, v, &fam))
		return;
	char type[64], num[32], region[64];
	span_copy(v[C_GPU], num, sizeof num);
	double gpus = 0, price = 0, vcpu = 0, mem = 0;
	bool has_gpu = norm_number(num, &gpus) && gpus > 0;
	if (fam && cpu_family(fam)) {
		if (has_gpu) { /* a CPU family row with a GPU: not what the table says */
			a->out->skipped++;
			return;
		}
		gpus = 1; /* one VM: its share of the CPU, by its vCPUs */
	} else if (!has_gpu) {
		return; /* no GPU: not an offer for us */
	}
	span_copy(v[C_TYPE], type, sizeof type);
	bool reserved = span_is(v[C_TERM], "Reserved");
	if (!fam && reserved)
		return; /* its OnDemand row reports the unknown family */
	if (!fam) {
		norm_gpu(a->out, type, 0); /* reported as unknown */
		return;
	}
	span_copy(v[C_PRICE], num, sizeof num);
	norm_number(num, &price);
	span_copy(v[C_VCPU], num, sizeof num);
	norm_number(num, &vcpu);
	span_copy(v[C_MEMORY], num, sizeof num);
	mem = strtod(num, NULL); /* "244 GiB" */
	span_copy(v[C_REGION], region, sizeof region);
	if (gpus > INT_MAX || gpus != floor(gpus) || (cpu_family(fam) && !(vcpu > 0 && mem > 0))) {
		/* a fraction of a GPU (g6f), or a CPU VM without its size */
		a->out->skipped++;
		return;
	}
	if (reserved) {
		add_reserved(a, v, fam, (int)gpus, vcpu, mem, price);
		return;
	}
	struct raw_offer r = {
		.offer = type,
		.region = *region ? region : a->region,
		.gpu_name = fam->gpu,
		.gpu_count = (int)gpus,
		.vcpus = vcpu,
		.ram_gib = mem,
		.price = price,
		.available = true,
	};
	norm_offer(a->out, &r);
}

static void read_line(struct aws_csv *a, const char *p, size_t n)
{
	if (n && p[n - 1] == '\r')
		n--;
	if (a->have_header)
		read_row(a, p, p + n);
	else
		read_header(a, p, p + n);
}

static bool carry_append(struct aws_csv *a, const char *p, size_t n, char **err)
{
	if (a->carry_len + n > (size_t)AWS_MAX_LINE) {
		a->fail =
		    set_err(err, PLANNER_ENET,
		            "price list has a line over %ld bytes; not the EC2 CSV", AWS_MAX_LINE);
		return false;
	}
	if (a->carry_len + n > a->carry_cap) {
		size_t cap = a->carry_cap ? a->carry_cap : 4096;
		while (cap < a->carry_len + n)
			cap *= 2;
		char *c = realloc(a->carry, cap);
		if (!c) {
			a->fail = set_err(err, PLANNER_ESYS, "out of memory");
			return false;
		}
		a->carry = c;
		a->carry_cap = cap;
		if (cap > a->peak)
			a->peak = cap;
	}
	memcpy(a->carry + a->carry_len, p, n);
	a->carry_len += n;
	return true;
}

bool aws_csv_feed(struct aws_csv *a, const char *p, size_t n, char **err)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		if (!nl)
			return carry_append(a, p, n, err);
		size_t len = (size_t)(nl - p);
		/* The cap holds for a line arriving whole, too, so the outcome
		 * does not depend on how the stream was split. */
		if (!a->carry_len && len > (size_t)AWS_MAX_LINE)
			return carry_append(a, p, len, err);
		if (a->carry_len) {
			if (!carry_append(a, p, len, err))
				return false;
			read_line(a, a->carry, a->carry_len);
			a->carry_len = 0;
		} else {
			read_line(a, p, len);
		}
		if (a->out->oom) {
			a->fail = set_err(err, PLANNER_ESYS, "out of memory");
			return false;
		}
		/* A full batch of rows on to the refresh's sink, so the rows
		 * kept are a batch, not every GPU row of the file (issue 16: a
		 * 2.2 GB price list of 4 million such rows peaked at 1.2 GB
		 * when all were held to the end). */
		if (a->out->n_offers >= NORM_FLUSH_ROWS && (a->fail = norm_flush(a->out, err)))
			return false;
		p = nl + 1;
		n -= len + 1;
	}
	return true;
}

bool aws_csv_finish(struct aws_csv *a, char **err)
{
	if (a->carry_len) {
		read_line(a, a->carry, a->carry_len);
		a->carry_len = 0;
	}
	emit_pending(a);
	if (a->out->oom) {
		a->fail = set_err(err, PLANNER_ESYS, "out of memory");
		return false;
	}
	if (!a->have_header) {
		a->fail =
		    set_err(err, PLANNER_ENET,
		            "response is not the EC2 price list CSV (no header row with TermType)");
		return false;
	}
	return true;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	struct aws_csv *a = aws_csv_new(out, "");
	if (!a)
		return set_err(err, PLANNER_ESYS, "out of memory");
	bool ok = aws_csv_feed(a, body, len, err) && aws_csv_finish(a, err);
	int rc = ok ? PLANNER_OK : a->fail ? a->fail : PLANNER_ENET;
	aws_csv_free(a);
	return rc;
}

static bool on_chunk(void *ud, const char *p, size_t n, char **err)
{
	return aws_csv_feed(ud, p, n, err);
}

static void on_reset(void *ud)
{
	aws_csv_reset(ud);
}

/* A region code is letters, digits and dashes ("us-east-1"). */
static bool region_ok(const char *r, size_t n)
{
	if (n == 0 || n > 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((r[i] >= 'a' && r[i] <= 'z') || (r[i] >= '0' && r[i] <= '9') || r[i] == '-'))
			return false;
	return true;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	/* --aws-regions, else $PLANNER_AWS_REGIONS */
	const char *regions = provider_option(fx, "regions");
	if (!regions)
		regions = AWS_DEFAULT_REGIONS;
	snprintf(fx->out->source, sizeof fx->out->source,
		 "%s/offers/v1.0/aws/AmazonEC2/current/<region>/index.csv", fx->base);
	int rc = PLANNER_OK;
	for (const char *r = regions; *r && rc == PLANNER_OK;) {
		size_t n = strcspn(r, ",");
		char region[33];
		if (!region_ok(r, n))
			return set_err(err, PLANNER_EUSAGE, "bad AWS region '%.*s'", (int)n, r);
		snprintf(region, sizeof region, "%.*s", (int)n, r);
		char *path = xasprintf("/offers/v1.0/aws/AmazonEC2/current/%s/index.csv", region);
		char *url = path ? provider_url(fx, path) : NULL;
		struct aws_csv *a = aws_csv_new(fx->out, region);
		if (!url || !a) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
		} else {
			struct http_request req = {
				.url = url, .sink = on_chunk, .reset = on_reset, .ud = a};
			struct http_response resp;
			rc = http_fetch(fx->http, &req, &resp, err);
			fx->http_status = resp.status;
			http_response_free(&resp);
			if (rc == PLANNER_OK && !aws_csv_finish(a, err))
				rc = PLANNER_ENET;
			/* A sink abort comes back from http.c as a feed error;
			 * the parser knows when it was memory or the store. */
			if (rc != PLANNER_OK && (a->fail == PLANNER_ESYS || a->fail == PLANNER_EDB))
				rc = a->fail;
			if (rc != PLANNER_OK && err && *err) {
				char *inner = *err;
				*err = NULL;
				rc = set_err(err, rc, "%s: %s", region, inner);
				free(inner);
			}
		}
		aws_csv_free(a);
		free(url);
		free(path);
		r += n;
		r += *r == ',';
	}
	return rc;
}

const struct provider provider_aws = {
	.name = "aws",
	.kind = PROVIDER_RENTED,
	.own_datacentres = true,
	.terms = true,
	.base_url = "https://pricing.us-east-1.amazonaws.com",
	.summary = "AWS EC2 on-demand GPU and CPU instances (bulk price list CSV, streamed)",
	.fetch = fetch,
	.parse = parse,
};
