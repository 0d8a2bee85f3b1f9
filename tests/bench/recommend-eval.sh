#!/bin/bash
# Does `wmark recommend` help?  Boot a Debian kernel under qemu (2 GiB, two
# CPUs) with a data disk, run one of three workloads (recommend-guest.sh:
# anon, apps, server), and measure each setting of the watermark sysctls:
# allocation stalls, direct-reclaim scans, latency, the memory the
# watermarks hold, kswapd's CPU and refaults.  Settings: the default; a
# sweep of watermark_scale_factor with the default boost and one with
# watermark_boost_factor 0; the folklore values (wsf 200; wsf 125 with
# boost 0; wsf 1000; min_free_kbytes 135168); and what `wmark recommend
# --sample` said while the workload ran at the default.  Every setting is
# measured in each of REC_ROUNDS rounds.
#
# usage: tests/bench/recommend-eval.sh        (make bench-recommend)
#   One cell (a workload on a kernel) per REC_MATRIX entry, REC_JOBS of
#   them at a time.  Each new run's meta, data.txt and recommend.json are
#   kept in REC_KEEP (docs/recommend-eval-runs/), in place of the same
#   cell's older run; then docs/recommend-eval.md is written from every
#   run kept there (cells not rerun stay as they were measured), with one
#   plot per cell (gnuplot, docs/recommend-eval-*.svg).
#
# Environment:
#   WMARK                 wmark to put in the guest (default build/wmark)
#   REC_MATRIX            cells, FLAVOUR:WORKLOAD (default "6.12-cloud:anon
#                         6.12-cloud:apps 6.12-cloud:server 5.10-cloud:anon
#                         5.10-cloud:apps 5.10-cloud:server"); the cloud
#                         kernels have ext4 and NVMe built in
#   REC_JOBS              guests at a time (default 2)
#   REC_SWEEP, REC_SWEEP0 wsf values with the default boost / with boost 0
#                         (comma lists)
#   REC_SETTINGS          instead of all that: "NAME WSF BOOST MFK;..."
#   REC_SAMPLE_S, REC_SETTLE_S, REC_ROUNDS (3), and the workloads'
#   parameters as REC_<NAME> for the guest's WMARK_<NAME> (BURST_MIB,
#   BURSTS, PAUSE_MS, PROCS, APPS, APP_MIB, SWITCHES, PIPES, THP_MIB, ...)
#   REC_TIMEOUT           hard limit of one boot in seconds (default 3600)
#   REC_ACCEL             qemu accelerator (default tcg)
#   REC_ICOUNT            TCG's -icount option (default shift=3,sleep=off;
#                         empty for none): guest time counts executed
#                         instructions, so the host's load, which moved
#                         stall counts tenfold between identical runs with
#                         multi-threaded TCG, no longer reaches the guest
#   REC_DOC               output (default docs/recommend-eval.md; "-" for stdout)
#   REC_KEEP              where runs are kept (default docs/recommend-eval-runs;
#                         "-": keep nothing, report this invocation's runs only)
#   REC_REPORT_ONLY="DIR ..."  no boot: write the report again from the runs
#                         in DIR... (docs/recommend-eval-runs/run-*)
#   REC_SMP               vCPUs (default 2; Debian's 5.10 under -icount: 1)
#   REC_SPLIT             guests a cell's rounds are split across (default 1;
#                         the tune evaluation only: its later parts boot once
#                         the first has measured the static answers, and are
#                         given them); the cell is still one run
# For another evaluation on the same guests (tests/bench/tune-eval.sh sets
# them): REC_NAME (the name in messages, default bench-recommend),
# REC_WORK (the work folder), REC_GUEST (the guest script in tests/bench/;
# it sources guest-setup.sh), REC_GUEST_BIN (more static programs for the
# guest's /bin), REC_REPORT (the report generator), REC_CELLS (the cells
# the page covers), REC_GZIP=1 (keep data.txt gzipped).  Each run also keeps wall.txt: the host's time when
# each RESULT line came out of the guest.
#
# Pieces reused from tests/kernel (called, not changed): fetch-kernels.sh
# for the kernel (and its zram modules), mkinitramfs.sh for busybox +
# wmark + init.sh.  Our own cpio archive, appended to theirs (the kernel
# unpacks concatenated archives in order), adds the guest script, the
# settings, the zram modules and the load program.
# Files stay in build/bench-recommend/ (the data disk is made once).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2

wmark=${WMARK:-build/wmark}
case $wmark in /*) ;; *) wmark=$top/$wmark ;; esac
matrix=${REC_MATRIX:-6.12-cloud:anon 6.12-cloud:apps 6.12-cloud:server 5.10-cloud:anon 5.10-cloud:apps 5.10-cloud:server}
jobs=${REC_JOBS:-2}
limit=${REC_TIMEOUT:-3600}
accel=${REC_ACCEL:-tcg}
icount=${REC_ICOUNT-shift=3,sleep=off}
doc=${REC_DOC:-docs/recommend-eval.md}
keep=${REC_KEEP-docs/recommend-eval-runs}
# the cells the page covers: one without a kept run is listed as not measured
cells_all=${REC_CELLS:-6.12-cloud:anon 6.12-cloud:apps 6.12-cloud:server 5.10-cloud:anon 5.10-cloud:apps 5.10-cloud:server}
name=${REC_NAME:-bench-recommend}
work=${REC_WORK:-$top/build/bench-recommend}
guest=${REC_GUEST:-recommend-guest.sh}
guest_bin=${REC_GUEST_BIN:-}
report=${REC_REPORT:-$here/recommend-report.py}
report_only=${REC_REPORT_ONLY:-}
sample=${REC_SAMPLE_S:-45} settle=${REC_SETTLE_S:-4} rounds=${REC_ROUNDS:-3}
sweep=${REC_SWEEP:-100,400,2000}
sweep0=${REC_SWEEP0:-10,400}
# the workloads' parameters handed to the guest when set (REC_X -> wmark.x)
params="BURST_MIB BURSTS PAUSE_MS PROCS STOP_READER APPS APP_MIB APP_FILE_MIB APP_BURST_MIB APP_LOCK_MIB
	SWITCHES PIPES PIPE_KIB THP_MIB SMALL_MIB CYCLES RUN_CYCLES CYCLE_S REFILL_S TS_S TUNE_INTERVAL"

say() { echo "$name: $*" >&2; }
die() { say "$*"; exit 1; }

command -v python3 >/dev/null || die "needs python3 (the report)"
if [ -z "$report_only" ]; then
	[ -x "$wmark" ] || die "$wmark: not built (make all)"
	command -v qemu-system-x86_64 >/dev/null || die "needs qemu-system-x86_64 (Debian qemu-system-x86)"
	command -v mke2fs >/dev/null || die "needs mke2fs (Debian e2fsprogs)"
	command -v cpio >/dev/null || die "needs cpio"
	command -v gcc >/dev/null || die "needs gcc (the load program is linked statically)"
fi
mkdir -p "$work" || die "cannot create $work"

# The settings every cell measures: "NAME WSF BOOST MFK" (MFK - : the
# kernel's own).  The folklore values are named after where they come from.
settings() {
	if [ -n "${REC_SETTINGS:-}" ]; then
		echo "$REC_SETTINGS" | tr ';' '\n'
		return
	fi
	echo "default 10 15000 -"
	local w
	for w in ${sweep//,/ }; do echo "sweep $w 15000 -"; done
	echo "folklore-200 200 15000 -"
	echo "folklore-1000 1000 15000 -"
	for w in ${sweep0//,/ }; do echo "boost0 $w 0 -"; done
	echo "folklore-125-boost0 125 0 -"
	echo "folklore-mfk-135168 10 15000 135168"
}

# ---- the pieces every cell shares --------------------------------------------
prepare() {
	# the data disk: ext4 with a sparse 3 GiB file the reader streams
	disk=$work/disk.img
	if [ ! -s "$disk" ]; then
		rm -rf "$work/diskdir" && mkdir -p "$work/diskdir" || die "cannot make $work/diskdir"
		truncate -s 3G "$work/diskdir/stream"
		mke2fs -q -F -t ext4 -L wmdata -d "$work/diskdir" "$disk.tmp" 4G ||
			die "mke2fs -d failed"
		mv "$disk.tmp" "$disk"
		rm -rf "$work/diskdir"
	fi
	# tests/kernel's initramfs, and the load program (renamed into place:
	# another run's cells may be copying them)
	"$here/../kernel/mkinitramfs.sh" "$wmark" "$work/base.cpio.gz.$$" 2>"$work/mkinitramfs.log" ||
		die "tests/kernel/mkinitramfs.sh failed: $(tail -1 "$work/mkinitramfs.log")"
	mv -f "$work/base.cpio.gz.$$" "$work/base.cpio.gz"
	gcc -O2 -static -o "$work/recommend-burst.$$" "$here/recommend-burst.c" ||
		die "cannot link recommend-burst statically (Debian libc6-dev)"
	mv -f "$work/recommend-burst.$$" "$work/recommend-burst"
}

# cell FLAVOUR WORKLOAD: boot one guest; the run's directory on stdout.
cell() {
	local flavour=$1 workload=$2 line release kernel run stage args p v acc cmd t0 qrc wall smp qpid n
	line=$("$here/../kernel/fetch-kernels.sh" "$flavour" 2>>"$work/fetch.log" | head -1)
	set -- $line
	[ $# -ge 3 ] && [ "$2" != - ] || { say "no $flavour kernel: ${line:-see $work/fetch.log}"; return 1; }
	release=$2 kernel=$3
	run=$work/run-$workload-$flavour-$(date +%Y%m%d-%H%M%S)
	mkdir -p "$run/extra/bin" "$run/extra/tests" "$run/extra/lib/modules/$release/zram" ||
		{ say "cannot make $run"; return 1; }
	stage=$run/extra
	cp "$work/recommend-burst" $guest_bin "$stage/bin/"
	install -m 755 "$here/$guest" "$here/guest-setup.sh" "$stage/tests/"
	settings >"$stage/tests/rec-settings"
	cp "$(dirname "$kernel")"/modules-zram/* "$stage/lib/modules/$release/zram/" 2>/dev/null
	(cd "$stage" && find . -mindepth 1 | sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
		>"$run/extra.cpio.gz" || { say "cpio failed"; return 1; }
	cat "$work/base.cpio.gz" "$run/extra.cpio.gz" >"$run/initrd.gz"
	rm -rf "$stage"

	args="console=ttyS0 quiet panic=-1 wmark.script=/tests/$guest wmark.entry=${guest%-guest.sh}-eval"
	args="$args wmark.workload=$workload wmark.sample_s=$sample wmark.settle_s=$settle wmark.rounds=$rounds"
	for p in $params; do
		v=$(printenv "REC_$p") || continue
		args="$args wmark.$(echo "$p" | tr 'A-Z' 'a-z')=$v"
	done
	# Debian's 5.10 hangs under -icount with two vCPUs while it brings up the
	# second CPU ("x86: Booting SMP configuration"); it boots with one.
	smp=${REC_SMP:-2}
	case $release in 5.10.*) [ -n "$icount" ] && [ "$accel" = tcg ] && smp=1 ;; esac
	if [ "$accel" = tcg ] && [ -n "$icount" ]; then
		acc=(-accel tcg -icount "$icount")	# icount needs single-threaded TCG
	elif [ "$accel" = tcg ]; then
		acc=(-accel tcg,thread=multi)
	else
		acc=(-accel "$accel")
	fi
	# boot DIR ARGS: one guest writing DIR's logs, its pid in $qpid
	boot() {
		cmd=(qemu-system-x86_64 -nodefaults -nographic -no-reboot -monitor none
			"${acc[@]}" -cpu max -smp "$smp" -m 2048M
			-object memory-backend-ram,id=ram0,size=2048M,reserve=off -machine memory-backend=ram0
			-kernel "$kernel" -initrd "$run/initrd.gz" -append "$2"
			-drive "file=$work/disk.img,if=none,id=data,format=raw,snapshot=on"
			-device nvme,serial=wmdata,drive=data
			-serial "file:$1/console.log" -serial "file:$1/data.log")
		printf '%q ' "${cmd[@]}" >"$1/cmdline.txt"
		: >"$1/data.log"
		timeout -k 10 "$limit" "${cmd[@]}" </dev/null >"$1/qemu.log" 2>&1 &
		qpid=$!
	}
	# REC_SPLIT=N: the rounds in N guests at once, in N parts of consecutive
	# rounds (the first the largest).  The first part measures the static
	# answers (recommend's sample, tune's calibration run); the others boot
	# once it has them and are given them (wmark.given_*), so every part
	# measures the same settings.  Their lines are appended to the first's
	# in part order; wall.txt marks each line with its part.
	parts=${REC_SPLIT:-1}
	[ "$parts" -ge 1 ] 2>/dev/null && [ "$parts" -le "$rounds" ] ||
		{ say "REC_SPLIT=$parts: from 1 to the rounds ($rounds)"; return 1; }
	[ "$parts" -eq 1 ] || [ "$guest" = tune-guest.sh ] ||
		{ say "REC_SPLIT: only the tune evaluation's guest takes given answers"; return 1; }
	local first_r=1 k per pids=() dirs=() counts=() firsts=() lasts=() given=
	v=
	[ "$parts" -gt 1 ] && v=", rounds in $parts guests"
	say "$workload on $release: booting ($accel$v); log in ${run#"$top"/}"
	t0=$(date +%s)
	for k in $(seq 1 "$parts"); do
		per=$(( (rounds - first_r + 1 + parts - k) / (parts - k + 1) ))
		dirs[k]=$run
		[ "$k" -gt 1 ] && dirs[k]=$run/part-$k && mkdir -p "${dirs[k]}"
		pids[k]=
		counts[k]=0
		: >"${dirs[k]}/wall.txt"
		firsts[k]=$first_r lasts[k]=$((first_r + per - 1))
		first_r=$((first_r + per))
	done
	boot "$run" "$args wmark.round_first=${firsts[1]} wmark.round_last=${lasts[1]}"
	pids[1]=$qpid
	# the wall time of each run in the guest: when its RESULT line came out
	while :; do
		sleep 5
		if [ "$parts" -gt 1 ] && [ -z "$given" ] &&
			v=$(tr -d '\r' <"$run/data.log" | sed -n 's/^INFO from_tune=\([^ ]*\) from_tune_boost=\([^ ]*\)$/\1 \2/p') &&
			[ -n "$v" ]; then
			# the first part has both answers: boot the others with them
			given="wmark.given_from_tune=${v% *} wmark.given_from_tune_boost=${v#* }"
			v=$(tr -d '\r' <"$run/data.log" |
				sed -n 's/^INFO recommend_rc=[^ ]* recommended=\([^ ]*\) recommended_boost=\([^ ]*\) .*/\1 \2/p')
			given="$given wmark.given_recommended=${v%% *} wmark.given_recommended_boost=${v##* }"
			for k in $(seq 2 "$parts"); do
				boot "${dirs[k]}" "$args wmark.round_first=${firsts[k]} wmark.round_last=${lasts[k]} wmark.part=$k $given"
				pids[k]=$qpid
			done
		fi
		n=0
		for k in $(seq 1 "$parts"); do
			[ -n "${pids[k]}" ] || continue
			v=$(grep -c '^RESULT ' "${dirs[k]}/data.log" 2>/dev/null)
			if [ "${v:-0}" -gt "${counts[k]}" ]; then
				counts[k]=$v
				echo "$(($(date +%s) - t0)) $v${dirs[2]:+ $k}" >>"${dirs[k]}/wall.txt"
			fi
			kill -0 "${pids[k]}" 2>/dev/null && n=$((n + 1))
		done
		[ "$n" -eq 0 ] && break
	done
	for k in $(seq 1 "$parts"); do
		[ -n "${pids[k]}" ] && { wait "${pids[k]}"; v=$?; [ "$k" -eq 1 ] && qrc=$v; }
	done
	wall=$(($(date +%s) - t0))
	if [ "$parts" -gt 1 ]; then
		# one cell: the first part's lines, then each other part's, runs
		# numbered on in wall.txt; a part that never booted leaves it incomplete
		n=${counts[1]}
		for k in $(seq 2 "$parts"); do
			[ -n "${pids[k]}" ] && grep -q '^WMARK-END' "${dirs[k]}/data.log" ||
				{ say "$workload on $release: part $k did not finish; see ${dirs[k]}/console.log"
				  sed -i '/^WMARK-END/d' "$run/data.log"; }
			[ -n "${pids[k]}" ] || continue
			grep -v '^WMARK-END' "${dirs[k]}/data.log" | sed 's/^WMARK-BEGIN/WMARK-PART-BEGIN/' >>"$run/data.log.parts"
			awk -v n="$n" '{ print $1, $2 + n, $3 }' "${dirs[k]}/wall.txt" >>"$run/wall.parts"
			n=$((n + counts[k]))
		done
		if [ -s "$run/data.log.parts" ]; then
			# the first part's end line last, so a cell whose parts all ended is whole
			if grep -q '^WMARK-END' "$run/data.log"; then
				grep -v '^WMARK-END' "$run/data.log" >"$run/data.log.1"
				cat "$run/data.log.1" "$run/data.log.parts" && grep '^WMARK-END' "$run/data.log"
			else
				cat "$run/data.log" "$run/data.log.parts"
			fi >"$run/data.log.all" && mv "$run/data.log.all" "$run/data.log"
			cat "$run/wall.parts" >>"$run/wall.txt"
		fi
		rm -f "$run/data.log.parts" "$run/data.log.1" "$run/wall.parts"
	fi
	tr -d '\r' <"$run/data.log" >"$run/data.txt"
	printf 'release=%q\nlabel=%q\nwall=%q\nworkload=%q\nflavour=%q\nsmp=%q\n' "$release" \
		"$accel${icount:+ -icount $icount}, $smp vCPUs" "$wall" "$workload" "$flavour" "$smp" \
		>"$run/meta"
	if ! grep -q '^WMARK-END' "$run/data.txt"; then
		say "$workload on $release: the guest did not finish (qemu exit $qrc after ${wall}s); see $run/console.log"
		echo "incomplete=1" >>"$run/meta"
	else
		say "$workload on $release: done in ${wall}s"
	fi
	sed -n '/^REC-JSON-BEGIN$/,/^REC-JSON-END$/p' "$run/data.txt" | sed '1d;$d' >"$run/recommend.json"
	sed -n '/^REC-READINGS-BEGIN$/,/^REC-READINGS-END$/p' "$run/data.txt" | sed '1d;$d' \
		>"$run/recommend.readings"
	mkdir -p "$run/capture"
	sed -n '/^REC-CAPTURE-BEGIN$/,/^REC-CAPTURE-END$/p' "$run/data.txt" | sed '1d;$d' |
		base64 -d 2>/dev/null | tar -xzf - -C "$run/capture" 2>/dev/null
	echo "$run"
}

if [ -n "$report_only" ]; then
	runs=
	for d in $report_only; do
		d=$(cd "$d" && pwd) || die "$d: no such run"
		[ -f "$d/meta" ] && { [ -f "$d/data.txt" ] || [ -f "$d/data.txt.gz" ]; } ||
			die "$d: no meta or data.txt"
		runs="$runs $d"
	done
else
	prepare
	# every cell's kernel first, one fetch at a time
	for c in $matrix; do
		"$here/../kernel/fetch-kernels.sh" "${c%%:*}" >/dev/null 2>>"$work/fetch.log" ||
			die "no ${c%%:*} kernel: see $work/fetch.log"
	done
	cells=$(mktemp -d "$work/.cells.XXXXXX") || die "cannot make a folder in $work"
	n=0
	for c in $matrix; do
		n=$((n + 1))
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
		cell "${c%%:*}" "${c#*:}" >"$cells/$n" &
		sleep 2	# distinct run names
	done
	wait
	runs=
	for i in $(seq 1 $n); do
		d=$(cat "$cells/$i" 2>/dev/null)
		[ -n "$d" ] && runs="$runs $d"
	done
	rm -rf "$cells"
	[ -n "$runs" ] || die "no cell ran"
	if [ "$keep" != - ]; then
		# keep the new runs (what the report reads), each in place of its
		# cell's older run; then report from every kept run
		mkdir -p "$keep" || die "cannot make $keep"
		for d in $runs; do
			b=${d##*/} cellname=${d##*/run-}
			cellname=${cellname%-*-*}	# WORKLOAD-FLAVOUR
			for old in "$keep"/run-"$cellname"-*; do
				[ -d "$old" ] && [ "${old##*/}" != "$b" ] && rm -rf "$old"
			done
			if [ "${REC_GZIP:-0}" = 1 ]; then
				mkdir -p "$keep/$b" && gzip -9nc "$d/data.txt" >"$keep/$b/data.txt.gz"
			else
				mkdir -p "$keep/$b" && cp "$d/data.txt" "$keep/$b/"
			fi &&
				cp "$d/meta" "$d/wall.txt" "$keep/$b/" &&
				{ [ ! -f "$d/recommend.json" ] || cp "$d/recommend.json" "$keep/$b/"; } ||
				die "cannot keep $d in $keep"
		done
		runs=
		for d in "$keep"/run-*; do
			[ -f "$d/meta" ] && runs="$runs $(cd "$d" && pwd)"
		done
	fi
fi

# ---- the report ------------------------------------------------------------------
plots=$(mktemp -d "$work/.plots.XXXXXX") || die "cannot make a folder in $work"
out=$plots/page.md
trap 'rm -rf "$plots"' EXIT
python3 "$report" --cells "$cells_all" "$plots" $runs >"$out" ||
	die "cannot write the report"
if command -v gnuplot >/dev/null; then
	for g in "$plots"/*.gp; do
		[ -e "$g" ] || continue
		(cd "$plots" && gnuplot "${g##*/}") || say "gnuplot failed on $g"
	done
else
	say "no gnuplot (Debian gnuplot-nox): the report's plots are missing"
fi
if [ "$doc" = - ]; then
	cat "$out"
else
	mkdir -p "$(dirname "$doc")" && cp "$out" "$doc"
	for f in "$plots"/*.svg; do
		[ -e "$f" ] && cp "$f" "$(dirname "$doc")/"
	done
	say "wrote $doc"
fi
