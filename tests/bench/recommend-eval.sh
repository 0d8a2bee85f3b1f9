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
#   REC_UPTO              this call measures the rounds up to this one only
#                         (default all; the tune evaluation only): a cell
#                         longer than one sitting is measured in several
#                         calls of whole rounds, kept as incomplete between
#   REC_RESUME            a run of one cell (docs/tune-eval-runs/run-*, or its
#                         folder in build/): measure the rounds after its last
#                         one, up to REC_UPTO, in REC_SPLIT guests given its
#                         static answers, and keep its runs and these as one
#                         run of the cell (REC_MATRIX is ignored); it must be
#                         of the same kernel and settings, and every round it
#                         began must have ended
#   REC_DRY               check REC_UPTO and REC_RESUME, say what the call
#                         would measure, and boot nothing
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

# answers FILE: the static answers a first part measured (tune-guest.sh's
# INFO lines), as the boot arguments that give them to a later part;
# nothing while it has not measured them yet
answers() {
	local ft rec
	ft=$(tr -d '\r' <"$1" | sed -n 's/^INFO from_tune=\([^ ]*\) from_tune_boost=\([^ ]*\)$/\1 \2/p' | head -1)
	[ -n "$ft" ] || return 0
	rec=$(tr -d '\r' <"$1" |
		sed -n 's/^INFO recommend_rc=[^ ]* recommended=\([^ ]*\) recommended_boost=\([^ ]*\) .*/\1 \2/p' | head -1)
	echo "wmark.given_from_tune=${ft% *} wmark.given_from_tune_boost=${ft#* }" \
		"wmark.given_recommended=${rec%% *} wmark.given_recommended_boost=${rec##* }"
}

# meta_get DIR KEY: one value of a run's meta (written with printf %q)
meta_get() {
	local v
	v=$(sed -n "s/^$2=//p" "$1/meta" | tail -1)
	eval "printf '%s' $v" 2>/dev/null
}

# resume_read DIR: check that REC_RESUME's run can go on, and set r_* (its
# data without the end line, rounds done, parts, runs, calls so far) and the
# cell it measures
resume_read() {
	local d=$1 v planned have bad
	[ -f "$d/meta" ] || die "REC_RESUME=$d: no meta there (a run of make bench-tune, docs/tune-eval-runs/run-*)"
	d=$(cd "$d" && pwd) || die "REC_RESUME=$d: cannot enter it"
	r_dir=$d r_data=$work/.resume.$$
	trap 'rm -f "$r_data"' EXIT
	if [ -f "$d/data.txt.gz" ]; then
		gzip -dc "$d/data.txt.gz" >"$r_data.all" || die "$d/data.txt.gz: cannot read it"
	elif [ -f "$d/data.txt" ]; then
		tr -d '\r' <"$d/data.txt" >"$r_data.all" || die "$d/data.txt: cannot read it"
	else
		die "$d: no data.txt or data.txt.gz"
	fi
	grep -v '^WMARK-END' "$r_data.all" >"$r_data"
	rm -f "$r_data.all"
	[ -f "$d/wall.txt" ] || die "$d: no wall.txt"
	# rounds planned, parts so far, RESULT lines, rounds whole from the first,
	# and the first round begun that did not end (or lies past a gap)
	set -- $(awk '
		/^INFO workload=/ { for (i = 2; i <= NF; i++) if ($i ~ /^rounds=/) planned = substr($i, 8) + 0 }
		/^INFO part=/ { p = substr($2, 6) + 0; if (p > parts) parts = p }
		/^RESULT / {
			n++
			r = substr($2, 7) + 0
			if (r > 0) { begun[r] = 1; if ($4 == "slot=last") whole[r] = 1 }
		}
		END {
			k = 0
			while ((k + 1) in whole) k++
			bad = 0
			for (r in begun)
				if ((r + 0 > k) && (!bad || r + 0 < bad)) bad = r + 0
			printf "%d %d %d %d %d\n", planned, (parts > 0 ? parts : 1), n, k, bad
		}' "$r_data")
	[ $# -eq 5 ] && [ "$1" -gt 0 ] || die "$d: no INFO line with the rounds planned: not a run of the tune evaluation"
	planned=$1 r_parts=$2 r_n=$3 r_done=$4 bad=$5
	[ "$bad" -eq 0 ] ||
		die "$d: round $bad was begun but did not end (its guest was stopped): only whole rounds go on; measure the cell again"
	[ "$r_done" -lt "$planned" ] || die "$d: all $planned rounds are measured already: nothing to resume"
	[ -z "${REC_ROUNDS:-}" ] || [ "$REC_ROUNDS" -eq "$planned" ] ||
		die "REC_ROUNDS=$REC_ROUNDS, but $d planned $planned rounds"
	rounds=$planned
	r_given=$(answers "$r_data")
	[ -n "$r_given" ] || die "$d: tune's calibration did not end there (no static answer from tune): measure the cell again"
	# RESULT lines with no time in wall.txt would shift the later ones
	v=$(awk 'END { print $2 + 0 }' "$d/wall.txt")
	[ "$v" -eq "$r_n" ] || die "$d/wall.txt: times for $v runs, but its data has $r_n"
	r_flavour=$(meta_get "$d" flavour) r_workload=$(meta_get "$d" workload)
	r_release=$(meta_get "$d" release) r_wall=$(meta_get "$d" wall)
	[ -n "$r_flavour" ] && [ -n "$r_workload" ] && [ -n "$r_release" ] && [ "${r_wall:-x}" -ge 0 ] 2>/dev/null ||
		die "$d/meta: no flavour, workload, release or wall"
	# the calls so far, SPLIT:FIRST-LAST:WALL:RUN each
	r_calls=$(meta_get "$d" calls)
	[ -n "$r_calls" ] || r_calls=$r_parts:1-$r_done:$r_wall:${d##*/}
	# the settings: this call's must be the ones its rounds measured, but for
	# those tune-guest.sh leaves out when an answer or a program is missing
	v=$(settings | awk 'NF == 4 { print $1 }' | sort -u)
	have=$(awk '/^RESULT / && $2 != "round=0" { sub(/^name=/, "", $3); print $3 }' "$r_data" | sort -u)
	bad=$(comm -3 <(echo "$have") <(echo "$v") | tr -d '\t' |
		grep -vxE 'recommended|from-tune|adaptivemmd-[0-9]+' | tr '\n' ' ')
	[ -z "$bad" ] || die "$d: its rounds and this call's differ in the settings ${bad% }"
	matrix=$r_flavour:$r_workload jobs=1
}


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

upto=${REC_UPTO:-} resume=${REC_RESUME:-}
if [ -z "$report_only" ] && [ -n "$upto$resume" ]; then
	[ "$guest" = tune-guest.sh ] || die "REC_UPTO, REC_RESUME: only the tune evaluation's guest takes given answers"
	[ -z "$resume" ] || resume_read "$resume"
	if [ -n "$upto" ]; then
		[ "$upto" -ge 1 ] 2>/dev/null && [ "$upto" -le "$rounds" ] ||
			die "REC_UPTO=$upto: from 1 to the rounds ($rounds)"
		[ -z "$resume" ] || [ "$upto" -gt "$r_done" ] ||
			die "REC_UPTO=$upto: $r_dir has rounds 1-$r_done already"
	fi
	set -- $matrix
	[ $# -eq 1 ] || die "REC_UPTO: one cell at a time (REC_MATRIX has $#)"
fi
if [ -n "${REC_DRY:-}" ] && [ -z "$report_only" ]; then
	# what this call would measure, checked as above, and nothing booted
	v=1
	[ -z "$resume" ] || v=$((r_done + 1))
	say "would measure $matrix, rounds $v-${upto:-$rounds} of $rounds, in ${REC_SPLIT:-1} guest(s)${resume:+, after the $r_n runs of $r_dir (rounds 1-$r_done, $r_parts part(s), $r_wall s)}"
	exit 0
fi

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
	[ -z "$resume" ] || [ "$release" = "$r_release" ] ||
		{ say "$r_dir ran on $r_release, and $flavour is now $release: measure the cell again"; return 1; }
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
	# in part order; wall.txt marks each line with its part.  A resumed cell
	# (REC_RESUME) starts from the old run's lines and times, and all its
	# parts are later parts, numbered on from the old run's.
	local first_r=1 last_r=${upto:-$rounds} p0=0 k per pids=() dirs=() counts=() firsts=() lasts=() lab=() given=
	[ -z "$resume" ] || first_r=$((r_done + 1)) p0=$r_parts given=$r_given
	parts=${REC_SPLIT:-1}
	[ "$parts" -ge 1 ] 2>/dev/null && [ "$parts" -le $((last_r - first_r + 1)) ] ||
		{ say "REC_SPLIT=$parts: from 1 to the rounds measured ($first_r-$last_r)"; return 1; }
	[ "$parts" -eq 1 ] || [ "$guest" = tune-guest.sh ] ||
		{ say "REC_SPLIT: only the tune evaluation's guest takes given answers"; return 1; }
	v=
	[ "$parts" -gt 1 ] && v=", rounds in $parts guests"
	[ "$first_r-$last_r" = "1-$rounds" ] || v="$v, rounds $first_r-$last_r of $rounds"
	say "$workload on $release: booting ($accel$v); log in ${run#"$top"/}"
	t0=$(date +%s)
	calls="$parts:$first_r-$last_r"
	for k in $(seq 1 "$parts"); do
		per=$(( (last_r - first_r + 1 + parts - k) / (parts - k + 1) ))
		dirs[k]=$run lab[k]=
		if [ -n "$resume" ] || [ "$k" -gt 1 ]; then
			dirs[k]=$run/part-$((p0 + k)) && mkdir -p "${dirs[k]}"
		fi
		[ -z "$resume" ] && [ "$parts" -eq 1 ] || lab[k]=" $((p0 + k))"
		pids[k]=
		counts[k]=0
		: >"${dirs[k]}/wall.txt"
		firsts[k]=$first_r lasts[k]=$((first_r + per - 1))
		first_r=$((first_r + per))
	done
	if [ -z "$resume" ]; then
		boot "$run" "$args wmark.round_first=${firsts[1]} wmark.round_last=${lasts[1]}"
		pids[1]=$qpid
	else
		cp "$r_data" "$run/data.log" && cp "$r_dir/wall.txt" "$run/wall.txt" ||
			{ say "cannot copy $r_dir's runs into $run"; return 1; }
		for k in $(seq 1 "$parts"); do
			boot "${dirs[k]}" "$args wmark.round_first=${firsts[k]} wmark.round_last=${lasts[k]} wmark.part=$((p0 + k)) $given"
			pids[k]=$qpid
		done
	fi
	# the wall time of each run in the guest: when its RESULT line came out
	while :; do
		sleep 5
		if [ "$parts" -gt 1 ] && [ -z "$given" ] && given=$(answers "$run/data.log") && [ -n "$given" ]; then
			# the first part has both answers: boot the others with them
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
				echo "$(($(date +%s) - t0)) $v${lab[k]}" >>"${dirs[k]}/wall.txt"
			fi
			kill -0 "${pids[k]}" 2>/dev/null && n=$((n + 1))
		done
		[ "$n" -eq 0 ] && break
	done
	for k in $(seq 1 "$parts"); do
		[ -n "${pids[k]}" ] && { wait "${pids[k]}"; v=$?; [ "$k" -eq 1 ] && qrc=$v; }
	done
	wall=$(($(date +%s) - t0))
	if [ "$parts" -gt 1 ] || [ -n "$resume" ]; then
		# one cell: the first part's lines (a resumed cell's: the old run's),
		# then each later part's, runs numbered on in wall.txt; a part that
		# never booted or did not end leaves it incomplete
		local kf=2 ended=1
		n=${counts[1]}
		[ -z "$resume" ] || kf=1 n=$r_n
		for k in $(seq "$kf" "$parts"); do
			[ -n "${pids[k]}" ] && grep -q '^WMARK-END' "${dirs[k]}/data.log" ||
				{ say "$workload on $release: part $((p0 + k)) did not finish; see ${dirs[k]}/console.log"
				  ended=0; sed -i '/^WMARK-END/d' "$run/data.log"; }
			[ -n "${pids[k]}" ] || continue
			grep -v '^WMARK-END' "${dirs[k]}/data.log" | sed 's/^WMARK-BEGIN/WMARK-PART-BEGIN/' >>"$run/data.log.parts"
			awk -v n="$n" '{ print $1, $2 + n, $3 }' "${dirs[k]}/wall.txt" >>"$run/wall.parts"
			n=$((n + counts[k]))
		done
		if [ -n "$resume" ] && [ "$ended" = 0 ]; then
			# the old run was whole rounds; this one would not be: keep the old
			say "$workload on $release: $r_dir is kept as it was; this call's guests are in $run"
			rm -f "$run/data.log.parts" "$run/wall.parts"
			return 1
		fi
		if [ -s "$run/data.log.parts" ]; then
			# the first part's end line last, so a cell whose parts all ended is
			# whole (a resumed cell takes its first new part's)
			if [ -n "$resume" ]; then
				cat "$run/data.log" "$run/data.log.parts" && grep '^WMARK-END' "${dirs[1]}/data.log"
			elif grep -q '^WMARK-END' "$run/data.log"; then
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
	# calls: each call that measured some of the cell's rounds, as
	# SPLIT:FIRST-LAST:WALL:RUN (only for a cell measured in pieces)
	calls="${r_calls:+$r_calls,}$calls:$wall:${run##*/}"
	printf 'release=%q\nlabel=%q\nwall=%q\nworkload=%q\nflavour=%q\nsmp=%q\n' "$release" \
		"$accel${icount:+ -icount $icount}, $smp vCPUs" "$((${r_wall:-0} + wall))" "$workload" "$flavour" "$smp" \
		>"$run/meta"
	[ -z "$upto$resume" ] || echo "calls=$calls" >>"$run/meta"
	if ! grep -q '^WMARK-END' "$run/data.txt"; then
		say "$workload on $release: the guest did not finish (qemu exit $qrc after ${wall}s); see $run/console.log"
		echo "incomplete=1" >>"$run/meta"
	elif [ "$last_r" -lt "$rounds" ]; then
		say "$workload on $release: rounds 1-$last_r of $rounds measured in ${wall}s; REC_RESUME=<this run, kept> measures the rest"
		printf 'incomplete=1\nupto=%s\n' "$last_r" >>"$run/meta"
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
trap 'rm -rf "$plots" "$work/.resume.$$"' EXIT
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
