/* check_util.c — size suffixes, durations, nearest-name suggestions and
 * CSV quoting. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

START_TEST(token_counts_accept_k_m_b_and_t_suffixes)
{
	double v;
	ck_assert(parse_count("200M", &v));
	ck_assert_double_eq(v, 200e6);
	ck_assert(parse_count("1.5B", &v));
	ck_assert_double_eq(v, 1.5e9);
	ck_assert(parse_count("128k", &v));
	ck_assert_double_eq(v, 128e3);
	ck_assert(parse_count("2T", &v));
	ck_assert_double_eq(v, 2e12);
	ck_assert(parse_count("3e6", &v));
	ck_assert_double_eq(v, 3e6);
}
END_TEST

START_TEST(counts_reject_negatives_junk_and_unknown_suffixes)
{
	double v;
	ck_assert(!parse_count("-5", &v));
	ck_assert(!parse_count("abc", &v));
	ck_assert(!parse_count("10X", &v));
	ck_assert(!parse_count("10MM", &v));
	ck_assert(!parse_count("", &v));
	ck_assert(!parse_count("nan", &v));
	ck_assert(!parse_count("1e400", &v));
}
END_TEST

START_TEST(hours_and_durations_read_their_units)
{
	double v;
	ck_assert(parse_hours("300h", &v));
	ck_assert_double_eq(v, 300);
	ck_assert(parse_duration("20h", &v));
	ck_assert_double_eq(v, 72000);
	ck_assert(parse_duration("30m", &v));
	ck_assert_double_eq(v, 1800);
	ck_assert(parse_duration("2d", &v));
	ck_assert_double_eq(v, 172800);
	ck_assert(parse_duration("5", &v)); /* bare number: hours */
	ck_assert_double_eq(v, 18000);
}
END_TEST

START_TEST(nearest_name_suggests_a_close_key_and_nothing_for_a_stranger)
{
	const char *keys[] = {"hours_per_month", "tokens_per_month", "precision"};
	ck_assert_str_eq(nearest_name("hours_per_mnth", keys, 3), "hours_per_month");
	ck_assert_str_eq(nearest_name("precison", keys, 3), "precision");
	ck_assert_ptr_null(nearest_name("zebra", keys, 3));
	/* A part of a name beats a spelling neighbour; a word half changed
	 * is no suggestion (issue 13: region: eu suggested version). */
	const char *top[] = {"version", "currency", "timezone", "regions", "providers"};
	ck_assert_str_eq(nearest_name("region", top, 5), "regions");
	ck_assert_str_eq(nearest_name("provider", top, 5), "providers");
	ck_assert_ptr_null(nearest_name("region", top, 1));
	ck_assert_ptr_null(nearest_name("legion", top, 1));
	const char *opts[] = {"format", "db", "quiet", "output"};
	ck_assert_str_eq(nearest_name("frmat", opts, 4), "format");
	ck_assert_str_eq(nearest_name("formt", opts, 4), "format");
	ck_assert_ptr_null(nearest_name("xyz", opts, 4));
}
END_TEST

START_TEST(edit_distance_ignores_case)
{
	ck_assert_uint_eq(edit_distance("RTX", "rtx"), 0);
	ck_assert_uint_eq(edit_distance("kitten", "sitting"), 3);
}
END_TEST

static char *csv_of(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	text_csv_field(f, s);
	fclose(f);
	return out;
}

START_TEST(csv_fields_are_quoted_and_formulas_defused)
{
	char *a = csv_of("plain");
	char *b = csv_of("a,b \"c\"");
	char *c = csv_of("=HYPERLINK(\"x\")");
	char *d = csv_of("-12.5");
	char *e = csv_of("@SUM(A1)");
	ck_assert_str_eq(a, "plain");
	ck_assert_str_eq(b, "\"a,b \"\"c\"\"\"");
	ck_assert_str_eq(c, "\"'=HYPERLINK(\"\"x\"\")\"");
	ck_assert_str_eq(d, "-12.5");
	ck_assert_str_eq(e, "\"'@SUM(A1)\"");
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}
END_TEST

START_TEST(csv_cells_starting_with_tab_or_cr_before_a_formula_are_defused_too)
{
	const char *cells[] = {"\t=cmd|' /C calc'!A0", "\r=HYPERLINK(\"x\")", "\t+1+cmd",
	                       "\r\n@SUM(A1)"};
	const char *want[] = {"\"'\t=cmd|' /C calc'!A0\"", "\"'\r=HYPERLINK(\"\"x\"\")\"",
	                      "\"'\t+1+cmd\"", "\"'\r\n@SUM(A1)\""};
	for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
		char *got = csv_of(cells[i]);
		ck_assert_str_eq(got, want[i]);
		free(got);
	}
	/* A tab inside a cell is data. */
	char *mid = csv_of("a\tb");
	ck_assert_str_eq(mid, "a\tb");
	free(mid);
}
END_TEST

START_TEST(iso_stamps_round_trip_through_epoch_seconds)
{
	ck_assert_int_eq(iso_to_epoch("1970-01-02T00:00:00Z"), 86400);
	ck_assert_int_eq(iso_to_epoch("2026-11-28"), iso_to_epoch("2026-11-28T00:00:00Z"));
	ck_assert_int_eq(iso_to_epoch("yesterday"), -1);
}
END_TEST

/* The one sanitising step for outside text (issue 12 item 7). */
START_TEST(the_written_stamp_follows_source_date_epoch_and_ignores_junk)
{
	char buf[24], now[24];
	setenv("SOURCE_DATE_EPOCH", "1772323200", 1);
	iso_written(buf, sizeof buf);
	ck_assert_str_eq(buf, "2026-03-01T00:00:00Z");
	const char *junk[] = {"", "12x", "-5", "99999999999999999999999"};
	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
		setenv("SOURCE_DATE_EPOCH", junk[i], 1);
		iso_written(buf, sizeof buf);
		iso_now(now, sizeof now);
		/* Junk falls back to the clock: this year, not 2026-03-01. */
		ck_assert_int_ge(iso_to_epoch(buf), iso_to_epoch(now) - 5);
	}
	unsetenv("SOURCE_DATE_EPOCH");
}
END_TEST

START_TEST(outside_text_is_made_valid_utf8_without_controls_or_the_key)
{
	char b[64];
	ck_assert_uint_eq(text_sanitize(b, sizeof b, "Oslo, NO \xc3\xa6\xe2\x82\xac", NULL), 0);
	ck_assert_str_eq(b, "Oslo, NO \xc3\xa6\xe2\x82\xac");
	/* Stray, overlong (C0 80) and surrogate (ED A0 80) bytes become '?'. */
	text_sanitize(b, sizeof b, "a\xff" "b\xc0\x80" "c\xed\xa0\x80" "d", NULL);
	ck_assert_str_eq(b, "a?b??c???d");
	/* C0, DEL, C1 (U+009B) and U+2028 are dropped; a tab reads as a space. */
	text_sanitize(b, sizeof b, "x\x1b[2J\x7fy\xc2\x9bz\xe2\x80\xa8!\tend", NULL);
	ck_assert_str_eq(b, "x[2Jyz! end");
	text_sanitize(b, sizeof b, "invalid key: Bearer sk-Qz7Wv1Kx9 (sk-Qz7Wv1Kx9)", "sk-Qz7Wv1Kx9");
	ck_assert_str_eq(b, "invalid key: Bearer *** (***)");
	/* A cut to fit never splits a character: 4 bytes hold "ab" and no half of "€". */
	char small[5];
	text_sanitize(small, sizeof small, "ab\xe2\x82\xac", NULL);
	ck_assert_str_eq(small, "ab");
	/* In place. */
	char in[] = "k\x01" "e\xffy";
	text_sanitize(in, sizeof in, in, NULL);
	ck_assert_str_eq(in, "ke?y");
}
END_TEST

START_TEST(a_name_index_finds_a_repeat_and_the_id_it_first_had)
{
	struct name_index x = {0};
	char names[500][8];
	size_t prev;
	for (size_t i = 0; i < 500; i++) {
		snprintf(names[i], sizeof names[i], "n%zu", i);
		ck_assert(name_index_add(&x, names[i], i, &prev));
		ck_assert_uint_eq(prev, SIZE_MAX);
	}
	ck_assert(name_index_add(&x, "n321", 999, &prev));
	ck_assert_uint_eq(prev, 321);
	ck_assert_uint_eq(x.n, 500);
	name_index_free(&x);
	name_index_free(NULL);
}
END_TEST

START_TEST(advising_huge_pages_leaves_any_range_as_it_was)
{
	size_t len = (size_t)5 << 20;
	unsigned char *p = malloc(len);
	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7);
	advise_huge_pages(p, len);
	advise_huge_pages(p + 3, 10); /* inside one page: nothing to advise */
	advise_huge_pages(NULL, 0);
	for (size_t i = 0; i < len; i++)
		ck_assert_uint_eq(p[i], (unsigned char)(i * 7));
	free(p);
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");
	tcase_add_test(tc, token_counts_accept_k_m_b_and_t_suffixes);
	tcase_add_test(tc, counts_reject_negatives_junk_and_unknown_suffixes);
	tcase_add_test(tc, hours_and_durations_read_their_units);
	tcase_add_test(tc, nearest_name_suggests_a_close_key_and_nothing_for_a_stranger);
	tcase_add_test(tc, edit_distance_ignores_case);
	tcase_add_test(tc, csv_fields_are_quoted_and_formulas_defused);
	tcase_add_test(tc, csv_cells_starting_with_tab_or_cr_before_a_formula_are_defused_too);
	tcase_add_test(tc, iso_stamps_round_trip_through_epoch_seconds);
	tcase_add_test(tc, the_written_stamp_follows_source_date_epoch_and_ignores_junk);
	tcase_add_test(tc, outside_text_is_made_valid_utf8_without_controls_or_the_key);
	tcase_add_test(tc, a_name_index_finds_a_repeat_and_the_id_it_first_had);
	tcase_add_test(tc, advising_huge_pages_leaves_any_range_as_it_was);
	suite_add_tcase(s, tc);
	return s;
}
