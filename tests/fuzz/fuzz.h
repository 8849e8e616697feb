/* fuzz.h — the fuzz harness bodies. Each fuzz_<name>() feeds one input to
 * one parser that reads outside data and checks what came back; it is
 * called by LLVMFuzzerTestOneInput in the libFuzzer build (`make fuzz`,
 * -DFUZZ_LIBFUZZER) and by tests/check_fuzz.c, which replays every file
 * under tests/fuzz/corpus/<name>/ and tests/fuzz/regressions/<name>/ in
 * `make check`. A body returns 0, or -1 after printing what invariant the
 * parser broke; it frees everything it allocated and keeps no state
 * between inputs (the reference data, read-only, is loaded once). */
#ifndef PLANNER_FUZZ_H
#define PLANNER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct refdata;

/* The compiled-in reference data, loaded on first use and never changed
 * (nor freed: it lives as long as the process). Aborts if it cannot be
 * loaded, since no harness means anything without it. */
const struct refdata *fuzz_ref(void);
/* Prints "fuzz <harness>: <what>" to stderr; returns -1. */
int fuzz_fail(const char *harness, const char *what);

int fuzz_jobspec(const uint8_t *data, size_t size);
int fuzz_config(const uint8_t *data, size_t size);
/* One provider adapter's parse(); name as in provider_list. */
int fuzz_provider(const char *name, const uint8_t *data, size_t size);
int fuzz_aws_csv(const uint8_t *data, size_t size);
/* nvidia-smi output (planner/probe.c). */
int fuzz_probe(const uint8_t *data, size_t size);
/* A database file for --db (store_open and the reads after it). */
int fuzz_dbfile(const uint8_t *data, size_t size);

#endif
