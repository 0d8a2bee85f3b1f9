#!/bin/bash
# The 32-bit pair: the armv7 static build (make static-armv7, long is 32
# bits there) under qemu-arm and the host's 64-bit wmark run over the same
# inputs, and every pair must print the same bytes on stdout and stderr
# and exit the same.  Page counts and byte sizes are 64-bit on every
# build, so sizes at and past 8 TiB (2^31 pages of 4 KiB), which wrapped
# on armv7, must match too.  Prints TAP.  Without the armv7 toolchain
# (arm-linux-gnueabihf-gcc, qemu-arm from qemu-user, the sysroot's
# libraries) each case is a SKIP saying which part is missing; with the
# toolchain and no binary, a failure.
#
# usage: tests/pair32.sh   (WMARK: the host's wmark, default build/wmark;
#        WMARK32: the armv7 one, default build/static-armv7/wmark)
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
host=${WMARK:-build/wmark}
w32=${WMARK32:-build/static-armv7/wmark}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmark-pair32.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

D=data/machines
V=$D/vm-6.18-firecracker-A
cases=(
	# the sizes of calc at and past 2^31 pages (8 TiB of 4 KiB pages)
	"calc --mem 4G"
	"calc --mem 8191G"
	"calc --mem 8T"
	"-j calc --mem 8T"
	"calc --mem 8193G"
	"calc --mem 16T"
	"-j calc --mem 16T"
	"calc --mem 32T --wsf 1000"
	"calc --mem 1024T"
	"-j calc --mem 16777215T"
	"calc --mem 16777215T --formula both"
	"-j calc --mem 16T --page-size 64K"
	"calc --mem 512T --page-size 16K --wsf 3000"
	"-j calc --zone DMA32=4G --zone Normal=16T --zone Movable=8T"
	"calc --zone DMA=16M --zone DMA32=4G --zone Normal=100T --nodes 4"
	"--kernel 4.9 calc --mem 64T --thp none"
	"--kernel 5.4 -j calc --mem 8T --boost-factor 30000"
	"--kernel 2.6.16 calc --mem 9T"
	"-j calc --mem 20T --extra-free-kbytes 3000000000"
	"-o prom calc --mem 16T"
	# reclaim's plan
	"--kernel 6.12 reclaim x --bytes 16000T -n"
	"--kernel 6.12 -j reclaim x --bytes 8T -n"
	"--kernel 6.12 reclaim x --bytes 9T -n --batch quarter"
	"--kernel 6.12 reclaim x --bytes 1G -n"
	# recommend's burst
	"--root $V -j recommend --burst 16777215T"
	"--root $V recommend --burst 8T"
	"--root $V recommend --burst 100M"
	"--root $V -j recommend --extra-free-kbytes 3000000000"
	# scan's LRU sizes
	"scan --anon 3000000000,1 --file 1,1 --swap 1G"
	"-j scan --anon 4294967296,4294967296 --file 8589934592,1 --swap 16T"
	"scan --anon 1,1 --file 3000000000,3000000000 --swap 0"
	# whatif past 8 TiB of pages in the gap
	"--root $V whatif --wsf 3000"
	"--root $V -j whatif --min-free-kbytes 4000000000"
)
# show and verify, text and JSON, on every capture in data/machines
for m in "$D"/*/; do
	m=${m%/}
	[ -r "$m/proc/zoneinfo" ] || continue
	cases+=("--root $m show" "--root $m -j show" "--root $m verify" "--root $m -j verify")
done

why=
command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || why="no arm-linux-gnueabihf-gcc (Debian package gcc-arm-linux-gnueabihf)"
[ -n "$why" ] || command -v qemu-arm >/dev/null 2>&1 || why="no qemu-arm (Debian package qemu-user)"
[ -n "$why" ] || [ -s build/sysroot-armhf/lib/libcjson.a ] ||
	why="no armhf sysroot (tests/sysroot.sh armhf could not fetch its libraries)"
if [ -n "$why" ]; then
	for c in "${cases[@]}"; do
		n=$((n + 1)); echo "ok $n - armv7: wmark $c # SKIP $why"
	done
	echo "1..$n"
	exit 0
fi
if [ ! -x "$w32" ] || [ ! -x "$host" ]; then
	not_ok "the armv7 toolchain is here, but $w32 or $host is not built (make all static-armv7)"
	echo "1..$n"
	exit 0
fi

for c in "${cases[@]}"; do
	# shellcheck disable=SC2086
	timeout 120 "$host" $c >"$tmp/h.out" 2>"$tmp/h.err"
	hrc=$?
	# shellcheck disable=SC2086
	timeout 120 qemu-arm "$w32" $c >"$tmp/a.out" 2>"$tmp/a.err"
	arc=$?
	if [ "$hrc" = "$arc" ] && cmp -s "$tmp/h.out" "$tmp/a.out" && cmp -s "$tmp/h.err" "$tmp/a.err"; then
		ok "armv7: wmark $c: the same bytes as the host's (exit $hrc)"
	else
		not_ok "armv7: wmark $c: the same bytes as the host's (exit $arc, host $hrc)"
		{ diff "$tmp/h.out" "$tmp/a.out"; diff "$tmp/h.err" "$tmp/a.err"; } | head -6 | sed 's/^/# /'
	fi
done
echo "1..$n"
