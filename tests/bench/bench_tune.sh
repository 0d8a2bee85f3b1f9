#!/bin/bash
# Benchmark, not a test: what one period of `wmark tune` costs, and whether
# its memory stays flat over a long run.
#
#  1. CPU time per sample-and-decide period (read vmstat, PSI and
#     zoneinfo, run the law) of `wmark tune --dry-run` on this machine and
#     on the generated 1024-node tree, against the CPU time of one
#     `cat ROOT/proc/zoneinfo ROOT/proc/vmstat` process in the same run
#     (which includes starting cat: a period starts no process).
#  2. The resident set of a dry run on this machine over 720 periods (two
#     hours at the default 10 s, here 0.05 s apart): early, late, and
#     the growth between.  Target: flat (growth under 64 KiB).
#
# Only reads: a dry run writes nothing and takes no journal lock.
# usage: [WMARK=build/wmark] [TUNE_PERIODS=720] tests/bench/bench_tune.sh
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WMARK:-$top/build/wmark}
case $W in /*) ;; *) W=$PWD/$W ;; esac
PERIODS=${TUNE_PERIODS:-720}
TARGET_GROWTH_KB=64

die() { echo "bench_tune: $*" >&2; exit 1; }
[ -x "$W" ] || die "$W: not built (make all)"
command -v python3 >/dev/null || die "needs python3"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The generated 1024-node tree of tests/bench/run.sh, with this machine's vmstat.
R=$T/gen-1024
mkdir -p "$R/proc/sys/vm" "$R/proc/sys/kernel"
python3 "$top/tests/bench/gen-zoneinfo.py" 1024 64 >"$R/proc/zoneinfo" || die "gen-zoneinfo.py failed"
cp /proc/vmstat "$R/proc/vmstat"
echo 67584 >"$R/proc/sys/vm/min_free_kbytes"
echo 10 >"$R/proc/sys/vm/watermark_scale_factor"
echo 15000 >"$R/proc/sys/vm/watermark_boost_factor"
printf '256\t256\t32\t0\t0\n' >"$R/proc/sys/vm/lowmem_reserve_ratio"
echo 6.18.0 >"$R/proc/sys/kernel/osrelease"

python3 -u - "$W" "$R" "$PERIODS" "$TARGET_GROWTH_KB" <<'EOF'
import os, resource, statistics, subprocess, sys, time

w, gen, periods, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def tune_run(root, n, interval, watch_rss=False):
    """Run a dry tune for n periods; CPU seconds per period and RSS samples (KiB)."""
    before = cpu_children()
    p = subprocess.Popen([w, "--root", root, "-j", "tune", "-n", "--interval", str(interval),
                          "--duration", "%.3f" % (n * interval)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rss = []
    if watch_rss:
        while p.poll() is None:
            try:
                for line in open("/proc/%d/status" % p.pid):
                    if line.startswith("VmRSS:"):
                        rss.append(int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.2)
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit("tune failed: " + err.decode()[:300])
    recs = [l for l in out.decode().splitlines() if l.startswith('{"t"')]
    cpu = cpu_children() - before
    return cpu, len(recs), rss

def cat_cpu(root, runs=200):
    files = [os.path.join(root, "proc/zoneinfo"), os.path.join(root, "proc/vmstat")]
    before = cpu_children()
    for _ in range(runs):
        subprocess.run(["cat"] + files, stdout=subprocess.DEVNULL, check=True)
    return (cpu_children() - before) / runs

def start_cpu(root, runs=20):
    """CPU of a tune process that stops after its first sample: start-up and snapshot."""
    before = cpu_children()
    for _ in range(runs):
        subprocess.run([w, "--root", root, "-j", "tune", "-n", "--interval", "1", "--duration", "0.001"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (cpu_children() - before) / runs

print("wmark tune benchmark (not a test: it exits 0 and says MISS when a target is missed)")
print("machine: %d CPUs, load average %s" % (os.cpu_count(), open("/proc/loadavg").read().split()[0]))
print()
print("%-10s %18s %18s %10s" % ("root", "tune CPU/period", "cat CPU/process", "ratio"))
for name, root, n, interval in (("live /", "/", 100, 0.05), ("gen-1024", gen, 40, 0.1)):
    s0 = start_cpu(root)
    cpu, recs, _ = tune_run(root, n, interval)
    per = (cpu - s0) / max(recs - 1, 1)
    c = cat_cpu(root, 200 if root == "/" else 50)
    print("%-10s %15.3f ms %15.3f ms %9.2fx" % (name, per * 1e3, c * 1e3, per / c if c else 0))
print("(a period: read vmstat, PSI and zoneinfo and decide, in a running process, start-up")
print(" subtracted; cat's includes starting a process)")
print()
cpu, recs, rss = tune_run("/", periods, 0.05, watch_rss=True)
if len(rss) >= 4:
    early = statistics.median(rss[1:4])
    late = statistics.median(rss[-3:])
    growth = late - early
    print("RSS of a dry run on this machine over %d periods (%d samples): early %d KiB, late %d KiB,"
          % (recs, len(rss), early, late))
    print("growth %+d KiB; target < %d KiB: %s" % (growth, target, "PASS" if growth < target else "MISS"))
else:
    print("RSS: n/a (the run was too short to sample)")
EOF
exit 0
