/* embed.c — compiles the reference data and the bundled price snapshot into
 * the binary, so `planner` works from any directory after `make install`.
 * make writes each file of schema/ as a C array (tests/gen_embed.c) into
 * $(BUILD)/gen/embedded.inc, included here; each ends in a NUL so it can
 * be used as a C string. Plain C arrays, not the assembler's .incbin, so
 * the tree builds with any compiler and object format (issue 28). */
#include "refdata.h"

#include "embedded.inc"
