# Makefile - builds sysab, runs its tests, installs it. GNU make, pkg-config.

PREFIX   ?= /usr/local
CC       ?= cc
B        := build
PKG_CONFIG ?= pkg-config

# Cross builds: make CROSS=aarch64-linux-gnu [SYSROOT=dir] builds into build/<triplet>/ with
# <triplet>-gcc and pkg-config pointed at the target's libraries: Debian's multiarch
# directories (/usr/lib/<triplet>), or those of SYSROOT when the target's libraries live
# in a sysroot (scripts/cross.sh makes one per target of make check-cross). Run the result
# under qemu-user.
CROSS    ?=
SYSROOT  ?=
ifneq ($(CROSS),)
# Debian 12 has no LoongArch gcc: clang-19 and lld-19 build for it. As in make
# check-loongarch-syntax, deprecations (unstable's cmocka 2) and fields left to zero in nested
# initializers (the checks tables) are not warned about.
LOONG_CC := clang-19 --target=$(CROSS) -fuse-ld=lld
CROSS_CC := $(if $(filter loongarch64-%,$(CROSS)),$(LOONG_CC),$(CROSS)-gcc)
CROSS_WARN := $(if $(filter loongarch64-%,$(CROSS)),-Wno-unused-command-line-argument \
              -Wno-deprecated-declarations -Wno-missing-field-initializers)
CC       := $(CROSS_CC)$(if $(SYSROOT), --sysroot=$(SYSROOT))
B        := build/$(CROSS)
PKG_CONFIG := PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
              PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) pkg-config
# A SYSROOT build runs in place under qemu-user: it names the sysroot's dynamic loader and
# libraries by absolute path, so execs of it (unixbench.execl) need no QEMU_LD_PREFIX.
ifneq ($(SYSROOT),)
CROSS_LDFLAGS := -Wl,--dynamic-linker=$(firstword $(wildcard $(SYSROOT)/lib/ld-linux-*.so.1 $(SYSROOT)/lib64/ld-linux-*.so.1) \
                   $(SYSROOT)/lib/ld-linux.so.1) \
                 -Wl,--disable-new-dtags,-rpath,$(SYSROOT)/lib/$(CROSS):$(SYSROOT)/usr/lib/$(CROSS)
endif
endif
PKGS     := sqlite3 jansson gsl
OPT      ?= -O2
CFLAGS   ?= -g
WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes $(CROSS_WARN)
BASE_CFLAGS = -std=gnu11 $(OPT) $(CFLAGS) $(WARN) -D_GNU_SOURCE -Isrc $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS     = $(CROSS_LDFLAGS) $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm -lpthread
TEST_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# Debian packages needed to build, and in addition to test.
DEPS_BUILD := gcc make pkg-config libsqlite3-dev libjansson-dev libgsl-dev
DEPS_TEST  := libcmocka-dev sqlite3 jq procps man-db python3-jsonschema python3-yaml
DEPS_BENCH := bc linux-perf time
DEPS_BOOT  := qemu-system-x86 busybox-static cpio
DEPS_LAVA  := lava-dispatcher git
DEPS_KEXEC := mmdebstrap e2fsprogs qemu-system-x86

SRC      := $(sort $(shell find src -name '*.c' ! -path src/main.c ! -path 'src/helper/*'))
HDR      := $(shell find src -name '*.h')
UNIT     := $(sort $(wildcard tests/unit/test_*.c))

OBJ      := $(SRC:%.c=$(B)/obj/%.o)
AOBJ     := $(SRC:%.c=$(B)/asan/obj/%.o)
UNITBIN  := $(UNIT:tests/unit/%.c=$(B)/tests/%)
AUNITBIN := $(UNIT:tests/unit/%.c=$(B)/asan/tests/%)
ASAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

BUILD_FLAGS_STR = $(CC) -std=gnu11 $(OPT) $(CFLAGS)

.PHONY: all deps deps-test run check unit e2e asan install uninstall clean bench bench-stats fuzz fuzz-smoke docs golden layers \
	check-cross cross-test check-loongarch-syntax
.DELETE_ON_ERROR:

HELPERS = $(B)/sysab-exec-helper $(B)/sysab-execl-helper

all: deps $(B)/sysab $(HELPERS)

deps:
	@sh scripts/deps.sh $(DEPS_BUILD)

deps-test: deps
	@sh scripts/deps.sh $(DEPS_TEST)

# On a fresh machine the packages go in before anything compiles, also under make -j (the
# compilers would otherwise race apt-get for jansson.h), and one apt-get runs at a time.
$(OBJ) $(AOBJ) $(B)/obj/src/main.o $(B)/asan/obj/src/main.o: | deps
$(UNITBIN) $(AUNITBIN): | deps-test

# Each object lists the headers it includes in a .d file beside it (-MMD), and each header
# gets an empty rule there (-MP), so a removed header does not stop the build.
DEPFLAGS = -MMD -MP

$(B)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -DSYSAB_BUILD_FLAGS='"$(BUILD_FLAGS_STR)"' -c $< -o $@

$(B)/asan/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(ASAN) -O1 -DSYSAB_BUILD_FLAGS='"$(BUILD_FLAGS_STR) asan"' -c $< -o $@

$(B)/libsysab.a: $(OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/asan/libsysab.a: $(AOBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(B)/sysab: $(B)/obj/src/main.o $(B)/libsysab.a
	$(CC) $(BASE_CFLAGS) -o $@ $^ $(LIBS)

# The program kernel.proc.exec execs, installed next to sysab: static when the C
# library has a static archive, so no dynamic loading is measured; else dynamic.
$(B)/sysab-exec-helper: src/helper/exec_helper.c Makefile
	@mkdir -p $(dir $@)
	@echo "$(CC) -std=gnu11 -O2 -static -o $@ $<"
	@$(CC) -std=gnu11 -O2 -static -o $@ $< 2>/dev/null || \
		{ echo "warning: no static C library; $@ is dynamic, so kernel.proc.exec will report unsupported" >&2; \
		  $(CC) -std=gnu11 -O2 -o $@ $<; }

# The program unixbench.execl's chain execs, from the same source: always dynamic, linked
# against the C library only, as UnixBench's own execl is. A SYSROOT build names the
# sysroot's loader and libraries as sysab does (CROSS_LDFLAGS), so it runs under qemu-user.
$(B)/sysab-execl-helper: src/helper/exec_helper.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -o $@ $< $(CROSS_LDFLAGS)

$(B)/asan/sysab-exec-helper: $(B)/sysab-exec-helper
	@mkdir -p $(dir $@)
	cp $< $@

$(B)/asan/sysab-execl-helper: $(B)/sysab-execl-helper
	@mkdir -p $(dir $@)
	cp $< $@

# The workload tests exec the helpers (kernel.proc.exec, unixbench.execl).
$(B)/tests/test_workloads: $(B)/sysab $(HELPERS)
$(B)/asan/tests/test_workloads: $(B)/asan/sysab $(B)/asan/sysab-exec-helper $(B)/asan/sysab-execl-helper

$(B)/asan/sysab: $(B)/asan/obj/src/main.o $(B)/asan/libsysab.a
	$(CC) $(BASE_CFLAGS) $(ASAN) -o $@ $^ $(LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libsysab.a Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) -Itests/unit -o $@ $< $(B)/libsysab.a $(LIBS) $(TEST_LIBS)

$(B)/asan/tests/%: tests/unit/%.c $(B)/asan/libsysab.a Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(ASAN) -Itests/unit -o $@ $< $(B)/asan/libsysab.a $(LIBS) $(TEST_LIBS)

-include $(OBJ:.o=.d) $(AOBJ:.o=.d) $(B)/obj/src/main.d $(B)/asan/obj/src/main.d $(UNITBIN:=.d) $(AUNITBIN:=.d)

# The quick suite into the default database, with the results printed.
run: all
	$(B)/sysab run --quick

# Every test: unit tests, end-to-end tests of the real binary, then each fuzz target briefly.
check: deps-test layers $(B)/sysab $(HELPERS) $(UNITBIN)
	@sh tests/run-unit.sh $(UNITBIN)
	@SYSAB=$(abspath $(B)/sysab) sh tests/e2e/run.sh
	@$(MAKE) --no-print-directory fuzz-smoke

# The include graph follows the allowed arrows of docs/ARCHITECTURE.md.
layers:
	@sh scripts/check-layers.sh src && echo "layers: includes follow docs/ARCHITECTURE.md"

unit: deps-test $(UNITBIN)
	@sh tests/run-unit.sh $(UNITBIN)

e2e: deps-test $(B)/sysab
	@SYSAB=$(abspath $(B)/sysab) sh tests/e2e/run.sh

# Cross builds for aarch64, riscv64 and loongarch64, each tested under qemu-user: unit tests,
# end-to-end tests, and run --quick of every workload with every self-check (tests/cross/run.sh).
# Needs root once, to install the cross compilers and qemu-user-static and register binfmt.
# The targets run at once, each into build/cross-TRIPLET.log, printed when all have ended: an
# emulated test process runs on one CPU, so side by side they take about half the time (about
# 31 min on 2 cores, the slowest loongarch64's; README.md, the table of times).
CROSS_TARGETS ?= aarch64-linux-gnu riscv64-linux-gnu loongarch64-linux-gnu

check-cross:
	@sh scripts/cross.sh setup $(CROSS_TARGETS)
	@rc=0; for t in $(CROSS_TARGETS); do \
		( $(MAKE) --no-print-directory CROSS=$$t SYSROOT=$(abspath build/sysroot)/$$t cross-test \
			>build/cross-$$t.log 2>&1; echo $$? >build/cross-$$t.rc ) & \
	done; wait; \
	for t in $(CROSS_TARGETS); do \
		cat build/cross-$$t.log; [ "$$(cat build/cross-$$t.rc)" = 0 ] || { echo "check-cross: $$t FAILED"; rc=1; }; \
	done; exit $$rc

# One target (CROSS=, SYSROOT= set by check-cross): build, then test under qemu-user.
cross-test: $(B)/sysab $(HELPERS) $(UNITBIN)
	@test -n "$(CROSS)" || { echo "cross-test: set CROSS (or use make check-cross)" >&2; exit 2; }
	@SYSAB=$(abspath $(B)/sysab) CROSS=$(CROSS) sh tests/cross/run.sh $(UNITBIN)

# Every C file of the project through clang-19 for LoongArch, against the headers of Debian
# unstable's loong64 glibc and libraries (a sysroot; Debian 12 has no LoongArch toolchain).
# Deprecations are not errors: unstable's cmocka 2 deprecates what 1.1 (Debian 12) offers; nor are
# fields left to zero in nested initializers (the checks tables), which gcc does not flag either.
LOONG_SYSROOT := build/sysroot/loongarch64-linux-gnu
LOONG_FILES = $(sort $(shell find src tests bench -name '*.c' ! -path 'tests/portability/*'))

check-loongarch-syntax:
	@sh scripts/deps.sh clang-19
	@sh scripts/cross.sh sysroot loongarch64-linux-gnu
	@n=0; for f in $(LOONG_FILES); do n=$$((n + 1)); \
		clang-19 -fsyntax-only --target=loongarch64-linux-gnu --sysroot=$(LOONG_SYSROOT) -std=gnu11 \
			-D_GNU_SOURCE -Isrc -Itests/unit $(WARN) -Werror -Wno-deprecated-declarations -Wno-missing-field-initializers $$f || exit 1; \
	done; echo "loongarch64 syntax: $$n files, no errors or warnings"

# Unit and end-to-end tests under AddressSanitizer and UBSan.
asan: deps-test $(B)/asan/sysab $(B)/asan/sysab-exec-helper $(B)/asan/sysab-execl-helper $(AUNITBIN)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 sh tests/run-unit.sh $(AUNITBIN)
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 SYSAB_ASAN=1 \
		SYSAB=$(abspath $(B)/asan/sysab) sh tests/e2e/run.sh

# The self-benchmark: overhead, wall time, precision, A/A, cross-checks, analysis speed.
bench: deps-test $(B)/sysab $(HELPERS) $(B)/bench/gen_db
	@sh scripts/deps.sh $(DEPS_BENCH)
	@SYSAB=$(abspath $(B)/sysab) GEN_DB=$(abspath $(B)/bench/gen_db) sh bench/selfbench.sh
	@$(MAKE) --no-print-directory bench-stats

# The statistics part alone (make bench runs it last): sysab history's change points on
# 1,000 series per scenario (A/A, A/A with a spike, a step; docs/METHOD.md, "History: change
# points"; about 1 CPU minute), the whole simulation design grid
# (its table is in docs/METHOD.md), the exact level of B against A at every ratio of
# boot variances (METHOD.md, "Comparing B with A"; about 1 CPU minute), the bound on
# any such test (bench/bf_bound.py, SciPy, about 4 CPU minutes) and 10,000 random CSV
# designs through the analysis under AddressSanitizer and UBSan. About 15-25 CPU minutes
# (the grid 1-3 CPU minutes at 20,000 replicates per design; 1,000 fuzz designs take
# 40-90 CPU s under ASan); needs no quiet machine.
.PHONY: bench-stats
bench-stats: deps-test $(B)/tests/test_stats_grid $(B)/tests/test_stats_bf $(B)/asan/tests/test_analysis_fuzz \
	$(B)/tests/test_stats_changepoint
	@mkdir -p $(B)/bench
	SYSAB_CP=full $(B)/tests/test_stats_changepoint | tee $(B)/bench/stats-history.txt
	SYSAB_GRID=full $(B)/tests/test_stats_grid | tee $(B)/bench/stats-grid.txt
	SYSAB_BF=full $(B)/tests/test_stats_bf | tee $(B)/bench/stats-bf.txt
	@sh scripts/deps.sh python3-scipy
	bench/bf_bound.py | tee $(B)/bench/stats-bf-bound.txt
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 SYSAB_FUZZ_N=10000 \
		$(B)/asan/tests/test_analysis_fuzz

# The man page and bash completion are generated from the option tables and committed;
# tests/e2e/t_docs.sh fails when they are stale.
docs: $(B)/sysab
	$(B)/sysab __man >docs/sysab.1
	$(B)/sysab __completion >docs/sysab.bash-completion

# The README's screenshots of the HTML report (docs/img/), from the synthetic example data, in
# headless Chromium; rerun after a change to the page and commit the result.
.PHONY: doc-images
doc-images: $(B)/sysab
	sh scripts/doc-images.sh $(B)/sysab

# Rewrite the expected outputs of the golden tests (tests/golden/) after an intended change
# to a table or a JSON document; review the result with git diff before committing it.
golden: deps-test $(B)/sysab
	@SYSAB=$(abspath $(B)/sysab) sh tests/golden/run.sh --update

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(B)/sysab $(DESTDIR)$(PREFIX)/bin/sysab
	install -m 644 docs/sysab.1 $(DESTDIR)$(PREFIX)/share/man/man1/sysab.1
	install -m 644 docs/sysab.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sysab
	install -m 755 $(B)/sysab-exec-helper $(DESTDIR)$(PREFIX)/bin/sysab-exec-helper
	install -m 755 $(B)/sysab-execl-helper $(DESTDIR)$(PREFIX)/bin/sysab-execl-helper
	install -d $(DESTDIR)$(PREFIX)/share/sysab/lava
	install -m 644 contrib/lava/sysab.yaml $(DESTDIR)$(PREFIX)/share/sysab/lava/sysab.yaml
	install -m 755 contrib/lava/sysab-lava.sh $(DESTDIR)$(PREFIX)/share/sysab/lava/sysab-lava.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sysab $(DESTDIR)$(PREFIX)/bin/sysab-exec-helper $(DESTDIR)$(PREFIX)/bin/sysab-execl-helper \
		$(DESTDIR)$(PREFIX)/share/man/man1/sysab.1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sysab \
		$(DESTDIR)$(PREFIX)/share/sysab/lava/sysab.yaml $(DESTDIR)$(PREFIX)/share/sysab/lava/sysab-lava.sh
	-rmdir $(DESTDIR)$(PREFIX)/share/sysab/lava $(DESTDIR)$(PREFIX)/share/sysab 2>/dev/null

clean:
	rm -rf $(B)

# ---- fuzz: libFuzzer targets for the input parsers (clang; src files compiled directly) ----
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer -D_GNU_SOURCE -Isrc $(WARN)
FUZZ_CORE  := src/core/core.c src/core/parse.c src/core/termsafe.c
FUZZ_BINS  := $(B)/fuzz/fuzz_unixbench $(B)/fuzz/fuzz_csv $(B)/fuzz/fuzz_label $(B)/fuzz/fuzz_text $(B)/fuzz/fuzz_db

FUZZ_SECONDS ?= 20

fuzz: $(FUZZ_BINS)

# Each target for FUZZ_SECONDS on its seed corpus; any crash, leak or sanitizer report fails.
# Skipped, saying so, where clang cannot build a libFuzzer binary (clang, libclang-rt-14-dev).
fuzz-smoke:
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, long n);\nint LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' | \
		$(FUZZ_CC) -x c -fsanitize=fuzzer,address -o /dev/null - >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory fuzz >/dev/null && FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BIN=$(B)/fuzz sh tests/fuzz/smoke.sh; \
	else \
		echo "fuzz: SKIPPED: $(FUZZ_CC) cannot build libFuzzer targets; install clang and libclang-rt-14-dev"; \
	fi

# the UnixBench importer maps tests to workloads through the registry's descriptors
$(B)/fuzz/fuzz_unixbench: src/import/import_unixbench.c src/import/import_util.c $(shell find src/workloads -name '*.c') \
	src/core/file.c src/core/tmp.c src/core/live.c
$(B)/fuzz/fuzz_csv: src/import/import_csv.c src/import/import_util.c
$(B)/fuzz/fuzz_text: src/report/export.c
# import db: the store (SQLite) and the import gate on mutated database files, instrumented; the
# campaign check the gate applies (campaign_record_check) and what it needs come from libsysab.a
$(B)/fuzz/fuzz_db: src/import/import_db.c src/import/import_check.c src/import/import_util.c \
	$(wildcard src/store/*.c) src/core/file.c src/core/tmp.c src/core/live.c src/core/outfile.c $(B)/libsysab.a
$(B)/fuzz/fuzz_db: FUZZ_LIBS = $(B)/libsysab.a $(LIBS)
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE) $(HDR) Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null) -o $@ $(filter %.c,$^) -lm $(FUZZ_LIBS)

# ---- bench: analysis speed (compare and analyze on a synthetic 1,000-run database) ----
$(B)/bench/gen_db: bench/gen_db.c $(B)/libsysab.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $< $(B)/libsysab.a $(LIBS)

# the analysis part alone (make bench runs it as its last part)
.PHONY: bench-counters
# the cost of per-sample counters (docs/PERFORMANCE.md): on and off side by side in one run,
# four arms per sample in rotating order (counters_ab), then whole runs with --counters all/none in alternating pairs
$(B)/bench/counters_ab: bench/counters_ab.c $(B)/libsysab.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $< $(B)/libsysab.a $(LIBS)

bench-counters: $(B)/sysab $(B)/bench/counters_ab
	$(B)/bench/counters_ab 200
	@SYSAB=$(abspath $(B)/sysab) sh bench/counters.sh

# what the environment's padding (run.env_pad; docs/PERFORMANCE.md) changes: padded and
# --no-randomize-env runs in alternating pairs, with ASLR off for sysab (setarch -R)
.PHONY: bench-envpad
bench-envpad: $(B)/sysab $(HELPERS)
	@SYSAB=$(abspath $(B)/sysab) sh bench/envpad.sh

.PHONY: bench-analysis
bench-analysis: $(B)/sysab $(B)/bench/gen_db
	@SYSAB=$(abspath $(B)/sysab) GEN_DB=$(abspath $(B)/bench/gen_db) sh bench/analysis.sh

# `sysab history` of 10,000 boots (issue 36: target under 2 s); BOOTS= to change.
.PHONY: bench-precision
# precision per machine-minute (issue 38, docs/PERFORMANCE.md): RUNS default runs (PAIRED paired
# A/A runs after each), index CV, CV x sqrt(wall), decomposition, the paired difference.
# With UNIXBENCH=DIR, then both like-for-like comparisons (issue 51; PAIRS, SETS): the four and
# the twelve tests, UnixBench's passes and sysab's runs of the same workloads interleaved.
bench-precision: $(B)/sysab $(HELPERS)
	@SYSAB=$(abspath $(B)/sysab) BENCH_DIR=$(abspath $(B)/bench) UNIXBENCH= sh bench/precision.sh
	@if [ -n "$(UNIXBENCH)" ]; then SYSAB=$(abspath $(B)/sysab) BENCH_DIR=$(abspath $(B)/bench) \
		UNIXBENCH=$(abspath $(UNIXBENCH)) sh bench/likeforlike.sh; fi

.PHONY: bench-allocate
# run --allocate against the default design (issue 38 item 4, docs/PERFORMANCE.md): PILOT runs,
# then RUNS pairs of a plain and an allocated run, index CV and CV x sqrt(wall) of each
bench-allocate: $(B)/sysab
	@SYSAB=$(abspath $(B)/sysab) BENCH_DIR=$(abspath $(B)/bench) sh bench/allocate.sh

.PHONY: bench-history
bench-history: $(B)/sysab
	@sh scripts/deps.sh $(DEPS_BENCH)
	@SYSAB=$(abspath $(B)/sysab) sh bench/history.sh

# `sysab import csv` of 1,000,000 rows (issue 16: target under 30 s and 500 MB); ROWS= to change.
.PHONY: bench-import
bench-import: $(B)/sysab
	@SYSAB=$(abspath $(B)/sysab) sh bench/import.sh

# ---- boot campaigns: the qemu guest (Debian kernel + busybox initramfs with a static sysab) ----
# The static sysab links Debian's static archives of SQLite, Jansson, GSL and glibc.
$(B)/static/sysab: $(B)/obj/src/main.o $(B)/libsysab.a
	@mkdir -p $(dir $@)
	$(CC) -static -o $@ $^ -lsqlite3 -ljansson -lgsl -lgslcblas -lm -lpthread -ldl

# With CROSS=loongarch64-linux-gnu SYSROOT=... (make check-boot-loongarch) the guest is a LoongArch one:
# its kernel and busybox come from Debian unstable's loong64 port, its sysab links the sysroot's archives.
GUEST_ARCH := $(firstword $(subst -, ,$(CROSS)))
DEPS_GUEST := $(if $(filter loongarch64-%,$(CROSS)),cpio zstd mmdebstrap,$(DEPS_BOOT))
# The guest's execl helper names the guest's own loader, which guest-image.sh copies into the
# image with the C library (from SYSROOT for a cross build): no sysroot paths (CROSS_LDFLAGS).
$(B)/guest-execl/sysab-execl-helper: src/helper/exec_helper.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -o $@ $<

$(B)/guest/initramfs.cpio.gz: $(B)/static/sysab $(B)/sysab-exec-helper $(B)/guest-execl/sysab-execl-helper \
	scripts/guest-image.sh scripts/guest-init.sh
	@sh scripts/deps.sh $(DEPS_GUEST)
	SYSROOT=$(SYSROOT) sh scripts/guest-image.sh $(B) $(B)/static/sysab $(B)/sysab-exec-helper \
		$(B)/guest-execl/sysab-execl-helper $(GUEST_ARCH)

.PHONY: guest check-boot check-boot-loongarch check-lava check-kexec
guest: $(B)/guest/initramfs.cpio.gz

# Real boots under QEMU (KVM when it works, else TCG): the 2x2 pti x thp campaign, A/A,
# resume after kills, the safety rules. 392 s on 2 cores (README.md); .ci/run calls it after make check.
check-boot: deps-test $(B)/sysab $(B)/guest/initramfs.cpio.gz
	@sh scripts/deps.sh $(DEPS_BOOT)
	@SYSAB=$(abspath $(B)/sysab) GUEST=$(abspath $(B)/guest) sh tests/boot/run.sh

# LoongArch boots (tests/boot/loongarch.sh): Debian unstable's loong64 kernel under Debian 13's
# qemu-system-loongarch64 (TCG), extracted into build/qemu-trixie (the qemu-user of make
# check-cross comes from the same extraction), with a LoongArch guest whose sysab links the
# archives of make check-cross's sysroot (build/sysroot/loongarch64-linux-gnu): a campaign of 2
# configurations x 2 boots, then analyze and compare. Needs root once (packages, mmdebstrap);
# 85 s from nothing extracted, 21 s cached, on 2 cores (README.md, the table of times); it
# prints the whole target's time and the campaign's. .ci/run calls it after check-boot.
LOONG := loongarch64-linux-gnu
check-boot-loongarch: deps-test $(B)/sysab
	@date +%s >build/check-boot-loongarch.start
	@sh scripts/deps.sh clang-19 lld-19 mmdebstrap zstd cpio
	@sh scripts/cross.sh sysroot $(LOONG)
	@sh scripts/cross.sh qemu
	@$(MAKE) --no-print-directory CROSS=$(LOONG) SYSROOT=$(abspath build/sysroot/$(LOONG)) guest
	@SYSAB=$(abspath $(B)/sysab) GUEST=$(abspath build/$(LOONG)/guest) CHECK_START=$$(cat build/check-boot-loongarch.start) \
		QEMU=$(abspath build/qemu-trixie/bin/qemu-system-loongarch64) sh tests/boot/loongarch.sh

# The self-rebooting path for real: a QEMU guest running Debian with systemd and kexec-tools
# runs a kexec campaign of 2 configurations x 2 boots through sysab's own resume unit
# (tests/kexec/run.sh). Needs root (the guest's Debian root is built with mmdebstrap once and
# cached in $(B)/kexec/base.tar); 179 s under TCG once that is cached (README.md). .ci/run calls it.
$(B)/kexec/disk.img: $(B)/static/sysab $(B)/sysab-exec-helper $(B)/guest-execl/sysab-execl-helper \
	scripts/kexec-image.sh tests/kexec/guest-driver.sh tests/kexec/sysab-check-kexec.service
	@sh scripts/deps.sh $(DEPS_KEXEC)
	sh scripts/kexec-image.sh $(B) $(B)/static/sysab $(B)/sysab-exec-helper $(B)/guest-execl/sysab-execl-helper

check-kexec: deps-test $(B)/sysab $(B)/kexec/disk.img
	@SYSAB=$(abspath $(B)/sysab) KEXEC=$(abspath $(B)/kexec) sh tests/kexec/run.sh

# A real LAVA job without a server: lava-run boots the guest kernel under QEMU (TCG) as a
# LAVA device, runs contrib/lava/sysab.yaml from this repository's HEAD, and the test cases
# LAVA recorded must match the database the job kept (imported with sysab import db).
# Needs root; about 2 minutes plus installing lava-dispatcher. .ci/run calls it after check-boot.
check-lava: deps-test $(B)/sysab $(B)/guest/initramfs.cpio.gz
	@sh scripts/deps.sh $(DEPS_BOOT) $(DEPS_LAVA)
	@SYSAB=$(abspath $(B)/sysab) GUEST=$(abspath $(B)/guest) sh tests/lava/run.sh
