#!/bin/sh
# wmark stalls inside a qemu guest (busybox sh, root): what cannot be
# shown on a development machine without changing its sysctls.
#
#  1. --enable-delayacct turns kernel.task_delayacct on for the run and
#     puts the old value back on Ctrl-C (SIGINT), the report still printed.
#  2. An exit storm (thousands of short processes) under --all: every exit
#     is reported, or the lost ones are counted (overruns, lost_estimate).
#  3. A burst of anonymous memory larger than what is free pushes a task
#     into direct reclaim: its exit record shows a non-zero reclaim delay.
#     With a loop device the page cache is filled first, so reclaim finds
#     pages to take; without one the hog ends in the OOM killer, which is
#     only reached through direct reclaim.
#  4. With a loop device: reading it uncached shows block-I/O delay.
#
# Prints TAP lines numbered from 1 ("# SKIP why" where the guest lacks
# something) and "# " diagnostics; a harness may renumber them.
#
# Environment: WMARK_BIN (default /bin/wmark), WMARK_TESTS (directory of
# json-flat.awk, default /tests), WMARK_STORM (processes, default 3000)
# and WMARK_STORM_SECONDS (the storm stops there, default 60: under TCG a
# fork and exec can take a tenth of a second).

W=${WMARK_BIN:-/bin/wmark}
T=${WMARK_TESTS:-/tests}
STORM=${WMARK_STORM:-3000}
STORM_S=${WMARK_STORM_SECONDS:-60}
D=$(mktemp -d /tmp/stalls.XXXXXX)
SYS=/proc/sys/kernel/task_delayacct
n=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { [ -n "$*" ] || return 0; echo "$*" | sed "s/^/# /"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }

# flat FILE: the JSON document as "path value" lines (kept in FILE.flat:
# the flattener reads one character at a time, slow under TCG).
flat() {
	[ -s "$1.flat" ] || awk -f "$T/json-flat.awk" "$1" >"$1.flat"
	cat "$1.flat"
}
# get FILE PATH: one value.
get() { flat "$1" | awk -v k="$2" '$1 == k { print $2; exit }'; }
# task_of FILE COMM: index of the first exited task named COMM.
task_of() {
	flat "$1" | awk -v c="$2" '
		$1 ~ /^tasks\.[0-9]+\.comm$/ && $2 == c { split($1, a, "."); comm[a[2]] = 1 }
		$1 ~ /^tasks\.[0-9]+\.state$/ && $2 == "exited" { split($1, a, "."); ex[a[2]] = 1 }
		END { for (i in comm) if (i in ex) { print i; exit } }'
}

# listen OUT [ARGS]: wmark stalls --all in the background until stop().
# ARGS choose --top and --sort: a short report keeps the JSON small.
listen() {
	out=$1
	shift
	"$W" -j stalls --all --duration 3600 --interval 3600 "$@" \
		>"$out" 2>"$out.err" &
	lpid=$!
	# Keep the listener out of the OOM killer's way (this guest only).
	echo -1000 >/proc/$lpid/oom_score_adj 2>/dev/null
	# It is ready once its first scan of live tasks is done.
	sleep 2
}
stop() {
	kill -INT "$lpid"
	wait "$lpid"
	lrc=$?
}

if [ ! -x "$W" ] || ! "$W" stalls --pid $$ >/dev/null 2>"$D/probe.err"; then
	diag "$(cat "$D/probe.err" 2>/dev/null)"
	for t in enable-restore storm reclaim blkio; do
		skip "stalls in the guest: $t" "wmark stalls does not run here"
	done
	exit 0
fi
if [ ! -e "$SYS" ]; then
	before=absent
else
	before=$(cat "$SYS")
fi
"$W" -j stalls --pid $$ >"$D/self.json" 2>/dev/null
diag "kernel.task_delayacct=$before, taskstats v$(get "$D/self.json" taskstats_version)"

# ---- 1 + 2: enable for the run, an exit storm, Ctrl-C -----------------------
listen "$D/storm.json" --top 1 --enable-delayacct
during=$(cat "$SYS" 2>/dev/null)
# Four loops of /bin/true until STORM processes or STORM_S seconds; the
# clock is read with the read builtin, so only /bin/true forks.
read up _ </proc/uptime
deadline=$((${up%.*} + STORM_S))
i=0 loops=
while [ $i -lt 4 ]; do
	(
		j=0
		while [ $j -lt $((STORM / 4)) ]; do
			read up _ </proc/uptime
			[ "${up%.*}" -ge $deadline ] && break
			/bin/true
			j=$((j + 1))
		done
		echo $j >"$D/count.$i"
	) &
	loops="$loops $!"
	i=$((i + 1))
done
for p in $loops; do wait "$p"; done
made=$(cat "$D"/count.* | awk '{ s += $1 } END { print s + 0 }')
sleep 1
stop
after=$(cat "$SYS" 2>/dev/null)
if [ "$before" = absent ]; then
	skip "--enable-delayacct sets and restores kernel.task_delayacct" "no such sysctl (kernel before 5.14)"
else
	[ "$before" != 0 ] || [ "$during" = 1 ]
	s1=$?
	[ $s1 -eq 0 ] && [ "$after" = "$before" ] && [ "$lrc" -eq 0 ]
	check $? "--enable-delayacct: task_delayacct $before -> $during during the run -> $after after Ctrl-C (exit $lrc)"
fi
exits=$(get "$D/storm.json" window.exits)
over=$(get "$D/storm.json" window.overruns)
lost=$(get "$D/storm.json" window.lost_estimate)
diag "storm of $made processes: exits=$exits overruns=$over lost_estimate=$lost"
[ -n "$exits" ] && [ "$made" -gt 0 ] && { [ "$exits" -ge "$made" ] ||
	{ [ "$over" -gt 0 ] && [ "$lost" != null ] && [ $((exits + lost)) -ge "$made" ]; }; }
check $? "--all over an exit storm ($made processes) reports every exit or counts the lost ones"

# ---- a block device, if this guest can make one -------------------------------
loopdev=
if command -v losetup >/dev/null; then
	modprobe loop 2>/dev/null
	mb=$(awk '/MemTotal/ { m = int($2 / 1024 / 6); print (m > 256 ? 256 : m) }' /proc/meminfo)
	dd if=/dev/zero of="$D/disk.img" bs=1M count="$mb" 2>/dev/null
	loopdev=$(losetup -f 2>/dev/null)
	if [ -n "$loopdev" ] && losetup "$loopdev" "$D/disk.img" 2>/dev/null; then
		:
	else
		loopdev=
		rm -f "$D/disk.img"
	fi
fi

# ---- 3: direct reclaim ------------------------------------------------------------
listen "$D/reclaim.json" --sort reclaim --top 5 --enable-delayacct
if [ -n "$loopdev" ]; then
	# Page cache full: the device's blocks, cached.
	dd if="$loopdev" of=/dev/null bs=1M 2>/dev/null
fi
free_mb=$(awk '/MemFree/ { print int($2 / 1024) }' /proc/meminfo)
# Six hogs of a third of what is free each: together twice what is free
# (kswapd alone may keep up with less), each alone small enough for the
# overcommit heuristic.  Reclaim must take cache, or fail and call the OOM
# killer, which the hogs volunteer for.
hog=$((free_mb / 3))
diag "free ${free_mb} MiB, 6 anonymous bursts of ${hog} MiB, loop device ${loopdev:-none}"
i=0 hogs=
while [ $i -lt 6 ]; do
	( echo 1000 >/proc/self/oom_score_adj; exec dd if=/dev/zero of=/dev/null bs="${hog}M" count=1 ) 2>/dev/null &
	hogs="$hogs $!"
	i=$((i + 1))
done
for p in $hogs; do wait "$p"; done
sleep 1
stop
# The largest reclaim delay of any dd: "count total".
best=$(flat "$D/reclaim.json" | awk '
	$1 ~ /^tasks\.[0-9]+\.comm$/ && $2 == "dd" { split($1, a, "."); dd[a[2]] = 1 }
	$1 ~ /\.delays\.freepages\.count$/ { split($1, a, "."); c[a[2]] = $2 }
	$1 ~ /\.delays\.freepages\.total_ns$/ { split($1, a, "."); t[a[2]] = $2 }
	END { bc = 0; bt = 0; n = 0
	      for (i in dd) { n++; if (c[i] + 0 > bc) { bc = c[i] + 0; bt = t[i] + 0 } }
	      print bc, bt, n }')
diag "dd: largest reclaim count and total_ns, dd tasks seen: $best"
set -- $best
[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]
check $? "a burst of anonymous memory past what is free shows a non-zero direct-reclaim delay"

# ---- 4: block I/O -----------------------------------------------------------------
if [ -z "$loopdev" ]; then
	skip "reading a block device uncached shows block-I/O delay" "no loop device in this guest (CONFIG_BLK_DEV_LOOP=m and no module)"
else
	listen "$D/blkio.json" --sort blkio --top 5 --enable-delayacct
	sync
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$loopdev" of=/dev/null bs=64k 2>/dev/null
	stop
	i=$(task_of "$D/blkio.json" dd)
	c=
	[ -n "$i" ] && c=$(get "$D/blkio.json" "tasks.$i.delays.blkio.count")
	diag "dd: blkio count=$c"
	[ -n "$c" ] && [ "$c" -gt 0 ]
	check $? "reading a block device uncached shows block-I/O delay"
	losetup -d "$loopdev" 2>/dev/null
fi

[ "$(cat "$SYS" 2>/dev/null || echo absent)" = "$before" ]
check $? "kernel.task_delayacct is back to $before"
rm -rf "$D"
