# fuzz.mk — libFuzzer harnesses (tests/fuzz/README.md); included by the Makefile.
#
#   make fuzz            build every harness with clang, run each FUZZ_SECONDS
#   make fuzz-merge      minimise each committed corpus with what the runs found
#                        (inputs cut to FUZZ_MERGE_LEN bytes)
#
# The library is rebuilt in build-fuzz/ with the harnesses' sanitizer flags.
# Each run reads tests/fuzz/corpus/<harness>/ (never written) and grows
# build-fuzz/corpus/<harness>/; crashes go to tests/fuzz/crashes/.

FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 30
# fuzz-merge cuts inputs to this many bytes: at 1200 every harness kept its
# coverage within one edge, and the committed corpus stays under 1 MB.
FUZZ_MERGE_LEN ?= 1200
FUZZ_BUILD   := build-fuzz
FUZZ_FLAGS   := FUZZ_LIBFUZZER
FUZZ_PROVIDERS := $(filter-out http normalise provider json_flat json_items,$(basename $(notdir $(wildcard providers/*.c))))
FUZZ_HARNESSES := jobspec config aws_csv probe dbfile $(FUZZ_PROVIDERS:%=provider_%)
FUZZ_BODY    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_COMMON  := $(BUILD)/obj/tests/fuzz/fuzz_common.o

.PHONY: fuzz fuzz-build fuzz-bins fuzz-merge

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" fuzz-bins

fuzz-bins: $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz/fuzz_provider_%: tests/fuzz/fuzz_provider.c tests/fuzz/fuzz.h $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -D$(FUZZ_FLAGS) -DPROVIDER=$* -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_COMMON) $(LIB) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -D$(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_COMMON) $(LIB) $(LDLIBS)

# Every harness runs even when one fails; the target fails if any did.
fuzz: fuzz-build
	@mkdir -p tests/fuzz/crashes; fail=0; \
	for h in $(FUZZ_HARNESSES); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$h; \
		dict=; [ -f tests/fuzz/dict/$$h.dict ] && dict=-dict=tests/fuzz/dict/$$h.dict; \
		echo "== fuzz $$h ($(FUZZ_SECONDS)s)"; \
		$(FUZZ_BUILD)/fuzz/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 $$dict \
			-artifact_prefix=tests/fuzz/crashes/$$h- \
			$(FUZZ_BUILD)/corpus/$$h tests/fuzz/corpus/$$h \
			> $(FUZZ_BUILD)/fuzz-$$h.log 2>&1 || { fail=1; echo "   FAILED: see $(FUZZ_BUILD)/fuzz-$$h.log"; }; \
		grep -E '^stat::number_of_executed_units|^Done' $(FUZZ_BUILD)/fuzz-$$h.log | sed 's/^/   /'; \
	done; exit $$fail

fuzz-merge: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
		rm -rf $(FUZZ_BUILD)/merged/$$h; mkdir -p $(FUZZ_BUILD)/merged/$$h $(FUZZ_BUILD)/corpus/$$h; \
		$(FUZZ_BUILD)/fuzz/fuzz_$$h -merge=1 -max_len=$(FUZZ_MERGE_LEN) $(FUZZ_BUILD)/merged/$$h tests/fuzz/corpus/$$h \
			$(FUZZ_BUILD)/corpus/$$h > $(FUZZ_BUILD)/merge-$$h.log 2>&1 || exit 1; \
		rm -rf tests/fuzz/corpus/$$h && mv $(FUZZ_BUILD)/merged/$$h tests/fuzz/corpus/$$h; \
		echo "$$h: $$(ls tests/fuzz/corpus/$$h | wc -l) files"; \
	done
