#!/bin/sh
# The measurements behind docs/reclaim-eval.md (make bench-reclaim), inside
# a qemu guest: the columns of the 2024 linux-mm table for this kernel,
# with classic LRU and with MGLRU (/sys/kernel/mm/lru_gen/enabled).  The
# machine and the cgroup are guest-reclaim.sh's; every case starts from a
# fresh cgroup of RECLAIM_FILE_MB page cache and RECLAIM_ANON_MB anon.
#
# Cases, each reported as WMARK-INFO reclaim_LRU_CASE=... (see reclaim_case):
#   part     --bytes RECLAIM_PART_MB in one write (the table's "1G reclaim")
#   quarter  the same in wmark's quarter writes (--batch quarter)
#   full     more than the cgroup holds: until the kernel says EAGAIN
#   fixed32  RECLAIM_FIXED_MB (32) in writes of 32 pages (--batch fixed:128K): one
#            internal call each, as 6.6-6.8 make them, plus a syscall each
#   root     the root cgroup, all of the guest's memory asked for (60 s at most)
#   root32   the same in writes of 32 pages, stopped by SIGTERM after 20 s;
#            only with wmark.reclaim_extra=root32 on the kernel command line:
#            on 6.1 and 6.12 it ran into the 900 s limit of the run
RECLAIM_BENCH=1
T=${WMARK_TESTS:-/tests}
. $T/guest-reclaim.sh

file_mb=${WMARK_RECLAIM_FILE_MB:-320}
anon_mb=${WMARK_RECLAIM_ANON_MB:-64}
part_mb=${WMARK_RECLAIM_PART_MB:-256}
fixed_mb=${WMARK_RECLAIM_FIXED_MB:-32}		# 32-page writes are slow under TCG
root32_s=${WMARK_RECLAIM_ROOT32_S:-20}
mem_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
info "reclaim_setup=file_mb:$file_mb,anon_mb:$anon_mb,part_mb:$part_mb,fixed_mb:$fixed_mb,root32_s:$root32_s,mem_kb:$mem_kb"
lg=/sys/kernel/mm/lru_gen/enabled
for lru in classic mglru; do
	if [ -e $lg ]; then
		if [ $lru = classic ]; then echo n >$lg; else echo y >$lg; fi
		diag "lru_gen/enabled: $(cat $lg)"
	elif [ $lru = mglru ]; then
		continue
	fi
	for c in part quarter fixed32 full root ${WMARK_RECLAIM_EXTRA:-}; do
		fill b $file_mb $anon_mb
		diag "$lru $c: cgroup b holds $(cur_mb b) MiB"
		case $c in
		part) reclaim_case b ${lru}_part --bytes ${part_mb}M --timeout 120 ;;
		quarter) reclaim_case b ${lru}_quarter --bytes ${part_mb}M --batch quarter --timeout 120 ;;
		full) reclaim_case b ${lru}_full --bytes 64G --timeout 120 ;;
		fixed32) reclaim_case b ${lru}_fixed32 --bytes ${fixed_mb}M --batch fixed:128K --timeout 120 ;;
		root) reclaim_case / ${lru}_root --bytes ${mem_kb}K --timeout 60 ;;
		root32) RC_PREFIX="timeout -s TERM $root32_s" reclaim_case / ${lru}_root32 --bytes ${mem_kb}K \
			--batch fixed:128K --timeout 60 ;;
		esac
		empty b
	done
done
ok "reclaim measurements done on $rel"
exit 0
