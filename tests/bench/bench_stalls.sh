#!/bin/bash
# Benchmark of `wmark stalls --all`'s exit listener: how many exits per
# second it keeps up with, how many records it loses (and whether it
# counts them), and the CPU it uses doing so.
#
# A small C program (built here with cc) makes tasks that exit at once
# while the listener runs: processes (fork) from 4 workers, then threads
# (each exit of a thread is a record too, and threads are made far faster)
# from 1, 2 and 4 workers; then the fastest again with a 64 KiB receive
# buffer, where the kernel may drop records and the listener must say so.  Only taskstats is read:
# no sysctl is changed.  Needs root (CAP_NET_ADMIN).
#
# usage: [WMARK=path/to/wmark] [BENCH_STALLS_SECONDS=6] tests/bench/bench_stalls.sh
# Prints a table and TAP lines; "not ok" when records were lost without
# being counted.
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WMARK:-$top/build/wmark}
SECS=${BENCH_STALLS_SECONDS:-6}
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! "$W" stalls --pid $$ >/dev/null 2>"$T/err"; then
	skip "bench stalls" "$(head -1 "$T/err")"
	echo "1..$n"
	exit 0
fi
command -v cc >/dev/null && command -v python3 >/dev/null || {
	skip "bench stalls" "needs cc and python3"
	echo "1..$n"
	exit 0
}

cat >"$T/storm.c" <<'EOF'
/* storm fork|thread WORKERS SECONDS: make tasks that exit at once; print
 * how many and in how long. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	int threads = strcmp(argv[1], "thread") == 0;
	int workers = atoi(argv[2]), i, p[2];
	double end = now() + atof(argv[3]), t0 = now();
	long total = 0, c;

	if (pipe(p))
		return 1;
	for (i = 0; i < workers; i++) {
		if (fork() == 0) {
			long made = 0;
			pid_t k;

			while (threads && now() < end) {
				pthread_t t;

				if (pthread_create(&t, NULL, nothing, NULL) == 0) {
					pthread_join(t, NULL);
					made++;
				}
			}
			while (!threads && now() < end) {
				k = fork();
				if (k == 0)
					_exit(0);
				if (k > 0) {
					waitpid(k, NULL, 0);
					made++;
				}
			}
			if (write(p[1], &made, sizeof(made)) != sizeof(made))
				_exit(1);
			_exit(0);
		}
	}
	close(p[1]);
	while (read(p[0], &c, sizeof(c)) == sizeof(c))
		total += c;
	while (wait(NULL) > 0)
		;
	printf("%ld %.3f\n", total, now() - t0);
	return 0;
}
EOF
cc -O2 -pthread -o "$T/storm" "$T/storm.c" || { not_ok "bench stalls: build the storm helper"; exit 1; }

# round fork|thread WORKERS RCVBUF: one listener window with a storm in it.
round() {
	local how=$1 workers=$2 rcvbuf=$3 made secs
	local tm=()
	[ -x /usr/bin/time ] && tm=(/usr/bin/time -f "%U %S" -o "$T/cpu")
	rm -f "$T/cpu"
	"${tm[@]}" "$W" -j stalls --all --duration $((SECS + 2)) --interval 3600 \
		--top 1 --rcvbuf "$rcvbuf" >"$T/out.json" 2>"$T/err" &
	local l=$!
	sleep 1
	read -r made secs < <("$T/storm" "$how" "$workers" "$SECS")
	wait $l
	python3 - "$T/out.json" "$T/cpu" "$how$workers" "$rcvbuf" "$made" "$secs" <<'EOF'
import json, os, sys
out, cpuf, workers, rcvbuf, made, secs = sys.argv[1:]
d = json.load(open(out))["window"]
made, secs = int(made), float(secs)
cpu = None
if os.path.exists(cpuf):
    u, s = open(cpuf).read().split()[-2:]
    cpu = float(u) + float(s)
missing = max(0, made - d["exits"])
lost = d["lost_estimate"]
counted = missing == 0 or d["overruns"] > 0 or (lost or 0) > 0
print("ROW %s %s %.0f %d %d %d %s %d %s %s %s" % (
    workers, rcvbuf, made / secs, made, d["exits"], d["overruns"],
    "-" if lost is None else lost, missing,
    "-" if cpu is None else "%.2f" % cpu,
    "-" if cpu is None else "%.1f" % (100 * cpu / d["seconds"]),
    "ok" if counted else "SILENT"))
EOF
}

printf '%-8s %-7s %10s %8s %8s %9s %8s %8s %7s %6s\n' tasks rcvbuf \
	"made/s" made records overruns lost_est missing "cpu_s" "cpu%"
show() {
	printf '%-8s %-7s %10s %8s %8s %9s %8s %8s %7s %6s\n' "$1" "$2" "$3" \
		"$4" "$5" "$6" "$7" "$8" "$9" "${10}"
}
best=0 top=thread1
for r in fork:4 thread:1 thread:2 thread:4; do
	row=$(round "${r%:*}" "${r#*:}" 32M) || row=
	set -- ${row#ROW }
	[ $# -eq 11 ] || { not_ok "bench stalls: $r: no result"; continue; }
	show "$@"
	if [ "${11}" = ok ]; then
		ok "bench stalls: $1, $3 exits/s made: $5 records, $6 overruns, $8 missing, listener cpu ${10}%"
	else
		not_ok "bench stalls: $1: $8 records lost and not counted"
	fi
	[ "$3" -gt "$best" ] && { best=$3 top=$r; }
	[ "$8" -eq 0 ] && [ "$3" -gt "${kept:-0}" ] && kept=$3
done
echo "# the listener kept up with ${kept:-0} exits/s without a loss (32 MiB receive buffer, the default)"

row=$(round "${top%:*}" "${top#*:}" 64K) || row=
set -- ${row#ROW }
if [ $# -eq 11 ]; then
	show "$@"
	if [ "${11}" = ok ]; then
		ok "bench stalls: 64 KiB buffer at $3 exits/s: $8 missing, $6 overruns counted, lost estimate $7"
	else
		not_ok "bench stalls: 64 KiB buffer: $8 records lost and not counted"
	fi
else
	not_ok "bench stalls: 64 KiB buffer: no result"
fi
echo "1..$n"
