#!/bin/sh
# wmark scan against a real kernel's reclaim (busybox sh, inside the guest).
#
# A leaf cgroup is filled with pages of known kinds: shmem written to a
# tmpfs file (anon LRU, swap-backed), block-device page cache read from a
# loop device twice for most of it (active file) and once for the rest
# (inactive file).  Swap is a loop device over a ramfs file written in
# full beforehand.  With MGLRU off, a memory.reclaim write larger than one
# priority pass is traced (vmscan:mm_vmscan_lru_shrink_inactive/active
# and memcg_reclaim_begin/end), and the pages each list scanned at
# priority 12 of the first reclaim call are compared with what
# `wmark scan --memcg` predicts from memory.stat read just before.
#
# Global reclaim: on 7.2 a node's own reclaim file is traced on each side of
# the anon-only line; before 6.17 kswapd's first pass after shmem takes
# every zone to its low watermark (below).
#
# Prints TAP like guest-tests.sh (numbered from 1), "# " diagnostics and
# "WMARK-INFO scan_*" facts; guest-tests.sh folds it into its own.

W=${WMARK_BIN:-/bin/wmark}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { [ -n "$*" ] || return 0; echo "$*" | sed "s/^/# /"; }
info() { echo "WMARK-INFO $*"; }

TR=/sys/kernel/tracing
CG=/sys/fs/cgroup/wmark-scan
D=/tmp/scan
# Sizes half-way between multiples of 16 MiB (4096 pages): a few pages of
# drift between memory.stat and the kernel's own LRU counts then cannot
# move a list's size >> 12.
ANON_MB=${WMARK_SCAN_ANON_MB:-424}
FILE_MB=${WMARK_SCAN_FILE_MB:-296}	# read twice: active
ONCE_MB=${WMARK_SCAN_ONCE_MB:-72}	# read once more, past the rest: inactive
SWAP_MB=${WMARK_SCAN_SWAP_MB:-256}

skip_all() {
	skip "scan: the first priority pass of cgroup reclaim matches wmark scan --memcg" "$1"
	exit 0
}

[ -e /sys/fs/cgroup/cgroup.controllers ] || skip_all "no cgroup2"
grep -qw memory /sys/fs/cgroup/cgroup.controllers || skip_all "no memory controller"
command -v losetup >/dev/null || skip_all "no losetup"
mkdir -p $TR
[ -e $TR/trace ] || mount -t tracefs nodev $TR 2>/dev/null
[ -e $TR/events/vmscan/mm_vmscan_lru_shrink_inactive ] || skip_all "no vmscan trace events"
if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
	mglru=$(cat /sys/kernel/mm/lru_gen/enabled)
	# wmark must say that MGLRU bypasses get_scan_count while it is on
	$W scan --anon 1000,1000 --file 1000,1000 >/tmp/scan-mglru.txt 2>&1
	grep -q MGLRU /tmp/scan-mglru.txt
	said=$?
	if [ "$mglru" != 0x0000 ] && [ "$mglru" != 0 ]; then
		if [ $said -eq 0 ]; then ok "scan says MGLRU bypasses get_scan_count (lru_gen/enabled $mglru)"
		else not_ok "scan says MGLRU bypasses get_scan_count (lru_gen/enabled $mglru)"; fi
	fi
	echo 0 >/sys/kernel/mm/lru_gen/enabled || skip_all "cannot turn MGLRU off"
	info "scan_mglru_boot=$mglru"
fi

mkdir -p $D $D/ram
# swap: a loop device over a ramfs file written in full, so swap-out adds no
# page, and global reclaim cannot swap out the swap device's own pages (as
# it would a tmpfs file's, and livelock)
mount -t ramfs ramfs $D/ram
dd if=/dev/zero of=$D/ram/swap.img bs=1M count=$SWAP_MB 2>/dev/null
swapdev=$(losetup -f) && losetup "$swapdev" $D/ram/swap.img && mkswap "$swapdev" >/dev/null 2>&1 &&
	swapon "$swapdev" || skip_all "no swap on a loop device"
# the block device whose page cache is the file LRU
dd if=/dev/zero of=$D/disk.img bs=1M count=0 seek=$((FILE_MB + ONCE_MB)) 2>/dev/null
bdev=$(losetup -f) && losetup "$bdev" $D/disk.img || skip_all "no second loop device"
exec 7<"$bdev"	# the last close of a block device drops its cache

echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mkdir -p $CG || skip_all "cannot create a cgroup"
mkdir -p $D/shm && mount -t tmpfs -o size=$((ANON_MB + 16))m tmpfs $D/shm
# fill from inside the cgroup, then leave it: the pages stay charged
sh -c "echo \$\$ >$CG/cgroup.procs
	dd if=/dev/zero of=$D/shm/anon bs=1M count=$ANON_MB 2>/dev/null
	dd if=$bdev of=/dev/null bs=1M count=$FILE_MB 2>/dev/null
	dd if=$bdev of=/dev/null bs=1M count=$FILE_MB 2>/dev/null
	dd if=$bdev of=/dev/null bs=1M skip=$FILE_MB count=$ONCE_MB 2>/dev/null"

stat_of() { awk -v k="$1" '$1 == k { print $2 }' $CG/memory.stat; }
diag "$(awk '$1 ~ /^(anon|file|shmem|inactive_anon|active_anon|inactive_file|active_file)$/' $CG/memory.stat | tr '\n' ' ')"

for e in mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active \
	mm_vmscan_memcg_reclaim_begin mm_vmscan_memcg_reclaim_end; do
	echo 1 >$TR/events/vmscan/$e/enable
done
echo 16384 >$TR/buffer_size_kb
echo >$TR/trace

# the sizes just before, and the prediction from them
cp $CG/memory.stat /tmp/scan-memory.stat
$W -j scan --cgroup $CG --memcg --rule current >/tmp/scan.json 2>/tmp/scan.err
rc=$?
echo 1 >$TR/tracing_on
echo 128M >$CG/memory.reclaim 2>/dev/null
echo 0 >$TR/tracing_on
cat $TR/trace >/tmp/scan-trace.txt
info "scan_trace_lines=$(wc -l </tmp/scan-trace.txt)"

# trace: sum of each list's pages scanned at priority 12 of the first call
awk '
	/mm_vmscan_memcg_reclaim_begin/ { calls++; next }
	/mm_vmscan_memcg_reclaim_end/ { if (calls == 1) done = 1; next }
	calls != 1 || done { next }
	/mm_vmscan_lru_shrink_(in)?active/ {
		p = ""; f = ""; s = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^priority=/) p = substr($i, 10)
			if ($i ~ /^flags=/) f = ($i ~ /FILE/) ? "file" : "anon"
			if ($i ~ /^nr_scanned=/) s = substr($i, 12)
			if ($i ~ /^nr_taken=/) s = substr($i, 10)
		}
		if (p != 12) next
		k = (/shrink_inactive/ ? "inactive_" : "active_") f
		sum[k] += s
	}
	END {
		printf "%d %d %d %d %d\n", sum["inactive_anon"], sum["active_anon"],
			sum["inactive_file"], sum["active_file"], calls
	}' /tmp/scan-trace.txt >/tmp/scan-traced.txt
set -- $(cat /tmp/scan-traced.txt)
t_ia=$1 t_aa=$2 t_if=$3 t_af=$4 calls=$5
info "scan_traced_p12=$t_ia,$t_aa,$t_if,$t_af scan_calls=$calls"

if [ $rc -ne 0 ]; then
	not_ok "scan: wmark -j scan --cgroup --memcg exits 0 (exit $rc: $(head -1 /tmp/scan.err))"
	exit 0
fi
model() {	# model FIELD: the priority-12 value of the first rule
	awk -f /tests/json-flat.awk /tmp/scan.json |
		awk -v k="targets.0.rules.0.priorities.0.$1" '$1 == k { print $2 }'
}
m_ia=$(model inactive_anon) m_aa=$(model active_anon)
m_if=$(model inactive_file) m_af=$(model active_file) m_bal=$(model balance)
info "scan_model_p12=$m_ia,$m_aa,$m_if,$m_af scan_balance=$m_bal"
diag "priority 12, first reclaim call: model [$m_ia,$m_aa,$m_if,$m_af] $m_bal, trace [$t_ia,$t_aa,$t_if,$t_af]"

# compare LIST MODEL TRACE WHAT: one TAP check.  7.x reads block-device
# cache into large folios and isolates a whole folio at a time, so there
# a file list scans at least the model's pages and less than one 2 MiB
# folio more; everywhere else the pages must be equal.
major=$(uname -r | cut -d. -f1)
compare() {
	case $1:$major in
	*_file:[7-9] | *_file:[1-9][0-9])
		[ "$2" = "$3" ] && { ok "scan: $4, priority 12: $1 scanned is the model's $2"; return; }
		if [ "$3" -ge "$2" ] && [ "$3" -lt $(($2 + 512)) ]; then
			ok "scan: $4, priority 12: $1 scanned $3, the model's $2 rounded up to whole large folios"
		else
			not_ok "scan: $4, priority 12: $1 scanned $3, the model's $2 rounded up to whole large folios"
		fi ;;
	*)
		if [ "$2" = "$3" ]; then ok "scan: $4, priority 12: $1 scanned is the model's $2"
		else not_ok "scan: $4, priority 12: $1 scanned is the model's $2 (trace $3)"; fi ;;
	esac
}

[ "$calls" -ge 1 ]
if [ $? -eq 0 ]; then ok "scan: memory.reclaim was traced ($calls reclaim calls)"
else not_ok "scan: memory.reclaim was traced (no mm_vmscan_memcg_reclaim_begin)"; fi
[ "$m_ia" -gt 0 ] && [ "$m_if$m_af" != 00 ]
if [ $? -eq 0 ]; then ok "scan: the cgroup gives both anon and file something to scan at priority 12 ($m_bal)"
else not_ok "scan: the cgroup gives both anon and file something to scan at priority 12 (model [$m_ia,$m_aa,$m_if,$m_af])"; fi
m_da=$(model deactivate_anon) m_df=$(model deactivate_file)
# an active list is shrunk only while its inactive list is low (deactivate_*)
[ "$m_da" = true ] || m_aa=0
[ "$m_df" = true ] || m_af=0
for l in inactive_anon:$m_ia:$t_ia active_anon:$m_aa:$t_aa inactive_file:$m_if:$t_if \
	active_file:$m_af:$t_af; do
	name=${l%%:*} rest=${l#*:}
	compare "$name" "${rest%%:*}" "${rest#*:}" "cgroup reclaim"
done
# a second, independent reading: the memory.stat the model used is what
# the shell reads (no counter moved between the two reads)
cmp -s $CG/memory.stat /tmp/scan-memory.stat || diag "memory.stat moved during reclaim (expected)"

rm -f $D/shm/anon
# the cgroup stays (online) until the end: a deleted one's remains would be
# scraped by global reclaim, 32 pages a list, beside the node's own counts

# Global reclaim and the anon-only line (7.2: /sys/devices/system/node/
# node0/reclaim is reclaim without a target cgroup, so prepare_scan_control()
# computes file_is_tiny).  Shmem fills memory so that a watermark_scale_factor
# in range puts the node's file + free on either side of the sum of its high
# watermarks; a small node reclaim at each wsf is traced, and the pages the
# writing shell scanned at priority 12 are compared with wmark scan's.
NR=/sys/devices/system/node/node0/reclaim
fj() { awk -f /tests/json-flat.awk /tmp/scan-$1.json | awk -v k="$2" '$1 == k { print $2 }'; }
if [ -w $NR ]; then
	wsf0=$(cat /proc/sys/vm/watermark_scale_factor)
	umount $D/shm 2>/dev/null
	memfree=$(awk '$1 == "MemFree:" { print int($2 / 1024) }' /proc/meminfo)
	fill=$((memfree * 3 / 5))
	mount -t tmpfs -o size=$((fill + 16))m tmpfs $D/shm
	dd if=/dev/zero of=$D/shm/anon bs=1M count=$fill 2>/dev/null
	# the wsf at which the node's sum of high watermarks reaches file + free:
	# high = min + 2 * max(min / 4, managed * wsf / 10000) per managed zone
	cross=$(awk '
		/^Node/ { node = $2 + 0 }
		node != 0 { next }
		$1 == "pages" && $2 == "free" { free += $3 }
		$1 == "min" { min = $2 }
		$1 == "managed" && $2 > 0 { smin += min; sman += $2 }
		$1 == "nr_inactive_file" || $1 == "nr_active_file" { file += $2 }
		END { printf "%d\n", (file + free - smin) * 10000 / (2 * sman) + 1 }' /proc/zoneinfo)
	diag "global: $fill MiB of shmem; Σ high reaches file + free near wsf $cross"
	flip() {	# flip WSF TAG: reclaim at this wsf, traced; model and trace at priority 12
		echo "$1" >/proc/sys/vm/watermark_scale_factor || return 1
		echo 1 >$TR/events/vmscan/mm_vmscan_node_reclaim_begin/enable
		echo 1 >$TR/events/vmscan/mm_vmscan_node_reclaim_end/enable
		echo >$TR/trace
		$W -j scan --rule current >/tmp/scan-$2.json 2>/tmp/scan-$2.err
		echo 1 >$TR/tracing_on
		echo 1M >$NR 2>/dev/null
		echo 0 >$TR/tracing_on
		cat $TR/trace >/tmp/scan-trace-$2.txt
		# the first node reclaim call only: each call of the write's loop
		# starts again at priority 12
		awk '
			$1 ~ /^kswapd/ { if (/mm_vmscan_lru_shrink/) ks++; next }
			/mm_vmscan_node_reclaim_begin/ { calls++; next }
			/mm_vmscan_node_reclaim_end/ { if (calls == 1) done = 1; next }
			calls != 1 || done { next }
			/mm_vmscan_lru_shrink_(in)?active/ {
				if (shown++ < 6) { sub(/^.*mm_vmscan/, "mm_vmscan"); print "# " $0 >"/dev/stderr" }
				p = ""; f = ""; s = 0
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^priority=/) p = substr($i, 10)
					if ($i ~ /^flags=/) f = ($i ~ /FILE/) ? "file" : "anon"
					if ($i ~ /^nr_scanned=/) s = substr($i, 12)
					if ($i ~ /^nr_taken=/) s = substr($i, 10)
				}
				if (p != 12) next
				sum[(/shrink_inactive/ ? "inactive_" : "active_") f] += s
			}
			END { printf "%d,%d,%d,%d %d\n", sum["inactive_anon"], sum["active_anon"],
				sum["inactive_file"], sum["active_file"], ks }' /tmp/scan-trace-$2.txt
	}
	model4() {	# the four lists, an active one 0 where it is not deactivated
		pf=targets.0.rules.0.priorities.0
		aa=$(fj $1 $pf.active_anon) af=$(fj $1 $pf.active_file)
		[ "$(fj $1 $pf.deactivate_anon)" = true ] || aa=0
		[ "$(fj $1 $pf.deactivate_file)" = true ] || af=0
		echo "$(fj $1 $pf.inactive_anon),$aa,$(fj $1 $pf.inactive_file),$af"
	}
	for step in above:$((cross - 20)) below:$((cross + 20)); do
		tag=${step%%:*} w=${step#*:}
		if [ "$w" -lt 1 ] || [ "$w" -gt 3000 ]; then
			skip "scan: global reclaim $tag the anon-only line" "wsf $w out of range"
			continue
		fi
		set -- $(flip "$w" "$tag" 2>/tmp/scan-events-$tag.txt)
		cat /tmp/scan-events-$tag.txt
		traced=$1 ks=$2
		m=$(model4 $tag) bal=$(fj $tag targets.0.rules.0.priorities.0.balance)
		margin=$(fj $tag targets.0.anon_only_margin)
		info "scan_global_${tag}_wsf=$w scan_global_${tag}_margin=$margin scan_global_${tag}_model=$m scan_global_${tag}_trace=$traced scan_global_${tag}_kswapd_events=$ks"
		diag "global, wsf $w: margin $margin pages, model [$m] $bal, trace [$traced] ($ks kswapd events left out)"
		case $tag:$margin in
		above:-* | above:0 | below:[1-9]*)
			not_ok "scan: wsf $w puts file + free $tag Σ high (margin $margin)" ;;
		*) ok "scan: wsf $w puts file + free $tag Σ high (margin $margin pages)" ;;
		esac
		want=SCAN_FILE
		[ $tag = below ] && want=SCAN_ANON
		if [ "$bal" = $want ]; then ok "scan: $tag the line the model says $want"
		else not_ok "scan: $tag the line the model says $want (got $bal)"; fi
		IFS=, read -r m1 m2 m3 m4 <<EOF2
$m
EOF2
		IFS=, read -r t1 t2 t3 t4 <<EOF2
$traced
EOF2
		compare inactive_anon "$m1" "$t1" "global reclaim $tag the line"
		compare active_anon "$m2" "$t2" "global reclaim $tag the line"
		compare inactive_file "$m3" "$t3" "global reclaim $tag the line"
		compare active_file "$m4" "$t4" "global reclaim $tag the line"
	done
	echo "$wsf0" >/proc/sys/vm/watermark_scale_factor
	rm -f $D/shm/anon
elif [ "${WMARK_SCAN_KSWAPD:-1}" = 1 ] && [ -e $TR/events/vmscan/mm_vmscan_kswapd_wake ]; then
	# (guest-tests.sh turns this off: filling memory twice under TCG takes
	# one to three minutes; run it as WMARK_KERNEL_SCRIPT=/tests/guest-scan.sh)
	# No node reclaim file (before 6.17): kswapd's first pass.  Shmem is
	# written until kswapd wakes, that is until every zone is near its low
	# watermark, so file + free is about file + Σ low, and the node is
	# above the anon-only line exactly while its file pages exceed Σ gap
	# (high - low).  wsf is set for a gap of 3/4 and then 5/4 of the file
	# pages, and kswapd's pages scanned at priority 12 of its first pass
	# must be file only, then anon only.  Only the balance is compared: the
	# state kswapd saw cannot be read at that moment.
	wsf0=$(cat /proc/sys/vm/watermark_scale_factor)
	umount $D/shm 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$bdev" of=/dev/null bs=1M count=256 2>/dev/null
	echo 1 >$TR/events/vmscan/mm_vmscan_kswapd_wake/enable
	echo 1 >$TR/events/vmscan/mm_vmscan_kswapd_sleep/enable
	node_file() { awk '/^Node/ { nd = $2 + 0 } nd == 0 && ($1 == "nr_inactive_file" || $1 == "nr_active_file") { f += $2 } END { print f + 0 }' /proc/zoneinfo; }
	node_managed() { awk '/^Node/ { nd = $2 + 0 } nd == 0 && $1 == "managed" { m += $2 } END { print m + 0 }' /proc/zoneinfo; }
	sman=$(node_managed)
	# the shmem stays from one step to the next: the second only adds what
	# takes the zones below their new low watermarks
	mkdir -p $D/shm && mount -t tmpfs -o size=100% tmpfs $D/shm
	for step in above:3 below:5; do
		tag=${step%%:*} q=${step#*:}
		file=$(node_file)
		w=$((file * 10000 / sman * q / 4))
		[ "$w" -ge 1 ] && [ "$w" -le 3000 ] || { skip "scan: kswapd $tag the anon-only line" "wsf $w out of range"; continue; }
		echo "$w" >/proc/sys/vm/watermark_scale_factor
		[ $tag = above ] && $W -j scan --rule current >/tmp/scan-kswapd.json 2>/tmp/scan-kswapd.err
		echo >$TR/trace
		echo 1 >$TR/tracing_on
		i=0 limit=$(awk '$1 == "MemFree:" { print int($2 / 32768) }' /proc/meminfo)
		while ! grep -q mm_vmscan_kswapd_wake $TR/trace && [ $i -lt "$limit" ]; do
			dd if=/dev/zero of=$D/shm/$tag$i bs=1M count=32 2>/dev/null
			i=$((i + 1))
		done
		sleep 3
		echo 0 >$TR/tracing_on
		cat $TR/trace >/tmp/scan-trace-kswapd-$tag.txt
		set -- $(awk '
			$1 !~ /^kswapd/ { next }
			# each balance_pgdat() follows a wake event: the first one only
			/mm_vmscan_kswapd_wake/ { if (woke) done = 1; woke = 1; next }
			/mm_vmscan_kswapd_sleep/ { if (woke) done = 1; next }
			!woke || done { next }
			/mm_vmscan_lru_shrink_(in)?active/ {
				p = ""; f = ""; n = 0
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^priority=/) p = substr($i, 10)
					if ($i ~ /^flags=/) f = ($i ~ /FILE/) ? "file" : "anon"
					if ($i ~ /^nr_scanned=/) n = substr($i, 12)
					if ($i ~ /^nr_taken=/) n = substr($i, 10)
				}
				if (p == 12) s[f] += n
			}
			END { print s["anon"] + 0, s["file"] + 0, woke + 0 }' /tmp/scan-trace-kswapd-$tag.txt)
		anon=$1 filesc=$2 woke=$3
		info "scan_kswapd_${tag}_wsf=$w scan_kswapd_${tag}_file_pages=$file scan_kswapd_${tag}_p12=anon:$anon,file:$filesc"
		diag "kswapd, wsf $w (Σ gap about $((sman * w / 10000)) pages, file $file): priority 12 scanned anon $anon, file $filesc (woke: $woke after $i writes)"
		if [ "$woke" != 1 ]; then
			not_ok "scan: kswapd woke with wsf $w"
			continue
		fi
		if [ $tag = above ]; then
			[ "$filesc" -gt 0 ] && [ "$anon" -eq 0 ]
		else
			[ "$anon" -gt 0 ] && [ "$filesc" -eq 0 ]
		fi
		if [ $? -eq 0 ]; then
			ok "scan: kswapd $tag the anon-only line (file $file pages vs Σ gap at wsf $w) scans $([ $tag = above ] && echo file || echo anon) only at priority 12"
			# above the line the file lists do not change while shmem
			# fills memory: the model from before the fill is kswapd's
			if [ $tag = above ]; then
				pf=targets.0.rules.0.priorities.0
				mf=$(fj kswapd $pf.inactive_file)
				[ "$(fj kswapd $pf.deactivate_file)" = true ] &&
					mf=$((mf + $(fj kswapd $pf.active_file)))
				info "scan_kswapd_above_model_file=$mf balance=$(fj kswapd $pf.balance)"
				compare inactive_file "$mf" "$filesc" "kswapd above the line (file lists)"
			fi
		else
			not_ok "scan: kswapd $tag the anon-only line (file $file pages vs Σ gap at wsf $w) scans $([ $tag = above ] && echo file || echo anon) only at priority 12 (anon $anon, file $filesc)"
		fi
	done
	rm -f $D/shm/*
	umount $D/shm
	echo "$wsf0" >/proc/sys/vm/watermark_scale_factor
elif [ "${WMARK_SCAN_KSWAPD:-1}" != 1 ]; then
	for tag in above below; do
		skip "scan: kswapd $tag the anon-only line" "not in the matrix run (filling memory twice under TCG takes minutes; WMARK_KERNEL_SCRIPT=/tests/guest-scan.sh runs it)"
	done
else
	for tag in above below; do
		skip "scan: kswapd $tag the anon-only line" "no mm_vmscan_kswapd_wake trace event"
	done
fi

swapoff "$swapdev" 2>/dev/null
exec 7<&-
losetup -d "$bdev" 2>/dev/null
umount $D/shm 2>/dev/null
rmdir $CG 2>/dev/null
losetup -d "$swapdev" 2>/dev/null
rm -f $D/ram/swap.img $D/disk.img
umount $D/ram 2>/dev/null
exit 0
