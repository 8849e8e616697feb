/* json_print.h — a cJSON document printed with one of its arrays made an
 * item at a time (see json_print.c). */
#ifndef PLANNER_JSON_PRINT_H
#define PLANNER_JSON_PRINT_H

#include <cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* Makes item i of the array: *out is a new tree the printer deletes.
 * Returns PLANNER_OK, or a status with *err set. */
typedef int (*json_make_fn)(void *ud, size_t i, cJSON **out, char **err);

/* Writes doc to f as cJSON_Print would with items 0..n-1 of make() in
 * array, which must be empty and be doc itself or a member of an object in
 * doc (not an item of another array). Only one item's tree is held at a
 * time. No newline is added. doc is left as it was. Returns PLANNER_OK, or
 * a status with *err set; on failure part of the text may have been
 * written. */
int json_print_items(FILE *f, cJSON *doc, cJSON *array, size_t n, json_make_fn make, void *ud,
		     char **err);

/* A new object whose first member is "schema": schema, the contract the
 * document follows ("planner/compare/v1": schema/json/compare.v1.schema.json,
 * docs/design.md "JSON contract"). NULL when out of memory. */
cJSON *json_doc_new(const char *schema);

#endif
