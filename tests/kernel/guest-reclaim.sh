#!/bin/sh
# wmark reclaim against a real kernel, inside the qemu guest (busybox sh,
# root).  Run by guest-tests.sh; guest-reclaim-bench.sh sources it with
# RECLAIM_BENCH=1 for the measurements of docs/reclaim-eval.md.
#
# The cgroup's memory: clean page cache of a loop device backed by a sparse
# file on tmpfs (reading its holes allocates nothing behind it; the
# device's cached blocks are charged to the reader's cgroup), and anon
# memory of a dd blocked on a full pipe with its buffer touched.  Swap is a
# second loop device on ramfs: its pages are unevictable and charged to
# the root cgroup (the io controller is left off), so swapping out the
# cgroup's anon frees the cgroup's memory, as zram would, without a module
# these kernels' cache does not carry.  A descriptor of the page-cache
# device stays open: its last close would drop the cache (docs/model.md §12.0).
#
# Prints TAP ("ok N - ...") numbered from 1, "# " diagnostics and
# "WMARK-INFO reclaim_KEY=VALUE" facts.

W=${WMARK_BIN:-/bin/wmark}
T=${WMARK_TESTS:-/tests}
CG=/sys/fs/cgroup
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { [ -n "$*" ] || return 0; echo "$*" | sed "s/^/# /"; }
info() { echo "WMARK-INFO $*"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
jget() {	# jget PATH FILE: one flattened value of a JSON document
	awk -f $T/json-flat.awk "$2" | awk -v k="$1" '$1 == k { print $2; exit }'
}
fget() {	# fget PATH FILE: one value of a document json-flat.awk has flattened
	awk -v k="$1" '$1 == k { print $2; exit }' "$2"
}

rel=$(cat /proc/sys/kernel/osrelease)

# ---- no memory.reclaim (5.10) ---------------------------------------------------
if [ ! -e $CG/memory.reclaim ] && [ -z "${RECLAIM_BENCH:-}" ]; then
	$W reclaim / --bytes 1M >/tmp/rc510.out 2>/tmp/rc510.err
	rc=$?
	[ "$rc" -eq 3 ] && grep -q "kernel $rel has no memory.reclaim (5.19+)" /tmp/rc510.err &&
		grep -q "/sys/fs/cgroup/memory.reclaim" /tmp/rc510.err
	check $? "reclaim on $rel: exit 3 naming memory.reclaim and the kernel (exit $rc: $(cat /tmp/rc510.err))"
	$W reclaim / --bytes 1M -n >/dev/null 2>&1
	[ $? -eq 3 ]
	check $? "reclaim --dry-run on $rel: exit 3 too"
	exit 0
fi

# ---- the machine ------------------------------------------------------------------
modprobe loop 2>/dev/null
disk=/tmp/rc-disk
truncate -s 2G $disk
pcdev=$(losetup -f)
losetup "$pcdev" $disk || { not_ok "a loop device for page cache ($pcdev)"; exit 1; }
exec 7<"$pcdev"
mkdir -p /mnt/rc-swap
mount -t ramfs ramfs /mnt/rc-swap
truncate -s "${RECLAIM_SWAP_MB:-512}M" /mnt/rc-swap/swap
swdev=$(losetup -f)
if losetup "$swdev" /mnt/rc-swap/swap && mkswap "$swdev" >/dev/null 2>&1 && swapon "$swdev"; then
	info "reclaim_swap=$swdev"
else
	diag "no swap on $swdev: anon is not reclaimable here"
	swdev=
fi
echo +memory >$CG/cgroup.subtree_control 2>/dev/null

# fill NAME FILE_MB ANON_MB: a fresh cgroup with that much page cache and anon.
fill() {
	mkdir -p $CG/$1
	sh -c "echo \$\$ >$CG/$1/cgroup.procs; exec dd if=$pcdev of=/dev/null bs=1M count=$2" 2>/dev/null
	if [ "$3" -gt 0 ]; then
		sh -c "echo \$\$ >$CG/$1/cgroup.procs; exec dd if=/dev/zero bs=${3}M count=1" 2>/dev/null |
			sleep 100000 &
		sleepers="$sleepers $!"
		# until dd holds its buffer
		i=0
		while [ $i -lt 200 ] && [ "$(awk '$1 == "anon" { print int($2 / 1048576) }' $CG/$1/memory.stat)" -lt $(($3 - 1)) ]; do
			sleep 0.05
			i=$((i + 1))
		done
	fi
}

# empty NAME: the cgroup's tasks killed, the cgroup removed, caches dropped.
empty() {
	for p in $(cat $CG/$1/cgroup.procs 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	for p in $sleepers; do kill "$p" 2>/dev/null; done
	sleepers=
	sleep 0.2
	rmdir $CG/$1 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
}

cur_mb() { awk '{ printf "%.1f", $1 / 1048576 }' $CG/$1/memory.current; }

# ---- what the bench records around each case (RECLAIM_BENCH) ------------------
# tracefs's vmscan:mm_vmscan_memcg_reclaim_end: one event per internal call
# of try_to_free_mem_cgroup_pages(), with the pages that call reclaimed;
# /proc/vmstat's swap and refault counters; the case's wall time from the
# guest's uptime (wmark's own time counts its writes only).
TR=/sys/kernel/tracing
have_trace=
trace_setup() {
	mount -t tracefs nodev $TR 2>/dev/null
	if [ -e $TR/events/vmscan/mm_vmscan_memcg_reclaim_end/enable ] &&
		echo 1 >$TR/events/vmscan/mm_vmscan_memcg_reclaim_end/enable; then
		have_trace=1
	else
		diag "no tracefs event vmscan:mm_vmscan_memcg_reclaim_end: calls not counted"
	fi
}
now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
ms_since() { echo $(($(now_ms) - $1)); }
# workingset_refault_anon, workingset_refault_file, pswpin, pswpout (vmstat's order)
vmsnap() {
	awk '$1 ~ /^(workingset_refault_anon|workingset_refault_file|pswpin|pswpout)$/ { printf "%s ", $2 }' /proc/vmstat
}
trace_begin() {
	[ -n "$have_trace" ] && echo >$TR/trace
	vm0=$(vmsnap)
	t_begin=$(now_ms)
}
# trace_end: $trace_facts, KEY:VALUE pairs of the case (RC_WATCH: a cgroup
# whose memory.current is noted at the end, in MiB)
trace_end() {
	t_end=$(now_ms)
	vm1=$(vmsnap)
	tf=calls:-
	[ -n "$have_trace" ] && tf=$(awk '
		/^# entries-in-buffer/ { split($3, a, "/"); lost = a[2] - a[1] }
		$1 ~ /^wmark-/ && /mm_vmscan_memcg_reclaim_end/ {
			v = $NF
			sub(/.*=/, "", v)
			v += 0
			calls++
			if (v == 0) {
				z++
				if (++run > zrun)
					zrun = run
			} else {
				run = 0
			}
			if (v > cmax)
				cmax = v
		}
		END { printf "calls:%d,zcalls:%d,zrun:%d,cmax:%d,lost:%d", calls, z, zrun, cmax, lost }' $TR/trace)
	trace_facts="wall_ms:$((t_end - t_begin)),$tf,$(echo $vm0 $vm1 | awk '{ printf "rfa:%d,rff:%d,swpin:%d,swpout:%d", $5 - $1, $6 - $2, $7 - $3, $8 - $4 }')"
	[ -n "${RC_WATCH:-}" ] && [ -e $CG/$RC_WATCH/memory.current ] &&
		trace_facts="$trace_facts,left_mb:$(cur_mb $RC_WATCH)"
}

# reclaim_case NAME TAG ARGS...: run wmark -j reclaim NAME ARGS into /tmp/TAG.json
# (after $RC_PREFIX, e.g. a timeout command) and report its totals as
# WMARK-INFO reclaim_TAG=...; NAME "" for none (--node).
reclaim_case() {
	cgn=$1 tag=$2
	shift 2
	[ -n "${RECLAIM_BENCH:-}" ] && trace_begin
	if [ -n "$cgn" ]; then
		${RC_PREFIX:-} $W -j reclaim "$cgn" "$@" >/tmp/$tag.json 2>/tmp/$tag.err
	else
		${RC_PREFIX:-} $W -j reclaim "$@" >/tmp/$tag.json 2>/tmp/$tag.err
	fi
	rc=$?
	[ -n "${RECLAIM_BENCH:-}" ] && trace_end
	# A run of 32-page writes prints thousands of write rows: they are
	# summed up line by line (reclaim-writes.awk), the rest is flattened.
	awk -v rest=/tmp/$tag.rest -f $T/reclaim-writes.awk /tmp/$tag.json >/tmp/$tag.sum
	awk -f $T/json-flat.awk /tmp/$tag.rest >/tmp/$tag.flat
	res=$(fget result /tmp/$tag.flat)
	counter=$(fget counter /tmp/$tag.flat)
	asked=$(fget total.requested_pages /tmp/$tag.flat)
	got=$(fget total.reclaimed_pages /tmp/$tag.flat)
	dcur=$(fget total.current_drop_pages /tmp/$tag.flat)
	over=$(fget total.over_pages /tmp/$tag.flat)
	ns=$(fget total.time_ns /tmp/$tag.flat)
	rate=$(fget total.pages_per_second /tmp/$tag.flat)
	writes=$(fget total.writes /tmp/$tag.flat)
	anon=$(fget total.anon_pages /tmp/$tag.flat)
	file=$(fget total.file_pages /tmp/$tag.flat)
	bound=$(fget model.over_bound_pages /tmp/$tag.flat)
	calls=$(fget model.calls /tmp/$tag.flat)
	extra=
	[ -n "${RECLAIM_BENCH:-}" ] && extra=",$trace_facts,read_ms:$(ms_since "$t_end"),$(cat /tmp/$tag.sum)"
	info "reclaim_${tag}=rc:$rc,result:$res,asked:$asked,reclaimed:$got,dcurrent:$dcur,over:$over,time_ns:$ns,rate:$rate,writes:$writes,anon:$anon,file:$file,model_calls:$calls,over_bound:$bound$extra"
	diag "$tag: exit $rc $res, asked $asked, reclaimed $got (Δcurrent $dcur), over $over, ${ns}ns, $rate pages/s, $writes writes, anon $anon file $file; model: $calls calls, bound $bound"
	[ -s /tmp/$tag.err ] && diag "$(head -3 /tmp/$tag.err)"
}

if [ -n "${RECLAIM_BENCH:-}" ]; then
	return 0 2>/dev/null || exit 0
fi

# ---- the tests ---------------------------------------------------------------
$W -j reclaim / --bytes 0 -n >/tmp/ps.json 2>/dev/null
ps=$(jget page_size /tmp/ps.json)
fill rc1 96 16
diag "cgroup rc1: $(cur_mb rc1) MiB charged ($(awk '$1 == "file" || $1 == "anon" { printf "%s %d MiB ", $1, $2 / 1048576 }' $CG/rc1/memory.stat))"

# One write of 32 MiB: at least what was asked, no more over than the model
# bounds per node (each node's lruvec is shrunk against the target in one
# pass: 64 over seen on a 2-node 6.12; the bound includes the largest folio
# less a page: 230 over seen on 7.2 with file pages in large folios).  memory.stat may lag a write that
# succeeded (its counters are flushed in batches: 8171 for 8192 seen on a
# 2-node 6.1, with memory.current 8212 lower), so "at least what was asked"
# holds for either count.
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -ge 1 ] || nodes=1
reclaim_case rc1 k32 --bytes 32M
want=$((33554432 / ps))
nbound=$((nodes * (bound + 1) - 1))
[ "$rc" -eq 0 ] && [ "$res" = ok ] && [ "$asked" = "$want" ] &&
	{ [ "$got" -ge "$want" ] || [ "$dcur" -ge "$want" ]; } &&
	[ "$over" -le "$nbound" ]
check $? "reclaim --bytes 32M on $rel: $got pages reclaimed (Δcurrent $dcur) for $asked, $over over (model bound $bound per node, $nodes node(s))"

# The same by wmark's quarters.
reclaim_case rc1 q32 --bytes 32M --batch quarter
[ "$rc" -eq 0 ] && [ "$res" = ok ] && { [ "$got" -ge "$want" ] || [ "$dcur" -ge "$want" ]; } &&
	[ "$writes" -ge 2 ] && [ "$over" -le "$nbound" ]
check $? "reclaim --bytes 32M --batch quarter on $rel: $writes writes, $got pages (Δcurrent $dcur) for $asked, $over over"

# More than the cgroup holds: the kernel gives up with EAGAIN, a result.
reclaim_case rc1 all --bytes 2G --timeout 120
[ "$rc" -eq 1 ] && [ "$res" = EAGAIN ] && [ "$got" -gt 0 ] &&
	[ "$(jget writes.0.result /tmp/all.json)" = EAGAIN ]
check $? "reclaim --bytes 2G of a $((96 + 16)) MiB cgroup on $rel: EAGAIN, exit 1, $got pages reclaimed first"
info "reclaim_left_mb=$(cur_mb rc1)"

# A timeout that is due before the write starts is never missed: the write
# is not made, or a timer signal interrupts it (the timer fires every 10 ms
# until the write returns), so the result is "timeout", not a whole write.
reclaim_case rc1 tiny --bytes 2G --timeout 1e-9
[ "$rc" -eq 1 ] && [ "$res" = timeout ] && [ "$(jget writes.0.result /tmp/tiny.json)" = inf ] &&
	[ "$ns" -lt 1000000000 ]
check $? "reclaim --bytes 2G --timeout 1e-9 on $rel: timeout, exit 1, within a second (exit $rc, $res, ${ns}ns)"

# The swappiness key where the kernel has it, refused where not.
case $rel in
6.1.*)
	$W reclaim rc1 --bytes 1M --swappiness 10 >/dev/null 2>/tmp/sw.err
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "kernel 6.1 has no swappiness" /tmp/sw.err
	check $? "--swappiness on $rel: exit 2 naming the kernel"
	;;
*)
	empty rc1
	fill rc1 16 16
	reclaim_case rc1 sw --bytes 4M --swappiness 0
	[ "$rc" -eq 0 ] && [ "$res" = ok ] && [ "$(jget writes.0.anon_pages /tmp/sw.json)" -le 0 ]
	check $? "--swappiness 0 on $rel: accepted, no anon reclaimed ($(jget writes.0.anon_pages /tmp/sw.json))"
	if [ -z "$swdev" ]; then
		skip "--swappiness max reclaims anon" "no swap"
	elif $W reclaim rc1 --bytes 4M --swappiness max -n >/dev/null 2>&1; then
		# What is checked is that anon goes: the kernel may give up on
		# the rest (EAGAIN; seen once on 7.2 with 64K anon folios, 160
		# pages of 1024) without that saying anything of the key.
		reclaim_case rc1 swmax --bytes 4M --swappiness max
		{ [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ "$res" = EAGAIN ]; }; } &&
			[ "$(jget writes.0.anon_pages /tmp/swmax.json)" -gt 0 ]
		check $? "--swappiness max on $rel: anon reclaimed ($(jget writes.0.anon_pages /tmp/swmax.json) pages, $res)"
	else
		$W reclaim rc1 --bytes 4M --swappiness max >/dev/null 2>/tmp/sw.err
		[ $? -eq 2 ] && grep -q "6.16" /tmp/sw.err
		check $? "--swappiness max on $rel: exit 2 (6.16+)"
	fi
	;;
esac
# Per-node reclaim (6.17+): node 0's file, counted in /proc/vmstat.  It
# goes through __node_reclaim(), which does nothing unless the node's
# unmapped page cache exceeds min_unmapped_pages (vm.min_unmapped_ratio,
# 1% of the node): with 16 MiB cached on 4 GiB the kernel answers EAGAIN
# having reclaimed nothing.  So first that case, then 96 MiB cached.
if [ -e /sys/devices/system/node/node0/reclaim ]; then
	empty rc1
	fill rc1 16 0
	reclaim_case "" node16 --node 0 --bytes 4M
	if [ "$(awk '$1 == "MemTotal:" { print int($2 / 1024 / 100) }' /proc/meminfo)" -gt 20 ]; then
		[ "$rc" -eq 1 ] && [ "$res" = EAGAIN ] && [ "$got" -eq 0 ]
		check $? "--node 0 on $rel, 16 MiB cached, below min_unmapped_ratio: EAGAIN, nothing reclaimed ($got)"
	else
		skip "--node 0 on $rel, 16 MiB cached, below min_unmapped_ratio: EAGAIN" "MemTotal under 2100 MiB: 16 MiB may be above 1% of the node"
	fi
	empty rc1
	fill rc1 96 0
	reclaim_case "" node --node 0 --bytes 4M
	want=$((4194304 / ps))
	[ "$rc" -eq 0 ] && [ "$res" = ok ] && [ "$asked" = "$want" ] && [ "$got" -ge "$want" ] &&
		[ "$(jget file /tmp/node.json)" = /sys/devices/system/node/node0/reclaim ]
	check $? "--node 0 on $rel: node0/reclaim written, $got pages reclaimed for $want (vmstat ${counter:-})"
fi
empty rc1
exit 0
