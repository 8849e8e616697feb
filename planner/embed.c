/* embed.c — compiles the reference data and the bundled price snapshot into
 * the binary, so `planner` works from any directory after `make install`.
 * The assembler's .incbin reads the files at build time (paths are relative
 * to the top of the tree, where make runs); each gets a trailing NUL so it
 * can be used as a C string. */

#define EMBED(sym, file)                                                                           \
	__asm__(".section .rodata\n"                                                              \
		".global " #sym "\n"                                                               \
		".type " #sym ", @object\n"                                                        \
		".balign 16\n" #sym ":\n"                                                          \
		".incbin \"" file "\"\n"                                                           \
		".byte 0\n"                                                                        \
		".previous\n")

EMBED(planner_schema_sql, "schema/schema.sql");
EMBED(planner_gpus_json, "schema/gpus.json");
EMBED(planner_models_json, "schema/models.json");
EMBED(planner_snapshot_json, "schema/snapshot.json");
