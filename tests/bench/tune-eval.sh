#!/bin/bash
# Does `wmark tune` help, and does it do better than adaptivemmd?  The
# guests, workloads and kernels of tests/bench/recommend-eval.sh (which
# this runs, with the tune evaluation's guest script tune-guest.sh and
# report tune-report.py): each cell boots one Debian kernel under qemu
# (TCG, -icount shift=3,sleep=off, one vCPU, 2 GiB) running one workload
# in bursts separated by idle time, and measures, in rounds, the default,
# the folklore values, the static `recommend` answer, `wmark tune` live
# from the default, the tune's converged setting held fixed (`recommend
# --from-tune` on its log) and Oracle's adaptivemmd at aggressiveness 2
# and 3.
#
# adaptivemmd is built here, statically, from its own source tree (never
# part of this project): ADAPTIVEMM (default ../shared/peers/adaptivemm
# beside the repository), its src/ copied to build/bench-tune/ and built
# there with make LDFLAGS=-static.
#
# usage: tests/bench/tune-eval.sh        (make bench-tune)
# Environment: those of recommend-eval.sh (REC_MATRIX, REC_ROUNDS, REC_KEEP,
# REC_DOC, REC_REPORT_ONLY, REC_TIMEOUT, REC_BURSTS, ...), here with other
# defaults: REC_MATRIX "6.12-cloud:anon" (one cell a call: each takes hours
# of wall time), REC_JOBS 1, REC_SMP 1, REC_ROUNDS 5, REC_TIMEOUT 21600,
# REC_KEEP docs/tune-eval-runs, REC_DOC docs/tune-eval.md; and the run's
# shape: REC_RUN_CYCLES (3) cycles of REC_CYCLE_S (360) guest seconds,
# REC_TS_S (5, the sampler's period), REC_TUNE_INTERVAL (5, tune's period),
# REC_REFILL_S (60); and REC_BURSTS (1: one anon burst a load, where the
# recommend evaluation has two).
#   REC_SETTINGS         "NAME WSF BOOST MFK;..." (default below; the names
#                        recommended, from-tune, tune and adaptivemmd-N are
#                        special, see tune-guest.sh; the first is measured at
#                        the start and at the end of every round)
#   TUNE_SWEEP           wsf values measured besides, with the default boost
#                        (comma list, default none)
#   ADAPTIVEMM           adaptivemmd's source tree (its folder with src/)
#   REC_SPLIT            guests one cell's rounds run in at once (default 1):
#                        a cell of long runs (server: about 4 hours of one
#                        core) then takes about 1/N of the time on N cores;
#                        the first guest measures the static answers and the
#                        others are given them
#   REC_UPTO, REC_RESUME a cell longer than one sitting, in several calls of
#                        whole rounds: REC_UPTO=2 measures the static answers
#                        and rounds 1-2 and keeps the run as incomplete;
#                        REC_RESUME=docs/tune-eval-runs/run-... measures the
#                        rounds after that run's (up to REC_UPTO, in REC_SPLIT
#                        guests given its answers) and keeps both as one run;
#                        REC_DRY=1 checks such a call and boots nothing
#                        (recommend-eval.sh says what each refuses)
#   REC_REPORT_ONLY="DIR ..."  no boot, no build: the page again from the runs
#                        (docs/tune-eval-runs/run-*)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
say() { echo "bench-tune: $*" >&2; }
die() { say "$*"; exit 1; }

work=$top/build/bench-tune
settings="default 10 15000 -;tune 10 15000 -;adaptivemmd-2 10 15000 -;adaptivemmd-3 10 15000 -"
settings="$settings;from-tune 10 15000 -;recommended 10 15000 -;folklore-200 200 15000 -"
settings="$settings;folklore-125-boost0 125 0 -;folklore-1000 1000 15000 -"
settings="$settings;folklore-mfk-135168 10 15000 135168"
for w in $(echo "${TUNE_SWEEP:-}" | tr ',' ' '); do
	settings="$settings;sweep $w 15000 -"
done

bin=
if [ -z "${REC_REPORT_ONLY:-}" ]; then
	amm=${ADAPTIVEMM:-$top/../shared/peers/adaptivemm}
	[ -f "$amm/src/Makefile" ] ||
		die "no adaptivemmd source in $amm (set ADAPTIVEMM to its folder, the one with src/)"
	rm -rf "$work/adaptivemm-src" && mkdir -p "$work" && cp -r "$amm/src" "$work/adaptivemm-src" ||
		die "cannot copy $amm/src to $work"
	make -s -C "$work/adaptivemm-src" LDFLAGS=-static >"$work/adaptivemm-build.log" 2>&1 ||
		die "adaptivemmd did not build (see $work/adaptivemm-build.log)"
	bin=$work/adaptivemm-src/adaptivemmd
	say "adaptivemmd built from $amm"
fi

export REC_NAME=bench-tune REC_WORK="$work" REC_GUEST=tune-guest.sh REC_GUEST_BIN="$bin"
export REC_REPORT="$here/tune-report.py"
export REC_CELLS="${REC_CELLS:-6.12-cloud:anon 6.12-cloud:apps 6.12-cloud:server 5.10-cloud:anon 5.10-cloud:apps 5.10-cloud:server 7.2-cloud:anon}"
export REC_MATRIX="${REC_MATRIX:-6.12-cloud:anon}" REC_JOBS="${REC_JOBS:-1}" REC_SMP="${REC_SMP:-1}"
export REC_ROUNDS="${REC_ROUNDS:-5}" REC_TIMEOUT="${REC_TIMEOUT:-21600}" REC_BURSTS="${REC_BURSTS:-1}"
export REC_KEEP="${REC_KEEP-docs/tune-eval-runs}" REC_DOC="${REC_DOC:-docs/tune-eval.md}" REC_GZIP=1
export REC_SETTINGS="${REC_SETTINGS:-$settings}"
exec "$here/recommend-eval.sh"
