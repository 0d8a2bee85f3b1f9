#!/bin/bash
# The evaluation pages are generated: docs/recommend-eval.md comes back
# byte for byte from the runs kept in docs/recommend-eval-runs/, and its
# generator compares settings per round, marks a setting measured in fewer
# rounds and a cell whose guest did not finish, and lists a cell without a
# run instead of dropping it.  Expected numbers are worked here with awk
# from the runs' RESULT lines.  Prints TAP.
. "$(dirname "$0")/lib.sh"
is() {	# is GOT WANT WHAT
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want '$2')"; fi
}
report() {	# report RUN...: the page from these runs, on stdout
	REC_DOC=- REC_REPORT_ONLY="$*" tests/bench/recommend-eval.sh 2>/dev/null
}

report docs/recommend-eval-runs/run-* >"$T/page.md"
cmp -s "$T/page.md" docs/recommend-eval.md &&
	ok "docs/recommend-eval.md regenerates byte for byte from docs/recommend-eval-runs/" ||
	{ not_ok "docs/recommend-eval.md regenerates byte for byte from docs/recommend-eval-runs/"; diff "$T/page.md" docs/recommend-eval.md | head -20 | sed 's/^/# /'; }
# every kernel release the page names is one of a kept run
rels=$(cat docs/recommend-eval-runs/*/meta | sed -n 's/^release=//p' | sort -u | tr '\n' ' ')
bad=$(grep -oE '[0-9]+\.[0-9]+\.[0-9]+[-+][a-z0-9.+-]*amd64' docs/recommend-eval.md | sort -u |
	while read -r r; do case " $rels" in *" $r "*) ;; *) echo "$r" ;; esac; done)
is "$bad" "" "the page names no kernel without a kept run"
grep -q '^| 6.12-cloud:anon | not measured here: no kept run |' docs/recommend-eval.md &&
	ok "a default cell without a kept run is listed as not measured" ||
	not_ok "a default cell without a kept run is listed as not measured"

# unequal rounds: the 5.10 server run with the recommendation's third round
# gone; compared per round, the removal is (mean default - mean of its two
# rounds) / mean default
S=$T/run-server-5.10-cloud-20261202-000000
cp -r docs/recommend-eval-runs/run-server-5.10-cloud-20261202-132858 "$S"
grep -v '^RESULT round=3 name=recommended ' docs/recommend-eval-runs/run-server-5.10-cloud-20261202-132858/data.txt >"$S/data.txt"
want=$(awk '/^RESULT / { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["name"] == "default") { d += f["allocstall"]; nd++ }
	if (f["name"] == "recommended") { r += f["allocstall"]; nr++ } }
	END { x = (d / nd - r / nr) * 100 / (d / nd); printf "%.0f%%\n", x }' "$S/data.txt")
report "$S" >"$T/u.md"
got=$(grep '^| server on ' "$T/u.md" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
is "$got" "$want" "two rounds against three: removal per round ($want), not of the totals"
grep -q '^| server on 5.10.0-43-cloud-amd64 (rounds unequal) |' "$T/u.md" &&
	ok "the summary marks the cell's unequal rounds" || not_ok "the summary marks the cell's unequal rounds"
grep -q '^| recommended | .*\*\*2 of 3 rounds\*\*' "$T/u.md" &&
	ok "the table marks the setting with 2 of 3 rounds" || not_ok "the table marks the setting with 2 of 3 rounds"
echo "incomplete=1" >>"$S/meta"
report "$S" >"$T/i.md"
grep -q '^| server on 5.10.0-43-cloud-amd64 (incomplete) |' "$T/i.md" &&
	ok "a guest that did not finish: the cell is marked incomplete" ||
	not_ok "a guest that did not finish: the cell is marked incomplete"
# the findings follow the tables: "met in N of the M cells judged" counts
# the summary's rows, in the page and in the page of the changed run
for f in docs/recommend-eval.md "$T/u.md"; do
	nm=$(grep -c '^| .* | met |$' "$f") nj=$(grep -cE '^\| .* \| (met|missed) \|$' "$f")
	grep -q "^\* \*\*The goal is met in $nm of the $nj cells judged" "$f" &&
		ok "${f##*/}: the findings count the cells the summary judges ($nm of $nj)" ||
		not_ok "${f##*/}: the findings count the cells the summary judges ($nm of $nj)"
done
for w in anon apps server; do
	grep -q "^| 5.10-cloud:$w | not measured here" "$T/u.md" && [ $w != server ] ||
		{ [ $w = server ] && ! grep -q "^| 5.10-cloud:server | not measured" "$T/u.md"; }
	check=$?
	[ $check -eq 0 ] && ok "cells given one run: 5.10 $w listed $([ $w = server ] && echo measured || echo 'as not measured')" ||
		not_ok "cells given one run: 5.10 $w listed $([ $w = server ] && echo measured || echo 'as not measured')"
done

# docs/reclaim-eval.md: the same, from docs/reclaim-eval-runs/
python3 tests/bench/reclaim-report.py docs/reclaim-eval-runs >"$T/reclaim.md"
cmp -s "$T/reclaim.md" docs/reclaim-eval.md &&
	ok "docs/reclaim-eval.md regenerates byte for byte from docs/reclaim-eval-runs/" ||
	{ not_ok "docs/reclaim-eval.md regenerates byte for byte from docs/reclaim-eval-runs/"; diff "$T/reclaim.md" docs/reclaim-eval.md | head -20 | sed 's/^/# /'; }
# a made-up run of 3 planned rounds: the cell is the median (min-max) of the
# rounds there are, and says how many
K=$T/rk/run-x/k61
mkdir -p "$K"
{
	echo "osrelease=6.1.0-57-amd64"
	echo "reclaim_setup=file_mb:512,anon_mb:64,part_mb:256,root32_s:60,rounds:3,mem_kb:2009000"
	echo "reclaim_classic_part_pre_r1=rc:0,result:ok,asked:65536,reclaimed:65792,over:256,time_ns:1000000000,rate:100"
	echo "reclaim_classic_part_pre_r2=rc:0,result:ok,asked:65536,reclaimed:66048,over:512,time_ns:3000000000,rate:300"
	echo "reclaim_classic_part_pre_r3=rc:0,result:ok,asked:65536,reclaimed:65536,over:0,time_ns:2000000000,rate:200"
	echo "reclaim_classic_part_q_r1=rc:0,result:ok,asked:65536,reclaimed:65536,over:0,time_ns:500000000,rate:400"
	echo "reclaim_round_done=1"
} >"$K/info.txt"
python3 tests/bench/reclaim-report.py "$T/rk" >"$T/rk.md"
grep -q '^| 256 MiB of one cgroup of 576 MiB (the 2024 "1G reclaim", scaled to a 1961 MiB guest) | 200 (100-300) pages/s, 2.00 (1.00-3.00) s, 1.00 (0.00-2.00) MiB over | not measured | 400 pages/s, 0.50 s, 0.00 MiB over; \*\*1 of 3 rounds\*\* |$' "$T/rk.md" &&
	ok "a cell is the median (min-max) of its rounds, and one with fewer rounds says so" ||
	{ not_ok "a cell is the median (min-max) of its rounds, and one with fewer rounds says so"; grep '^| 256' "$T/rk.md" | sed 's/^/# /'; }
grep -q 'one write (6.1.s single call) ended 1.00 MiB over (median of 3 rounds), wmark.s quarters 0.00 MiB (1 rounds)' "$T/rk.md" &&
	ok "the findings are the cells' medians" || not_ok "the findings are the cells' medians"

# Made-up traced rounds of the root in 32-page writes, stopped by SIGTERM:
# the finding adds up the writes and the calls the lines give, takes the
# largest run of empty calls and the medians of the swap counters; a run
# without read_ms that stopped inside a case is listed apart.
K=$T/rt/run-y/k61
mkdir -p "$K" "$T/rt/run-old/k61"
{
	echo "osrelease=6.1.0-57-amd64"
	echo "reclaim_setup=file_mb:512,anon_mb:64,part_mb:256,root32_s:60,rounds:2,mem_kb:2009000"
	echo "reclaim_classic_root_post_r1=rc:1,result:interrupted,asked:502250,reclaimed:150000,over:-352250,time_ns:30000000000,rate:5000,writes:3000,wall_ms:65000,calls:3050,zcalls:0,zrun:0,cmax:90,lost:0,rfa:4000,rff:0,swpin:4400,swpout:20000,left_mb:0.5,read_ms:9000,w_ok:3000,w_eagain:0,w_eintr:0,w_inf:0,w_other:0,w_pmin:0,w_pmax:90,w_short:3,w_nsmax:800000000,w_last:ok"
	echo "reclaim_classic_root_post_r2=rc:1,result:interrupted,asked:502250,reclaimed:160000,over:-342250,time_ns:31000000000,rate:5161,writes:3200,wall_ms:67000,calls:3210,zcalls:2,zrun:1,cmax:99,lost:0,rfa:5000,rff:0,swpin:5600,swpout:22000,left_mb:0.4,read_ms:9500,w_ok:3199,w_eagain:0,w_eintr:1,w_inf:0,w_other:0,w_pmin:0,w_pmax:99,w_short:2,w_nsmax:700000000,w_last:EINTR"
	echo "reclaim_round_done=2"
} >"$K/info.txt"
{
	echo "osrelease=6.1.0-57-amd64"
	echo "reclaim_setup=file_mb:512,anon_mb:64,part_mb:256,root32_s:60,rounds:2,mem_kb:2009000"
} >"$T/rt/run-old/k61/info.txt"
printf '# round 1 classic part_post: cgroup b holds 578.5 MiB\n' >"$T/rt/run-old/k61/tap.txt"
python3 tests/bench/reclaim-report.py "$T/rt" >"$T/rt.md"
grep -q 'root reclaim in 32-page writes\*\*: the 2024 table.s "inf" reappears: no round ended by itself, each was stopped by the SIGTERM sent after 60 s (2 of 2 rounds), having made 3100 (3000-3200) writes' "$T/rt.md" &&
	grep -q 'Traced: 6199 of 6200 writes ended ok, 0 with EAGAIN; the kernel made 6260 internal calls for 6200 writes (1.01 a write; tracefs `vmscan:mm_vmscan_memcg_reclaim_end`, over 2 traced rounds), 2 of them reclaiming nothing, at most 2 in a round and at most 1 in a row, where it takes 17' "$T/rt.md" &&
	grep -q 'left with at most 0.5 MiB.*5000 (4400-5600) pages swapped in during a case (median, min-max), 4500 (4000-5000) anon refaults, against 21000 (20000-22000) swapped out.  So every 32-page write' "$T/rt.md" &&
	grep -q 'wmark ended 6.0 (5.0-7.0) s after the signal (median, min-max; .*its last write EINTR, ok\.' "$T/rt.md" &&
	grep -q '^| root full reclaim | not measured | 5080 (5000-5161) pages/s until stopped, inf (stopped by SIGTERM after 60 s in 2 of 2 rounds, 605 (586-625) MiB reclaimed of 1962 asked) |' "$T/rt.md" &&
	grep -q 'Run `run-old`: qemu was stopped while the guest was inside a case in 32-page writes (256 MiB of one cgroup.*classic LRU), before its line was printed.*wmark took at most 67.0 s, the reading at most 9.5 s, over 2 cases' "$T/rt.md"
check=$?
[ $check -eq 0 ] && ok "the traced cause of the root's 32-page 'inf' is computed from the case lines" ||
	{ not_ok "the traced cause of the root's 32-page 'inf' is computed from the case lines"; grep -i 'inf\|stopped' "$T/rt.md" | sed 's/^/# /'; }

echo "1..$n"
