/* check_offer_index.c — planner/offer_index.c: offers grouped by GPU,
 * memory and count, the cheapest a job's filters let through, the kinds
 * of offer compare keeps; and that compare's indexed pricing picks the
 * offer a pass over every offer picks, on the fixture specs. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"
#include "jobspec.h"
#include "offer_index.h"
#include "plan.h"
#include "testutil.h"
#include "util.h"
#include "workload.h"

static struct offer mk(const char *provider, const char *id, const char *gpu, int count,
		       double price, bool spot, const char *country)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	snprintf(o.provider, sizeof o.provider, "%s", provider);
	snprintf(o.offer, sizeof o.offer, "%s", id);
	snprintf(o.gpu, sizeof o.gpu, "%s", gpu);
	snprintf(o.country, sizeof o.country, "%s", country);
	snprintf(o.region_group, sizeof o.region_group, "%s",
		 !strcmp(country, "US") ? "us" : !strcmp(country, "DE") ? "eu" : "");
	snprintf(o.currency, sizeof o.currency, "USD");
	snprintf(o.fetched_at, sizeof o.fetched_at, "2026-12-01T00:00:00Z");
	o.gpu_count = count;
	o.price_per_hour = price;
	o.spot = spot;
	o.available = true;
	return o;
}

static struct jobspec *spec_of(const char *yaml)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err);
	return spec;
}

START_TEST(offers_of_one_gpu_memory_and_count_form_one_group_cheapest_first)
{
	struct offer o[] = {mk("vast", "a", "RTX 4090", 1, 0.50, false, "US"),
			    mk("vast", "b", "RTX 4090", 2, 0.90, false, "US"),
			    mk("vast", "c", "RTX 4090", 1, 0.30, false, "US"),
			    mk("vast", "d", "no such gpu", 1, 0.10, false, "US"),
			    mk("vast", "e", "4090", 1, 0.40, false, "US")};
	struct offer_index x;
	char *err = NULL;
	ck_assert_int_eq(offer_index_build(&x, test_ref(), o, 5, &err), PLANNER_OK);
	ck_assert_uint_eq(x.unknown, 1);
	ck_assert_uint_eq(x.n_groups, 2);
	size_t ones = x.groups[0].count == 1 ? 0 : 1;
	const struct offer_group *g = &x.groups[ones];
	ck_assert_uint_eq(g->n, 3); /* "4090" is an alias of RTX 4090 */
	ck_assert_str_eq(o[x.by_price[g->first]].offer, "c");
	ck_assert_str_eq(o[x.by_price[g->first + 1]].offer, "e");
	ck_assert_str_eq(o[x.by_index[g->first]].offer, "a");
	ck_assert_double_eq(g->sized.vram_gib, refdata_gpu(test_ref(), "RTX 4090")->vram_gib);
	offer_index_free(&x);
	offer_index_free(NULL);
}
END_TEST

START_TEST(a_job_reads_the_cheapest_offer_its_spot_and_region_filters_let_through)
{
	struct offer o[] = {mk("vast", "spot-us", "RTX 4090", 1, 0.10, true, "US"),
			    mk("vast", "od-us", "RTX 4090", 1, 0.20, false, "US"),
			    mk("vast", "od-de", "RTX 4090", 1, 0.30, false, "DE")};
	struct jobspec *spec = spec_of(
		"version: 1\njobs:\n"
		" - {name: a, model: llama-3.1-8b, hours_per_month: 10}\n"
		" - {name: b, model: llama-3.1-8b, hours_per_month: 10, interruptible: true}\n"
		" - {name: c, model: llama-3.1-8b, hours_per_month: 10, regions: [eu]}\n"
		" - {name: d, model: llama-3.1-8b, hours_per_month: 20}\n");
	struct offer_index x;
	char *err = NULL;
	ck_assert_int_eq(offer_index_build(&x, test_ref(), o, 3, &err), PLANNER_OK);
	ck_assert_uint_eq(x.n_groups, 1);
	const char *want[] = {"od-us", "spot-us", "od-de", "od-us"};
	for (size_t j = 0; j < 4; j++) {
		struct workload w;
		const struct offer_hits *h;
		ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[j], &err), PLANNER_OK);
		ck_assert_int_eq(offer_index_hits(&x, &w, job_hosting(w.job), &h, &err), PLANNER_OK);
		ck_assert_str_eq(o[h->cheapest[0]].offer, want[j]);
		ck_assert_str_eq(o[h->first[0]].offer, want[j]);
	}
	/* Jobs a and d have the same filters: read once. */
	ck_assert_uint_eq(x.n_hits, 3);
	offer_index_free(&x);
	jobspec_free(spec);
}
END_TEST

/* Issue 29 item 5: data: confidential reads the cheapest data-centre
 * offer, hosting: [marketplace, datacenter] the cheaper marketplace one,
 * hosting: [marketplace] only that; each set of hosts is a filter key of
 * its own, read once however many jobs share it. */
START_TEST(hosting_is_part_of_the_filter_key_and_confidential_skips_marketplace_hosts)
{
	struct offer o[] = {mk("vast", "market", "RTX 4090", 1, 0.20, false, "DE"),
			    mk("runpod", "secure", "RTX 4090", 1, 0.30, false, "DE")};
	o[0].marketplace = true;
	struct jobspec *spec = spec_of(
		"version: 1\njobs:\n"
		" - {name: a, model: llama-3.1-8b, hours_per_month: 10, data: confidential}\n"
		" - {name: b, model: llama-3.1-8b, hours_per_month: 10, data: confidential,\n"
		"    hosting: [marketplace, datacenter]}\n"
		" - {name: c, model: llama-3.1-8b, hours_per_month: 10}\n"
		" - {name: d, model: llama-3.1-8b, hours_per_month: 10, hosting: marketplace}\n"
		" - {name: e, model: llama-3.1-8b, hours_per_month: 10, data: confidential,\n"
		"    hosting: [datacenter]}\n");
	struct offer_index x;
	char *err = NULL;
	ck_assert_int_eq(offer_index_build(&x, test_ref(), o, 2, &err), PLANNER_OK);
	const char *want[] = {"secure", "market", "market", "market", "secure"};
	for (size_t j = 0; j < 5; j++) {
		struct workload w;
		const struct offer_hits *h;
		ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[j], &err), PLANNER_OK);
		ck_assert_int_eq(offer_index_hits(&x, &w, job_hosting(w.job), &h, &err), PLANNER_OK);
		ck_assert_msg(!strcmp(o[h->cheapest[0]].offer, want[j]), "job %zu: %s", j,
			      o[h->cheapest[0]].offer);
		struct gpu_spec sized;
		ck_assert_int_eq(workload_offer_gpu(&w, test_ref(), &o[0], &sized) != NULL, j != 0 && j != 4);
		ck_assert_int_eq(workload_offer_gpu(&w, test_ref(), &o[1], &sized) != NULL, j != 3);
	}
	/* a and e: datacentres; b and c: both; d: marketplace only. */
	ck_assert_uint_eq(x.n_hits, 3);
	offer_index_free(&x);
	jobspec_free(spec);
}
END_TEST

/* Two offers alike but for the kind of host are two kinds: a cheaper
 * marketplace row must not hide a data-centre one from confidential jobs. */
START_TEST(a_marketplace_row_and_a_datacentre_row_are_two_kinds)
{
	struct offer_kinds k = {0};
	struct offer a = mk("vast", "a", "RTX 4090", 1, 0.5, false, "US");
	struct offer b = a;
	b.marketplace = true;
	size_t kind;
	bool first;
	char *err = NULL;
	ck_assert_int_eq(offer_kinds_add(&k, &a, &kind, &first, &err), PLANNER_OK);
	ck_assert_int_eq(offer_kinds_add(&k, &b, &kind, &first, &err), PLANNER_OK);
	ck_assert(first);
	ck_assert_uint_eq(kind, 1);
	offer_kinds_free(&k);
}
END_TEST

START_TEST(offers_differing_only_in_price_or_id_are_one_kind_and_in_region_two)
{
	struct offer_kinds k = {0};
	struct offer a = mk("vast", "a", "RTX 4090", 1, 0.5, false, "US");
	struct offer b = mk("vast", "b", "RTX 4090", 1, 0.4, false, "US");
	struct offer c = mk("vast", "c", "RTX 4090", 1, 0.4, false, "DE");
	size_t kind;
	bool first;
	char *err = NULL;
	ck_assert_int_eq(offer_kinds_add(&k, &a, &kind, &first, &err), PLANNER_OK);
	ck_assert(first);
	ck_assert_uint_eq(kind, 0);
	ck_assert_int_eq(offer_kinds_add(&k, &b, &kind, &first, &err), PLANNER_OK);
	ck_assert(!first);
	ck_assert_uint_eq(kind, 0);
	ck_assert_int_eq(offer_kinds_add(&k, &c, &kind, &first, &err), PLANNER_OK);
	ck_assert(first);
	ck_assert_uint_eq(kind, 1);
	/* Enough kinds to grow the table several times keep their numbers. */
	for (int i = 0; i < 1000; i++) {
		struct offer o = mk("vast", "x", "RTX 4090", 2 + i, 1.0, false, "US");
		ck_assert_int_eq(offer_kinds_add(&k, &o, &kind, &first, &err), PLANNER_OK);
		ck_assert(first);
		ck_assert_uint_eq(kind, 2 + (size_t)i);
	}
	ck_assert_int_eq(offer_kinds_add(&k, &c, &kind, &first, &err), PLANNER_OK);
	ck_assert(!first);
	ck_assert_uint_eq(kind, 1);
	offer_kinds_free(&k);
	offer_kinds_free(NULL);
}
END_TEST

/* Units of the spec's currency per unit of cur, as compare converts. */
static bool rate_of(const struct jobspec *spec, const char *cur, double *rate)
{
	double per = 0;
	if (!*cur)
		cur = "USD";
	if (!strcmp(cur, spec->currency)) {
		*rate = 1;
		return true;
	}
	bool found = false;
	for (size_t i = 0; i < spec->n_fx && !found; i++)
		if (!strcmp(spec->fx[i].code, cur)) {
			per = spec->fx[i].per_usd;
			found = true;
		}
	if (!found && !fx_per_usd(test_ref()->fx, cur, &per))
		return false;
	*rate = spec->usd_to_currency / per;
	return per > 0;
}

/* The rented offer a pass over every offer keeps (compare before issue
 * 16): cheapest cost, then price, then the first. -1 when none. */
static long full_scan(const struct jobspec *spec, const struct workload *w, const struct offer *o,
		      size_t n, double *cost_out)
{
	long best = -1;
	double best_cost = 0, best_price = 0;
	for (size_t i = 0; i < n; i++) {
		struct gpu_spec sized;
		double rate;
		const struct gpu_spec *g = workload_offer_gpu(w, test_ref(), &o[i], &sized);
		if (!g || !rate_of(spec, o[i].currency, &rate) ||
		    !workload_fits(w, &sized, o[i].gpu_count))
			continue;
		struct workload_run run;
		if (!workload_size(w, g, o[i].gpu_count, WORKLOAD_MAX_GPUS / o[i].gpu_count, &run,
				   NULL, 0))
			continue;
		double price = o[i].price_per_hour * rate;
		double cost = run.replicas * run.hours * price;
		if (best < 0 || cost < best_cost || (cost == best_cost && price < best_price)) {
			best = (long)i;
			best_cost = cost;
			best_price = price;
		}
	}
	*cost_out = best_cost;
	return best;
}

/* Every job of the spec at path: compare's rented route is the full
 * scan's offer, or a quote no dearer. */
static void check_spec(struct store *st, const char *path)
{
	struct jobspec *spec = NULL;
	struct plan *p = NULL;
	struct offer *o = NULL;
	size_t n = 0;
	char *err = NULL;
	struct offer_filter all = {.spot = -1, .available_only = true};
	ck_assert_msg(jobspec_load(path, test_ref(), &spec, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(plan_compare(spec, test_ref(), st, &p, &err), PLANNER_OK);
	ck_assert_int_eq(store_offers(st, &all, &o, &n, &err), PLANNER_OK);
	ck_assert_uint_gt(n, 0);
	for (size_t j = 0; j < p->n_jobs; j++) {
		const struct route_result *r = &p->jobs[j].routes[ROUTE_RENTED];
		double cost;
		long i = full_scan(spec, &p->jobs[j].work, o, n, &cost);
		if (i < 0 || !workload_route_allowed(&p->jobs[j].work, ROUTE_RENTED, NULL, 0)) {
			ck_assert_msg(!r->feasible || !strncmp(r->offer, "quote ", 6),
				      "%s job %zu: %s", path, j, r->offer);
			continue;
		}
		ck_assert_msg(r->feasible, "%s job %zu", path, j);
		if (!strncmp(r->offer, "quote ", 6)) {
			ck_assert_msg(r->monthly_cost <= cost, "%s job %zu", path, j);
			continue;
		}
		ck_assert_msg(!strcmp(r->offer, o[i].offer) && !strcmp(r->provider, o[i].provider) &&
				      !strcmp(r->region, o[i].region) && r->spot == o[i].spot,
			      "%s job %zu: indexed %s/%s, full scan %s/%s", path, j, r->provider,
			      r->offer, o[i].provider, o[i].offer);
		ck_assert_double_eq(r->monthly_cost, cost);
	}
	free(o);
	plan_free(p);
	jobspec_free(spec);
}

/* A rented CPU offer as the normaliser stores it (providers/aws.c). */
static struct offer mk_cpu(const char *id, const char *cpu, double vcpus, double ram, double price)
{
	struct offer o = mk("aws", id, cpu, 1, price, false, "US");
	snprintf(o.region, sizeof o.region, "us-east-1");
	o.vcpus = vcpus;
	o.ram_gib = ram;
	o.vram_gib = ram;
	return o;
}

START_TEST(a_rented_cpu_is_its_vms_share_of_the_socket_and_at_most_one_sockets_bandwidth)
{
	struct offer o[] = {mk_cpu("c7a.2xlarge", "EPYC 9R14", 8, 16, 0.41056),
			    mk_cpu("c7a.48xlarge", "EPYC 9R14", 192, 384, 9.85344),
			    mk_cpu("no-vcpus", "EPYC 9R14", 0, 16, 0.1)};
	struct offer_index x;
	char *err = NULL;
	ck_assert_int_eq(offer_index_build(&x, test_ref(), o, 3, &err), PLANNER_OK);
	ck_assert_uint_eq(x.unknown, 1); /* a CPU offer without vCPUs cannot be sized */
	ck_assert_uint_eq(x.n_groups, 2);
	const struct gpu_spec *g = refdata_gpu(test_ref(), "EPYC 9R14");
	for (size_t k = 0; k < 2; k++) {
		const struct gpu_spec *s = &x.groups[k].sized;
		double share = s->vram_gib == 16 ? 8.0 / 96 : 2.0;
		ck_assert_double_eq_tol(s->fp16_tflops, g->fp16_tflops * share, 1e-9);
		ck_assert_double_eq_tol(s->bandwidth_gbs, g->bandwidth_gbs * fmin(share, 1.0), 1e-9);
		ck_assert_int_eq(s->threads, (int)lround(96 * share));
	}
	offer_index_free(&x);
}
END_TEST

START_TEST(a_small_llama_cpp_job_rents_a_cpu_machine_priced_beside_a_gpu)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/cpu.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	/* Prices of tests/fixtures/real/aws/skypilot-vms.c7i-c7a.reconstructed.csv. */
	struct offer cpu[] = {mk_cpu("c7i.large", "Xeon Platinum 8488C", 2, 4, 0.08925),
			      mk_cpu("c7a.2xlarge", "EPYC 9R14", 8, 16, 0.41056)};
	struct offer gpu = mk("lambda", "one-4090", "RTX 4090", 1, 0.40, false, "US");
	ck_assert_int_eq(store_replace_offers(st, "aws", cpu, 2, &err), PLANNER_OK);
	ck_assert_int_eq(store_replace_offers(st, "lambda", &gpu, 1, &err), PLANNER_OK);
	struct jobspec *spec =
	    spec_of("version: 1\nproviders: [aws, lambda]\njobs:\n"
		    " - {name: small, model: llama-3.2-1b, precision: q4_k_m, engine: llama.cpp, "
		    "hours_per_month: 100}\n"
		    " - {name: big, model: llama-3.2-1b, precision: bf16, engine: vllm, "
		    "hours_per_month: 100}\n");
	struct plan *p = NULL;
	ck_assert_msg(plan_compare(spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert(r->feasible);
	ck_assert_str_eq(r->offer, "c7i.large");
	ck_assert_str_eq(r->gpu->name, "Xeon Platinum 8488C");
	ck_assert_double_eq_tol(r->monthly_cost, 100 * 0.08925, 1e-9);
	ck_assert(r->tokens_per_second > 0);
	/* vLLM needs a GPU: the same model there rents the RTX 4090. */
	ck_assert_str_eq(p->jobs[1].routes[ROUTE_RENTED].offer, "one-4090");
	plan_free(p);
	jobspec_free(spec);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

START_TEST(compare_picks_the_offer_a_full_scan_picks_on_every_fixture_spec)
{
	static const char *const specs[] = {"jobs/monthly.yaml", "jobs/eu-team.yaml",
					    "tests/fixtures/jobs/minimal.yaml",
					    "tests/fixtures/jobs/full.yaml",
					    "tests/fixtures/jobs/config-model.yaml"};
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/index.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	/* The bundled snapshot (USD and EUR prices), then many offers of few
	 * kinds with ties in price, spot and regions on top. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
			check_spec(st, specs[i]);
		static const char *const gpus[] = {"RTX 4090", "H100 SXM", "A100 SXM4", "L40S"};
		static const char *const where[] = {"US", "DE", "NO", ""};
		struct offer o[400];
		for (int k = 0; k < 400; k++) {
			char id[32];
			snprintf(id, sizeof id, "o%03d", k);
			o[k] = mk("vast", id, gpus[k % 4], 1 << (k / 4 % 4), 0.2 + (k * 37 % 50) / 20.0,
				  k % 3 == 0, where[k / 16 % 4]);
		}
		ck_assert_int_eq(store_replace_offers(st, "vast", o, 400, &err), PLANNER_OK);
	}
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

Suite *offer_index_suite(void)
{
	Suite *s = suite_create("offer_index");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, offers_of_one_gpu_memory_and_count_form_one_group_cheapest_first);
	tcase_add_test(tc, a_job_reads_the_cheapest_offer_its_spot_and_region_filters_let_through);
	tcase_add_test(tc, offers_differing_only_in_price_or_id_are_one_kind_and_in_region_two);
	tcase_add_test(tc, hosting_is_part_of_the_filter_key_and_confidential_skips_marketplace_hosts);
	tcase_add_test(tc, a_marketplace_row_and_a_datacentre_row_are_two_kinds);
	tcase_add_test(tc, compare_picks_the_offer_a_full_scan_picks_on_every_fixture_spec);
	tcase_add_test(tc, a_rented_cpu_is_its_vms_share_of_the_socket_and_at_most_one_sockets_bandwidth);
	tcase_add_test(tc, a_small_llama_cpp_job_rents_a_cpu_machine_priced_beside_a_gpu);
	suite_add_tcase(s, tc);
	return s;
}
