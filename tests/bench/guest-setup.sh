#!/bin/sh
# The guest's setup shared by tests/bench/recommend-guest.sh and
# tests/bench/tune-guest.sh (busybox sh, sourced by them: they run as the
# initramfs script of tests/kernel/init.sh, stdout goes to the host).
# It mounts the data disk, prints the machine's INFO lines, starts one of
# three workloads (WMARK_WORKLOAD) and fills memory, and defines what
# both measure with: snap, wm_sums, kswapd_ms, up and load (one "load" of
# the workload, by recommend-burst; see its header):
#   anon    a reader streams a file larger than RAM from the data disk all
#           the time, so the page cache stays full and free memory sits
#           between the watermarks; anonymous bursts of BURST_MIB in PROCS
#           processes, BURSTS times, PAUSE_MS apart.
#   apps    Android-like: zram swap (1 GiB, this kernel's zram module),
#           APP_LOCK_MIB locked away (the rest of the phone), APPS apps of
#           APP_MIB heap and APP_FILE_MIB of file pages launched once and
#           kept; a load is SWITCHES switches with an APP_BURST_MIB burst
#           each.  No reader: the apps' own file pages and heaps fill memory.
#   server  the reader as in anon, and PIPES pipes of PIPE_KIB (unmovable
#           pages) refreshed half at a time, THP_MIB of MADV_HUGEPAGE and
#           SMALL_MIB of order-0 memory, CYCLES times, PAUSE_MS apart.
# The reader (anon, server) runs in a process group of its own, $reader
# (0 for apps), which a caller may stop and continue.
#
# Parameters (kernel command line wmark.KEY=VALUE, exported by init.sh):
#   WMARK_WORKLOAD (anon), WMARK_SAMPLE_S (45), WMARK_SETTLE_S (5),
#   WMARK_ROUNDS (3), and the workloads': WMARK_BURST_MIB (512),
#   WMARK_BURSTS (2), WMARK_PAUSE_MS (2500), WMARK_PROCS (4),
#   WMARK_STOP_READER (0); WMARK_APPS (7), WMARK_APP_MIB (112),
#   WMARK_APP_FILE_MIB (16), WMARK_APP_BURST_MIB (32), WMARK_APP_LOCK_MIB
#   (1024), WMARK_SWITCHES (7);
#   WMARK_PIPES (256), WMARK_PIPE_KIB (256), WMARK_THP_MIB (128),
#   WMARK_SMALL_MIB (384, in PROCS processes), WMARK_CYCLES (2).
#
# Why 512 MiB in 4 processes (anon): under TCG, kswapd reclaiming clean
# page cache outruns one allocating process (zeroing pages is dearer than
# dropping them).  Four allocators and the reader on two vCPUs stall by
# the hundred at the default.
set -u
WORKLOAD=${WMARK_WORKLOAD:-anon}
SAMPLE=${WMARK_SAMPLE_S:-45}
SETTLE=${WMARK_SETTLE_S:-5}
ROUNDS=${WMARK_ROUNDS:-3}
BURST=${WMARK_BURST_MIB:-512}
N=${WMARK_BURSTS:-2}
PAUSE=${WMARK_PAUSE_MS:-2500}
PROCS=${WMARK_PROCS:-4}
STOP_READER=${WMARK_STOP_READER:-0}
APPS=${WMARK_APPS:-7} APP_MIB=${WMARK_APP_MIB:-112} APP_FILE_MIB=${WMARK_APP_FILE_MIB:-16}
APP_BURST_MIB=${WMARK_APP_BURST_MIB:-32} APP_LOCK_MIB=${WMARK_APP_LOCK_MIB:-1024}
SWITCHES=${WMARK_SWITCHES:-7}
PIPES=${WMARK_PIPES:-256} PIPE_KIB=${WMARK_PIPE_KIB:-256} THP_MIB=${WMARK_THP_MIB:-128}
SMALL_MIB=${WMARK_SMALL_MIB:-384} CYCLES=${WMARK_CYCLES:-2}
VM=/proc/sys/vm

up() { cut -d' ' -f1 /proc/uptime; }

mkdir -p /mnt
if ! mount -o ro /dev/nvme0n1 /mnt; then
	echo "not ok 1 - the data disk (nvme0n1, ext4) mounts"
	exit 1
fi
echo "ok 1 - the data disk mounts"
# tracefs: wmark recommend counts pageblock fallbacks with its tracepoint
mkdir -p /sys/kernel/tracing
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
MFK0=$(cat $VM/min_free_kbytes)
echo "INFO kernel=$(cat /proc/sys/kernel/osrelease) mem_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo) cpus=$(grep -c ^processor /proc/cpuinfo) mfk=$MFK0 wsf=$(cat $VM/watermark_scale_factor) boost=$(cat $VM/watermark_boost_factor) thp=$(tr ' ' '_' </sys/kernel/mm/transparent_hugepage/enabled) thp_defrag=$(tr ' ' '_' </sys/kernel/mm/transparent_hugepage/defrag)"
echo "INFO workload=$WORKLOAD sample_s=$SAMPLE settle_s=$SETTLE rounds=$ROUNDS"
case $WORKLOAD in
anon) echo "INFO burst_mib=$BURST bursts=$N pause_ms=$PAUSE procs=$PROCS stop_reader=$STOP_READER" ;;
apps) echo "INFO apps=$APPS app_mib=$APP_MIB app_file_mib=$APP_FILE_MIB app_burst_mib=$APP_BURST_MIB app_lock_mib=$APP_LOCK_MIB switches=$SWITCHES" ;;
server) echo "INFO pipes=$PIPES pipe_kib=$PIPE_KIB thp_mib=$THP_MIB small_mib=$SMALL_MIB cycles=$CYCLES pause_ms=$PAUSE" ;;
*) echo "not ok 2 - workload $WORKLOAD: anon, apps or server"; exit 1 ;;
esac
echo "INFO zones $(awk '/^Node/ { z = $4 } $1 == "managed" { printf "%s=%s ", z, $2 }' /proc/zoneinfo)"

# apps: zram swap.  The modules (zsmalloc, zram and what they need on this
# kernel) are in /lib/modules/RELEASE/zram/, loaded in the order of its
# file "order".
if [ "$WORKLOAD" = apps ]; then
	zdir=/lib/modules/$(uname -r)/zram
	[ -f "$zdir/order" ] && for m in $(cat "$zdir/order"); do
		insmod "$zdir/$m.ko" 2>/dev/null
	done
	if ! [ -e /sys/block/zram0/disksize ] || ! echo 1G >/sys/block/zram0/disksize ||
		! mkswap /dev/zram0 >/dev/null || ! swapon /dev/zram0; then
		echo "not ok 2 - zram swap (modules in $zdir: $(ls "$zdir" 2>/dev/null | tr '\n' ' '))"
		exit 1
	fi
	echo "INFO zram=$(tr ' ' '_' </sys/block/zram0/comp_algorithm) swap_kb=$(awk '/^SwapTotal/ { print $2 }' /proc/meminfo)"
fi

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

# kswapd's CPU time in ms (every node's kswapd: utime + stime, USER_HZ 100).
kswapd_ms() {
	for p in /proc/[0-9]*; do
		read -r comm <"$p/comm" 2>/dev/null || continue
		case $comm in kswapd*) awk '{ print $14 + $15 }' "$p/stat" 2>/dev/null ;; esac
	done | awk '{ t += $1 } END { print t * 10 }'
}

# One load of the workload; prints recommend-burst's line.
load() {
	case $WORKLOAD in
	anon) /bin/recommend-burst "$BURST" "$N" "$PAUSE" "$stop" "$PROCS" ;;
	apps) echo "$SWITCHES" >&7 && read -r line <&8 && echo "$line" ;;
	server) /bin/recommend-burst server "$PIPES" "$PIPE_KIB" "$THP_MIB" "$SMALL_MIB" \
		"$CYCLES" "$PAUSE" "$PROCS" ;;
	esac
}

# The reader (anon, server): a sparse file larger than RAM, read again and
# again, in a process group of its own (which recommend-burst can stop).
reader=0 stop=0
if [ "$WORKLOAD" != apps ]; then
	setsid sh -c 'while :; do cat /mnt/stream >/dev/null; done' &
	reader=$!
	sleep 1
	pgid=$(awk '{ print $5 }' /proc/$reader/stat 2>/dev/null)
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
else
	# apps: launched once and kept, as a phone keeps them; each load is
	# SWITCHES switches, asked for on the driver's stdin (fd 7), its line
	# read back from its stdout (fd 8).  One load first, so that page cache
	# and zram hold from the start what they hold from then on.
	mkfifo /tmp/apps.in /tmp/apps.out
	/bin/recommend-burst apps "$APPS" "$APP_MIB" "$APP_FILE_MIB" "$APP_BURST_MIB" \
		"$APP_LOCK_MIB" /mnt/stream </tmp/apps.in >/tmp/apps.out &
	apps_pid=$!
	exec 7>/tmp/apps.in 8</tmp/apps.out
	t0=$(up)
	read -r launched <&8 || { echo "not ok 2 - the apps started"; exit 1; }
	load >/dev/null || { echo "not ok 2 - the first apps load ran"; exit 1; }
	echo "INFO fill_s=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }') apps_pid=$apps_pid launch_$(echo "$launched" | cut -d' ' -f2- | tr ' ' ',') swap_used_kb=$(awk '/^SwapTotal/ { t = $2 } /^SwapFree/ { f = $2 } END { print t - f }' /proc/meminfo)"
fi

# set_knobs WSF BOOST MFK: write the three sysctls; status 1 when one fails.
set_knobs() {
	echo "$3" >$VM/min_free_kbytes && echo "$1" >$VM/watermark_scale_factor &&
		echo "$2" >$VM/watermark_boost_factor
}

# json_answer FILE KEY: the number KEY has in the "recommended" object of
# wmark's JSON in FILE (nothing when it has none).
json_answer() {
	sed -n '/"recommended"/,/}/p' "$1" |
		awk -v k="\"$2\"" 'index($0, k) { v = substr($0, index($0, k) + length(k))
			sub(/^[^0-9]*/, "", v); sub(/[^0-9].*/, "", v); print v; exit }'
}

# recommend_sample: `wmark -j recommend --sample SAMPLE` while one load runs
# at the default (wsf 10, boost 15000, the kernel's min_free_kbytes): its
# JSON, readings and the machine's capture between REC-*-BEGIN/END lines,
# its answer in $rec and $recb (empty when none) and an INFO line.
recommend_sample() {
	set_knobs 10 15000 "$MFK0"
	sleep "$SETTLE"
	# the machine as a root tree, for replaying the readings elsewhere
	rm -rf /tmp/capture && wmark capture /tmp/capture >/dev/null 2>&1
	wmark -j recommend --sample "$SAMPLE" --record /tmp/rec.readings >/tmp/rec.json 2>/tmp/rec.err &
	wpid=$!
	sleep 1
	load >/tmp/rec-bursts.txt
	wait $wpid
	rc=$?
	echo "REC-JSON-BEGIN"
	cat /tmp/rec.json
	echo "REC-JSON-END"
	echo "REC-READINGS-BEGIN"
	cat /tmp/rec.readings 2>/dev/null
	echo "REC-READINGS-END"
	echo "REC-CAPTURE-BEGIN"
	[ -d /tmp/capture ] && tar -C /tmp/capture -cf - . | gzip -c | base64
	echo "REC-CAPTURE-END"
	grep -v '^wmark: recommend: [0-9]*/' /tmp/rec.err
	rec=$(json_answer /tmp/rec.json watermark_scale_factor)
	recb=$(json_answer /tmp/rec.json watermark_boost_factor)
	echo "INFO recommend_rc=$rc recommended=${rec:-none} recommended_boost=${recb:-unchanged} sample_bursts=$(tr ' ' ',' </tmp/rec-bursts.txt)"
}
