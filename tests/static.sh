#!/bin/bash
# The static builds (make static-arm64, make static-armv7, and the kernel
# suite's static-s390x, static-riscv64, static-i386) under qemu-user: each
# is a static executable of its architecture, the phone builds at most
# 1 MiB stripped, and prints what the host's wmark prints (calc, show, verify and recommend
# on fixtures; JSON too), so the numbers checked against kernels elsewhere
# hold on the phone.  Prints TAP.  A build whose libraries could not be had
# (no network for its sysroot) is a SKIP; a build that failed with its
# sysroot in place is a failure.
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
host=${WMARK:-build/wmark}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmark-static.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

F=data/machines/vm-6.18-firecracker-A
K=data/machines/qemu-k61-4g-after
cases=(
	"calc --mem 4G"
	"-j calc --mem 16G --page-size 16K --wsf 120"
	"--root $F show"
	"--root $F -j show"
	"--root $K verify"
	"--root $K -j whatif --wsf 200"
	"--root $F recommend --burst 100M"
)

for t in arm64:aarch64:ARM\ aarch64 armhf:arm:ARM,\ EABI5 s390x:s390x:IBM\ S/390 \
	riscv64:riscv64:RISC-V i386:i386:Intel\ 80386; do
	arch=${t%%:*} rest=${t#*:} qarch=${rest%%:*} magic=${rest#*:}
	case $arch in armhf) dir=build/static-armv7 ;; *) dir=build/static-$arch ;; esac
	w=$dir/wmark
	if [ ! -x "$w" ]; then
		if [ -s build/sysroot-$arch/lib/libcjson.a ]; then
			not_ok "make ${dir#build/} built $w"
		else
			skip "$w" "not built: its libraries (tests/sysroot.sh $arch) could not be had"
		fi
		continue
	fi
	f=$(file -b "$w")
	case $f in
	*"$magic"*"statically linked"*) ok "$w is a static $arch executable" ;;
	*) not_ok "$w is a static $arch executable ($f)" ;;
	esac
	size=$(stat -c %s "$w")
	case $arch in
	arm64|armhf)
		[ "$size" -le 1048576 ]
		check $? "$w is at most 1 MiB stripped ($size bytes)"
		;;
	esac
	if ! command -v qemu-$qarch >/dev/null 2>&1; then
		skip "$w runs under qemu-user" "no qemu-$qarch here (Debian package qemu-user)"
		continue
	fi
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		"$host" $c >"$tmp/host.out" 2>&1
		hrc=$?
		# shellcheck disable=SC2086
		timeout 60 qemu-$qarch "$w" $c >"$tmp/cross.out" 2>&1
		crc=$?
		cmp -s "$tmp/host.out" "$tmp/cross.out" && [ $hrc = $crc ]
		check $? "$arch: wmark $c prints what the host's prints (exit $crc, host $hrc)"
		[ $hrc = $crc ] || diff "$tmp/host.out" "$tmp/cross.out" | head -5 | sed 's/^/# /'
	done
done
echo "1..$n"
