#!/bin/sh
# The measurements behind docs/reclaim-eval.md (make bench-reclaim), inside
# a qemu guest: the columns of the 2024 linux-mm table for this kernel,
# with classic LRU and with MGLRU (/sys/kernel/mm/lru_gen/enabled).  The
# machine and the cgroup are guest-reclaim.sh's; every case starts from a
# fresh cgroup of RECLAIM_FILE_MB page cache and RECLAIM_ANON_MB anon.
#
# The 2024 table's shape: three rows (root full reclaim; RECLAIM_PART_MB of
# one cgroup, its "1G reclaim" scaled to the guest; full reclaim of one
# cgroup) by three columns, each a way of writing memory.reclaim:
#   pre    one write, the kernel's own loop (on 6.1: one internal call for
#          the whole remainder, the 2024 "pre")
#   post   writes of 32 pages (--batch fixed:128K): on 6.1 each is one
#          internal call of 32 pages, 6.6-6.8's loop (the 2024 "post"),
#          plus a system call and a memory.stat read per write
#   q      wmark's --batch quarter: the 6.9+ "/4" loop from user space
# for the classic LRU and for MGLRU, RECLAIM_ROUNDS rounds (LRU and case
# order alternating by round).  On kernels other than 6.1 only "pre" runs
# (the kernel's own loop, to set beside 6.1's /4).  Each case starts from a
# fresh cgroup of RECLAIM_FILE_MB page cache and RECLAIM_ANON_MB anon, and
# reports WMARK-INFO reclaim_LRU_ROW_COL_rROUND=... (see reclaim_case); the
# root case in 32-page writes is stopped by SIGTERM after ROOT32_S seconds
# (result "interrupted": its rate is what it did until then).
RECLAIM_BENCH=1
T=${WMARK_TESTS:-/tests}
. $T/guest-reclaim.sh

trace_setup
RC_WATCH=b	# its memory.current at the end of each case, in the case's line
file_mb=${WMARK_RECLAIM_FILE_MB:-512}
anon_mb=${WMARK_RECLAIM_ANON_MB:-64}
part_mb=${WMARK_RECLAIM_PART_MB:-256}
root32_s=${WMARK_RECLAIM_ROOT32_S:-60}
rounds=${WMARK_RECLAIM_ROUNDS:-5}
mem_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
# wmark.reclaim_cases=A,B,... on the kernel command line picks cases
case $rel in
6.1.*) cases=${WMARK_RECLAIM_CASES:-root_pre root_post root_q part_pre part_post part_q full_pre full_post full_q} ;;
*) cases=${WMARK_RECLAIM_CASES:-root_pre part_pre full_pre} ;;
esac
cases=$(echo $cases | tr , ' ')
info "reclaim_setup=file_mb:$file_mb,anon_mb:$anon_mb,part_mb:$part_mb,root32_s:$root32_s,rounds:$rounds,mem_kb:$mem_kb"
lg=/sys/kernel/mm/lru_gen/enabled
lrus=classic
[ -e $lg ] && lrus="classic mglru"
r=1
while [ $r -le "$rounds" ]; do
	order=$lrus
	list=$cases
	if [ $((r % 2)) = 0 ]; then	# even rounds in the reverse order
		order=$(echo $lrus | tr ' ' '\n' | sort -r | tr '\n' ' ')
		list=$(echo $cases | tr ' ' '\n' | sort -r | tr '\n' ' ')
	fi
	for lru in $order; do
		if [ -e $lg ]; then
			if [ $lru = classic ]; then echo n >$lg; else echo y >$lg; fi
		fi
		for c in $list; do
			fill b $file_mb $anon_mb
			diag "round $r $lru $c: cgroup b holds $(cur_mb b) MiB"
			tag=${lru}_${c}_r$r
			case $c in
			part_pre) reclaim_case b $tag --bytes ${part_mb}M --timeout 300 ;;
			part_post) reclaim_case b $tag --bytes ${part_mb}M --batch fixed:128K --timeout 300 ;;
			part_q) reclaim_case b $tag --bytes ${part_mb}M --batch quarter --timeout 300 ;;
			full_pre) reclaim_case b $tag --bytes 64G --timeout 300 ;;
			full_post) reclaim_case b $tag --bytes 64G --batch fixed:128K --timeout 300 ;;
			full_q) reclaim_case b $tag --bytes 64G --batch quarter --timeout 300 ;;
			root_pre) reclaim_case / $tag --bytes ${mem_kb}K --timeout 300 ;;
			root_post) RC_PREFIX="timeout -s TERM $root32_s" reclaim_case / $tag \
				--bytes ${mem_kb}K --batch fixed:128K --timeout 60 ;;
			root_q) reclaim_case / $tag --bytes ${mem_kb}K --batch quarter --timeout 300 ;;
			esac
			empty b
		done
	done
	info "reclaim_round_done=$r"
	r=$((r + 1))
done
ok "reclaim measurements done on $rel"
exit 0
