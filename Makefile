# SPDX-License-Identifier: GPL-2.0-only
# perfev: GNU make build.  `make`, `make check`, `make demo`, `make bench`,
# `make fuzz`, `make install DESTDIR=...`.  V=1 shows commands.
# SANITIZE=address,undefined builds into build-san/ with sanitizers.
# ARCH=arm64 cross-builds into build-arm64/ with Debian's aarch64-linux-gnu-gcc;
# `make check-arm64` runs its unit tests and fuzz corpora under qemu-aarch64.

VERSION      := 0.1.0
SOVERSION    := 0
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR       ?= $(PREFIX)/share/man
# bash-completion loads completions/perfev from here on demand (also under
# /usr/local/share); Debian's own: `pkg-config --variable=completionsdir
# bash-completion` = /usr/share/bash-completion/completions.
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions

CC       ?= cc
CLANG    ?= clang
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
# -Wno-missing-field-initializers: the CLI's option tables (struct opt,
# cli/common/options.h) leave out the trailing member (values) where the
# option has no list of values; it is NULL then, as C says.
WARN     := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wformat=2 -Wvla \
	    -Wno-missing-field-initializers
BASE     := -std=gnu11 -D_GNU_SOURCE $(WARN) -Iinclude -fvisibility=hidden
# libpfm4 is not linked: lib/event/event_pfm.c loads it with dlopen when needed.
DEPLIBS  := -ltraceevent -ldw -lelf -lzstd -lz -lm -ldl

ifeq ($(ARCH),arm64)
  CROSS  ?= aarch64-linux-gnu-
  CC     := $(CROSS)gcc
  AR     := $(CROSS)ar
  BUILD  ?= build-arm64
else
  AR     := ar
endif

ifneq ($(SANITIZE),)
  BUILD  ?= build-san
  SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
else
  BUILD  ?= build
  SANFLAGS :=
endif

ifeq ($(V),1)
  Q :=
else
  Q := @
endif

LIB_SRC   := $(sort $(wildcard lib/*/*.c))
LIB_HDRS  := $(wildcard include/perfev/*.h lib/*/*.h)
# cli/main.c and one folder per command (cli/common/: what several share).
CLI_SRC   := cli/main.c $(sort $(wildcard cli/*/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/*.c))
LIVE_SRC  := $(sort $(wildcard tests/live/*.c))
COMPAT_SRC:= $(sort $(wildcard tests/compat/*.c))
FAULT_SRC := $(sort $(wildcard tests/fault/*.c))
TEST_HELPERS := $(sort $(wildcard tests/helpers/*.c))
EX_SRC    := $(sort $(wildcard examples/*.c))
EXCXX_SRC := $(sort $(wildcard examples/*.cpp))
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))
# Man pages: man/NAME.SECTION.scd -> $(BUILD)/man/NAME.SECTION with scdoc,
# dated by the last commit (SOURCE_DATE_EPOCH) so that builds are the same.
MAN_SRC   := $(sort $(wildcard man/*.scd))
MAN_PAGES := $(MAN_SRC:man/%.scd=$(BUILD)/man/%)
SCDOC     ?= scdoc
HAVE_SCDOC := $(shell command -v $(SCDOC) 2>/dev/null)
MAN_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))
# Checks of the tree itself (licenses, man pages, completion, layers):
# shell scripts, run from a small wrapper under $(BUILD)/tests/meta/.
META_SRC  := $(sort $(wildcard tests/meta/*.sh))

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/flamegraph_assets.o
# The flame graph's page, CSS and script (--to html), embedded as C strings.
FG_ASSETS := cli/convert/flamegraph/page.html cli/convert/flamegraph/flamegraph.css cli/convert/flamegraph/flamegraph.js
STATIC    := $(BUILD)/libperfev.a
SHARED    := $(BUILD)/libperfev.so.$(VERSION)
SONAME    := libperfev.so.$(SOVERSION)
PERFEV    := $(BUILD)/perfev
READ_VDSO32 := $(BUILD)/perfev-read-vdso32
LIBEXECDIR ?= $(PREFIX)/libexec/perfev

TEST_BINS := $(UNIT_SRC:%.c=$(BUILD)/%) $(LIVE_SRC:%.c=$(BUILD)/%) $(COMPAT_SRC:%.c=$(BUILD)/%) \
	     $(FAULT_SRC:%.c=$(BUILD)/%) $(META_SRC:tests/meta/%.sh=$(BUILD)/tests/meta/%)
TEST_SHARED_BINS := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/shared/%)
HELPER_BINS := $(TEST_HELPERS:%.c=$(BUILD)/%)
EX_BINS   := $(EX_SRC:%.c=$(BUILD)/%) $(EXCXX_SRC:%.cpp=$(BUILD)/%) $(BUILD)/examples/region_hpp.ok \
	     $(BENCH_SRC:%.c=$(BUILD)/%)

ALL_CFLAGS := $(BASE) $(CFLAGS) $(SANFLAGS)

.PHONY: all lib cli tests examples man man-skip check check-san check-arm64 fuzz-drivers unit-tests check-valgrind stress stress-big check-only demo bench fuzz fuzz-run fuzz-long fuzz-merge mutants install clean deps deps-check
all: lib cli examples tests $(BUILD)/perfev.pc $(if $(HAVE_SCDOC),$(MAN_PAGES),$(if $(MAN_SRC),man-skip))

lib: $(STATIC) $(SHARED)
ifeq ($(ARCH),arm64)
cli: $(PERFEV)
else
cli: $(PERFEV) $(READ_VDSO32)
endif
tests: $(TEST_BINS) $(TEST_SHARED_BINS) $(HELPER_BINS)
examples: $(EX_BINS)
man: $(MAN_PAGES)
man-skip:
	@echo "  (scdoc not found: the man pages are not built; apt-get install scdoc)"

$(BUILD)/man/%: man/%.scd scripts/man-tidy.awk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  SCDOC   $<")
	$(Q)if ! command -v $(SCDOC) >/dev/null 2>&1; then \
	  echo "cannot build $@: scdoc not found; apt-get install scdoc" >&2; exit 1; fi
	$(Q)$(if $(MAN_EPOCH),SOURCE_DATE_EPOCH=$(MAN_EPOCH) )$(SCDOC) <$< >$@.raw && \
	  awk -f scripts/man-tidy.awk $@.raw >$@.tmp && mv $@.tmp $@ && rm -f $@.raw || { rm -f $@.raw $@.tmp; exit 1; }

$(BUILD)/lib/%.o: lib/%.c $(LIB_HDRS) Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ilib -fPIC -DPEV_BUILDING_LIB -c -o $@ $<

# The CLI sees only the public headers (include/) and its own (-Icli:
# "common/options.h", "report/report.h"); never lib/'s private ones.
$(BUILD)/cli/%.o: cli/%.c $(wildcard include/perfev/*.h cli/*/*.h) Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Icli -c -o $@ $<

$(BUILD)/gen/flamegraph_assets.c: $(FG_ASSETS) scripts/embed.sh
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMBED   $@")
	$(Q)scripts/embed.sh $@ $(FG_ASSETS)

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(STATIC): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(SHARED): $(LIB_OBJ) lib/libperfev.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=lib/libperfev.map -o $@ $(LIB_OBJ) $(DEPLIBS)
	$(Q)ln -sf libperfev.so.$(VERSION) $(BUILD)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(BUILD)/libperfev.so

# The CLI links libperfev's dependencies statically when their archives
# exist (Debian ships them in the -dev packages): fewer objects to load and
# relocate at every start.
STATIC_DEPS := $(shell for l in traceevent dw elf zstd z bz2 lzma; do \
	  f=$$($(CC) -print-file-name=lib$$l.a); [ "$$f" != "lib$$l.a" ] || exit 0; done; \
	  echo yes)
ifeq ($(STATIC_DEPS),yes)
  CLI_LIBS := -Wl,-Bstatic -ltraceevent -ldw -lelf -lzstd -lz -lbz2 -llzma -Wl,-Bdynamic -lm -ldl -lpthread
else
  CLI_LIBS := $(DEPLIBS)
endif
# The 32-bit vDSO reader ([vdso32] symbols), where the compiler can build
# -m32 code (no 32-bit libc needed); perfev runs it from its own folder,
# else from LIBEXECDIR.
$(READ_VDSO32): libexec/read_vdso32.c Makefile
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) -m32 -O2 -Wall -Wextra -Werror -nostdlib -static -fno-pie -no-pie \
	  -fno-stack-protector -o $@ $< 2>/dev/null || \
	  { echo "  (no -m32 compiler: $@ not built, [vdso32] without symbols)"; rm -f $@; }

$(PERFEV): $(CLI_OBJ) $(STATIC)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(STATIC) $(CLI_LIBS)

TEST_HDRS := $(wildcard tests/*.h tests/*/*.h)
$(BUILD)/tests/%: tests/%.c $(TEST_HDRS) $(STATIC)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  TEST    $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ilib -Icli -Itests -MMD -MP -DPEV_TEST_SANFLAGS='"$(SANFLAGS)"' -o $@ $< $(STATIC) $(DEPLIBS) -lpthread

# The wrapper runs the script of the tree it is started from (tests/run.sh
# runs from the root; tests/mutants/run.sh from its scratch copy, whose
# build/ was copied), else that of the tree that built it.
$(BUILD)/tests/meta/%: tests/meta/%.sh
	@mkdir -p $(@D)
	$(Q)printf '#!/bin/sh\n[ -f %s ] || cd "%s" || exit 1\nexec bash %s "$$@"\n' "$<" "$(CURDIR)" "$<" >$@ && chmod +x $@

# Unit tests again, against the shared library.
$(BUILD)/tests/shared/%: tests/unit/%.c $(TEST_HDRS) $(SHARED)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Ilib -Icli -Itests -MMD -MP -o $@ $< -L$(BUILD) -Wl,-rpath,$(abspath $(BUILD)) -lperfev $(DEPLIBS) -lpthread

# What each test includes (some unit tests compile cli/*.c directly).
-include $(wildcard $(BUILD)/tests/*/*.d)

$(BUILD)/examples/%: examples/%.c $(STATIC)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EX      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC) $(DEPLIBS)

# C++ examples (perfev/region.hpp), with the cross g++ when cross-building.
EX_CXX   := $(if $(CROSS),$(CROSS)g++,$(CXX))
CXXWARN  := -Wall -Wextra -Werror -Wshadow
$(BUILD)/examples/%: examples/%.cpp $(STATIC) include/perfev/region.hpp
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CXX     $<")
	$(Q)$(EX_CXX) -std=c++17 $(CXXWARN) -Iinclude $(CFLAGS) $(SANFLAGS) -o $@ $< $(STATIC) $(DEPLIBS) -lpthread

# perfev/region.hpp compiles warning-free as C++11 too, and with
# PERFEV_NO_REGIONS the example links without libperfev (nothing is left).
$(BUILD)/examples/region_hpp.ok: examples/region_cpp.cpp include/perfev/region.hpp include/perfev/region.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CXX11   $<")
	$(Q)$(EX_CXX) -std=c++11 $(CXXWARN) -Wpedantic -Iinclude -fsyntax-only $<
	$(Q)$(EX_CXX) -std=c++11 $(CXXWARN) -Wpedantic -Iinclude -DPERFEV_NO_REGIONS $(CFLAGS) $(SANFLAGS) \
	  -o $(BUILD)/examples/region_cpp_noregions $<
	$(Q)touch $@

# Benchmark programs (bench/*.c), run by the bench/*.sh scripts.
$(BUILD)/bench/%: bench/%.c $(STATIC)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  BENCH   $<")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC) $(DEPLIBS) -lpthread

$(BUILD)/perfev.pc: perfev.pc.in Makefile
	@mkdir -p $(@D)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|;s|@LIBDIR@|$(LIBDIR)|;s|@INCLUDEDIR@|$(INCLUDEDIR)|;s|@VERSION@|$(VERSION)|' $< >$@

# The builds that check, check-san, check-valgrind, check-arm64, demo, bench
# and fuzz-run start run JOBS compiles at a time (all CPUs) unless make was
# given -j itself; a plain `make` stays serial (`make -j$(nproc)` is faster).
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
SUBMAKE  = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

# `make deps`: what the build and the demo need; `make deps-check`: that,
# plus every consumer the tests and benchmarks run (scripts/deps.sh).
deps:
	$(Q)scripts/deps.sh build
deps-check:
	$(Q)scripts/deps.sh check

# `make check`: install what is missing, build, run every test; then the
# same suite under AddressSanitizer and UndefinedBehaviorSanitizer.
check: deps-check
	+$(Q)$(SUBMAKE) all
	$(Q)$(MAKE) --no-print-directory check-only

check-only:
	$(Q)BUILD=$(BUILD) tests/run.sh $(BUILD)

check-san: deps-check
	+$(Q)$(SUBMAKE) SANITIZE=address,undefined all
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh build-san

# arm64, on any host: cross-build (ARCH=arm64 into build-arm64/) the
# library, CLI, examples and what runs under qemu (the live, compat and
# fault tests need perf_event_open, which qemu-user lacks: `make ARCH=arm64`
# builds them), then run the unit tests (static and shared) and every fuzz harness's
# committed corpus (through tests/arm64/fuzz_driver.c, no libFuzzer) under
# qemu-aarch64.  tests/arm64/skips lists what cannot run there, and why.
FUZZ_DRIVERS := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
fuzz-drivers: $(FUZZ_DRIVERS)
unit-tests: $(UNIT_SRC:%.c=$(BUILD)/%) $(TEST_SHARED_BINS)
$(BUILD)/fuzz/%: tests/fuzz/%.c tests/arm64/fuzz_driver.c $(STATIC)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZDRV $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ilib -o $@ tests/arm64/fuzz_driver.c $< $(STATIC) $(DEPLIBS)

check-arm64: deps-check
	+$(Q)$(SUBMAKE) ARCH=arm64 lib cli examples unit-tests fuzz-drivers
	$(Q)tests/arm64/run.sh build-arm64

# The unit, library and CLI tests under valgrind memcheck (every perfev they
# start too): any error or definite leak fails.  tests/valgrind/exclude lists
# what cannot run under valgrind, with the reason.
check-valgrind: deps-check
	+$(Q)$(SUBMAKE) all
	$(Q)tests/valgrind/run.sh $(BUILD)

# Stress runs (outside CI; tests/stress/): record -a -F max under a fork load
# for 30 s, stat -I 10 for 60 s; stress-big: script and the reader on a 1 GB
# file.
stress: all
	$(Q)tests/stress/record_forks.sh $(BUILD) 30 && tests/stress/stat_interval.sh $(BUILD) 60
stress-big: all
	$(Q)tests/stress/big_file.sh $(BUILD) 1G

demo: deps
	+$(Q)$(SUBMAKE) all
	$(Q)scripts/demo.sh $(BUILD)

bench: deps-check
	+$(Q)$(SUBMAKE) all
	$(Q)for b in bench/*.sh; do echo "== $$b"; $$b $(BUILD) || exit 1; done

# libFuzzer harnesses (clang).  `make fuzz` builds them; `make fuzz-run
# FUZZ_SECONDS=N` runs each on its seed corpus for N seconds.
FUZZ_SECONDS ?= 20
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
# The library is compiled once (instrumented for coverage, not linked with
# libFuzzer's main) into an archive that every harness links.
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Iinclude -Ilib -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o)
build-fuzz/obj/%.o: %.c $(LIB_HDRS) Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
build-fuzz/libperfev-fuzz.a: $(FUZZ_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^
build-fuzz/%: tests/fuzz/%.c build-fuzz/libperfev-fuzz.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ    $<")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< build-fuzz/libperfev-fuzz.a $(DEPLIBS) -lpthread
fuzz: $(FUZZ_BINS)
fuzz-run:
	+$(Q)$(SUBMAKE) fuzz
	$(Q)tests/fuzz/run.sh $(FUZZ_SECONDS)
# `make fuzz-long FUZZ_SECONDS=N [FUZZ_HARNESSES="data_read=600 ..."]`: a long
# campaign (outside CI) printing each harness's execution count; see
# tests/fuzz/long.sh.  `make fuzz-merge` minimizes what it found into the
# committed corpora.
fuzz-long: fuzz
	$(Q)tests/fuzz/long.sh $(FUZZ_SECONDS) $(FUZZ_HARNESSES)
fuzz-merge: fuzz
	$(Q)tests/fuzz/merge.sh

# Mutation testing, outside CI (about 10 minutes): plants each bug of
# tests/mutants/list in a scratch copy and runs the tests that must kill it.
mutants: all
	$(Q)tests/mutants/run.sh

install: all
	@# first, so that nothing is half installed
	@for m in $(MAN_PAGES); do [ -f "$$m" ] || { \
	  echo "make install: the man page $$m was not built (man/*.scd needs scdoc): apt-get install scdoc, then make install again" >&2; \
	  exit 1; }; done
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/perfev $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libperfev.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libperfev.so
	install -m 644 include/perfev/*.h include/perfev/*.hpp $(DESTDIR)$(INCLUDEDIR)/perfev/
	if [ -x $(READ_VDSO32) ]; then install -d $(DESTDIR)$(LIBEXECDIR) && \
	  install -m 755 $(READ_VDSO32) $(DESTDIR)$(LIBEXECDIR)/; fi
	install -m 755 $(PERFEV) $(DESTDIR)$(BINDIR)/
	# generated here, not copied, so that PREFIX given to `make install` counts
	sed -e 's|@PREFIX@|$(PREFIX)|;s|@LIBDIR@|$(LIBDIR)|;s|@INCLUDEDIR@|$(INCLUDEDIR)|;s|@VERSION@|$(VERSION)|' perfev.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/perfev.pc
	@# perfev-report.1 -> MANDIR/man1, libperfev.3 -> MANDIR/man3
	@for m in $(MAN_PAGES); do d=$(DESTDIR)$(MANDIR)/man$${m##*.}; \
	  echo "install -m 644 $$m $$d/"; install -d $$d && install -m 644 $$m $$d/ || exit 1; done
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 completions/perfev.bash $(DESTDIR)$(BASHCOMPDIR)/perfev

clean:
	rm -rf build build-san build-fuzz build-arm64
