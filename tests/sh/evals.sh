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

# docs/tune-eval.md and its plots: the same, from docs/tune-eval-runs/
if ! ls docs/tune-eval-runs/run-*/meta >/dev/null 2>&1; then
	skip "docs/tune-eval.md regenerates byte for byte" "no run kept in docs/tune-eval-runs/"
else
	mkdir -p "$T/tune"
	REC_DOC="$T/tune/tune-eval.md" REC_REPORT_ONLY="$(ls -d docs/tune-eval-runs/run-*)" \
		tests/bench/tune-eval.sh 2>/dev/null
	cmp -s "$T/tune/tune-eval.md" docs/tune-eval.md &&
		ok "docs/tune-eval.md regenerates byte for byte from docs/tune-eval-runs/" ||
		{ not_ok "docs/tune-eval.md regenerates byte for byte from docs/tune-eval-runs/"; diff "$T/tune/tune-eval.md" docs/tune-eval.md | head -20 | sed 's/^/# /'; }
	if ! command -v gnuplot >/dev/null; then
		skip "docs/tune-eval-*.svg regenerate byte for byte" "no gnuplot (Debian gnuplot-nox)"
	else
		bad= want=$(ls docs/tune-eval-*.svg 2>/dev/null | wc -l) got=$(ls "$T"/tune/*.svg 2>/dev/null | wc -l)
		for f in docs/tune-eval-*.svg; do
			cmp -s "$f" "$T/tune/${f##*/}" || bad="$bad ${f##*/}"
		done
		[ -z "$bad" ] && [ "$want" = "$got" ] && [ "$want" -gt 0 ] &&
			ok "docs/tune-eval-*.svg regenerate byte for byte ($want plots)" ||
			not_ok "docs/tune-eval-*.svg regenerate byte for byte (differ:${bad:- none}; $got made, $want kept)"
	fi
	# every cell of the page's cells is a row: measured, or not measured
	rows=$(grep -cE '^\| (anon|apps|server) on |^\| [0-9.]+-cloud:[a-z]+ \| not measured here' docs/tune-eval.md)
	is "$rows" 7 "the summary has a row for each of the 7 cells, measured or not"
fi

# the tune page's verdicts, on a made-up run of five rounds: the default
# stalls 90 + 10r at the start of round r and 110 + 10r at its end (100..140
# and 120..160: median 130, the 90% line 13); tune 2r (median 6) with a
# reserve sampled at 3000 and 4000 pages (time average 3500); wsf 1000 held
# fixed stalls 0 at 3000 pages, the smallest fixed setting under the line.
# Goal 1 is then tune's reserve over wsf 1000's, worked here with awk from
# the TS lines.  A second made-up cell has the same runs for two rounds
# only: too few to judge.
made_up() {	# DIR ROUNDS
	mkdir -p "$1"
	printf 'release=%s\nlabel=tcg\nwall=600\nworkload=anon\nflavour=%s\nsmp=1\n' \
		"$3" "$4" >"$1/meta"
	{
		echo "INFO kernel=$3 mem_kb=2000000 rounds=5 workload=anon"
		res() {	# round name slot wsf stalls high1 high2 [wsf2]
			echo "RESULT round=$1 name=$2 slot=$3 wsf=$4 boost=15000 mfk=45056 allocstall=$5 pgscan_direct=0 refaults=0 psi_some_us=0 psi_full_us=0 kswapd_ms=0 seconds=20.0 busy_s=5.0 cycles=1 wsf_end=${8:-$4} boost_end=15000 t0=100"
			echo "CYCLE round=$1 name=$2 k=1 t=0.0 refill_s=1.0 load_s=4.0 bursts=1 p50_ms=10.0 p99_ms=10.0 max_ms=10.0"
			echo "TS round=$1 name=$2 100.0 $4 15000 $6 0 0"
			echo "TS round=$1 name=$2 110.0 ${8:-$4} 15000 $7 $5 0"
		}
		for r in $(seq 1 "$2"); do
			res $r default first 10 $((90 + 10 * r)) 1000 1000
			res $r tune middle 10 $((2 * r)) 3000 4000 200
			for why in stalled wait stalled no-cache at-bound; do
				echo "TUNE round=$r name=tune {\"action\":\"hold\",\"why\":\"$why\"}"
			done
			res $r folklore-1000 middle 1000 0 3000 3000
			res $r default last 10 $((110 + 10 * r)) 1000 1000
		done
	} >"$1/data.txt"
	: >"$1/wall.txt"
}
V=$T/tv/run-anon-6.12-cloud-20000101-000000
V2=$T/tv/run-anon-5.10-cloud-20000101-000000
made_up "$V" 5 6.12.0-test-amd64 6.12-cloud
made_up "$V2" 2 5.10.0-test-amd64 5.10-cloud
python3 tests/bench/tune-report.py --cells "6.12-cloud:anon 5.10-cloud:anon 6.12-cloud:apps" \
	"$T/tv" "$V" "$V2" >"$T/tv.md" 2>"$T/tv.err"
want=$(awk '$1 == "TS" { split($3, n, "="); h[n[2]] += $7; c[n[2]]++ }
	END { printf "met: %.2fx the reserve\n", (h["tune"] / c["tune"]) / (h["folklore-1000"] / c["folklore-1000"]) }' "$V/data.txt")
got=$(grep '^| anon on 6.12.0-test-amd64 ' "$T/tv.md" | awk -F' [|] ' '{ print $7 }')
is "$got" "$want" "tune page, goal 1: tune's time-averaged reserve over the smallest sufficient fixed one ($want)"
grep -q '^Drift: the default at the start of each round stalled 100 / 110 / 120 / 130 / 140 times, at the end 120 / 130 / 140 / 150 / 160 (medians 120 and 140); the 90% line is a tenth of the default.s median: 13.0 stalls a run.$' "$T/tv.md" &&
	ok "tune page: the drift of the default, start against end of each round" ||
	not_ok "tune page: the drift of the default, start against end of each round"
got=$(grep '^| anon on 5.10.0-test-amd64 ' "$T/tv.md" | awk -F' [|] ' '{ print $7 " / " $9 }')
is "$got" "not judged: 2 of 5 rounds complete / not judged: 2 of 5 rounds complete" \
	"tune page: a cell of two rounds is not judged (goals 1 and 3)"
grep -q '^\* \*\*Tune removes at least 90% of the default.s stalls at most 1.25x the smallest sufficient fixed reserve: in 1 of the 1 cells judged' "$T/tv.md" &&
	ok "tune page: the findings count only the cell of five rounds" ||
	not_ok "tune page: the findings count only the cell of five rounds"
# each tune run: two periods raised, one held by what kswapd can free, one
# at the bound, one quiet (not counted): over five runs 10, 5, 5 of 20
grep -q '^\* tune.s periods with direct reclaim, over its 5 runs: 20; stalled 10 (raised), boost-stall 0 (boost off), no-cache 5 (held: [^)]*), at-bound 5 (held: at the reserve bound), at-top 0 ' "$T/tv.md" &&
	ok "tune page: tune's stalling periods counted by what the law did" ||
	not_ok "tune page: tune's stalling periods counted by what the law did"
grep -q '^| 6.12-cloud:apps | not measured here: no kept run |' "$T/tv.md" &&
	ok "tune page: a cell without a kept run is listed as not measured" ||
	not_ok "tune page: a cell without a kept run is listed as not measured"

# a cell split across two guests (REC_SPLIT=2): rounds 1-3 in the first,
# 4-5 in the second, wall.txt marking each line with its guest.  A run's
# wall time is the step from the run before it in its own guest: the first
# guest's 11 steps of 100 s and the second's 7 of 150 s (its first run has
# none), so 18 runs timed, median 100 s.  The Guest line is the first
# guest's: the second's INFO lines (its own boot) do not overwrite it.
V3=$T/ts/run-anon-6.12-cloud-20000101-000000
made_up "$V3" 5 6.12.0-test-amd64 6.12-cloud
awk '/ round=4 / && !p { print "WMARK-PART-BEGIN tune-eval"; print "INFO mem_kb=1000000 part=2 round_first=4"; p = 1 } 1' \
	"$V3/data.txt" >"$V3/data.2" && mv "$V3/data.2" "$V3/data.txt"
for i in $(seq 1 12); do echo "$((100 * i)) $i 1"; done >"$V3/wall.txt"
for i in $(seq 13 20); do echo "$((400 + 150 * (i - 12))) $i 2"; done >>"$V3/wall.txt"
python3 tests/bench/tune-report.py --cells "6.12-cloud:anon" "$T/ts" "$V3" >"$T/ts.md" 2>"$T/ts.err"
grep -q '^Each run: .* s of wall time a run (median, min-max, 18 runs timed)' "$T/ts.md" &&
	grep -q '; 100 (100-150) s of wall time a run' "$T/ts.md" &&
	grep -q 'the rounds split across 2 guests at once, which ran 10 minutes' "$T/ts.md" &&
	grep -q '^Command: `REC_SPLIT=2 REC_MATRIX=6.12-cloud:anon make bench-tune`' "$T/ts.md" &&
	grep -q '^Guest: 1953 MiB, .*; mem_kb=2000000 rounds=5 workload=anon\.$' "$T/ts.md" &&
	ok "tune page: a cell split across two guests, its runs timed per guest, its Guest line the first guest's" ||
	{ not_ok "tune page: a cell split across two guests, its runs timed per guest, its Guest line the first guest's"; grep -E '^(Each run|Command|Guest|\*[A-Z])' "$T/ts.md" | sed 's/^/# /'; }

# a cell measured in two calls (REC_UPTO=2, then REC_RESUME): rounds 1-2
# in two guests for 50 minutes, rounds 3-5 in two more for 70; its meta
# names each call's guests, rounds, wall seconds and run.  Beside it a cell
# of which only the first call ran: incomplete, and saying what is left.
V5=$T/tc/run-anon-6.12-cloud-20000102-000000
made_up "$V5" 5 6.12.0-test-amd64 6.12-cloud
sed -i 's/^wall=600$/wall=7200/' "$V5/meta"
printf 'calls=2:1-2:3000:run-anon-6.12-cloud-20000101-000000,2:3-5:4200:run-anon-6.12-cloud-20000102-000000\n' >>"$V5/meta"
for i in $(seq 1 20); do echo "$((100 * i)) $i $(( (i - 1) / 5 + 1 ))"; done >"$V5/wall.txt"
V6=$T/tc/run-anon-5.10-cloud-20000101-000000
made_up "$V6" 2 5.10.0-test-amd64 5.10-cloud
printf 'incomplete=1\nupto=2\ncalls=2:1-2:600:run-anon-5.10-cloud-20000101-000000\n' >>"$V6/meta"
for i in $(seq 1 8); do echo "$((100 * i)) $i $(( (i - 1) / 4 + 1 ))"; done >"$V6/wall.txt"
python3 tests/bench/tune-report.py --cells "6.12-cloud:anon 5.10-cloud:anon" "$T/tc" "$V5" "$V6" >"$T/tc.md" 2>"$T/tc.err"
grep -q '; the rounds measured in 2 calls of `make bench-tune` (rounds 1-2 in 2 guests at once, 50 minutes; rounds 3-5 in 2 guests at once, 70 minutes), which ran 120 minutes of wall time\.$' "$T/tc.md" &&
	grep -q '^Commands: `REC_UPTO=2 REC_SPLIT=2 REC_MATRIX=6.12-cloud:anon make bench-tune`, then `REC_RESUME=docs/tune-eval-runs/run-anon-6.12-cloud-20000101-000000 REC_SPLIT=2 make bench-tune` (run `run-anon-6.12-cloud-20000102-000000`)\.$' "$T/tc.md" &&
	grep -q '^\* 6.12 anon: 20 runs in 120 minutes of wall time, in 2 calls of `make bench-tune`, 2 guests at once in each ' "$T/tc.md" &&
	grep -q '^| anon on 6.12.0-test-amd64 | 130 stalls' "$T/tc.md" &&
	ok "tune page: a cell measured in two calls names both commands and each call's rounds and time" ||
	{ not_ok "tune page: a cell measured in two calls names both commands and each call's rounds and time"; grep -E '^(\*[^*]|Command|\| anon)' "$T/tc.md" | sed 's/^/# /'; }
grep -q '; \*\*incomplete: rounds 1-2 of 5 measured so far, `REC_RESUME` measures the rest\*\*; ' "$T/tc.md" &&
	grep -q '^Command: `REC_UPTO=2 REC_SPLIT=2 REC_MATRIX=5.10-cloud:anon make bench-tune`' "$T/tc.md" &&
	grep -q '^\* 5.10 anon: 8 runs .*\*\*Incomplete: rounds 3-5 are not measured yet; its runs took 100 s of wall time each' "$T/tc.md" &&
	ok "tune page: a cell cut at REC_UPTO says which rounds are left and how to measure them" ||
	{ not_ok "tune page: a cell cut at REC_UPTO says which rounds are left and how to measure them"; grep -E '^(\*[^*]|Command|\*[a-z])' "$T/tc.md" | sed 's/^/# /'; }

# a default that hardly stalls (3 a run): a 90% line under one stall is not
# a goal anything can be judged by, so the cell is listed and not judged
V4=$T/tq/run-anon-6.12-cloud-20000101-000000
made_up "$V4" 5 6.12.0-test-amd64 6.12-cloud
sed -i -E '/^RESULT .* name=default /s/allocstall=[0-9]+/allocstall=3/' "$V4/data.txt"
python3 tests/bench/tune-report.py --cells "6.12-cloud:anon" "$T/tq" "$V4" >"$T/tq.md" 2>"$T/tq.err"
got=$(grep '^| anon on 6.12.0-test-amd64 ' "$T/tq.md" | awk -F' [|] ' '{ print $7 }')
is "$got" "not judged: the default stalls 3 times a run (median), under 10" \
	"tune page: a cell whose default hardly stalls is not judged"

echo "1..$n"
