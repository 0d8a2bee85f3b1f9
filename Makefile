# wmark - Linux zone watermarks, computed exactly.  See README.md.
#
# One non-recursive Makefile.  Sources are found by wildcard: a new
# calc/*.c joins libwmark.a, a new cli/*.c joins the wmark program, a new
# tests/unit/test_*.c becomes a cmocka test, a new tests/fuzz/fuzz_*.c a
# libFuzzer target.  `make V=1` shows the commands.

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
LIBEXECDIR ?= $(PREFIX)/libexec
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
DESTDIR    ?=

CC         ?= cc
CFLAGS     ?= -O2 -g
PKG_CONFIG ?= pkg-config
B          ?= build

VERSION := 0.1.0

# Project flags, kept apart from the user's CFLAGS.
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wpointer-arith -Wcast-qual -Wvla -Wno-unused-parameter
BASE_CPPFLAGS := -std=c11 -D_GNU_SOURCE -DWMARK_VERSION='"$(VERSION)"' -MMD -MP

ifeq ($(NO_LIBNL),1)
NL_CFLAGS :=
NL_LIBS   :=
BASE_CPPFLAGS += -DWM_NO_LIBNL
else
NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS   := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
endif
CJSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null)
CJSON_LIBS   := $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null)
CMOCKA_LIBS  := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

ALL_CFLAGS := $(BASE_CPPFLAGS) $(CPPFLAGS) $(WARN) $(NL_CFLAGS) $(CJSON_CFLAGS) $(CFLAGS)
LIBS := $(NL_LIBS) $(CJSON_LIBS) -lm

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

CALC_SRC := $(sort $(wildcard calc/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

CALC_OBJ := $(CALC_SRC:%.c=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
CLILIB_OBJ := $(filter-out $(B)/cli/main.o,$(CLI_OBJ))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz/%)

.PHONY: all run check check-unit check-kernel check-kernel-full check-package deb install \
	uninstall clean deps deps-test asan fuzz bench bench-recommend lint examples \
	static-arm64 static-armv7 static-s390x static-riscv64 static-i386 units-s390x bench-reclaim bench-rfc \
	bench-rfc-effect bench-tune

all: $(B)/wmark $(B)/libwmark.a wmark

wmark: $(B)/wmark
	$(Q)ln -sf $(B)/wmark wmark

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libwmark.a: $(CALC_OBJ)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(B)/libwmarkcli.a: $(CLILIB_OBJ)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# STATIC_OBJ: objects only the static builds link (cli/static/).
$(B)/wmark: $(CLI_OBJ) $(STATIC_OBJ) $(B)/libwmark.a
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libwmarkcli.a $(B)/libwmark.a
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes $(LDFLAGS) \
		-o $@ $< $(B)/libwmarkcli.a $(B)/libwmark.a $(CMOCKA_LIBS) $(LIBS)

# The library's proof of use: examples/ build against the installed
# header layout (<wmark/...>) and libwmark.a alone.
EXAMPLE_SRC := $(sort $(wildcard examples/*.c))
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(B)/examples/%)

$(B)/include/wmark/.stamp: $(wildcard calc/*.h)
	@mkdir -p $(@D)
	$(Q)cp calc/*.h $(@D)/ && touch $@

$(B)/examples/%: examples/%.c $(B)/libwmark.a $(B)/include/wmark/.stamp
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) -std=c11 $(WARN) $(CFLAGS) -I$(B)/include $(LDFLAGS) -o $@ $< \
		$(B)/libwmark.a -lm

examples: $(EXAMPLE_BIN)

# A static wmark for Android phones and other machines without Debian's
# libraries: cross compiler from gcc-TRIPLET, libnl and cJSON from the
# sysroot tests/sysroot.sh builds (Debian's packages for that architecture,
# unpacked, never installed).  No NSS, no locale files: it runs where
# there is no glibc.  build/static-ARCH/wmark is stripped.
static-arm64:
	$(Q)$(MAKE) --no-print-directory static-cross SARCH=arm64 TRIPLET=aarch64-linux-gnu SB=build/static-arm64

static-armv7:
	$(Q)$(MAKE) --no-print-directory static-cross SARCH=armhf TRIPLET=arm-linux-gnueabihf SB=build/static-armv7

# The kernel suite's s390x (big-endian), riscv64 and i386 (PAE, HighMem) guests.
static-s390x:
	$(Q)$(MAKE) --no-print-directory static-cross SARCH=s390x TRIPLET=s390x-linux-gnu SB=build/static-s390x

static-riscv64:
	$(Q)$(MAKE) --no-print-directory static-cross SARCH=riscv64 TRIPLET=riscv64-linux-gnu SB=build/static-riscv64

static-i386:
	$(Q)$(MAKE) --no-print-directory static-cross SARCH=i386 TRIPLET=i686-linux-gnu SB=build/static-i386

# The cmocka unit tests built for s390x, big-endian, static, in
# build/units-s390x/tests/; tests/bigendian.sh runs them under qemu-s390x.
units-s390x:
	$(Q)tests/deps.sh gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user curl debian-archive-keyring
	$(Q)tests/sysroot.sh --cmocka s390x build/sysroot-s390x
	$(Q)$(MAKE) --no-print-directory B=build/units-s390x CC=s390x-linux-gnu-gcc \
		AR=s390x-linux-gnu-ar CFLAGS='-O1' LDFLAGS=-static \
		NL_CFLAGS=-I$(CURDIR)/build/sysroot-s390x/include/libnl3 \
		NL_LIBS='$(CURDIR)/build/sysroot-s390x/lib/libnl-genl-3.a $(CURDIR)/build/sysroot-s390x/lib/libnl-3.a -lpthread' \
		CJSON_CFLAGS=-I$(CURDIR)/build/sysroot-s390x/include \
		CJSON_LIBS=$(CURDIR)/build/sysroot-s390x/lib/libcjson.a \
		CMOCKA_LIBS=$(CURDIR)/build/sysroot-s390x/lib/libcmocka.a \
		$(UNIT_SRC:tests/unit/%.c=build/units-s390x/tests/%)

.PHONY: static-cross
static-cross:
	$(Q)tests/deps.sh gcc-$(TRIPLET) libc6-dev-$(SARCH)-cross curl debian-archive-keyring
	$(Q)tests/sysroot.sh $(SARCH) build/sysroot-$(SARCH)
	$(Q)$(MAKE) --no-print-directory B=$(SB)/obj CC=$(TRIPLET)-gcc AR=$(TRIPLET)-ar \
		CFLAGS='-Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables' \
		LDFLAGS='-static -Wl,--gc-sections -Wl,-z,max-page-size=16384 -Wl,-z,noseparate-code' \
		NL_CFLAGS=-I$(CURDIR)/build/sysroot-$(SARCH)/include/libnl3 \
		NL_LIBS='$(CURDIR)/build/sysroot-$(SARCH)/lib/libnl-genl-3.a $(CURDIR)/build/sysroot-$(SARCH)/lib/libnl-3.a -lpthread' \
		CJSON_CFLAGS=-I$(CURDIR)/build/sysroot-$(SARCH)/include \
		CJSON_LIBS=$(CURDIR)/build/sysroot-$(SARCH)/lib/libcjson.a \
		STATIC_OBJ=$(SB)/obj/cli/static/noproto.o $(SB)/obj/wmark
	@# no unwind tables either: wmark never unwinds (no C++, no thread
	@# cancellation, no backtrace), and libc's are 80 KiB of the phone build
	$(Q)$(TRIPLET)-strip --remove-section=.eh_frame --remove-section=.gcc_except_table \
		-o $(SB)/wmark $(SB)/obj/wmark
	@echo "$(SB)/wmark: $$(stat -c %s $(SB)/wmark) bytes, stripped, static"

# Build dependencies from Debian's packages: what `make`, `make run` and
# `make check` need.  Only missing packages are installed, and only as root.
BUILD_PKGS := gcc make pkg-config libcjson-dev libnl-3-dev libnl-genl-3-dev
TEST_PKGS  := libcmocka-dev mandoc clang python3 qemu-system-x86 qemu-system-arm qemu-system-ppc \
	busybox-static cpio xz-utils zstd curl debian-archive-keyring prometheus \
	prometheus-node-exporter systemd bash-completion zsh debhelper dpkg-dev fakeroot lintian gnuplot-nox \
	gcc-arm-linux-gnueabihf libc6-dev-i386 lib32gcc-12-dev qemu-user \
	qemu-system-misc opensbi gcc-s390x-linux-gnu libc6-dev-s390x-cross \
	gcc-riscv64-linux-gnu libc6-dev-riscv64-cross gcc-i686-linux-gnu libc6-dev-i386-cross \
	flex bison

deps:
	$(Q)tests/deps.sh $(BUILD_PKGS)

deps-test:
	$(Q)tests/deps.sh $(BUILD_PKGS) $(TEST_PKGS)

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(B)/wmark show

# Every test: units, golden transcripts, shell suites, the same under ASan
# and UBSan, short fuzz runs, the man page lint, the Debian packages
# (make deb, lintian), and real kernels under qemu.
check: deps-test
	$(Q)$(MAKE) --no-print-directory all $(UNIT_BIN) $(EXAMPLE_BIN)
	$(Q)$(MAKE) --no-print-directory B=build/asan NO_LIBNL=$(NO_LIBNL) \
		CFLAGS='$(ASAN_CFLAGS)' \
		build/asan/wmark $(UNIT_SRC:tests/unit/%.c=build/asan/tests/%)
	$(Q)$(MAKE) --no-print-directory fuzz-build
	@# the static builds need their sysroot's packages: without them the
	@# static suite says SKIP, and the arm64, s390x, riscv64 and i386
	@# guests run without wmark
	-$(Q)$(MAKE) --no-print-directory static-arm64 static-armv7 static-s390x \
		static-riscv64 static-i386
	$(Q)$(MAKE) --no-print-directory deb >build/deb.log 2>&1 || { tail -30 build/deb.log; exit 1; }
	$(Q)tests/run.sh all

check-unit: all $(UNIT_BIN)
	$(Q)tests/run.sh unit golden sh

check-kernel: all
	$(Q)tests/run.sh kernel

check-kernel-full: all
	$(Q)WMARK_KERNEL_MATRIX=full tests/run.sh kernel

# The sanitizer build of `make asan` and `make check`.  -fsanitize=undefined
# leaves out float-cast-overflow (a double converted to an integer type
# that cannot hold it), so it is named; implicit-conversion (integer
# truncation and sign changes no cast asked for) is clang's alone: it is
# added where the compiler takes it (CC=clang), and gcc, the default, goes
# without it.
SAN_IMPLICIT := $(shell $(CC) -fsanitize=implicit-conversion -x c -c -o /dev/null /dev/null \
	2>/dev/null && echo ,implicit-conversion)
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined,float-cast-overflow$(SAN_IMPLICIT) \
	-fno-sanitize-recover=all -fno-omit-frame-pointer

asan:
	$(Q)$(MAKE) --no-print-directory B=build/asan \
		CFLAGS='$(ASAN_CFLAGS)' \
		build/asan/wmark $(UNIT_SRC:tests/unit/%.c=build/asan/tests/%)

# libFuzzer targets: the core sources are compiled again with clang.
comma := ,
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
.PHONY: fuzz-build
fuzz-build: $(FUZZ_BIN)

# Each target links the calc/ sources only, compiled once for all of them
# (instrumented as the targets are; -fsanitize=fuzzer adds main at link).
FUZZ_OBJ_CFLAGS := $(subst -fsanitize=fuzzer$(comma),-fsanitize=fuzzer-no-link$(comma),$(FUZZ_CFLAGS))
FUZZ_CALC_OBJ := $(CALC_SRC:%.c=$(B)/fuzz/obj/%.o)

$(B)/fuzz/obj/%.o: %.c $(wildcard calc/*.h)
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)clang $(filter-out -MMD -MP,$(BASE_CPPFLAGS)) $(FUZZ_OBJ_CFLAGS) -c -o $@ $<

$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_CALC_OBJ) $(wildcard calc/*.h)
	@mkdir -p $(@D)
	$(call say,FUZZ,$@)clang $(filter-out -MMD -MP,$(BASE_CPPFLAGS)) $(FUZZ_CFLAGS) \
		-o $@ $< $(FUZZ_CALC_OBJ)

fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(B)/fuzz long

bench: all
	$(Q)WMARK=$(B)/wmark tests/bench/run.sh
	$(Q)WMARK=$(B)/wmark tests/bench/bench_tune.sh

# wmark's recommend, evaluated on a real kernel under qemu (slow).
bench-recommend: all
	$(Q)WMARK=$(B)/wmark tests/bench/recommend-eval.sh

# wmark tune against adaptivemmd on the same cells under qemu (slow: hours
# a cell; REC_MATRIX picks it): docs/tune-eval.md from docs/tune-eval-runs/.
bench-tune: all
	$(Q)WMARK=$(B)/wmark tests/bench/tune-eval.sh

# wmark reclaim measured on real kernels under qemu (slow): raw runs into
# docs/reclaim-eval-runs/, docs/reclaim-eval.md generated from them.
bench-reclaim: all
	$(Q)WMARK=$(B)/wmark tests/bench/reclaim-eval.sh

# The 2018 RFC's high watermark on a patched 6.12 built here (slow: a
# kernel build unless the kernel cache holds it, boots under qemu for the
# watermarks, then the effect bench; tests/kernel/rfc/README.md).
bench-rfc: all
	$(Q)tests/kernel/rfc/build.sh >/dev/null
	$(Q)tests/kernel/rfc/capture.sh
	$(Q)tests/bench/rfc-effect.sh

# The effect alone (about 80 minutes): raw runs into docs/rfc-eval-runs/,
# docs/rfc-eval.md generated from them (RFC_REPORT_ONLY=1: no boot).
bench-rfc-effect:
	$(Q)tests/bench/rfc-effect.sh

lint:
	mandoc -Tlint -W warning wmark.1

# The completion scripts are contrib/'s copies of `wmark completion bash`
# and `zsh` (tests/sh/options.sh keeps them equal); the units run
# wmark-textfile from LIBEXECDIR.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/wmark \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(LIBEXECDIR)/wmark \
		$(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(DATADIR)/wmark/prometheus
	install -m 755 $(B)/wmark $(DESTDIR)$(BINDIR)/wmark
	install -m 644 wmark.1 $(DESTDIR)$(MANDIR)/man1/wmark.1
	install -m 644 $(B)/libwmark.a $(DESTDIR)$(LIBDIR)/libwmark.a
	install -m 644 $(filter-out calc/internal.h calc/scan.h,$(wildcard calc/*.h)) \
		$(DESTDIR)$(INCLUDEDIR)/wmark/
	install -m 644 contrib/bash-completion/wmark $(DESTDIR)$(BASHCOMPDIR)/wmark
	install -m 644 contrib/zsh/_wmark $(DESTDIR)$(ZSHCOMPDIR)/_wmark
	install -m 755 contrib/systemd/wmark-textfile $(DESTDIR)$(LIBEXECDIR)/wmark/wmark-textfile
	for u in wmark-textfile.service wmark-textfile.timer wmark-tune.service; do \
		sed -e 's#/usr/libexec/wmark/#$(LIBEXECDIR)/wmark/#' -e 's#/usr/bin/wmark #$(BINDIR)/wmark #' \
			contrib/systemd/$$u >$(DESTDIR)$(SYSTEMDUNITDIR)/$$u && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u || exit 1; \
	done
	install -m 644 contrib/prometheus/wmark.rules.yml contrib/prometheus/wmark.rules.test.yml \
		$(DESTDIR)$(DATADIR)/wmark/prometheus/
	install -d $(DESTDIR)$(DATADIR)/wmark/android
	install -m 644 contrib/android/wmark-tune.rc $(DESTDIR)$(DATADIR)/wmark/android/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/wmark $(DESTDIR)$(MANDIR)/man1/wmark.1 \
		$(DESTDIR)$(LIBDIR)/libwmark.a $(DESTDIR)$(BASHCOMPDIR)/wmark \
		$(DESTDIR)$(ZSHCOMPDIR)/_wmark $(DESTDIR)$(SYSTEMDUNITDIR)/wmark-textfile.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/wmark-textfile.timer \
		$(DESTDIR)$(SYSTEMDUNITDIR)/wmark-tune.service
	rm -rf $(DESTDIR)$(INCLUDEDIR)/wmark $(DESTDIR)$(LIBEXECDIR)/wmark \
		$(DESTDIR)$(DATADIR)/wmark

# The Debian packages wmark and libwmark-dev (debian/), built offline from
# a copy of the tree in build/deb/; the .debs land in build/deb/.
DEB_PKGS := debhelper dpkg-dev fakeroot lintian
deb:
	$(Q)tests/deps.sh $(BUILD_PKGS) $(DEB_PKGS)
	$(Q)rm -rf build/deb && mkdir -p build/deb/wmark-$(VERSION)
	$(Q)tar -c --exclude=./build --exclude=./.git --exclude=./wmark . | \
		tar -x -C build/deb/wmark-$(VERSION)
	$(Q)cd build/deb/wmark-$(VERSION) && dpkg-buildpackage -us -uc -b
	@ls build/deb/*.deb

# The package: make install under DESTDIR, the .debs, lintian.
check-package: all deb
	$(Q)tests/run.sh package

# Keeps the downloaded kernels (build/kernel-cache) and the RFC kernel build
# (build/rfc-kernel): they are large.
clean:
	rm -f wmark
	[ ! -d build ] || find build -mindepth 1 -maxdepth 1 ! -name kernel-cache ! -name rfc-kernel -exec rm -rf {} +

# (not into tests/kernel/rfc's kernel tree, whose .d are not ours)
-include $(shell find $(B) -path '$(B)/rfc-kernel' -prune -o -type f -name '*.d' -print 2>/dev/null)
