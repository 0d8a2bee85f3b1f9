#!/bin/bash
# Run wmark's test suites and end with one line "N passed, N failed".
#
# Every suite speaks TAP: a line "ok N - what" or "not ok N - what", with
# "# SKIP why" for a test that could not run here.  cmocka prints TAP when
# CMOCKA_MESSAGE_OUTPUT=tap.  A suite that exits non-zero without a
# "not ok" line counts as one failure, so a crash is never a pass; so does
# one whose ok/not ok lines are not as many as its plan says ("1..N", the
# sum where cmocka prints one per group; no plan at all is a suite that
# stopped early).
#
# usage: tests/run.sh [all|unit|golden|sh|fuzz|man|build32|bigendian|example|static|pair32|package|kernel|script:PATH]...
# (script:PATH runs one TAP script as a suite; WMARK_TEST_LOGS=DIR puts the
# logs there instead of build/test-logs)
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
logdir=${WMARK_TEST_LOGS:-build/test-logs}	# where each suite's log goes
mkdir -p "$logdir"
passed=0 failed=0 skipped=0
times=()	# "SECONDS name" per suite, for the summary
failures=()	# "suite: not ok N - what", repeated above the last line
start=$(date +%s%N)

# Suites run WMARK_TEST_JOBS at a time (default 2, the cores of the
# machines this runs on; 1 runs them one after the other).  Most suites
# wait on processes they start and several sleep, so two side by side
# take about half the time.  Each suite's log, status and seconds go to
# files; the results are printed in the order the suites were started,
# as soon as every suite before them has ended.  The kernel suite boots
# guests: it runs alone, after every other suite has ended.
jobs_max=${WMARK_TEST_JOBS:-2}
queue=()	# suites started and not yet reported, in order

suite_exec() {	# name log command...: run one suite into its log
	local name=$1 log=$2 t0 rc
	shift 2
	t0=$(date +%s%N)
	"$@" >"$log" 2>&1
	rc=$?
	echo $(( ($(date +%s%N) - t0) / 10000000 )) >"$log.secs"
	echo "$rc" >"$log.rc"
}

report_suite() {	# name: count and print one finished suite
	local name=$1 log="$logdir/${1//\//-}.log" rc p f s secs
	rc=$(cat "$log.rc") secs=$(cat "$log.secs")
	rm -f "$log.rc" "$log.secs"
	secs=$((secs / 100)).$(printf '%02d' $((secs % 100)))
	times+=("$secs $name")
	# cmocka prints a skipped test as "not ok N # SKIP"; TAP says skip.
	local ok_all ok_skip nok_all nok_skip
	ok_all=$(grep -cE '^ok [0-9]+' "$log")
	ok_skip=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$log")
	nok_all=$(grep -cE '^not ok [0-9]+' "$log")
	nok_skip=$(grep -cE '^not ok [0-9]+.*# (SKIP|skip)' "$log")
	p=$((ok_all - ok_skip)) s=$((ok_skip + nok_skip)) f=$((nok_all - nok_skip))
	local plans planned
	plans=$(grep -cE '^1\.\.[0-9]+' "$log")
	planned=$(awk '/^1\.\.[0-9]+/ { sub(/^1\.\./, ""); t += $0 + 0 } END { print t + 0 }' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$log"
	elif [ "$plans" -eq 0 ] || [ "$planned" -ne $((ok_all + nok_all)) ]; then
		f=$((f + 1))
		if [ "$plans" -eq 0 ]; then
			echo "not ok - $name printed no plan (1..N): it stopped early" >>"$log"
		else
			echo "not ok - $name ran $((ok_all + nok_all)) tests, its plan says $planned" >>"$log"
		fi
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	printf '%-36s ' "$name"
	if [ "$f" -gt 0 ]; then
		echo "FAIL ($p passed, $f failed, $s skipped) ${secs}s"
		# The failures first, then the suite's comments: a long suite's
		# comments would push its "not ok" lines out of a short view.
		local nok a
		nok=$(grep -E '^not ok' "$log" | grep -vE '# (SKIP|skip)' | head -20)
		[ -n "$nok" ] && while IFS= read -r a; do failures+=("$name: $a"); done <<<"$nok"
		{ printf '%s\n' "$nok"; grep -E '^# ' "$log" | grep -vE '# (SKIP|skip)' | head -30; } |
			sed '/^$/d; s/^/    /'
		echo "    (full log: $log)"
	else
		echo "ok ($p passed, $s skipped) ${secs}s"
		grep -E '# (SKIP|skip)' "$log" | sort -u | head -5 | sed 's/^/    /'
	fi
}

flush_suites() {	# report the finished suites at the head of the queue
	while [ ${#queue[@]} -gt 0 ] && [ -f "$logdir/${queue[0]//\//-}.log.rc" ]; do
		report_suite "${queue[0]}"
		queue=("${queue[@]:1}")
	done
}

wait_all() {
	wait
	flush_suites
}

# run_job NAME COMMAND... [-- NAME COMMAND...]...: one job, whose suites
# run one after the other (the same suite on two builds: they share
# what they wait for, a memory hog or the exit listener, and never
# overlap); the job runs beside the others.
run_job() {
	local names=() args=() a
	while [ "$jobs_max" -gt 1 ] && [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
		flush_suites
	done
	for a in "$@"; do
		if [ "$a" = -- ]; then
			names+=("${args[0]}")
			args=()
		else
			args+=("$a")
		fi
	done
	[ ${#args[@]} -gt 0 ] && names+=("${args[0]}")
	for a in "${names[@]}"; do
		rm -f "$logdir/${a//\//-}.log.rc"
		queue+=("$a")
	done
	if [ "$jobs_max" -gt 1 ]; then
		run_job_now "$@" &
	else
		run_job_now "$@"
	fi
	flush_suites
}

run_job_now() {
	local args=() a
	for a in "$@" --; do
		if [ "$a" = -- ]; then
			[ ${#args[@]} -gt 0 ] &&
				suite_exec "${args[0]}" "$logdir/${args[0]//\//-}.log" "${args[@]:1}"
			args=()
		else
			args+=("$a")
		fi
	done
}

run_suite() {	# name command...: a job of one suite
	run_job "$@"
}

suite_unit() {
	local dir
	for dir in build build/asan; do
		for t in "$dir"/tests/test_*; do
			[ -x "$t" ] || continue
			case $t in *.d) continue ;; esac
			run_suite "unit${dir#build}:${t##*/}" \
				env CMOCKA_MESSAGE_OUTPUT=tap WMARK_SRC="$PWD" "$t"
		done
	done
}

suite_golden() {
	local w
	for w in build/wmark build/asan/wmark; do
		[ -x "$w" ] && run_suite "golden:${w%/wmark}" tests/golden/run.sh "$w"
	done
}

suite_sh() {
	local w s job
	for s in tests/sh/*.sh; do
		[ -f "$s" ] || continue
		[ "${s##*/}" = lib.sh ] && continue	# the suites' shared library
		job=()
		for w in build/wmark build/asan/wmark; do
			[ -x "$w" ] || continue
			[ ${#job[@]} -gt 0 ] && job+=(--)
			job+=("sh:${s##*/}:${w%/wmark}" env WMARK="$PWD/$w" bash "$s")
		done
		[ ${#job[@]} -gt 0 ] && run_job "${job[@]}"
	done
}

suite_fuzz() {
	[ -d build/fuzz ] && run_suite "fuzz:short" tests/fuzz/run.sh build/fuzz short
}

suite_man() {
	run_suite "man:mandoc-lint" tests/man-lint.sh
}

suite_build32() {
	run_suite "build-32:calc" tests/build-32.sh
}

suite_pair32() {
	run_suite "pair32:armv7-amd64" tests/pair32.sh
}

suite_example() {
	run_suite "example:verify-zoneinfo" tests/example.sh build/examples/verify-zoneinfo \
		build/examples/verify-root
}

suite_bigendian() {
	run_suite "bigendian:units-s390x" tests/bigendian.sh
}

suite_static() {
	run_suite "static:qemu-user" tests/static.sh
}

suite_package() {
	run_suite "package:install-deb" tests/package.sh build
}

suite_kernel() {
	wait_all	# the guests take the whole machine
	[ -x tests/kernel/run.sh ] && jobs_max=1 run_suite "kernel" tests/kernel/run.sh
}

[ $# -eq 0 ] && set -- all
for s in "$@"; do
	case $s in
	all) suite_unit; suite_golden; suite_sh; suite_fuzz; suite_man; suite_build32; suite_bigendian; suite_example; suite_static; suite_pair32; suite_package; suite_kernel ;;
	unit|golden|sh|fuzz|man|kernel|build32|bigendian|example|static|pair32|package) "suite_$s" ;;
	script:?*) if [ -x "${s#script:}" ]; then run_suite "$s" "${s#script:}"
		   else run_suite "$s" bash "${s#script:}"; fi ;;
	*) echo "tests/run.sh: unknown suite '$s'" >&2; exit 2 ;;
	esac
done

wait_all
total=$(( ($(date +%s%N) - start) / 10000000 ))
echo "slowest suites (seconds):"
printf '%s\n' "${times[@]}" | sort -rn | head -5 | sed 's/^/    /'
echo "total: $((total / 100)).$(printf '%02d' $((total % 100))) s"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failed tests:"
	printf '%s\n' "${failures[@]}" | head -20 | sed 's/^/    /'
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
