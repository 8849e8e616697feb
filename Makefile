# planner — build with pkg-config; see README.md for the two commands.
#
#   make            build build/planner
#   make run        install missing packages (as root), build, run the tour
#   make check      build and run every Check suite, then validate their JSON
#   make posix-check compile every source with POSIX.1-2008 and C11 only (macOS, BSD)
#   make asan       the whole suite under AddressSanitizer + UBSan
#   make check-slow concurrency, load and kill -9 (tests/check_concurrency.c)
#   make valgrind   the whole suite in one process under valgrind
#   make tidy       clang-tidy on the sources (.clang-tidy)
#   make install    PREFIX=/usr/local DESTDIR=
#   make bench      benchmarks (figures, not pass/fail timing)
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS each (tests/fuzz/fuzz.mk)
#   make spec-doc   rewrite docs/spec.md and planner-spec.5 from the job spec's key tables
#   make report-png rewrite docs/report.png, README's picture, from the tour's report
#   make snapshot   rebuild schema/snapshot.json from schema/snapshot/ (build.py)

VERSION  := 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
EXAMPLEDIR ?= $(PREFIX)/share/planner/examples
BUILD    ?= build
PKGS     := libcurl libcjson sqlite3 yaml-0.1
DEB_PKGS := build-essential pkg-config libcurl4-openssl-dev libcjson-dev \
            libsqlite3-dev libyaml-dev check python3

CC       ?= cc
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CFLAGS   ?= -O2 -g
SAN      ?=
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)
# POSIX.1-2008 and ISO C11 only, so the tree builds on macOS and the BSDs
# as on glibc; a file needing more says so at its top (schedule.c's
# tm_gmtoff). `make posix-check` holds every source to it.
FEATURES := -D_POSIX_C_SOURCE=200809L
ALL_CFLAGS = -std=c11 $(FEATURES) -DPLANNER_VERSION='"$(VERSION)"' \
             -I. -Iplanner -Iproviders $(WARN) $(CFLAGS) $(SAN) $(PKG_CFLAGS)
LDLIBS   = $(PKG_LIBS) -lm

# The command layer (main.c's table, cli.c, msg.c, one cmd_<name>.c per
# command) prints and exits; the core library never does. The binary links
# both archives; the test runner links the command layer too, for the
# tests of cli_write_file (tests/check_export.c); gen_spec_doc and the fuzz
# harnesses link the core only. tests/check_layout.c holds the core to not
# including cli.h.
CLI_SRC  := planner/main.c planner/cli.c planner/msg.c $(wildcard planner/cmd_*.c)
CLI_OBJ  := $(filter-out $(BUILD)/obj/planner/main.o,$(CLI_SRC:%.c=$(BUILD)/obj/%.o))
CLI_LIB  := $(BUILD)/libplanner-cli.a
LIB_SRC  := $(filter-out $(CLI_SRC),$(wildcard planner/*.c providers/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libplanner.a
BIN      := $(BUILD)/planner
TEST_SRC := $(wildcard tests/check_*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/run.o $(BUILD)/obj/tests/testutil.o \
            $(BUILD)/obj/tests/providers_util.o
# The fuzz harness bodies, replayed on their corpora by tests/check_fuzz.c.
TEST_OBJ += $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/fuzz/fuzz_*.c))
TEST_BIN := $(BUILD)/tests/run
# Compiled-in reference data and bundled snapshot (see planner/embed.c).
EMBEDDED := $(wildcard schema/*.sql schema/*.json)

.PHONY: all readme run check check-slow asan valgrind install uninstall clean bench deps format lint tidy \
        spec-doc report-png calibration posix-check snapshot snapshot-check

all: $(BIN)

$(BUILD)/obj/%.o: %.c $(wildcard planner/*.h providers/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Each file of EMBEDDED as a C array (tests/gen_embed.c), included by
# planner/embed.c: ISO C for any compiler and object format.
# A build tool: no sanitizer or fuzzer flags (SAN), which it does not need.
$(BUILD)/gen_embed: tests/gen_embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(FEATURES) $(WARN) $(CFLAGS) -o $@ $<

$(BUILD)/gen/embedded.inc: $(EMBEDDED) $(BUILD)/gen_embed
	@mkdir -p $(dir $@)
	$(BUILD)/gen_embed $(EMBEDDED) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/planner/embed.o: planner/embed.c planner/refdata.h $(BUILD)/gen/embedded.inc
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/gen -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(CLI_LIB): $(CLI_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/obj/planner/main.o $(CLI_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# One runner for every suite: tests/check_<name>.c defines <name>_suite().
$(BUILD)/tests/suites.h: $(TEST_SRC)
	@mkdir -p $(dir $@)
	@for f in $(TEST_SRC); do n=$${f#tests/check_}; echo "SUITE($${n%.c})"; done > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(BUILD)/obj/tests/run.o: tests/run.c $(BUILD)/tests/suites.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD)/tests $(CHECK_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(wildcard planner/*.h providers/*.h tests/*.h tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(CLI_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) $(CHECK_LIBS)

# Every source compiled as a POSIX system that is not glibc sees it
# (macOS, the BSDs): no _GNU_SOURCE, POSIX.1-2008 only, so a GNU-only
# call is an implicit declaration and an error. `make check` runs it.
POSIX_CFLAGS = -std=c11 -U_GNU_SOURCE -D_POSIX_C_SOURCE=200809L -DPLANNER_VERSION='"$(VERSION)"' \
               -I. -Iplanner -Iproviders -I$(BUILD)/gen -I$(BUILD)/tests $(WARN) $(PKG_CFLAGS) $(CHECK_CFLAGS)
# macOS compiles with clang, whose -Wall differs from gcc's: where clang
# is installed the check runs with it too.
POSIX_CCS = $(CC) $(shell command -v clang >/dev/null 2>&1 && echo clang)
posix-check: $(BUILD)/gen/embedded.inc $(BUILD)/tests/suites.h
	@for cc in $(sort $(POSIX_CCS)); do n=0; \
		for f in $(CLI_SRC) $(LIB_SRC) tests/*.c tests/fuzz/*.c; do \
			$$cc $(POSIX_CFLAGS) -fsyntax-only $$f || exit 1; n=$$((n + 1)); \
		done; echo "posix-check: $$n files build with only POSIX.1-2008 and C11 ($$cc)"; \
	done

# docs/spec.md is rendered from the key tables (planner/spec_keys.c,
# planner/spec_job.c); tests/check_jobspec.c fails when it is stale.
$(BUILD)/gen_spec_doc: $(BUILD)/obj/tests/gen_spec_doc.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

spec-doc: $(BUILD)/gen_spec_doc
	$(BUILD)/gen_spec_doc > docs/spec.md.tmp && mv docs/spec.md.tmp docs/spec.md
	$(BUILD)/gen_spec_doc --man > planner-spec.5.tmp && mv planner-spec.5.tmp planner-spec.5

# The bundled snapshot is built, never edited: schema/snapshot/build.py
# assembles it from the catalogue extracts, hand-transcribed rows, API
# prices and fx block under schema/snapshot/ and names the rows older than
# 90 days before its as_of. `make check` rebuilds it into a temporary file
# and holds the committed one to it byte for byte, under Debian's python3.
snapshot:
	python3 schema/snapshot/build.py

snapshot-check:
	@mkdir -p $(BUILD)
	/usr/bin/python3 schema/snapshot/build.py --out $(BUILD)/snapshot-rebuilt.json > /dev/null
	cmp schema/snapshot.json $(BUILD)/snapshot-rebuilt.json

# README's and docs/tour.md's console blocks: every `$ planner ...` run again with the binary
# on PATH and a fresh database; `make check` holds the README to it
# (tests/tools/readme_walk.py says what is not compared).
readme: $(BIN)
	python3 tests/tools/readme_walk.py --write README.md $(BUILD)
	python3 tests/tools/readme_walk.py --write docs/tour.md $(BUILD)

# README's picture of the report: the tour's report on the bundled snapshot,
# rendered as the tests render it (headless Chromium, 1000 px wide).
CHROMIUM ?= chromium
report-png: $(BIN)
	$(BIN) report jobs/monthly.yaml --db $(BUILD)/report-png.db --quiet -o $(BUILD)/report.html
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir=$(BUILD)/chromium-profile --hide-scrollbars --window-size=1000,1450 \
		--screenshot=$(abspath docs/report.png) file://$(abspath $(BUILD)/report.html) 2>/dev/null
	rm -rf $(BUILD)/chromium-profile

# Installs what is missing (as root), builds, and runs the tour. The build
# is quiet (one line; V=1 shows every compiler line), so the answer is what
# the screen shows.
run: deps
	@$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all
	@echo "built $(BIN) (make V=1 run shows the compiler lines); running:"
	@echo "\$$ $(BIN) compare jobs/monthly.yaml"
	@$(BIN) compare jobs/monthly.yaml --db $(BUILD)/tour.db

deps:
	@if pkg-config --exists $(PKGS) check 2>/dev/null && command -v cc >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PKGS); \
	else \
		echo "missing build packages; run:"; \
		echo "  sudo apt-get install -y $(DEB_PKGS)"; exit 1; \
	fi

# Every --format json output the suites produce is kept (PLANNER_JSON_LOG,
# tests/testutil.c) and validated against its contract in schema/json/
# (docs/design.md, "JSON contract") with Debian's python3-jsonschema.
JSON_LOG := $(BUILD)/json-outputs
check: posix-check snapshot-check $(BIN) $(TEST_BIN)
	rm -rf $(JSON_LOG) && mkdir -p $(JSON_LOG)
	PLANNER_JSON_LOG=$(abspath $(JSON_LOG)) PLANNER_BIN=$(abspath $(BIN)) $(TEST_BIN)
	/usr/bin/python3 tests/tools/schema_validate.py --outputs $(JSON_LOG)

# The calibration table: per kind on the fit and held-out sources, then per
# source (tests/calibration/README.md, "Checking").
calibration: $(BIN) $(TEST_BIN)
	CK_RUN_SUITE=calibration PLANNER_BIN=$(abspath $(BIN)) $(TEST_BIN)

# The slow suite is empty unless PLANNER_SLOW_TESTS=1: `make check` skips it.
check-slow: $(BIN) $(TEST_BIN)
	PLANNER_SLOW_TESTS=1 CK_RUN_SUITE=concurrency PLANNER_BIN=$(abspath $(BIN)) $(TEST_BIN)

# One process (CK_FORK=no) so valgrind sees every test; the planner binaries
# the tests start run natively (`make asan` checks them, LeakSanitizer on).
valgrind: $(BIN) $(TEST_BIN)
	CK_FORK=no PLANNER_BIN=$(abspath $(BIN)) valgrind --quiet --error-exitcode=1 \
		--leak-check=full --errors-for-leak-kinds=definite,indirect $(TEST_BIN)

# The sanitizers slow the suite several times over: Check's per-test hang
# guard (CK_DEFAULT_TIMEOUT in tests/run.c) is stretched to match.
asan:
	CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-10} $(MAKE) BUILD=build-asan CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all" check

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/planner
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 planner.1 $(DESTDIR)$(MANDIR)/man1/planner.1
	install -m 644 completion/planner.bash $(DESTDIR)$(BASHCOMPDIR)/planner
	install -d $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 644 completion/_planner $(DESTDIR)$(ZSHCOMPDIR)/_planner
	install -m 644 completion/planner.fish $(DESTDIR)$(FISHCOMPDIR)/planner.fish
	install -d $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(EXAMPLEDIR)
	install -m 644 planner-spec.5 $(DESTDIR)$(MANDIR)/man5/planner-spec.5
	install -m 644 $(wildcard jobs/*.yaml) $(DESTDIR)$(EXAMPLEDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/planner $(DESTDIR)$(MANDIR)/man1/planner.1 \
		$(DESTDIR)$(MANDIR)/man5/planner-spec.5 $(DESTDIR)$(BASHCOMPDIR)/planner \
		$(DESTDIR)$(ZSHCOMPDIR)/_planner $(DESTDIR)$(FISHCOMPDIR)/planner.fish
	rm -rf $(DESTDIR)$(EXAMPLEDIR)
	-rmdir $(DESTDIR)$(PREFIX)/share/planner 2>/dev/null

bench: $(BIN)
	@for b in bench/*.sh; do \
		[ -x "$$b" ] || continue; \
		echo "== $$b"; PLANNER_BIN=$(abspath $(BIN)) BUILD=$(BUILD) "$$b" || exit 1; \
	done

format:
	clang-format -i planner/*.[ch] providers/*.[ch] tests/*.[ch]

# objectIndex in schedule.c: cppcheck takes b->sol.pool, a heap array, for
# a local named pool (a false positive on every &b->sol.pool[j * T]).
lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr --suppress=objectIndex:planner/schedule.c \
		-I planner -I providers planner providers

tidy: $(BUILD)/gen/embedded.inc
	clang-tidy --quiet $(wildcard planner/*.c providers/*.c) -- -std=c11 $(FEATURES) \
		-DPLANNER_VERSION='"$(VERSION)"' -I. -Iplanner -Iproviders -I$(BUILD)/gen $(PKG_CFLAGS)

include tests/fuzz/fuzz.mk

clean:
	rm -rf build build-asan build-fuzz
