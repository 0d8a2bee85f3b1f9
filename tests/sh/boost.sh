#!/bin/bash
# wmark recommend and watermark boost: a root tree in which a zone is
# boosted while allocations stall (recommend proposes
# watermark_boost_factor 0 beside the wsf), one in which it is boosted
# without a stall (the factor stays), and a 5.10 tree where the boost
# shows only as min, low and high risen together (no boost line).
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/boost.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
. "$(dirname "$0")/lib.sh"

check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; diag "$(head -c 3000 "$T/out" "$T/err")"; fi
}

writer=
at_exit '[ -n "$writer" ] && kill "$writer" 2>/dev/null'

run() {
	"$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}


vm=data/machines/vm-6.18-firecracker-A

# zoneinfo with the Normal zone boosted by B pages: the boost line says B,
# and min, low, high and promo read raw + B (6.18 mm/vmstat.c prints
# min_wmark_pages() and the others, which add zone->watermark_boost).
boosted() {	# B < zoneinfo > zoneinfo
	awk -v b="$1" '
		/^Node/ { z = $4 }
		z == "Normal" && ($1 == "boost") { $0 = "        boost    " b }
		z == "Normal" && ($1 == "min" || $1 == "low" || $1 == "high" || $1 == "promo") {
			$0 = sprintf("        %-8s %d", $1, $2 + b) }
		{ print }'
}

# Put FILE's new text in place at once (a reader never sees half).
swap() {	# SRC DEST
	cp "$1" "$2.new" && mv "$2.new" "$2"
}

# ---- stalls during a boost: boost 0 and a smaller gap ------------------------
# The burst of tests/sh/recommend.sh (allocstall +3, pgsteal_direct +40000:
# deficit 40000 pages over today's 4216 pages of gap) while Normal is
# boosted by 1024 pages (two pageblocks).  Every stall falls in an interval
# with the boost, so 1024 pages of the deficit are the raised min: the gaps
# of DMA32 (772918 managed) and Normal (1376256) must hold 4216 + 40000 -
# 1024 = 43192 pages.  mult_frac(managed, wsf, 10000) summed: wsf 200 gives
# 15458 + 27525 = 42983, wsf 201 gives 15535 + 27662 = 43197: wsf 201.
cp -r "$vm" "$T/root"
boosted 1024 <"$vm/proc/zoneinfo" >"$T/zoneinfo.boost"
awk '{
	if ($1 == "pgalloc_normal") $2 += 50000
	if ($1 == "pgsteal_kswapd") $2 += 10000
	if ($1 == "allocstall_movable") $2 += 3
	if ($1 == "pgscan_direct") $2 += 40000
	if ($1 == "pgsteal_direct") $2 += 40000
	if ($1 == "pageoutrun") $2 += 2
	print }' "$vm/proc/vmstat" >"$T/vmstat.burst"
( sleep 0.5; swap "$T/zoneinfo.boost" "$T/root/proc/zoneinfo"
  swap "$T/vmstat.burst" "$T/root/proc/vmstat"
  sleep 0.6; swap "$vm/proc/zoneinfo" "$T/root/proc/zoneinfo" ) &
writer=$!
run --root "$T/root" -j recommend --sample 2
wait "$writer"
writer=
[ $rc -eq 0 ] && json 'd["boost"]["action"] == "zero" and d["recommended"]["watermark_boost_factor"] == 0'
check $? "stalls while Normal is boosted: recommend says watermark_boost_factor 0"
json 'd["boost"]["peak_pages"] == 1024 and d["boost"]["stalls"] == 3 and d["boost"]["stalls_during_boost"] == 3 and d["boost"]["rises"] >= 1 and not d["boost"]["hidden"]'
check $? "the boost's peak is 1024 pages, all 3 stalls came during it"
json 'd["boost"]["gap_needed_pages"] == 43192 and d["recommended"]["watermark_scale_factor"] == 201'
check $? "without the boost the gaps need 43192 pages: wsf 201 (206 with the boost)"
json 'd["apply"] == "wmark apply --wsf 201 --boost-factor 0"'
check $? "the apply line sets both knobs"
# the largest boost the factor allows: mult_frac(high, 15000, 10000) over
# DMA32 (high 9097 -> 13645) and Normal (16200 -> 24300)
json 'd["boost"]["allowed_pages"] == 13645 + 24300 and d["boost"]["factor_now"] == 15000'
check $? "watermark_boost_factor 15000 allows 37945 pages in the usable zones"

run --root "$T/root" recommend --sample 1
grep -q 'Recommendation: watermark_scale_factor [0-9]* (' "$T/out"
check $? "text: a sample without boost names wsf alone"
cp "$vm/proc/vmstat" "$T/root/proc/vmstat"

# ---- a boost without a stall: the factor stays ------------------------------
swap "$T/zoneinfo.boost" "$T/root/proc/zoneinfo"
run --root "$T/root" -j recommend --sample 1
[ $rc -eq 0 ] && json 'd["boost"]["action"] == "harmless" and "watermark_boost_factor" not in d["recommended"] and d["boost"]["boosted_readings"] == d["boost"]["readings"]'
check $? "boosted in every reading, no stall: the factor stays"
run --root "$T/root" recommend --sample 1
grep -q 'no allocation stalled during a boost: the factor stays' "$T/out" &&
	grep -q '^Apply with: wmark apply --wsf [0-9]*$' "$T/out"
check $? "text: the reason says why boost is left alone"
swap "$vm/proc/zoneinfo" "$T/root/proc/zoneinfo"

run --root "$T/root" -j recommend --sample 1
[ $rc -eq 0 ] && json 'd["boost"]["action"] == "idle" and d["boost"]["boosted_readings"] == 0'
check $? "no boost in the readings: idle, left alone"

# ---- 5.10: no boost line; min, low and high rise together -------------------
# Drop the boost lines and call the kernel 5.10: a uniform rise of 512
# pages (one pageblock) is a boost, told from the raw values of the
# readings without one.
mkdir -p "$T/k510"
cp -r "$vm/proc" "$T/k510/"
grep -v '^ *boost ' "$vm/proc/zoneinfo" | grep -v '^ *promo ' >"$T/k510/proc/zoneinfo"
boosted 512 <"$T/k510/proc/zoneinfo" | grep -v '^ *boost ' >"$T/zoneinfo.510"
( sleep 0.4; swap "$T/zoneinfo.510" "$T/k510/proc/zoneinfo"
  swap "$T/vmstat.burst" "$T/k510/proc/vmstat" ) &
writer=$!
run --root "$T/k510" --kernel 5.10.0-46-amd64 -j recommend --sample 1
wait "$writer"
writer=
[ $rc -eq 0 ] && json 'd["boost"]["hidden"] and d["boost"]["peak_pages"] == 512 and d["boost"]["action"] == "zero"'
check $? "5.10: a rise of one pageblock in min, low and high is read as boost"
json 'any("whole pageblocks of 512 pages" in x for x in d["reasons"])'
check $? "5.10: the reason says how the boost was read"

# ---- boost 0 already ---------------------------------------------------------
cp -r "$vm" "$T/off"
echo 0 >"$T/off/proc/sys/vm/watermark_boost_factor"
run --root "$T/off" -j recommend --sample 1
[ $rc -eq 0 ] && json 'd["boost"]["action"] == "off" and any("watermark_boost_factor is 0" in x for x in d["reasons"])'
check $? "watermark_boost_factor 0 already: nothing to weigh"

echo "1..$n"
