/* check_json_print.c — planner/json_print.c: a document printed with one
 * array's items made one at a time reads byte for byte as cJSON_Print of
 * the whole tree, wherever the array sits and whatever its items hold. */
#include <cJSON.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "util.h"

/* Item i: an object with nested objects, arrays of objects, numbers and
 * strings holding the bytes cJSON escapes (newline, tab, 0x01, quote). */
static cJSON *make_item(size_t i)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "i", (double)i);
	cJSON_AddNumberToObject(o, "third", (double)i / 3.0);
	cJSON_AddStringToObject(o, "text", "a\nb\tc\x01\"d\"");
	cJSON *inner = cJSON_AddObjectToObject(o, "inner");
	cJSON *arr = cJSON_AddArrayToObject(inner, "list");
	for (size_t k = 0; k < i % 3; k++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "k", (double)k);
		cJSON_AddItemToObject(e, "empty", cJSON_CreateObject());
		cJSON_AddItemToArray(arr, e);
	}
	cJSON_AddItemToObject(inner, "none", cJSON_CreateArray());
	cJSON_AddNullToObject(o, "null");
	return o;
}

static int item_fn(void *ud, size_t i, cJSON **out, char **err)
{
	size_t fail_at = *(const size_t *)ud;
	if (i == fail_at)
		return set_err(err, PLANNER_EINPUT, "item %zu failed", i);
	*out = make_item(i);
	return PLANNER_OK;
}

/* The streamed text of doc with n items in array, and cJSON_Print of doc
 * with the same items added; checks they are equal and doc is as given. */
static void check_same(cJSON *doc, cJSON *array, size_t n)
{
	char *before = cJSON_PrintUnformatted(doc);
	char *buf = NULL, *err = NULL;
	size_t len = 0, never = (size_t)-1;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(json_print_items(f, doc, array, n, item_fn, &never, &err), PLANNER_OK);
	fclose(f);
	char *after = cJSON_PrintUnformatted(doc);
	ck_assert_str_eq(after, before);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(array, make_item(i));
	char *whole = cJSON_Print(doc);
	ck_assert_str_eq(buf, whole);
	free(before);
	free(after);
	free(whole);
	free(buf);
}

START_TEST(items_print_as_the_whole_tree_prints_in_an_object_member)
{
	for (size_t n = 0; n < 5; n++) {
		cJSON *root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "currency", "EUR");
		cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
		cJSON *h = cJSON_AddObjectToObject(root, "horizon");
		cJSON_AddNumberToObject(h, "months", 36);
		check_same(root, jobs, n);
		cJSON_Delete(root);
	}
}
END_TEST

START_TEST(items_print_as_the_whole_tree_prints_at_the_top_and_deep_inside)
{
	cJSON *arr = cJSON_CreateArray();
	check_same(arr, arr, 4);
	cJSON_Delete(arr);

	cJSON *root = cJSON_CreateObject();
	cJSON *a = cJSON_AddObjectToObject(root, "a");
	cJSON *b = cJSON_AddObjectToObject(a, "b \x01 \n");
	cJSON *deep = cJSON_AddArrayToObject(b, "deep");
	cJSON_AddStringToObject(b, "after", "x");
	cJSON_AddStringToObject(root, "last", "\x01");
	check_same(root, deep, 3);
	cJSON_Delete(root);
}
END_TEST

START_TEST(an_item_that_fails_stops_the_print_with_its_status_and_message)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
	char *buf = NULL, *err = NULL;
	size_t len = 0, fail_at = 2;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(json_print_items(f, root, jobs, 4, item_fn, &fail_at, &err),
			 PLANNER_EINPUT);
	fclose(f);
	ck_assert_str_eq(err, "item 2 failed");
	ck_assert_int_eq(cJSON_GetArraySize(jobs), 0);
	ck_assert_ptr_null(strstr(buf, "\"i\":\t2"));
	ck_assert_ptr_nonnull(strstr(buf, "\"i\":\t1"));
	free(err);
	free(buf);
	cJSON_Delete(root);
}
END_TEST

START_TEST(an_array_outside_the_document_is_an_error_not_a_crash)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *elsewhere = cJSON_CreateArray();
	char *buf = NULL, *err = NULL;
	size_t len = 0, never = (size_t)-1;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(json_print_items(f, root, elsewhere, 1, item_fn, &never, &err),
			 PLANNER_ESYS);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(err, "not in the document"));
	ck_assert_int_eq(cJSON_GetArraySize(elsewhere), 0);
	free(err);
	free(buf);
	cJSON_Delete(elsewhere);
	cJSON_Delete(root);
}
END_TEST

Suite *json_print_suite(void)
{
	Suite *s = suite_create("json_print");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, items_print_as_the_whole_tree_prints_in_an_object_member);
	tcase_add_test(tc, items_print_as_the_whole_tree_prints_at_the_top_and_deep_inside);
	tcase_add_test(tc, an_item_that_fails_stops_the_print_with_its_status_and_message);
	tcase_add_test(tc, an_array_outside_the_document_is_an_error_not_a_crash);
	suite_add_tcase(s, tc);
	return s;
}
