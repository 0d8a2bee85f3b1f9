#!/bin/sh
# The guest side of tests/bench/recommend-eval.sh (busybox sh, run as the
# initramfs script of tests/kernel/init.sh; stdout goes to the host).
# guest-setup.sh (sourced) mounts the data disk, starts the workload
# (WMARK_WORKLOAD: anon, apps or server) and fills memory; then:
#
# 1. `wmark recommend --sample SAMPLE_S` runs while one load runs at the
#    default (its JSON between REC-JSON-BEGIN/END, its --record readings
#    between REC-READINGS-BEGIN/END, and `wmark capture` of the machine
#    just before, a gzipped tar in base64, between REC-CAPTURE-BEGIN/END).
# 2. ROUNDS rounds over the settings of /tests/rec-settings (lines
#    "NAME WSF BOOST MFK", MFK "-" for the kernel's own) and wmark's
#    recommendation; in file order in odd rounds and reversed in even
#    ones, so that a drift over time does not favour one end.  Each
#    setting prints "RESULT round=R name=... key=value...": vmstat deltas
#    around its load, the summed min/low/high watermarks, kswapd's CPU
#    time and the load's latencies.
#
# Parameters: see guest-setup.sh.
. /tests/guest-setup.sh

# run_setting ROUND NAME WSF BOOST MFK: one RESULT line.
run_setting() {
	if [ "$5" = - ]; then m=$MFK0; else m=$5; fi
	if ! set_knobs "$3" "$4" "$m"; then
		echo "RESULT round=$1 name=$2 wsf=$3 boost=$4 mfk=$m error=write"
		return
	fi
	sleep "$SETTLE"
	set -- "$1" "$2" "$3" "$4" "$m" $(wm_sums)
	round=$1 name=$2 wsf=$3 boost=$4 mfk=$5 smin=$6 slow=$7 shigh=$8
	b=$(snap)
	k0=$(kswapd_ms)
	t=$(up)
	lat=$(load) || lat="error=load"
	secs=$(awk -v a="$t" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
	k1=$(kswapd_ms)
	a=$(snap)
	set -- $b $a
	echo "RESULT round=$round name=$name wsf=$wsf boost=$boost mfk=$mfk allocstall=$((${9} - ${1})) pgscan_direct=$((${10} - ${2})) pgsteal_direct=$((${11} - ${3})) pgscan_kswapd=$((${12} - ${4})) pgsteal_kswapd=$((${13} - ${5})) refaults=$((${14} - ${6})) compact_stall=$((${15} - ${7})) pgalloc=$((${16} - ${8})) kswapd_ms=$((k1 - k0)) min_pages=$smin low_pages=$slow high_pages=$shigh seconds=$secs $lat"
}

# 1. wmark's recommendation, sampled while one load runs at the default.
recommend_sample

# 2. Rounds over every setting, in file order, then reversed.
list=$(grep -v '^#' /tests/rec-settings | awk 'NF == 4 { print $1 ":" $2 ":" $3 ":" $4 }')
[ -n "$rec" ] && list="$list
recommended:$rec:${recb:-15000}:-"
rev=$(echo "$list" | awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }')
r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then order=$list; else order=$rev; fi
	for s in $order; do
		IFS=: read -r name w b m <<EOF
$s
EOF
		run_setting "$r" "$name" "$w" "$b" "$m"
	done
	r=$((r + 1))
done

[ "$reader" -gt 0 ] && kill -CONT -"$reader" 2>/dev/null && kill -- -"$reader" 2>/dev/null
[ "$WORKLOAD" = apps ] && exec 7>&- 8<&-
echo "ok 2 - the evaluation ran"
