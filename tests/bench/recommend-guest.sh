#!/bin/sh
# The guest side of tests/bench/recommend-eval.sh (busybox sh, run as the
# initramfs script of tests/kernel/init.sh; stdout goes to the host).
#
# A reader streams a file larger than RAM from the data disk all the
# time, so the page cache stays full and free memory sits between the
# watermarks; recommend-burst allocates SIZE MiB of anonymous memory at
# once, COUNT times, PAUSE ms apart, while the reader goes on.  (With
# WMARK_STOP_READER=1 the reader is stopped during each burst: kswapd then
# kept up with even two allocators of 384 MiB, and nothing stalled.)
#
# 1. `wmark recommend --sample` runs while the bursts run at the default
#    (its JSON between REC-JSON-BEGIN/END).
# 2. ROUNDS rounds over the settings: the default, every wsf of the sweep,
#    wmark's recommendation, and 125 with watermark_boost_factor 0;
#    ascending in odd rounds, descending in even ones, so that a drift of
#    the host's load over time does not favour one end.  Each setting
#    prints "RESULT round=R name=... key=value...": vmstat deltas around
#    its bursts, the summed min/low/high watermarks, burst latencies.
#
# Parameters (kernel command line wmark.KEY=VALUE, exported by init.sh):
#   WMARK_BURST_MIB (512), WMARK_BURSTS (3), WMARK_PAUSE_MS (2500),
#   WMARK_SAMPLE_S (45), WMARK_SETTLE_S (5), WMARK_ROUNDS (2),
#   WMARK_SWEEP (comma list of wsf values), WMARK_PROCS (allocating
#   processes per burst, 4), WMARK_STOP_READER (0)
#
# Why 512 MiB in 4 processes: under TCG, kswapd reclaiming clean page
# cache outruns one allocating process (zeroing pages is dearer than
# dropping them); at a light host load one 192 MiB process stalled a few
# times per burst at most.  Four allocators and the reader on two vCPUs
# stall by the hundred at the default.
set -u
BURST=${WMARK_BURST_MIB:-512}
N=${WMARK_BURSTS:-3}
PAUSE=${WMARK_PAUSE_MS:-2500}
SAMPLE=${WMARK_SAMPLE_S:-45}
SETTLE=${WMARK_SETTLE_S:-5}
ROUNDS=${WMARK_ROUNDS:-2}
PROCS=${WMARK_PROCS:-4}
STOP_READER=${WMARK_STOP_READER:-0}
SWEEP=$(echo "${WMARK_SWEEP:-100,200,400,700,1000,1500,2000,3000}" | tr ',' ' ')
VM=/proc/sys/vm

up() { cut -d' ' -f1 /proc/uptime; }

mkdir -p /mnt
if ! mount -o ro /dev/nvme0n1 /mnt; then
	echo "not ok 1 - the data disk (nvme0n1, ext4) mounts"
	exit 1
fi
echo "ok 1 - the data disk mounts"
echo "INFO kernel=$(cat /proc/sys/kernel/osrelease) mem_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo) cpus=$(grep -c ^processor /proc/cpuinfo) mfk=$(cat $VM/min_free_kbytes) wsf=$(cat $VM/watermark_scale_factor) boost=$(cat $VM/watermark_boost_factor) thp=$(tr ' ' '_' </sys/kernel/mm/transparent_hugepage/enabled)"
echo "INFO burst_mib=$BURST bursts=$N pause_ms=$PAUSE sample_s=$SAMPLE settle_s=$SETTLE rounds=$ROUNDS procs=$PROCS stop_reader=$STOP_READER"
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

# The reader: a sparse file larger than RAM, read again and again, in a
# process group of its own (which recommend-burst can stop).
setsid sh -c 'while :; do cat /mnt/stream >/dev/null; done' &
reader=$!
sleep 1
pgid=$(awk '{ print $5 }' /proc/$reader/stat 2>/dev/null)
stop=0
[ "$STOP_READER" = 1 ] && stop=$reader
echo "INFO reader_pid=$reader reader_pgid=$pgid"
if [ "$pgid" != "$reader" ]; then
	echo "not ok 2 - the reader leads its own process group"
	exit 1
fi
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

# run_setting ROUND NAME WSF BOOST: one RESULT line.
run_setting() {
	echo "$3" >$VM/watermark_scale_factor || { echo "RESULT round=$1 name=$2 wsf=$3 error=write"; return; }
	echo "$4" >$VM/watermark_boost_factor
	sleep "$SETTLE"
	set -- "$1" "$2" "$3" "$4" $(wm_sums)
	round=$1 name=$2 wsf=$3 boost=$4 smin=$5 slow=$6 shigh=$7
	b=$(snap)
	t=$(up)
	lat=$(/bin/recommend-burst "$BURST" "$N" "$PAUSE" "$stop" "$PROCS")
	secs=$(awk -v a="$t" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
	a=$(snap)
	set -- $b $a
	echo "RESULT round=$round name=$name wsf=$wsf boost=$boost allocstall=$((${9} - ${1})) pgscan_direct=$((${10} - ${2})) pgsteal_direct=$((${11} - ${3})) pgscan_kswapd=$((${12} - ${4})) pgsteal_kswapd=$((${13} - ${5})) refaults=$((${14} - ${6})) compact_stall=$((${15} - ${7})) pgalloc=$((${16} - ${8})) min_pages=$smin low_pages=$slow high_pages=$shigh seconds=$secs $lat"
}

# 1. wmark's recommendation, sampled while the bursts run at the default.
echo 10 >$VM/watermark_scale_factor
echo 15000 >$VM/watermark_boost_factor
sleep "$SETTLE"
wmark -j recommend --sample "$SAMPLE" >/tmp/rec.json 2>/tmp/rec.err &
wpid=$!
sleep 1
/bin/recommend-burst "$BURST" "$N" "$PAUSE" "$stop" "$PROCS" >/tmp/rec-bursts.txt
wait $wpid
rc=$?
echo "REC-JSON-BEGIN"
cat /tmp/rec.json
echo "REC-JSON-END"
grep -v '^wmark: recommend: [0-9]*/' /tmp/rec.err
rec=$(awk '/"watermark_scale_factor"/ { gsub(/[^0-9]/, "", $2); print $2; exit }' /tmp/rec.json)
echo "INFO recommend_rc=$rc recommended=${rec:-none} sample_bursts=$(tr ' ' ',' </tmp/rec-bursts.txt)"

# 2. Rounds over every setting: "name:wsf:boost", ascending by wsf.
list="default:10:15000"
for w in $SWEEP; do
	list="$list sweep:$w:15000"
done
[ -n "$rec" ] && list="$list recommended:$rec:15000"
list="$list folklore-125-boost0:125:0"
list=$(for s in $list; do echo "$s"; done | sort -t: -k2,2n -k1,1)
r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then order=$list; else order=$(echo "$list" | sort -t: -k2,2nr -k1,1r); fi
	for s in $order; do
		IFS=: read -r name w b <<EOF
$s
EOF
		run_setting "$r" "$name" "$w" "$b"
	done
	r=$((r + 1))
done

kill -CONT -"$reader" 2>/dev/null
kill -- -"$reader" 2>/dev/null
echo "ok 2 - the evaluation ran"
