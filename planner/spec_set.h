/* spec_set.h — `--set KEY=VALUE` overrides of a job spec (spec_set.c). */
#ifndef PLANNER_SPEC_SET_H
#define PLANNER_SPEC_SET_H

#include <stddef.h>

#include "yamlread.h"

/* Writes each of the n overrides "KEY=VALUE" into y's loaded document
 * (keys created where absent), so that the key tables read them as if
 * they were in the file. Returns PLANNER_OK, or PLANNER_EINPUT with the
 * error naming the override ("FILE: --set KEY=VALUE: ..."), or
 * PLANNER_ESYS when out of memory. */
int spec_apply_sets(struct yr *y, const char *const *sets, size_t n);

#endif
