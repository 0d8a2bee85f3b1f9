#!/bin/bash
# tests/run.sh itself: a suite counts only when its TAP lines match its
# plan.  Each case is a small TAP script run as a suite (script:PATH) by
# its own tests/run.sh, whose summary line and status are checked.
# Prints TAP.
. "$(dirname "$0")/lib.sh"

suite() {	# NAME BODY: write $T/NAME.sh printing BODY (printf format)
	printf '#!/bin/bash\nprintf "%s"\n' "$2" >"$T/$1.sh"
	chmod +x "$T/$1.sh"
}
run_script() {	# NAME: tests/run.sh's output for $T/NAME.sh run as a suite
	WMARK_TEST_JOBS=1 WMARK_TEST_LOGS=$T/logs tests/run.sh "script:$T/$1.sh" 2>&1
}
runs() {	# NAME WANT_RC WANT_SUMMARY WHAT
	local out rc
	out=$(run_script "$1")
	rc=$?
	if [ "$rc" = "$2" ] && [ "$(echo "$out" | tail -1)" = "$3" ]; then
		ok "$4"
	else
		not_ok "$4 (exit $rc, '$(echo "$out" | tail -1)')"
		diag "$out"
	fi
}

suite full 'ok 1 - a\nok 2 - b\n1..2\n'
runs full 0 "2 passed, 0 failed" "a suite whose two tests match its plan 1..2 passes"
suite short 'ok 1 - a\nok 2 - b\n1..3\n'
runs short 1 "2 passed, 1 failed" "two tests against a plan of 3: the suite fails"
suite noplan 'ok 1 - a\n'
runs noplan 1 "1 passed, 1 failed" "a suite that ends before its plan fails"
suite more 'ok 1 - a\nok 2 - b\nok 3 - c\n1..2\n'
runs more 1 "3 passed, 1 failed" "three tests against a plan of 2: the suite fails"
suite groups '1..1\nok 1 - a\n1..2\nok 1 - b\nok 2 - c\n'
runs groups 0 "3 passed, 0 failed" "cmocka's one plan per group: the plans add up (1 + 2)"
suite skipall '1..0 # SKIP nothing to run here\n'
runs skipall 0 "0 passed, 0 failed" "a plan of 1..0 with a skip reason: nothing run, nothing failed"
suite skipped 'ok 1 - a\nok 2 - b # SKIP why\n1..2\n'
runs skipped 0 "1 passed, 0 failed, 1 skipped" "a skipped test counts against the plan"

# A failing suite with many comments: its "not ok" line comes before them
# in its report, and again in the list just above the summary, where a
# view of the last lines of a long run still shows it.
body='1..2\n'
for i in $(seq 1 60); do body="$body# comment $i\n"; done
suite noisy "${body}ok 1 - a\nnot ok 2 - the one that broke\n"
out=$(run_script noisy)
if [ "$(echo "$out" | tail -3 | head -2)" = "failed tests:
    script:$T/noisy.sh: not ok 2 - the one that broke" ]; then
	ok "a failed test is named again just above the summary"
else
	not_ok "a failed test is named again just above the summary"
	diag "$out"
fi
if echo "$out" | grep -A1 '^script:.*FAIL' | tail -1 | grep -q '^    not ok 2 - the one that broke$'; then
	ok "a failing suite's report starts with its not ok lines, before its comments"
else
	not_ok "a failing suite's report starts with its not ok lines, before its comments"
	diag "$out"
fi

echo "1..$n"
