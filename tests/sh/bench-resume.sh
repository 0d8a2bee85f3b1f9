#!/bin/bash
# tests/bench/recommend-eval.sh's REC_RESUME and REC_UPTO (a cell of the
# tune evaluation measured in several calls of whole rounds): which runs
# can go on and which are refused, checked with REC_DRY (nothing boots).
# The made-up run planned 5 rounds of four settings; it has tune's
# calibration run and rounds 1-2, measured in two guests.  Prints TAP.
. "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-x86_64 >/dev/null || ! command -v mke2fs >/dev/null ||
	! command -v cpio >/dev/null; then
	skip "REC_RESUME and REC_UPTO" "no qemu-system-x86_64, mke2fs or cpio (the bench checks them first)"
	echo "1..$n"
	exit 0
fi

SETTINGS="default 10 15000 -;tune 10 15000 -;from-tune 10 15000 -;folklore-200 200 15000 -"
# made_up DIR ROUNDS_WHOLE: a kept run of server on 6.12-cloud, gzipped as
# docs/tune-eval-runs keeps them, wall.txt timing every RESULT line
made_up() {
	local r s
	mkdir -p "$1"
	printf 'release=6.12.0-test-amd64\nlabel=tcg\nwall=5400\nworkload=server\nflavour=6.12-cloud\nsmp=1\nincomplete=1\nupto=%s\n' \
		"$2" >"$1/meta"
	{
		echo "WMARK-BEGIN tune-eval"
		echo "INFO workload=server sample_s=45 settle_s=4 rounds=5"
		echo "INFO recommend_rc=0 recommended=300 recommended_boost=unchanged sample_bursts=1"
		echo "RESULT round=0 name=tune slot=calibration wsf=10 allocstall=9"
		echo "INFO from_tune=500 from_tune_boost=unchanged"
		for r in $(seq 1 "$2"); do
			[ "$r" -eq 2 ] && echo "WMARK-PART-BEGIN tune-eval" && echo "INFO part=2 round_first=2 round_last=2"
			echo "RESULT round=$r name=default slot=first wsf=10 allocstall=100"
			for s in tune from-tune folklore-200; do
				echo "RESULT round=$r name=$s slot=middle wsf=10 allocstall=10"
			done
			echo "RESULT round=$r name=default slot=last wsf=10 allocstall=100"
		done
		echo "WMARK-END rc=0"
	} | gzip -9n >"$1/data.txt.gz"
	zcat "$1/data.txt.gz" | awk '/^RESULT / { n++; print 100 * n, n, (/ round=[2-9] / ? 2 : 1) }' >"$1/wall.txt"
}
# bench WANT WHAT [VAR=VALUE...]: a REC_DRY call that ends as WANT says
# ("ok: ..." for a call that goes on, else the words of its refusal)
bench() {
	local want=$1 what=$2 out rc
	shift 2
	out=$(env REC_NAME=bench-tune REC_GUEST=tune-guest.sh REC_WORK="$T/work" REC_KEEP=- REC_DOC=- \
		REC_ROUNDS=5 REC_SETTINGS="$SETTINGS" REC_DRY=1 WMARK="$W" "$@" tests/bench/recommend-eval.sh 2>&1)
	rc=$?
	case $want in
	ok:*) [ "$rc" -eq 0 ] && [[ $out == *"${want#ok: }"* ]] ;;
	*) [ "$rc" -eq 1 ] && [[ $out == *"$want"* ]] ;;
	esac && ok "$what" || not_ok "$what (exit $rc: $out)"
}

D=$T/runs/run-server-6.12-cloud-20000101-000000
made_up "$D" 2
bench "ok: would measure 6.12-cloud:server, rounds 3-5 of 5, in 2 guest(s), after the 11 runs of $D (rounds 1-2, 2 part(s), 5400 s)" \
	"a run of whole rounds goes on from the round after its last, with its cell, runs and time" \
	REC_RESUME="$D" REC_SPLIT=2 REC_MATRIX=5.10-cloud:anon
bench "ok: rounds 3-4 of 5" "REC_UPTO stops a resumed call at that round" \
	REC_RESUME="$D" REC_UPTO=4
bench "has rounds 1-2 already" "REC_UPTO at or under the rounds a run has is refused" \
	REC_RESUME="$D" REC_UPTO=2
bench "ok: would measure 6.12-cloud:anon, rounds 1-2 of 5" "REC_UPTO alone measures the first rounds of one cell" \
	REC_UPTO=2 REC_MATRIX=6.12-cloud:anon
bench "one cell at a time" "REC_UPTO with two cells is refused" \
	REC_UPTO=2 REC_MATRIX="6.12-cloud:anon 5.10-cloud:anon"

# a guest stopped in round 3: its first two runs there are not a round
E=$T/runs/run-server-6.12-cloud-20000102-000000
made_up "$E" 2
zcat "$E/data.txt.gz" | sed '/^WMARK-END/d' >"$T/e.txt"
printf '%s\n' "RESULT round=3 name=default slot=first wsf=10 allocstall=100" \
	"RESULT round=3 name=folklore-200 slot=middle wsf=200 allocstall=10" >>"$T/e.txt"
gzip -9nc "$T/e.txt" >"$E/data.txt.gz"
echo "1200 12 2" >>"$E/wall.txt" && echo "1300 13 2" >>"$E/wall.txt"
bench "round 3 was begun but did not end" "a run whose last round was cut short is refused" REC_RESUME="$E"

F=$T/runs/run-server-6.12-cloud-20000103-000000
made_up "$F" 5
bench "all 5 rounds are measured already" "a whole cell is refused: nothing to resume" REC_RESUME="$F"

# no static answer from tune: the later parts would measure another setting
G=$T/runs/run-server-6.12-cloud-20000104-000000
made_up "$G" 2
zcat "$G/data.txt.gz" | grep -v '^INFO from_tune=' | gzip -9n >"$T/g.gz" && mv "$T/g.gz" "$G/data.txt.gz"
bench "tune's calibration did not end there" "a run without tune's static answer is refused" REC_RESUME="$G"

# wall.txt must time every run, or the new runs' times would be shifted
H=$T/runs/run-server-6.12-cloud-20000105-000000
made_up "$H" 2
sed -i '$d' "$H/wall.txt"
bench "times for 10 runs, but its data has 11" "a run whose wall.txt misses a run is refused" REC_RESUME="$H"

# other settings than the run's rounds measured: not one cell any more
bench "differ in the settings folklore-1000 folklore-200" "a call with other settings than the run's is refused" \
	REC_RESUME="$D" REC_SETTINGS="default 10 15000 -;tune 10 15000 -;from-tune 10 15000 -;folklore-1000 1000 15000 -"
# ...but a setting the guest leaves out when its program is missing is not one
bench "ok: rounds 3-5" "a setting the guest drops for want of its program does not count as a difference" \
	REC_RESUME="$D" REC_SETTINGS="$SETTINGS;adaptivemmd-2 10 15000 -"
bench "REC_ROUNDS=3, but $D planned 5 rounds" "another number of rounds is refused" \
	REC_RESUME="$D" REC_ROUNDS=3
bench "no meta there" "a folder that is not a run is refused" REC_RESUME="$T/runs"
bench "only the tune evaluation's guest takes given answers" "the recommend evaluation's guest cannot resume" \
	REC_RESUME="$D" REC_GUEST=recommend-guest.sh

echo "1..$n"
