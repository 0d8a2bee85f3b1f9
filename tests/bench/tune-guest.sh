#!/bin/sh
# The guest side of tests/bench/tune-eval.sh (busybox sh, run as the
# initramfs script of tests/kernel/init.sh; stdout goes to the host).
# guest-setup.sh (sourced) mounts the data disk, starts the workload
# (WMARK_WORKLOAD: anon, apps or server) and fills memory, as for the
# recommend evaluation; then every measurement is one "run":
#
#   RUN_CYCLES cycles of CYCLE_S seconds of guest time.  A cycle starts the
#   reader again (anon, server), waits until free memory is back within
#   twice the high watermarks (at most REFILL_S), runs one load of the
#   workload, stops the reader (SIGSTOP to its process group) and sleeps
#   to the cycle's end.  The guest is idle in that sleep, and under
#   `-icount sleep=off` idle guest time costs almost no wall time: a run
#   is long in guest time (for adaptivemmd's 8-sample lookback) and short
#   in wall time.  A sampler prints the knobs, the summed high watermarks
#   and the stall counters every TS_S seconds (TS lines).
#
# 1. `wmark recommend --sample SAMPLE_S` during one load at the default
#    (guest-setup.sh's recommend_sample): the static answer.
# 2. A calibration run of `wmark -j tune` from the default (round 0), then
#    `wmark -j recommend --from-tune` on its log: the static answer taken
#    from tune (between TUNE-FROM-JSON-BEGIN/END), which is also the
#    tune's converged setting held fixed ("from-tune").
# 3. ROUNDS rounds over /tests/rec-settings ("NAME WSF BOOST MFK"; the
#    names "recommended" and "from-tune" take the answers of 1 and 2,
#    "tune" runs wmark tune from that setting, "adaptivemmd-N" runs
#    /bin/adaptivemmd -a N from it): the first line's setting runs at the
#    start and again at the end of every round (its drift), the others in
#    file order in odd rounds and reversed in even ones.
#
# Each run prints a RESULT line (vmstat deltas over the whole run, PSI
# some/full in microseconds, kswapd's CPU, the load's busy seconds), a
# CYCLE line a cycle (recommend-burst's latencies), its TS lines, and the
# tuner's own log: TUNE lines (wmark's -j JSON, one a period) or AMM lines
# (adaptivemmd's messages).
#
# Parameters (besides guest-setup.sh's): WMARK_RUN_CYCLES (3),
# WMARK_CYCLE_S (360), WMARK_REFILL_S (60), WMARK_TS_S (5),
# WMARK_TUNE_INTERVAL (5: a burst is over in a few 10 s periods); for one
# part of a cell split across guests, WMARK_ROUND_FIRST and
# WMARK_ROUND_LAST (1 and ROUNDS: the rounds this guest runs) and, for a
# part after the first, WMARK_PART and WMARK_GIVEN_RECOMMENDED,
# _RECOMMENDED_BOOST, _FROM_TUNE, _FROM_TUNE_BOOST (the first part's
# answers, none/unchanged for none: steps 1 and 2 are then skipped).
. /tests/guest-setup.sh
RUN_CYCLES=${WMARK_RUN_CYCLES:-3}
CYCLE_S=${WMARK_CYCLE_S:-360}
REFILL_S=${WMARK_REFILL_S:-60}
TS_S=${WMARK_TS_S:-5}
TUNE_INTERVAL=${WMARK_TUNE_INTERVAL:-5}
ROUND_FIRST=${WMARK_ROUND_FIRST:-1} ROUND_LAST=${WMARK_ROUND_LAST:-$ROUNDS}
VFS0=$(cat $VM/vfs_cache_pressure)
echo "INFO run_cycles=$RUN_CYCLES cycle_s=$CYCLE_S refill_s=$REFILL_S ts_s=$TS_S tune_interval=$TUNE_INTERVAL vfs_cache_pressure=$VFS0 psi=$([ -r /proc/pressure/memory ] && echo yes || echo no) adaptivemmd=$([ -x /bin/adaptivemmd ] && echo yes || echo no)"

# adaptivemmd's configuration (it reads /etc/default/adaptivemmd): the
# watermark management on, the parts that are not about watermarks off
# (the negative dentry cap needs a patched kernel; the leak check scans
# /proc/kpageflags).
mkdir -p /etc/default /var/run
printf 'ENABLE_FREE_PAGE_MGMT=1\nENABLE_NEG_DENTRY_MGMT=0\nENABLE_MEMLEAK_CHECK=0\n' \
	>/etc/default/adaptivemmd

reader_go() { [ "$reader" -gt 0 ] && kill -CONT -"$reader" 2>/dev/null; }
reader_stop() { [ "$reader" -gt 0 ] && kill -STOP -"$reader" 2>/dev/null; }

# PSI memory: "some full" totals in microseconds (0 0 without PSI).
psi_us() {
	awk '$1 == "some" || $1 == "full" { k = $1; sub(/.*total=/, ""); v[k] = $0 }
		END { print v["some"] + 0, v["full"] + 0 }' /proc/pressure/memory 2>/dev/null ||
		echo "0 0"
}

# One sample: uptime, wsf, boost factor, Σhigh (pages), allocstall, pgscan_direct.
sample() {
	echo "$(up) $(cat $VM/watermark_scale_factor) $(cat $VM/watermark_boost_factor)" \
		"$(awk 'FILENAME ~ /zoneinfo/ && $1 == "high" { h += $2 }
			FILENAME ~ /vmstat/ && /^allocstall_/ { a += $2 }
			FILENAME ~ /vmstat/ && $1 == "pgscan_direct" { d = $2 }
			END { print h + 0, a + 0, d + 0 }' /proc/zoneinfo /proc/vmstat)"
}

# Refill: the reader runs until free memory is within twice the high
# watermarks, or REFILL_S seconds.
refill() {
	[ "$reader" -gt 0 ] || return 0
	i=0
	while [ $i -lt "$REFILL_S" ]; do
		set -- $(wm_sums)
		[ "$(awk '$1 == "nr_free_pages" { print $2 }' /proc/vmstat)" -le $(($3 * 2)) ] && return 0
		sleep 1
		i=$((i + 1))
	done
}

# run_one ROUND NAME WSF BOOST MFK SLOT: one run; its lines on stdout
# (SLOT: first, middle or last in its round).
run_one() {
	round=$1 name=$2 wsf=$3 boost=$4 slot=$6
	if [ "$5" = - ]; then mfk=$MFK0; else mfk=$5; fi
	echo "$VFS0" >$VM/vfs_cache_pressure
	if ! set_knobs "$wsf" "$boost" "$mfk"; then
		echo "RESULT round=$round name=$name wsf=$wsf boost=$boost mfk=$mfk error=write"
		return
	fi
	sleep "$SETTLE"
	b=$(snap) k0=$(kswapd_ms) p0=$(psi_us) t0=$(up)
	(while :; do sample; sleep "$TS_S"; done) >/tmp/ts &
	spid=$!
	tpid=0
	case $name in
	tune*)
		rm -f /tmp/tune-state.json
		wmark -j tune --interval "$TUNE_INTERVAL" --state /tmp/tune-state.json \
			>/tmp/tuner.log 2>/tmp/tuner.err &
		tpid=$! ;;
	adaptivemmd-*)
		rm -f /var/run/adaptivemmd.pid
		adaptivemmd -d -v -a "${name#adaptivemmd-}" >/tmp/tuner.log 2>/tmp/tuner.err &
		tpid=$! ;;
	esac
	: >/tmp/cycles
	busy=0 k=1
	while [ $k -le "$RUN_CYCLES" ]; do
		c0=$(up)
		reader_go
		refill
		r1=$(up)
		lat=$(load) || lat="error=load"
		reader_stop
		c1=$(up)
		echo "CYCLE round=$round name=$name k=$k t=$(awk -v a="$t0" -v b="$c0" 'BEGIN { printf "%.1f", b - a }') refill_s=$(awk -v a="$c0" -v b="$r1" 'BEGIN { printf "%.1f", b - a }') load_s=$(awk -v a="$r1" -v b="$c1" 'BEGIN { printf "%.1f", b - a }') $lat" >>/tmp/cycles
		busy=$(awk -v s="$busy" -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", s + b - a }')
		# sleep to the end of the cycle (whole seconds)
		left=$(awk -v t0="$t0" -v k="$k" -v c="$CYCLE_S" -v now="$(up)" \
			'BEGIN { l = t0 + k * c - now; printf "%d", (l > 0 ? l + 0.999 : 0) }')
		[ "$left" -gt 0 ] && sleep "$left"
		k=$((k + 1))
	done
	wsf_end=$(cat $VM/watermark_scale_factor) boost_end=$(cat $VM/watermark_boost_factor)
	if [ "$tpid" -gt 0 ]; then
		kill -TERM "$tpid" 2>/dev/null
		wait "$tpid"
	fi
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	secs=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
	k1=$(kswapd_ms)
	a=$(snap)
	set -- $b $a $p0 $(psi_us)
	echo "RESULT round=$round name=$name slot=$slot wsf=$wsf boost=$boost mfk=$mfk allocstall=$((${9} - ${1})) pgscan_direct=$((${10} - ${2})) pgsteal_direct=$((${11} - ${3})) pgscan_kswapd=$((${12} - ${4})) pgsteal_kswapd=$((${13} - ${5})) refaults=$((${14} - ${6})) compact_stall=$((${15} - ${7})) pgalloc=$((${16} - ${8})) psi_some_us=$((${19} - ${17})) psi_full_us=$((${20} - ${18})) kswapd_ms=$((k1 - k0)) seconds=$secs busy_s=$busy cycles=$RUN_CYCLES wsf_end=$wsf_end boost_end=$boost_end t0=$t0"
	cat /tmp/cycles
	sed "s/^/TS round=$round name=$name /" /tmp/ts
	if [ "$tpid" -gt 0 ]; then
		case $name in
		tune*) sed "s/^/TUNE round=$round name=$name /" /tmp/tuner.log ;;
		*) sed "s/^/AMM round=$round name=$name /" /tmp/tuner.log ;;
		esac
		sed "s/^/TUNER-ERR round=$round name=$name /" /tmp/tuner.err
	fi
}

reader_stop
# given: a later part of a cell split across guests (the host's REC_SPLIT),
# handed the answers of 1. and 2. that the first part measured
given() { [ "$1" = none ] || [ "$1" = unchanged ] || echo "$1"; }
if [ -n "${WMARK_GIVEN_FROM_TUNE:-}" ]; then
	rec=$(given "${WMARK_GIVEN_RECOMMENDED:-none}")
	recb=$(given "${WMARK_GIVEN_RECOMMENDED_BOOST:-unchanged}")
	ft=$(given "$WMARK_GIVEN_FROM_TUNE")
	ftb=$(given "${WMARK_GIVEN_FROM_TUNE_BOOST:-unchanged}")
	echo "INFO part=${WMARK_PART:-2} round_first=$ROUND_FIRST round_last=$ROUND_LAST given_recommended=${rec:-none} given_from_tune=${ft:-none}"
else
	# 1. the static answer, from a sample during one load at the default
	reader_go
	recommend_sample
	reader_stop

	# 2. tune from the default through the workload, and its static answer
	run_one 0 tune 10 15000 - calibration
	cp /tmp/tuner.log /tmp/tune0.log
	wmark -j recommend --from-tune /tmp/tune0.log >/tmp/fromtune.json 2>/tmp/fromtune.err
	echo "TUNE-FROM-JSON-BEGIN"
	cat /tmp/fromtune.json
	echo "TUNE-FROM-JSON-END"
	sed 's/^/TUNE-FROM-ERR /' /tmp/fromtune.err
	ft=$(json_answer /tmp/fromtune.json watermark_scale_factor)
	ftb=$(json_answer /tmp/fromtune.json watermark_boost_factor)
	echo "INFO from_tune=${ft:-none} from_tune_boost=${ftb:-unchanged}"
fi

# 3. the rounds
list=
for s in $(grep -v '^#' /tests/rec-settings | awk 'NF == 4 { print $1 ":" $2 ":" $3 ":" $4 }'); do
	case $s in
	recommended:*) [ -n "$rec" ] && list="$list recommended:$rec:${recb:-15000}:-" ;;
	from-tune:*) [ -n "$ft" ] && list="$list from-tune:$ft:${ftb:-15000}:-" ;;
	adaptivemmd-*) [ -x /bin/adaptivemmd ] && list="$list $s" ;;
	*) list="$list $s" ;;
	esac
done
set -- $list
first=${1:-}
[ $# -gt 0 ] && shift
middle=$(for s in "$@"; do echo "$s"; done)
rev=$(echo "$middle" | awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }')
# run_spec NAME:WSF:BOOST:MFK SLOT, in round $r
run_spec() {
	IFS=: read -r name w b m <<EOF
$1
EOF
	run_one "$r" "$name" "$w" "$b" "$m" "$2"
}
r=$ROUND_FIRST
while [ $r -le "$ROUND_LAST" ]; do
	if [ $((r % 2)) -eq 1 ]; then order=$middle; else order=$rev; fi
	run_spec "$first" first
	for s in $order; do
		run_spec "$s" middle
	done
	run_spec "$first" last
	r=$((r + 1))
done

reader_go
[ "$reader" -gt 0 ] && kill -- -"$reader" 2>/dev/null
[ "$WORKLOAD" = apps ] && exec 7>&- 8<&-
echo "ok 2 - the evaluation ran"
