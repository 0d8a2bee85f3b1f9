#!/bin/bash
# wmark reclaim on real kernels (make bench-reclaim): boot each entry of
# tests/kernel/matrix.txt named in RECLAIM_ENTRIES with
# guest-reclaim-bench.sh as the guest script, and print the columns of the
# 2024 linux-mm table (pages/s, time, over-reclaim) per kernel and LRU, as
# Markdown, from the guests' WMARK-INFO lines.  docs/reclaim-eval.md holds
# a run of it, beside the 2024 table.
#
# usage: tests/bench/reclaim-eval.sh        (make bench-reclaim)
# Environment: WMARK (default build/wmark), RECLAIM_ENTRIES (default
# "k61-2g-never k612-4g-always k72-4g-madvise"), RECLAIM_REPORT_ONLY=DIR
# (no boot: the table again from a kept run, build/kernel-runs/RUN), and
# what tests/kernel/run.sh takes (WMARK_KERNEL_CACHE, _OFFLINE, _JOBS).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
entries=${RECLAIM_ENTRIES:-k61-2g-never k612-4g-always k72-4g-madvise}
if [ -z "${RECLAIM_REPORT_ONLY:-}" ]; then
	WMARK=${WMARK:-build/wmark} WMARK_KERNEL_SCRIPT=/tests/guest-reclaim-bench.sh \
		WMARK_KERNEL_TIMEOUT=${WMARK_KERNEL_TIMEOUT:-900} \
		tests/kernel/run.sh $entries >&2
	run=$(readlink -f build/kernel-runs/last)
else
	run=$RECLAIM_REPORT_ONLY
fi
out=build/bench-reclaim
mkdir -p "$out"
{
	echo "Run: ${run#"$top"/}"
	echo
	echo "| kernel | LRU | case | asked MiB | reclaimed MiB | over MiB | time s | pages/s | writes | result | model calls |"
	echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|"
	for e in $entries; do
		f=$run/$e/info.txt
		[ -f "$f" ] || { echo "| $e | - | no results | | | | | | | | |"; continue; }
		rel=$(awk -F= '$1 == "osrelease" { print $2; exit }' "$f")
		ps=4096
		tr ' ' '\n' <"$f" | awk -F= -v rel="$rel" -v ps="$ps" '
			$1 ~ /^reclaim_(classic|mglru)_/ {
				split($1, k, "_"); lru = k[2]; c = k[3]
				n = split($2, kv, ","); delete v
				for (i = 1; i <= n; i++) { split(kv[i], p, ":"); v[p[1]] = p[2] }
				mib = ps / 1048576
				printf "| %s | %s | %s | %.1f | %.1f | %s | %s | %s | %s | %s | %s |\n",
					rel, lru, c, v["asked"] * mib, v["reclaimed"] * mib,
					(v["over"] == "null" ? "-" : sprintf("%.2f", v["over"] * mib)),
					(v["result"] == "timeout" ? "inf" : v["result"] == "interrupted" ? sprintf("inf (stopped at %.1f)", v["time_ns"] / 1e9) : sprintf("%.3f", v["time_ns"] / 1e9)),
					v["rate"], v["writes"], v["result"], v["model_calls"]
			}'
	done
} | tee "$out/table.md"
