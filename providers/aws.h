/* aws.h — the AWS adapter's price-list CSV reader, exposed for its tests
 * and fuzz harness (tests/check_providers.c, tests/fuzz/fuzz_aws_csv.c);
 * nothing else needs it: refresh reaches the adapter through provider.h. */
#ifndef PLANNER_AWS_H
#define PLANNER_AWS_H

#include <stdbool.h>
#include <stddef.h>

#include "normalise.h"

/* The streaming parser of one region's price-list CSV. */
struct aws_csv;
/* A parser writing into out; NULL when out of memory. */
struct aws_csv *aws_csv_new(struct norm *out, const char *region);
/* Feeds the next bytes (any split); each full batch of rows (NORM_FLUSH_ROWS)
 * goes on to out's sink. false on a malformed file or a sink that failed,
 * *err set. */
bool aws_csv_feed(struct aws_csv *a, const char *p, size_t n, char **err);
/* Ends the stream (a last line without '\n'). false with *err set when
 * the file had no header row. */
bool aws_csv_finish(struct aws_csv *a, char **err);
/* Starts over (a retried download); rows already added are dropped. */
void aws_csv_reset(struct aws_csv *a);
/* Rows read so far, and the largest buffer held (for the memory test). */
size_t aws_csv_rows(const struct aws_csv *a);
size_t aws_csv_peak_buffer(const struct aws_csv *a);
void aws_csv_free(struct aws_csv *a);

#endif
