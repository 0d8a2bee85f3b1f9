#!/bin/sh
# calc/ must build for 32-bit targets, where long is 32 bits and there is
# no __int128.  For armv7 (Debian's gcc-arm-linux-gnueabihf) and i386
# (gcc -m32 with libc6-dev-i386) this compiles every calc/*.c with the
# Makefile's warnings as errors, links a small program against the
# objects, and runs it (natively, or under qemu-user) to check that the
# 32-bit build computes snapshot A of docs/model.md §9.2
# exactly.  Prints TAP; a missing tool is a SKIP, not a failure.
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C

warn=$(make -s --no-print-directory --eval='print-warn: ; @echo $(WARN)' print-warn 2>/dev/null)
[ -n "$warn" ] || warn='-Wall -Wextra'
flags="$warn -Werror -std=c11 -D_GNU_SOURCE -O2"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmark-32.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
not_ok() {	# what log
	n=$((n + 1)) failed=1
	echo "not ok $n - $1"
	head -40 "$2" | sed 's/^/# /'
}

cat >"$tmp/check32.c" <<'EOF'
/* What a 32-bit libwmark must still compute exactly. */
#include <stdio.h>
#include <string.h>

#include "infer.h"
#include "wmark.h"

static int bad;

static void expect(const char *what, unsigned long long got, unsigned long long want)
{
	if (got != want) {
		printf("%s: %llu, expected %llu\n", what, got, want);
		bad = 1;
	}
}

int main(void)
{
	/* docs/model.md §9.2, snapshot A */
	static const unsigned long managed[5] = { 3840, 772918, 163840, 0, 0 };
	static const unsigned long wm[5][4] = {
		{ 68, 85, 102, 119 }, { 13883, 17353, 20823, 24293 },
		{ 2943, 3678, 4413, 5148 }, { 32, 32, 32, 32 }, { 0, 0, 0, 0 },
	};
	static const long prot[2][5] = { { 0, 3019, 3659, 3659, 3659 },
					 { 0, 0, 640, 640, 640 } };
	static const enum wm_zone_type t[5] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	struct wm_zone z[5];
	struct wm_machine m = { .zones = z, .nzones = 5, .page_size = 4096,
				.pageblock_pages = 512 };
	struct wm_sysctl s = { .min_free_kbytes = 67584, .wsf = 10, .boost_factor = 15000,
			       .extra_free_kbytes = -1, .lrr = { 256, 256, 32, 0, 0 },
			       .nlrr = 5,
			       .have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_BOOST | WM_HAVE_LRR };
	struct wm_printed pr[5];
	struct wm_zone_wm w[5];
	struct wm_inferred inf;
	struct wm_profile p;
	struct wm_kver k;
	uint64_t out[5];
	uint64_t r = 0;
	int i, j;

	expect("sizeof(long)", sizeof(long), 4);
	/* page counts are 64-bit on every build */
	expect("sizeof(managed)", sizeof(z[0].managed), 8);
	expect("sizeof(min_free_kbytes)", sizeof(s.min_free_kbytes), 8);
	/* (2^64 - 1)^2 / 2^32 = 2^96 - 2^33 rest 1 */
	expect("mul_div", wm_mul_div(UINT64_MAX, UINT64_MAX, (uint64_t)1 << 32, &r),
	       0xfffffffe00000000ull);
	expect("mul_div rest", r, 1);

	if (wm_kver_parse("6.18.44-fc-v595", &k, NULL) != WM_OK) {
		puts("check32: cannot parse the release");
		return 1;
	}
	wm_profile_for(&k, &p);
	memset(pr, 0, sizeof(pr));
	for (i = 0; i < 5; i++)
		z[i] = (struct wm_zone){ .idx = i, .type = t[i], .managed = managed[i],
					 .present = managed[i] };
	{
		/*
		 * 2^32 pages of 4 KiB (16 TiB), one Normal zone: isqrt(2^34
		 * KiB * 16) = 2^19, clamped to 262144 (5.7+); a 32-bit count
		 * wrapped to 0 and gave 128
		 */
		struct wm_zone big = { .idx = 0, .type = WM_ZONE_NORMAL,
				       .managed = (uint64_t)1 << 32, .present = (uint64_t)1 << 32 };
		struct wm_machine mb = { .zones = &big, .nzones = 1, .page_size = 4096,
					 .pageblock_pages = 512 };
		struct wm_mfk mfk;

		if (wm_boot_min_free_kbytes(&p, &mb, &s, WM_THP_UNSUPPORTED, &mfk, NULL)) {
			puts("check32: wm_boot_min_free_kbytes failed");
			return 1;
		}
		expect("16 TiB lowmem pages", mfk.lowmem_pages, (uint64_t)1 << 32);
		expect("16 TiB min_free_kbytes", (unsigned long long)mfk.value, 262144);
	}
	if (wm_setup_wmarks(&p, &m, &s, w, NULL) || wm_protection(&p, &m, &s, w, NULL)) {
		puts("check32: wm_setup_wmarks or wm_protection failed");
		return 1;
	}
	for (i = 0; i < 5; i++) {
		expect("min", w[i].min, wm[i][0]);
		expect("low", w[i].low, wm[i][1]);
		expect("high", w[i].high, wm[i][2]);
		expect("promo", w[i].promo, wm[i][3]);
		for (j = 0; j < 5; j++)
			expect("protection", (unsigned long long)w[i].protection[j],
			       i < 2 ? (unsigned long long)prot[i][j] : 0);
		pr[i] = (struct wm_printed){ .shown = true, .has_wm = true, .has_promo = true,
					     .min = wm[i][0], .low = wm[i][1],
					     .high = wm[i][2], .promo = wm[i][3] };
	}
	wm_infer_sysctls(&p, &m, pr, &inf);
	expect("mfk_lo", (unsigned long long)inf.mfk_lo, 67584);
	expect("mfk_hi", (unsigned long long)inf.mfk_hi, 67587);
	expect("wsf_hi", (unsigned long long)inf.wsf_hi, 44);
	/* Normal 300 pages larger today: still explained as stale */
	z[2].managed += 300;
	z[2].present = 1376256;
	expect("stale", (unsigned long long)wm_stale_watermarks(&p, &m, &s, pr, 10, 0, out), 1);

	/*
	 * data/machines/qemu-i386-k61-3g-before: an i386 PAE 6.1 boot, whose
	 * HighMem makes P * count pass 2^32 (10566 * 561122).  The 64-bit
	 * build finds the counts of boot; a 32-bit one must find the same,
	 * not walk count by count until its step budget runs out.
	 */
	{
		static const unsigned long now[4] = { 3840, 209384, 561122, 0 };
		static const unsigned long then[4] = { 3826, 208889, 561120, 0 };
		static const unsigned long bw[4][3] = {
			{ 190, 237, 284 }, { 10375, 12968, 15561 },
			{ 128, 7096, 14064 }, { 32, 32, 32 },
		};
		static const enum wm_zone_type t4[4] = { WM_ZONE_DMA, WM_ZONE_NORMAL,
			WM_ZONE_HIGHMEM, WM_ZONE_MOVABLE };
		struct wm_machine m4 = { .zones = z, .nzones = 4, .page_size = 4096,
					 .pageblock_pages = 512 };
		struct wm_sysctl s4 = s;

		if (wm_kver_parse("6.1.0-57-686-pae", &k, NULL) != WM_OK) {
			puts("check32: cannot parse the release");
			return 1;
		}
		wm_profile_for(&k, &p);
		s4.min_free_kbytes = 42264;
		for (i = 0; i < 4; i++) {
			z[i] = (struct wm_zone){ .idx = i, .type = t4[i], .managed = now[i],
						 .present = now[i] };
			pr[i] = (struct wm_printed){ .shown = true, .has_wm = true,
						     .min = bw[i][0], .low = bw[i][1],
						     .high = bw[i][2] };
		}
		z[1].present = 221182;
		expect("i386 stale", (unsigned long long)wm_stale_watermarks(&p, &m4, &s4, pr, 10,
									   16384, out), 1);
		for (i = 0; i < 4; i++)
			expect("i386 count at boot", out[i], then[i]);
	}
	puts(bad ? "check32: FAILED" : "check32: ok");
	return bad;
}
EOF

# target name, compiler command, how to run its programs
target() {
	name=$1 cc=$2 qemu=$3 dir="$tmp/$1" extra=
	mkdir -p "$dir"
	set -- $cc
	if ! command -v "$1" >/dev/null 2>&1; then
		skip "no $1 for $name (Debian: $pkg)"
		skip "no $1 for $name: nothing to link"
		skip "no $1 for $name: nothing to run"
		return
	fi
	# 32-bit headers present?  gcc-multilib would add /usr/include/asm;
	# without it (it conflicts with every cross gcc) point at amd64's
	# linux-libc-dev asm/, which serves both word sizes.
	if ! echo '#include <errno.h>' | $cc -E -x c - >/dev/null 2>"$dir/probe.log"; then
		if grep -q 'asm/errno.h' "$dir/probe.log" &&
		   [ -d /usr/include/x86_64-linux-gnu/asm ]; then
			ln -s /usr/include/x86_64-linux-gnu/asm "$dir/asm"
			extra="-idirafter $dir"
		fi
		if ! echo '#include <errno.h>' | $cc $extra -E -x c - >/dev/null 2>"$dir/probe.log"; then
			skip "$cc has no 32-bit C library headers (Debian: $hdr)"
			skip "$name: nothing to link"
			skip "$name: nothing to run"
			return
		fi
	fi

	: >"$dir/cc.log"
	for f in calc/*.c; do
		o="$dir/$(basename "$f" .c).o"
		$cc $extra $flags -c -o "$o" "$f" >>"$dir/cc.log" 2>&1 || echo "$f failed" >>"$dir/cc.log"
	done
	if [ -s "$dir/cc.log" ]; then
		not_ok "calc/ compiles for $name ($cc)" "$dir/cc.log"
		skip "$name: calc/ did not compile"
		skip "$name: calc/ did not compile"
		return
	fi
	ok "calc/ compiles for $name ($cc)"

	if ! $cc $extra $flags -Icalc -static -o "$dir/check32" "$tmp/check32.c" \
		"$dir"/*.o -lm >"$dir/ld.log" 2>&1; then
		if grep -qE 'cannot find (crt|-lgcc)|crtbegin' "$dir/ld.log"; then
			skip "$cc cannot link: no 32-bit libgcc (Debian: $lib)"
		else
			not_ok "a program links against the $name objects" "$dir/ld.log"
		fi
		skip "$name: nothing to run"
		return
	fi
	ok "a program links against the $name objects"

	# Natively if this machine runs such binaries, else under qemu-user.
	"$dir/check32" >"$dir/run.log" 2>&1
	rc=$?
	how=natively
	if ! grep -q '^check32: ' "$dir/run.log"; then
		if ! command -v "$qemu" >/dev/null 2>&1; then
			skip "$name binaries do not run here and there is no $qemu (Debian: qemu-user)"
			return
		fi
		"$qemu" "$dir/check32" >"$dir/run.log" 2>&1
		rc=$?
		how=$qemu
	fi
	if [ "$rc" -eq 0 ] && grep -q '^check32: ok' "$dir/run.log"; then
		ok "the $name build computes snapshot A exactly ($how)"
	else
		not_ok "the $name build computes snapshot A exactly ($how)" "$dir/run.log"
	fi
}

echo "1..6"
pkg=gcc-arm-linux-gnueabihf hdr=libc6-dev-armhf-cross lib=gcc-arm-linux-gnueabihf
target armv7 arm-linux-gnueabihf-gcc qemu-arm
pkg=gcc hdr=libc6-dev-i386 lib="lib32gcc-$(gcc -dumpversion 2>/dev/null | cut -d. -f1)-dev"
target i386 "gcc -m32" qemu-i386
exit "$failed"
