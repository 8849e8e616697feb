/* fuzz_common.c — what every harness shares (see fuzz.h). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "refdata.h"

const struct refdata *fuzz_ref(void)
{
	/* Read-only after loading, so it carries nothing from one input to
	 * the next; loading it per input would be most of the run time. */
	static struct refdata *ref;
	if (!ref) {
		char *err = NULL;
		if (refdata_load(&ref, &err) != 0) {
			fprintf(stderr, "fuzz: cannot load reference data: %s\n",
				err ? err : "unknown error");
			abort();
		}
	}
	return ref;
}

int fuzz_fail(const char *harness, const char *what)
{
	fprintf(stderr, "fuzz %s: %s\n", harness, what);
	return -1;
}
