#!/bin/sh
# The guest side of tests/bench/rfc-effect.sh (busybox sh, run as the
# initramfs script of tests/kernel/init.sh; stdout goes to the host).
#
# The kernel is tests/kernel/rfc's, booted with wmark_rfc=0, 1 or 2 (the
# arm); this script sets watermark_scale_factor to WMARK_WSF and runs the
# two workloads of the 2018 RFC's measurement, approximated, one after the
# other, on 1 GiB of zram swap (the RFC's devices were Android phones):
#   build  a multibuild: recommend-burst build, BUILD_JOBS jobs compiling
#          the sources of /mnt/src (the data disk) BUILD_PASSES times, each
#          unit read through the page cache with BUILD_HEADERS of the
#          tree's headers, then BUILD_ANON_MIB of short-lived anonymous
#          memory, with BUILD_LOCK_MIB locked away
#   apps   a sequential app launch: recommend-burst apps (as in
#          tests/bench/recommend-guest.sh), APPS apps of APP_MIB heap and
#          APP_FILE_MIB of /mnt/stream each, APP_LOCK_MIB locked away: the
#          set is larger than memory; launched in order, then APP_REPEATS
#          times every app in the same order again
# Between the two the page cache is dropped, so each starts from the same
# state in every arm.  For each workload one line
#   RESULT workload=W key=value ...
# with the deltas of /proc/vmstat's counters across it, kswapd's CPU time
# (ms), its seconds of guest time and recommend-burst's latency line.
#
# Parameters (kernel command line wmark.KEY=VALUE, exported by init.sh):
#   WMARK_ARM (a name), WMARK_WSF (120), WMARK_BUILD_JOBS (4), WMARK_BUILD_HEADERS (16),
#   WMARK_BUILD_ANON_MIB (2), WMARK_BUILD_PASSES (2),
#   WMARK_BUILD_LOCK_MIB (1280), WMARK_APPS (8), WMARK_APP_MIB (64),
#   WMARK_APP_FILE_MIB (48), WMARK_APP_BURST_MIB (16),
#   WMARK_APP_LOCK_MIB (1152), WMARK_APP_REPEATS (3)
set -u
WSF=${WMARK_WSF:-120}
JOBS=${WMARK_BUILD_JOBS:-4} HDRS=${WMARK_BUILD_HEADERS:-16} BANON=${WMARK_BUILD_ANON_MIB:-2} PASSES=${WMARK_BUILD_PASSES:-2}
BLOCK=${WMARK_BUILD_LOCK_MIB:-1280}
APPS=${WMARK_APPS:-8} APP_MIB=${WMARK_APP_MIB:-64} APP_FILE_MIB=${WMARK_APP_FILE_MIB:-48}
APP_BURST_MIB=${WMARK_APP_BURST_MIB:-16} APP_LOCK_MIB=${WMARK_APP_LOCK_MIB:-1152}
REPEATS=${WMARK_APP_REPEATS:-3}
VM=/proc/sys/vm
# the counters reported: those of the RFC's table as 6.12 names them, and more
KEYS="workingset_activate_file workingset_activate_anon pgpgin pgpgout pswpin pswpout
	allocstall pgsteal_kswapd pgscan_kswapd pgsteal_direct pgscan_direct slabs_scanned
	workingset_refault_file workingset_refault_anon workingset_restore_file
	workingset_restore_anon kswapd_low_wmark_hit_quickly kswapd_high_wmark_hit_quickly
	pageoutrun pgalloc pgfault pgmajfault"

up() { cut -d' ' -f1 /proc/uptime; }

# vmstat FILE: the counters now, one "key value" a line (allocstall summed
# over its zones, as the RFC's 4.9 had it), and kswapd's utime + stime in ms
# (USER_HZ 100) as kswapd_ms.
vmstat() {
	awk '/^allocstall_/ { a += $2; next } /^pgalloc_/ { g += $2 } { print }
		END { print "allocstall", a + 0; print "pgalloc", g + 0 }' \
		/proc/vmstat >"$1"
	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in
		kswapd*) cat "$p/stat" ;;
		esac
	done | awk '{ t += $14 + $15 } END { print "kswapd_ms", t * 10 }' >>"$1"
}

# result NAME BEFORE AFTER SECONDS LATENCY-LINE: the RESULT line.
result() {
	printf 'RESULT workload=%s arm=%s wsf=%s' "$1" "${WMARK_ARM:-?}" "$WSF"
	for k in $KEYS kswapd_ms; do
		awk -v k="$k" 'FNR == 1 { f++ } $1 == k { v[f] = $2 }
			END { printf " %s=%d", k, v[2] - v[1] }' "$2" "$3"
	done
	echo " seconds=$4 $5"
}

mkdir -p /mnt
if ! mount -o ro /dev/vda /mnt; then
	echo "not ok 1 - the data disk (vda, ext4) mounts"
	exit 1
fi
echo "ok 1 - the data disk mounts"
if ! echo 1G >/sys/block/zram0/disksize || ! mkswap /dev/zram0 >/dev/null || ! swapon /dev/zram0; then
	echo "not ok 2 - zram swap"
	exit 1
fi
if ! echo "$WSF" >$VM/watermark_scale_factor; then
	echo "not ok 2 - watermark_scale_factor $WSF"
	exit 1
fi
# the vCPU never idles (see recommend-burst idle): waits cost guest time
/bin/recommend-burst idle &
idle=$!
sleep 2
echo "INFO kernel=$(uname -r) mem_kb=$(awk '/^MemTotal/ { print $2 }' /proc/meminfo) cpus=$(grep -c ^processor /proc/cpuinfo) mfk=$(cat $VM/min_free_kbytes) wsf=$(cat $VM/watermark_scale_factor) boost=$(cat $VM/watermark_boost_factor) thp=$(tr ' ' '_' </sys/kernel/mm/transparent_hugepage/enabled) swap_kb=$(awk '/^SwapTotal/ { print $2 }' /proc/meminfo)"
echo "INFO cmdline=$(tr ' ' ',' </proc/cmdline)"
echo "INFO bootline=$(dmesg | grep 'wmark_rfc=[0-9]: high watermark' | head -1 | sed 's/^\[[^]]*\] *//' | tr ' ' '_')"
# per zone: managed min low high (pages)
echo "INFO zones $(awk '/^Node/ { z = $4 } $1 == "min" { mi = $2 } $1 == "low" { lo = $2 }
	$1 == "high" { hi = $2 } $1 == "managed" && $2 > 0 { printf "%s=%s,%s,%s,%s ", z, $2, mi, lo, hi }' /proc/zoneinfo)"
echo "INFO build jobs=$JOBS headers=$HDRS anon_mib=$BANON passes=$PASSES lock_mib=$BLOCK files=$(ls /mnt/src | grep -c '^u') header_files=$(ls /mnt/src | grep -c '^h') src_kib=$(du -sk /mnt/src | cut -f1)"
echo "INFO apps apps=$APPS app_mib=$APP_MIB app_file_mib=$APP_FILE_MIB app_burst_mib=$APP_BURST_MIB lock_mib=$APP_LOCK_MIB repeats=$REPEATS"

# 1. the multibuild
vmstat /tmp/b0
t=$(up)
lat=$(/bin/recommend-burst build "$JOBS" "$BANON" "$PASSES" "$BLOCK" /mnt/src "$HDRS") || lat="error=build"
secs=$(awk -v a="$t" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
vmstat /tmp/b1
result build /tmp/b0 /tmp/b1 "$secs" "$lat"

sync
echo 3 >$VM/drop_caches
sleep 2

# 2. the sequential app launch: the launches count, as each later round
mkfifo /tmp/apps.in /tmp/apps.out
vmstat /tmp/a0
t=$(up)
/bin/recommend-burst apps "$APPS" "$APP_MIB" "$APP_FILE_MIB" "$APP_BURST_MIB" \
	"$APP_LOCK_MIB" /mnt/stream </tmp/apps.in >/tmp/apps.out &
exec 7>/tmp/apps.in 8</tmp/apps.out
if ! read -r launched <&8; then
	echo "not ok 3 - the apps started"
	exit 1
fi
echo "INFO apps_$(echo "$launched" | tr ' ' '_')"
echo $((APPS * REPEATS)) >&7
read -r lat <&8 || lat="error=apps"
secs=$(awk -v a="$t" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')
vmstat /tmp/a1
result apps /tmp/a0 /tmp/a1 "$secs" "$lat $(echo "$launched" | sed 's/^launched bursts=[0-9]* /launch_/; s/ / launch_/g')"
exec 7>&- 8<&-
kill "$idle"
wait
echo "ok 3 - both workloads ran"
