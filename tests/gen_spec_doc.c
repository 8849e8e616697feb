/* gen_spec_doc.c — writes the job spec reference (docs/spec.md), or with
 * --man the manual page planner-spec(5) (planner-spec.5), to stdout,
 * rendered from the key tables: `make spec-doc`. tests/check_jobspec.c
 * fails when a committed file differs from what this prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "util.h"

int main(int argc, char **argv)
{
	char *doc = argc > 1 && !strcmp(argv[1], "--man") ? jobspec_reference_man()
	                                                  : jobspec_reference();
	if (!doc) {
		fputs("gen_spec_doc: out of memory\n", stderr);
		return PLANNER_ESYS;
	}
	int rc = fputs(doc, stdout) < 0 || fflush(stdout) != 0 ? PLANNER_ESYS : 0;
	free(doc);
	return rc;
}
