#!/bin/bash
# wmark reclaim on real kernels (make bench-reclaim): boot each entry of
# tests/kernel/matrix.txt named in RECLAIM_ENTRIES with
# guest-reclaim-bench.sh as the guest script (the 2024 linux-mm table's
# rows and columns, classic LRU and MGLRU, several rounds), keep each
# entry's raw results in docs/reclaim-eval-runs/RUN/ENTRY/ (info.txt: the
# guest's WMARK-INFO facts, one line per case and round; tap.txt: its log;
# gzip'd when large), and write docs/reclaim-eval.md from every kept run
# with tests/bench/reclaim-report.py.  An entry that ran out of time keeps
# the cases it finished; the page says which rounds are missing.
#
# usage: tests/bench/reclaim-eval.sh        (make bench-reclaim)
# Environment: WMARK (default build/wmark), RECLAIM_ENTRIES (default
# "k61-2g-never k612-4g-always"), RECLAIM_KEEP (default
# docs/reclaim-eval-runs), RECLAIM_DOC (default docs/reclaim-eval.md, "-"
# for stdout), RECLAIM_REPORT_ONLY=1 (no boot: the page again from the
# kept runs), RECLAIM_CASES (A,B,...: the cases the guests run, e.g. all
# but root_post, whose 32-page writes of the root did not end on 6.1),
# WMARK_KERNEL_TIMEOUT (default 4800 s a guest), and what
# tests/kernel/run.sh takes (WMARK_KERNEL_CACHE, _OFFLINE, _JOBS).  The
# host's qemu exit (rc) and wall time (wall) of each guest are kept too.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
entries=${RECLAIM_ENTRIES:-k61-2g-never k612-4g-always}
keep=${RECLAIM_KEEP:-docs/reclaim-eval-runs}
doc=${RECLAIM_DOC:-docs/reclaim-eval.md}
say() { echo "bench-reclaim: $*" >&2; }
if [ -z "${RECLAIM_REPORT_ONLY:-}" ]; then
	WMARK=${WMARK:-build/wmark} WMARK_KERNEL_SCRIPT=/tests/guest-reclaim-bench.sh \
		WMARK_KERNEL_APPEND=${RECLAIM_CASES:+wmark.reclaim_cases=$RECLAIM_CASES} \
		WMARK_KERNEL_TIMEOUT=${WMARK_KERNEL_TIMEOUT:-4800} \
		tests/kernel/run.sh $entries >&2
	run=$(readlink -f build/kernel-runs/last)
	name=${run##*/}
	for e in $entries; do
		[ -f "$run/$e/info.txt" ] || { say "$e: no info.txt in $run"; continue; }
		mkdir -p "$keep/$name/$e" || exit 1
		for f in info.txt tap.txt rc wall; do
			[ -f "$run/$e/$f" ] || continue
			if [ "$(wc -c <"$run/$e/$f")" -gt 65536 ]; then
				gzip -9n <"$run/$e/$f" >"$keep/$name/$e/$f.gz"
			else
				cp "$run/$e/$f" "$keep/$name/$e/$f"
			fi
		done
		say "kept $keep/$name/$e"
	done
fi
if [ "$doc" = - ]; then
	python3 "$here/reclaim-report.py" "$keep"
else
	python3 "$here/reclaim-report.py" "$keep" >"$doc.tmp" && mv "$doc.tmp" "$doc" &&
		say "wrote $doc"
fi
