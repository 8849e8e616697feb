/* check_embed.c — the data compiled in by planner/embed.c (C arrays that
 * tests/gen_embed.c writes) is each file of schema/ byte for byte. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "refdata.h"
#include "testutil.h"

START_TEST(each_embedded_file_is_its_source_byte_for_byte_and_ends_in_a_nul)
{
	static const struct {
		const char *path, *data;
	} files[] = {
	    {"schema/schema.sql", planner_schema_sql},
	    {"schema/gpus.json", planner_gpus_json},
	    {"schema/models.json", planner_models_json},
	    {"schema/snapshot.json", planner_snapshot_json},
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *want = test_slurp(files[i].path);
		ck_assert_msg(want != NULL, "cannot read %s", files[i].path);
		/* The source files hold no NUL, so the array's first is its end. */
		ck_assert_uint_eq(strlen(files[i].data), strlen(want));
		ck_assert_msg(!memcmp(files[i].data, want, strlen(want) + 1), "%s differs",
		              files[i].path);
		free(want);
	}
}
END_TEST

Suite *embed_suite(void)
{
	Suite *s = suite_create("embed");
	TCase *tc = tcase_create("embedded files");
	tcase_add_test(tc, each_embedded_file_is_its_source_byte_for_byte_and_ends_in_a_nul);
	suite_add_tcase(s, tc);
	return s;
}
