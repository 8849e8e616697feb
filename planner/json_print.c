/* json_print.c — a cJSON document printed with one of its arrays filled an
 * item at a time.
 *
 * Why (issue 16): `planner compare --format json` of 10,000 jobs built one
 * cJSON tree of every job, route and horizon month (354 MB for 33 MB of
 * text) before printing any of it. Here the document is printed once with
 * a marker in the array, and each item's tree is made, printed, indented
 * to the array's depth and freed in turn. The text is byte-identical to
 * cJSON_Print of the whole tree (tests/check_json_print.c holds it).
 *
 * How cJSON formats (cJSON.c print_object, print_array, 1.7.15): an
 * object's members go one a line, indented by one tab per level of
 * nesting, objects and arrays both counting a level; an array's items
 * follow each other on the line, separated by ", ". A string's control
 * bytes are always escaped, so the raw byte 0x01 of the marker and the
 * newline of the formatting occur nowhere else in the text. */
#include "json_print.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MARK "\x01"

/* Writes an item printed on its own, each of its lines after the first
 * indented by depth more tabs, as it would be nested that deep. */
static void write_nested(FILE *f, const char *text, size_t depth)
{
	const char *nl;
	while ((nl = strchr(text, '\n'))) {
		fwrite(text, 1, (size_t)(nl - text) + 1, f);
		for (size_t t = 0; t < depth; t++)
			fputc('\t', f);
		text = nl + 1;
	}
	fputs(text, f);
}

/* The document's text with the marker where the items go, and the depth of
 * the array's items: the tabs opening the marker's line (its object's
 * level) and one for the array. */
static int print_marked(cJSON *doc, cJSON *array, char **text, char **at, size_t *depth,
			char **err)
{
	cJSON *mark = cJSON_CreateRaw(MARK);
	if (!mark || !cJSON_AddItemToArray(array, mark)) {
		cJSON_Delete(mark);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	*text = cJSON_Print(doc);
	cJSON_Delete(cJSON_DetachItemViaPointer(array, mark));
	if (!*text)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if (!(*at = strchr(*text, MARK[0])))
		return set_err(err, PLANNER_ESYS, "internal error: the array is not in the document");
	const char *line = *at;
	while (line > *text && line[-1] != '\n')
		line--;
	*depth = strspn(line, "\t") + 1;
	return PLANNER_OK;
}

int json_print_items(FILE *f, cJSON *doc, cJSON *array, size_t n, json_make_fn make, void *ud,
		     char **err)
{
	char *text = NULL, *at = NULL;
	size_t depth = 0;
	int rc = print_marked(doc, array, &text, &at, &depth, err);
	if (rc != PLANNER_OK)
		goto out;
	fwrite(text, 1, (size_t)(at - text), f);
	for (size_t i = 0; i < n; i++) {
		cJSON *item = NULL;
		if ((rc = make(ud, i, &item, err)) != PLANNER_OK)
			goto out;
		char *t = cJSON_Print(item);
		cJSON_Delete(item);
		if (!t) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			goto out;
		}
		if (i)
			fputs(", ", f);
		write_nested(f, t, depth);
		free(t);
	}
	fputs(at + strlen(MARK), f);
out:
	free(text);
	return rc;
}

cJSON *json_doc_new(const char *schema)
{
	cJSON *doc = cJSON_CreateObject();
	if (doc && !cJSON_AddStringToObject(doc, "schema", schema)) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}
