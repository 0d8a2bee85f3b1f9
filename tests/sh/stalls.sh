#!/bin/bash
# wmark stalls against this machine's kernel: usage errors, a sleeping and
# a CPU-burning child, a pid that does not exist, no CAP_NET_ADMIN, thread
# group queries, an --all window over known short processes, and
# --enable-delayacct's write and restore (Ctrl-C included).
#
# Only reads taskstats.  --enable-delayacct is only ever run with --root
# on a temporary tree; the suite checks that the real
# kernel.task_delayacct is the same at its end as at its start.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/stalls.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
export LC_ALL=C

. "$(dirname "$0")/lib.sh"
check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

kids=()
cleanup() {
	local k
	for k in "${kids[@]}"; do kill "$k" 2>/dev/null; done
	rm -rf "$T"
}
at_exit cleanup

real_dacct=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo absent)

# run ARGS...: stdout in $T/out, stderr in $T/err, status in $rc.
run() {
	"$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# json EXPR: evaluate a Python expression over the JSON in $T/out ("d").

# ---- usage --------------------------------------------------------------
run stalls --help
check $(( rc != 0 )) "stalls --help exits 0"
grep -q -- '--enable-delayacct' "$T/out"
check $? "stalls --help describes --enable-delayacct"

run stalls
[ $rc -eq 2 ] && grep -q "give --pid, --tgid or --all" "$T/err" &&
	grep -q "Try 'wmark --help'" "$T/err"
check $? "stalls without a mode is a usage error (exit 2)"

run stalls --all --pid 1
check $(( rc != 2 )) "--all with --pid is a usage error"
run stalls --pid 1 --duration 3
check $(( rc != 2 )) "--duration without --all is a usage error"
run stalls --pid abc
[ $rc -eq 2 ] && grep -q "expected a process id" "$T/err"
check $? "a pid that is not a number is a usage error"
run stalls --all --sort sideways
check $(( rc != 2 )) "an unknown --sort kind is a usage error"
run -o prom stalls --pid 1
check $(( rc != 2 )) "-o prom is refused for stalls"

# ---- can this build and this process talk to taskstats? -------------------
run stalls --pid $$
if grep -q "not built in" "$T/err"; then
	[ $rc -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ]
	check $? "built without libnl: stalls says it is not built in (exit 3, one line)"
	live=no why="built without libnl"
elif [ $rc -eq 3 ] && grep -q CAP_NET_ADMIN "$T/err"; then
	live=no why="no CAP_NET_ADMIN here"
elif [ $rc -ne 0 ]; then
	not_ok "stalls --pid \$\$ works (exit $rc)"
	diag "$(cat "$T/err")"
	live=no why="stalls failed"
else
	live=yes
	grep -Eq "^$$ +$$ +bash +live +cpu" "$T/out"
	check $? "stalls --pid of this shell prints its cpu row"
fi

if [ $live = no ]; then
	for t in sleeper burner missing-pid no-cap tgid window enable enable-sigint; do
		skip "live stalls test $t" "$why"
	done
	echo "1..$n"
	exit 0
fi

dacct_off=no
[ "$real_dacct" = 0 ] && dacct_off=yes

# ---- a sleeping child and a CPU-burning child -------------------------------
# Each child writes its "done" file, then idles until killed.  The
# sleeper is a bash loop of builtins (no fork, little CPU of its own): each
# read times out after 10 ms and wakes it.
mkfifo "$T/fifo"
bash -c 'exec 3<>"$1"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	read -r -t 0.01 -u 3
done
: >"$2"
read -r -t 60 -u 3' sleeper "$T/fifo" "$T/sleep.done" &
sleeper=$!
kids+=("$sleeper")
python3 -c '
import sys, time
end = time.process_time() + 0.4
while time.process_time() < end:
    pass
open(sys.argv[1], "w").close()
time.sleep(60)' "$T/burn.done" &
burner=$!
kids+=("$burner")
for _ in $(seq 300); do
	[ -e "$T/sleep.done" ] && [ -e "$T/burn.done" ] && break
	sleep 0.1
done

run -j stalls --pid "$sleeper" --pid "$burner"
[ $rc -eq 0 ] && json 'len(d["tasks"]) == 2 and d["mode"] == "query"'
check $? "two --pid give two tasks in one JSON document"

json "
[t for t in d['tasks'] if t['pid'] == $sleeper][0]['delays']['cpu']['count'] >= 20"
check $? "the sleeping child has a CPU wait for each of its 20 wakeups"

json "
(lambda s, b: b['cpu_run_ns'] >= 350e6 and s['cpu_run_ns'] < 100e6 and
 b['cpu_run_ns'] > s['cpu_run_ns'])(
 [t for t in d['tasks'] if t['pid'] == $sleeper][0],
 [t for t in d['tasks'] if t['pid'] == $burner][0])"
check $? "the burning child ran 0.4 s of CPU, the sleeper far less"

json "
all(t['wall_ns'] >= t['cpu_run_ns'] > 0 and
    all(v is None or (v['count'] >= 0 and v['total_ns'] >= 0 and
        (v['count'] == 0 or abs(v['avg_ns'] - v['total_ns'] / v['count']) <= 1) and
        (v['wall_share'] is None or 0 <= v['wall_share'] <= 1))
        for v in t['delays'].values())
    for t in d['tasks'])"
check $? "every count, total and share is non-negative; avg is total/count; shares within 0..1"

if [ $dacct_off = yes ]; then
	json "
all(v is None or v['count'] == 0
    for t in d['tasks'] for k, v in t['delays'].items() if k != 'cpu') and
d['delayacct'] is False"
	check $? "delay accounting off: only the CPU delay is counted, and JSON says so"
	grep -q "delay accounting is off" "$T/err" && grep -q -- "--enable-delayacct" "$T/err"
	check $? "delay accounting off: stderr says so and offers --enable-delayacct"
else
	skip "delay accounting off: only CPU counted" "kernel.task_delayacct is $real_dacct here"
	skip "delay accounting off: note on stderr" "kernel.task_delayacct is $real_dacct here"
fi

run stalls --pid "$sleeper"
grep -Eq "^$sleeper +$sleeper +bash +live +cpu +[0-9]+ " "$T/out"
check $? "the text table has the sleeper's cpu row"

# ---- a pid that does not exist ------------------------------------------------
/bin/true &
gone=$!
wait $gone
run stalls --pid "$gone"
[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "pid $gone: no such task" "$T/err" &&
	[ ! -s "$T/out" ]
check $? "a pid that does not exist: one clear line, exit 2, nothing on stdout"

# ---- no CAP_NET_ADMIN ---------------------------------------------------------
if command -v setpriv >/dev/null; then
	setpriv --inh-caps=-all --bounding-set=-net_admin "$WMARK" stalls --pid $$ >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "CAP_NET_ADMIN" "$T/err"
	check $? "without CAP_NET_ADMIN: exit 3 with a one-line reason"
	diag "$(cat "$T/err")"
elif command -v capsh >/dev/null; then
	capsh --drop=cap_net_admin -- -c "exec '$WMARK' stalls --pid $$" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q "CAP_NET_ADMIN" "$T/err"
	check $? "without CAP_NET_ADMIN: exit 3 with a one-line reason"
else
	skip "without CAP_NET_ADMIN: exit 3" "neither setpriv nor capsh"
fi

# ---- a thread group -------------------------------------------------------------
run -j stalls --tgid 1
[ $rc -eq 0 ] && json "d['tasks'][0]['scope'] == 'group' and d['tasks'][0]['tgid'] == 1 and
d['tasks'][0]['delays']['cpu']['count'] > 0"
check $? "--tgid 1 sums the thread group (scope group, CPU waits counted)"

# ---- a window over known short processes ------------------------------------------
# The window is closed by the clock in the first run and by SIGINT, once
# every short process has been reaped, in the second, so a loaded machine
# that spawns slowly cannot push an exit past the window's end.
run -j stalls --all --duration 1 --interval 1
[ $rc -eq 0 ] && json "d['mode'] == 'all' and 1 <= d['window']['seconds'] < 10 and
d['window']['scans'] >= 2"
check $? "--all --duration 1: the clock closes the window after a second, with its closing scan"

"$WMARK" -j stalls --all --duration 120 --interval 1 --top 100000 \
	>"$T/out" 2>"$T/err" &
w=$!
kids+=("$w")
# The listener is registered once both netlink sockets are open.
for _ in $(seq 100); do
	[ "$(find /proc/$w/fd -lname 'socket:*' 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.05
done
sleep 0.5
short=()
for _ in $(seq 30); do
	/bin/true &
	short+=($!)
	wait $!
done
sleep 0.3
kill -INT $w
wait $w
rc=$?
[ $rc -eq 0 ] && json "d['mode'] == 'all' and d['window']['exits'] >= 30 and
d['window']['scans'] >= 2 and d['window']['live_queries'] > 0 and
d['window']['seconds'] < 100"
check $? "--all closed by SIGINT: the window counts at least the 30 exits made in it"
json "
(lambda seen: all(p in seen and seen[p]['state'] == 'exited'
                  for p in [${short[*]/%/,}]))(
 {t['pid']: t for t in d['tasks'] if t['scope'] == 'task'})
or d['window']['overruns'] > 0"
check $? "--all: each of the 30 short processes has its exit record (or overruns are counted)"
json "d['window']['lost_estimate'] is None or d['window']['lost_estimate'] >= 0"
check $? "--all: the lost-record estimate is null or non-negative"
diag "window: $(py -c 'import json,sys; print(json.load(open(sys.argv[1]))["window"])' "$T/out")"

# ---- --enable-delayacct on a temporary tree --------------------------------------
R=$T/root
mkdir -p "$R/proc/sys/kernel"
echo 0 >"$R/proc/sys/kernel/task_delayacct"
run --root "$R" stalls --pid $$ --enable-delayacct
[ $rc -eq 0 ] && [ "$(cat "$R/proc/sys/kernel/task_delayacct")" = 0 ] &&
	grep -q "set to 1 in $R/proc/sys/kernel/task_delayacct only; the running kernel's is unchanged" "$T/err" &&
	! grep -q "on for this run" "$T/err"
check $? "--enable-delayacct writes 1 for the run and restores 0 at exit (under --root), saying the running kernel's is unchanged"

"$WMARK" --root "$R" -j stalls --all --duration 30 --enable-delayacct >"$T/out" 2>"$T/err" &
w=$!
kids+=("$w")
during=
for _ in $(seq 50); do
	during=$(cat "$R/proc/sys/kernel/task_delayacct")
	[ "$during" = 1 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT $w
wait $w
rc=$?
[ "$during" = 1 ] && [ $rc -eq 0 ] && [ "$(cat "$R/proc/sys/kernel/task_delayacct")" = 0 ] &&
	json "d['delayacct_enabled_for_run'] is False and d['window']['seconds'] < 20"
check $? "Ctrl-C during --all --enable-delayacct: the old value is restored and the report printed (not enabled for the run: only the root's file was)"

echo 5 >"$R/proc/sys/kernel/task_delayacct"
run --root "$R" stalls --pid $$ --enable-delayacct
[ $rc -eq 0 ] && [ "$(cat "$R/proc/sys/kernel/task_delayacct")" = 5 ]
check $? "--enable-delayacct leaves a sysctl that is already on alone"

# A symlink to a scratch file (never to the real /proc/sys).
rm "$R/proc/sys/kernel/task_delayacct"
echo 0 >"$T/zero"
ln -s "$T/zero" "$R/proc/sys/kernel/task_delayacct"
run --root "$R" stalls --pid $$ --enable-delayacct
[ $rc -eq 3 ] && [ "$(cat "$T/zero")" = 0 ] && grep -q "task_delayacct" "$T/err"
check $? "--enable-delayacct refuses to write through a symlinked sysctl file (exit 3)"

now_dacct=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo absent)
[ "$now_dacct" = "$real_dacct" ]
check $? "this machine's kernel.task_delayacct is unchanged ($real_dacct)"

echo "1..$n"
