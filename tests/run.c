/* run.c — runs every Check suite (tests/check_<name>.c defines
 * <name>_suite()). `CK_RUN_SUITE=vram build/tests/run` runs one. Tests run
 * from the top of the tree; PLANNER_BIN names the binary under test. */
#include <check.h>
#include <stdlib.h>

#define SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef SUITE

int main(void)
{
	/* Check's default of 4 s per test is a hang guard, not a speed target;
	 * a loaded 2-core CI machine under ASan needs more room. */
	setenv("CK_DEFAULT_TIMEOUT", "120", 0);
	SRunner *sr = srunner_create(NULL);
#define SUITE(name) srunner_add_suite(sr, name##_suite());
#include "suites.h"
#undef SUITE
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
