#!/bin/sh
# The guest side of tests/bench/recommend-eval.sh (busybox sh, run as the
# initramfs script of tests/kernel/init.sh; stdout goes to the host).
#
# A reader streams a file larger than RAM from the data disk all the time,
# so the page cache stays full and free memory sits between the
# watermarks; recommend-burst allocates SIZE MiB of anonymous memory at
# once, COUNT times, PAUSE ms apart.  For each setting of
# watermark_scale_factor (and boost) the vmstat counters are read before
# and after the bursts and one "RESULT key=value..." line is printed.
#
# Phases: the default, twice; `wmark recommend --sample` while the same bursts run
# at the default (its JSON between REC-JSON-BEGIN/END); a sweep upward
# until a setting removes 90% of the default's allocation stalls, then
# bisection below it; wmark's recommendation; folklore 125 with boost 0,
# 200 and 1000; the default again (drift check).
#
# Parameters (kernel command line wmark.KEY=VALUE, exported by init.sh):
#   WMARK_BURST_MIB (192), WMARK_BURSTS (8), WMARK_PAUSE_MS (2500),
#   WMARK_SAMPLE_S (30), WMARK_SETTLE_S (5), WMARK_SWEEP (comma list),
#   WMARK_BISECT (steps, 3)
set -u
BURST=${WMARK_BURST_MIB:-192}
N=${WMARK_BURSTS:-8}
PAUSE=${WMARK_PAUSE_MS:-2500}
SAMPLE=${WMARK_SAMPLE_S:-30}
SETTLE=${WMARK_SETTLE_S:-5}
SWEEP=$(echo "${WMARK_SWEEP:-100,200,400,700,1000,1500,2000,3000}" | tr ',' ' ')
BISECT=${WMARK_BISECT:-3}
VM=/proc/sys/vm

up() { cut -d' ' -f1 /proc/uptime; }

mkdir -p /mnt
if ! mount -o ro /dev/nvme0n1 /mnt; then
	echo "not ok 1 - the data disk (nvme0n1, ext4) mounts"
	exit 1
fi
echo "ok 1 - the data disk mounts"
echo "INFO kernel=$(cat /proc/sys/kernel/osrelease) mem_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo) cpus=$(grep -c ^processor /proc/cpuinfo) mfk=$(cat $VM/min_free_kbytes) wsf=$(cat $VM/watermark_scale_factor) boost=$(cat $VM/watermark_boost_factor) thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled | tr ' ' '_')"
echo "INFO zones $(awk '/^Node/ { z = $4 } $1 == "managed" { printf "%s=%s ", z, $2 }' /proc/zoneinfo)"

# Counters: allocstall pgscan_direct pgsteal_direct pgscan_kswapd
# pgsteal_kswapd refaults compact_stall pgalloc
snap() {
	awk '/^allocstall_/ { a += $2 } $1 == "pgscan_direct" { sd = $2 }
		$1 == "pgsteal_direct" { td = $2 } $1 == "pgscan_kswapd" { sk = $2 }
		$1 == "pgsteal_kswapd" { tk = $2 } $1 ~ /^workingset_refault(_anon|_file)?$/ { rf += $2 }
		$1 == "compact_stall" { cs = $2 } /^pgalloc_/ { pa += $2 }
		END { print a + 0, sd + 0, td + 0, sk + 0, tk + 0, rf + 0, cs + 0, pa + 0 }' /proc/vmstat
}
# Sums of min, low and high over every zone, in pages.
wm_sums() {
	awk '$1 == "min" { m += $2 } $1 == "low" { l += $2 } $1 == "high" { h += $2 }
		END { print m + 0, l + 0, h + 0 }' /proc/zoneinfo
}

# The reader: a sparse file larger than RAM, read again and again.
( while :; do cat /mnt/stream >/dev/null; done ) &
reader=$!
t0=$(up)
# Fill: until free memory is within twice the high watermarks, or 90 s.
i=0
while [ $i -lt 90 ]; do
	set -- $(wm_sums)
	free=$(awk '$1 == "nr_free_pages" { print $2 }' /proc/vmstat)
	[ "$free" -le $(($3 * 2)) ] && break
	sleep 1
	i=$((i + 1))
done
echo "INFO fill_s=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }') free_pages=$free high_sum=$3"

# run_setting NAME WSF BOOST: one RESULT line.
run_setting() {
	echo "$2" >$VM/watermark_scale_factor || { echo "RESULT name=$1 wsf=$2 error=write"; return; }
	echo "$3" >$VM/watermark_boost_factor
	sleep "$SETTLE"
	set -- "$1" "$2" "$3" $(wm_sums)
	name=$1 wsf=$2 boost=$3 smin=$4 slow=$5 shigh=$6
	b=$(snap)
	t=$(up)
	lat=$(/bin/recommend-burst "$BURST" "$N" "$PAUSE")
	secs=$(awk -v a="$t" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
	a=$(snap)
	set -- $b $a
	echo "RESULT name=$name wsf=$wsf boost=$boost allocstall=$((${9} - ${1})) pgscan_direct=$((${10} - ${2})) pgsteal_direct=$((${11} - ${3})) pgscan_kswapd=$((${12} - ${4})) pgsteal_kswapd=$((${13} - ${5})) refaults=$((${14} - ${6})) compact_stall=$((${15} - ${7})) pgalloc=$((${16} - ${8})) min_pages=$smin low_pages=$slow high_pages=$shigh seconds=$secs $lat"
	last_stalls=$((${9} - ${1}))
}

# Two defaults first: the 90% line is drawn from their mean.
run_setting default 10 15000
a0=$last_stalls
run_setting default 10 15000
a0=$(((a0 + last_stalls) / 2))
echo "INFO default_stalls_mean=$a0"

# wmark's recommendation, sampled while the same bursts run at the default.
echo 10 >$VM/watermark_scale_factor
echo 15000 >$VM/watermark_boost_factor
sleep "$SETTLE"
wmark -j recommend --sample "$SAMPLE" >/tmp/rec.json 2>/tmp/rec.err &
wpid=$!
sleep 1
/bin/recommend-burst "$BURST" "$N" "$PAUSE" >/tmp/rec-bursts.txt
wait $wpid
rc=$?
echo "REC-JSON-BEGIN"
cat /tmp/rec.json
echo "REC-JSON-END"
grep -v '^wmark: recommend: [0-9]*/' /tmp/rec.err
rec=$(awk '/"watermark_scale_factor"/ { gsub(/[^0-9]/, "", $2); print $2; exit }' /tmp/rec.json)
echo "INFO recommend_rc=$rc recommended=${rec:-none} sample_bursts=$(cat /tmp/rec-bursts.txt | tr ' ' ',')"

# Sweep upward until allocstall <= a0/10, then bisect below it.
pass= fail=10
if [ "$a0" -gt 0 ]; then
	for w in $SWEEP; do
		run_setting "sweep" "$w" 15000
		if [ $((last_stalls * 10)) -le "$a0" ]; then
			pass=$w
			break
		fi
		fail=$w
	done
	k=0
	while [ -n "$pass" ] && [ $k -lt "$BISECT" ] && [ $((pass - fail)) -gt 1 ]; do
		mid=$(((pass + fail) / 2))
		run_setting "sweep" "$mid" 15000
		if [ $((last_stalls * 10)) -le "$a0" ]; then pass=$mid; else fail=$mid; fi
		k=$((k + 1))
	done
fi
echo "INFO smallest_sufficient=${pass:-none} largest_insufficient=$fail"

[ -n "$rec" ] && run_setting recommended "$rec" 15000
run_setting folklore-125-boost0 125 0
run_setting folklore-200 200 15000
run_setting folklore-1000 1000 15000
run_setting default-again 10 15000

kill "$reader" 2>/dev/null
echo "ok 2 - the evaluation ran"
