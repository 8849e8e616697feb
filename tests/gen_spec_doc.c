/* gen_spec_doc.c — writes the job spec reference (docs/spec.md) to stdout,
 * rendered from the key tables: `make spec-doc`. tests/check_jobspec.c
 * fails when the committed file differs from what this prints. */
#include <stdio.h>
#include <stdlib.h>

#include "jobspec.h"
#include "util.h"

int main(void)
{
	char *doc = jobspec_reference();
	if (!doc) {
		fputs("gen_spec_doc: out of memory\n", stderr);
		return PLANNER_ESYS;
	}
	int rc = fputs(doc, stdout) < 0 || fflush(stdout) != 0 ? PLANNER_ESYS : 0;
	free(doc);
	return rc;
}
