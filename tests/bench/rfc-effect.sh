#!/bin/bash
# The effect of the 2018 RFC's high watermark: the kernel of
# tests/kernel/rfc (one build, wmark_rfc= chooses the rule at boot) under
# the RFC's two workloads, approximated (tests/bench/rfc-effect-guest.sh:
# a multibuild, then a sequential app launch), in four arms:
#   stock-120    wmark_rfc=0, watermark_scale_factor 120 (the RFC's
#                "default gap")
#   rfc-120      wmark_rfc=1, wsf 120 (the RFC's clamp: "reduced gap")
#   quarter-120  wmark_rfc=2, wsf 120 (high = low + gap / 4: the
#                maintainer's "why not tmp >> 2")
#   stock-10     wmark_rfc=0, wsf 10 (the base)
# Each arm is a boot of a 2 GiB guest with one vCPU under TCG with
# -icount (guest time counts instructions: the host's load does not reach
# the results).  Round r boots the arms in the order above when r is odd,
# reversed when even; after the last round the first arm boots once more
# (the drift check: its first and last boots are the matrix's first and
# last).
#
# usage: tests/bench/rfc-effect.sh          (make bench-rfc-effect)
#   RFC_ROUNDS           rounds (default 5)
#   RFC_ARMS             "NAME:WMARK_RFC:WSF ..." (default the four above)
#   RFC_SRC_MIB, RFC_FILE_KIB, RFC_HDR_MIB, RFC_HDR_KIB, RFC_STREAM_MIB
#                        the data disk: a source tree of RFC_SRC_MIB in files
#                        of RFC_FILE_KIB (default 768 MiB, 2048 KiB) and
#                        RFC_HDR_MIB of headers in files of RFC_HDR_KIB (128
#                        MiB, 64 KiB), and the apps' file of RFC_STREAM_MIB
#                        (512); text, not sparse, so every read is a read
#                        from the disk (pgpgin)
#   RFC_<NAME>           the guest's WMARK_<NAME> (BUILD_JOBS, BUILD_HEADERS, BUILD_ANON_MIB,
#                        BUILD_PASSES, BUILD_LOCK_MIB, APPS, APP_MIB,
#                        APP_FILE_MIB, APP_BURST_MIB, APP_LOCK_MIB, APP_REPEATS)
#   RFC_DRIFT=0          no drift boot at the end
#   RFC_TIMEOUT          limit of one boot in seconds (default 1200)
#   RFC_KEEP             where the runs are kept (default docs/rfc-eval-runs;
#                        "-": nowhere, the report goes to stdout)
#   RFC_DOC              the report (default docs/rfc-eval.md)
#   RFC_REPORT_ONLY=1    no boot: the report again from the kept runs
# Each boot prints a progress line on stderr.  A run is a folder
# RFC_KEEP/run-DATE with one NN-ARM-rR.txt per boot (the guest's lines,
# plus "meta" lines of the host: wall seconds, the qemu options); the
# report (tests/bench/rfc-report.py) reads every run kept there.
# Pieces reused: tests/kernel/mkinitramfs.sh (busybox, /init), the kernel
# cache of tests/kernel/rfc/build.sh, recommend-burst.c (the load).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
cache=${WMARK_KERNEL_CACHE:-$top/build/kernel-cache}
work=$top/build/bench-rfc
rounds=${RFC_ROUNDS:-5}
arms=${RFC_ARMS:-stock-120:0:120 rfc-120:1:120 quarter-120:2:120 stock-10:0:10}
limit=${RFC_TIMEOUT:-1200}
keep=${RFC_KEEP-docs/rfc-eval-runs}
doc=${RFC_DOC:-docs/rfc-eval.md}
src_mib=${RFC_SRC_MIB:-768} file_kib=${RFC_FILE_KIB:-2048} stream_mib=${RFC_STREAM_MIB:-512}
hdr_mib=${RFC_HDR_MIB:-128} hdr_kib=${RFC_HDR_KIB:-64}
params="BUILD_JOBS BUILD_HEADERS BUILD_ANON_MIB BUILD_PASSES BUILD_LOCK_MIB APPS APP_MIB APP_FILE_MIB
	APP_BURST_MIB APP_LOCK_MIB APP_REPEATS"
t_start=$(date +%s)

say() { echo "bench-rfc-effect: [$(($(date +%s) - t_start))s] $*" >&2; }
die() { say "$*"; exit 1; }

# report RUN-DIR...: docs/rfc-eval.md and its plots (or stdout)
report() {
	local plots out g f
	command -v python3 >/dev/null || die "needs python3 (the report)"
	mkdir -p "$work" || die "cannot create $work"
	plots=$(mktemp -d "$work/.plots.XXXXXX") || die "cannot make a folder in $work"
	out=$plots/rfc-eval.md
	python3 "$here/rfc-report.py" --captures "$top/data/machines" "$plots" "$@" >"$out" || { rm -rf "$plots"; die "cannot write the report"; }
	if command -v gnuplot >/dev/null; then
		# one gnuplot for every arm's script
		(cd "$plots" && gnuplot $(ls *.gp)) || say "gnuplot failed in $plots"
	else
		say "no gnuplot (Debian gnuplot-nox): the report's plots are missing"
	fi
	if [ "$doc" = - ] || [ "$keep" = - ]; then
		cat "$out"
	else
		mkdir -p "$(dirname "$doc")" && cp "$out" "$doc" || die "cannot write $doc"
		for f in "$plots"/*.svg; do
			[ -e "$f" ] && cp "$f" "$(dirname "$doc")/"
		done
		say "wrote $doc"
	fi
	rm -rf "$plots"
}

kept_runs() {
	local d
	for d in "$keep"/run-*; do
		[ -d "$d" ] && echo "$d"
	done
}

if [ "${RFC_REPORT_ONLY:-0}" = 1 ]; then
	runs=$(kept_runs)
	[ -n "$runs" ] || die "no run kept in $keep"
	report $runs
	exit 0
fi

for t in qemu-system-x86_64 mke2fs cpio gcc split; do
	command -v "$t" >/dev/null || die "needs $t (Debian qemu-system-x86, e2fsprogs, cpio, gcc, coreutils)"
done
kdir=$(ls -d "$cache"/*-wmark-rfc 2>/dev/null | sort -V | tail -1)
[ -n "$kdir" ] && [ -s "$kdir/vmlinuz" ] || die "no *-wmark-rfc kernel in $cache: run tests/kernel/rfc/build.sh"
mkdir -p "$work" || die "cannot create $work"

# ---- the data disk: made once per size --------------------------------------
disk=$work/disk-$src_mib-$file_kib-$hdr_mib-$hdr_kib-$stream_mib.img
if [ ! -s "$disk" ]; then
	say "making the data disk (${src_mib} MiB of sources, ${stream_mib} MiB for the apps)"
	rm -rf "$work/diskdir" && mkdir -p "$work/diskdir/src" || die "cannot make $work/diskdir"
	# text lines, numbered, so no block is all zero (mke2fs -d leaves those out)
	seq -f 'static int unit_%09g(int x) { return x * 3 + 1; } /* compile me */' 1 100000000 |
		head -c "$((src_mib << 20))" |
		(cd "$work/diskdir/src" && split -a 5 -d -b "${file_kib}K" - u) ||
		die "cannot write the source tree"
	seq -f '#define HEADER_%09g(x) ((x) * 5 - 2) /* included everywhere */' 1 100000000 |
		head -c "$((hdr_mib << 20))" |
		(cd "$work/diskdir/src" && split -a 5 -d -b "${hdr_kib}K" - h) ||
		die "cannot write the headers"
	seq -f 'app resource %012g ..............................................' 1 100000000 |
		head -c "$((stream_mib << 20))" >"$work/diskdir/stream" || die "cannot write the apps' file"
	mke2fs -q -F -t ext4 -L wmdata -d "$work/diskdir" "$disk.tmp" "$((src_mib + hdr_mib + stream_mib + 256))M" ||
		die "mke2fs -d failed"
	mv "$disk.tmp" "$disk"
	rm -rf "$work/diskdir"
fi

# ---- the initramfs: tests/kernel's, with the guest script and the load --------
"$top/tests/kernel/mkinitramfs.sh" - "$work/base.cpio.gz" 2>"$work/mkinitramfs.log" ||
	die "tests/kernel/mkinitramfs.sh failed: $(tail -1 "$work/mkinitramfs.log")"
rm -rf "$work/extra" && mkdir -p "$work/extra/bin" "$work/extra/tests" || die "cannot make $work/extra"
gcc -O2 -static -o "$work/extra/bin/recommend-burst" "$here/recommend-burst.c" ||
	die "cannot link recommend-burst statically (Debian libc6-dev)"
install -m 755 "$here/rfc-effect-guest.sh" "$work/extra/tests/rfc-effect-guest.sh"
(cd "$work/extra" && find . -mindepth 1 | sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
	>"$work/extra.cpio.gz" || die "cpio failed"
cat "$work/base.cpio.gz" "$work/extra.cpio.gz" >"$work/initrd.gz"

# ---- the boots ----------------------------------------------------------------
order=
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		list=$arms
	else
		list=$(echo $arms | tr ' ' '\n' | tac | tr '\n' ' ')
	fi
	for a in $list; do order="$order $r:$a"; done
	r=$((r + 1))
done
[ "${RFC_DRIFT:-1}" = 1 ] && order="$order drift:${arms%% *}"
total=$(echo $order | wc -w)
run=$work/run-$(date +%Y%m%d-%H%M%S)
mkdir -p "$run" || die "cannot make $run"
extra=
for p in $params; do
	v=$(printenv "RFC_$p") && extra="$extra wmark.$(echo "$p" | tr 'A-Z' 'a-z')=$v"
done
say "kernel ${kdir##*/}: $total boots into ${run#"$top"/}"
n=0
for b in $order; do
	n=$((n + 1))
	round=${b%%:*} spec=${b#*:}
	IFS=: read -r name rfc wsf <<EOF
$spec
EOF
	f=$run/$(printf '%02d' "$n")-$name-r$round
	t0=$(date +%s)
	timeout -k 10 "$limit" qemu-system-x86_64 -nodefaults -nographic -no-reboot -monitor none \
		-accel tcg -icount shift=3,sleep=off -cpu max -smp 1 -m 2048M \
		-kernel "$kdir/vmlinuz" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 quiet panic=-1 wmark_rfc=$rfc transparent_hugepage=never wmark.script=/tests/rfc-effect-guest.sh wmark.entry=$name wmark.arm=$name wmark.wsf=$wsf$extra" \
		-drive "file=$disk,if=none,id=data,format=raw,snapshot=on" -device virtio-blk-pci,drive=data \
		-serial "file:$f.console" -serial "file:$f.data" </dev/null >"$f.qemu" 2>&1
	qrc=$?
	wall=$(($(date +%s) - t0))
	{
		echo "meta round=$round arm=$name wmark_rfc=$rfc wsf=$wsf boot=$n wall_s=$wall qemu_rc=$qrc kernel=${kdir##*/}"
		echo "meta qemu=tcg,icount_shift=3,sleep=off,smp=1,mem=2048M disk_src_mib=$src_mib file_kib=$file_kib hdr_mib=$hdr_mib hdr_kib=$hdr_kib stream_mib=$stream_mib"
		tr -d '\r' <"$f.data" | sed -n '/^WMARK-BEGIN/,/^WMARK-END/p'
	} >"$f.txt"
	left=$(( ($(date +%s) - t_start) * (total - n) / n ))
	if grep -q '^WMARK-END rc=0' "$f.txt"; then
		rm -f "$f.data" "$f.qemu" "$f.console"
		say "$n/$total round $round $name: ${wall}s wall; $(grep '^RESULT' "$f.txt" |
			sed 's/.*workload=\([a-z]*\).* pgpgin=\([0-9]*\).* pgsteal_kswapd=\([0-9]*\).* seconds=\([0-9.]*\) bursts=[0-9]* p50_ms=\([0-9.]*\).*/\1 pgpgin=\2 pgsteal_kswapd=\3 \4s p50=\5ms/' |
			tr '\n' ' ')~${left}s left"
	else
		say "$n/$total round $round $name: no result after ${wall}s (qemu $qrc; $(tail -2 "$f.console" 2>/dev/null | tr '\n' ' '))"
	fi
done
say "all $total boots in $(($(date +%s) - t_start)) s"

if [ "$keep" = - ]; then
	report "$run"
	exit 0
fi
mkdir -p "$keep" || die "cannot make $keep"
dest=$keep/${run##*/}
mkdir -p "$dest" && cp "$run"/*.txt "$dest/" || die "cannot keep $run in $dest"
report $(kept_runs)
