#!/bin/bash
# tests/kernel/json-flat.awk, the JSON reader of the guest scripts: what it
# prints for each kind of value, and that it reads a long document in time
# linear in its size with busybox awk, the guests' awk (a reclaim run in
# 32-page writes prints thousands of write rows: 2048 for 256 MiB).
#
# usage: bash tests/sh/json-flat.sh   (TAP on stdout)
set -u
. "$(dirname "$0")/lib.sh"
flat=tests/kernel/json-flat.awk

# Every kind of value, nested, on one line and as cJSON lays it out.
printf '%s\n' '{"a": [1, 2, {"b": "x\"y", "c": []}], "d": null, "e": true, "f": -1.5e3, "g": {}, "h": [[3], {"i": "j k"}]}' >"$T/one.json"
cat >"$T/want" <<'W'
a.0 1
a.1 2
a.2.b x"y
d null
e true
f -1.5e3
h.0.0 3
h.1.i j k
W
awk -f $flat "$T/one.json" >"$T/got"
cmp -s "$T/got" "$T/want" && ok "every kind of value on one line" ||
	{ not_ok "every kind of value on one line"; diff "$T/got" "$T/want" | sed 's/^/# /'; }
py - "$T/one.json" >"$T/pretty.json" <<'P'
import json, sys
print(json.dumps(json.load(open(sys.argv[1])), indent=2))
P
awk -f $flat "$T/pretty.json" | sed 's/^f -1500.0$/f -1.5e3/' >"$T/got"
cmp -s "$T/got" "$T/want" && ok "the same laid out over lines" ||
	{ not_ok "the same laid out over lines"; diff "$T/got" "$T/want" | sed 's/^/# /'; }

# A reclaim report of 4096 writes (1.3 MB, the rows as wmark -j reclaim
# prints them): the old reader, which gathered
# the document into one string and walked it with substr(), took busybox
# awk 33 s for 1024 writes and more than the square of that growth beyond.
py - "$T/long.json" 4096 <<'P'
import json, sys
n = int(sys.argv[2])
w = [{"write": i + 1, "requested_pages": 32, "reclaimed_pages": 32 + i % 3,
      "current_drop_pages": 32, "over_pages": i % 3, "time_ns": 1000000 + i,
      "pages_per_second": 32000, "anon_pages": 0, "file_pages": 32, "refaults": 0,
      "result": "ok"} for i in range(n)]
doc = {"source": "live", "writes": w, "total": {"writes": n}, "result": "interrupted"}
open(sys.argv[1], "w").write(json.dumps(doc, indent=2) + "\n")
P
if command -v busybox >/dev/null 2>&1 && busybox awk 'BEGIN { exit 0 }' 2>/dev/null; then
	t0=$(date +%s)
	timeout 60 busybox awk -f $flat "$T/long.json" >"$T/long.flat"
	rc=$? secs=$(($(date +%s) - t0))
	[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/long.flat")" -eq $((4096 * 11 + 3)) ] &&
		grep -qx 'writes.4095.reclaimed_pages 32' "$T/long.flat" &&
		grep -qx 'result interrupted' "$T/long.flat" && [ "$secs" -le 30 ]
	check_rc=$?
	[ $check_rc -eq 0 ] && ok "busybox awk reads a report of 4096 writes in ${secs} s (at most 30)" ||
		not_ok "busybox awk reads a report of 4096 writes in at most 30 s (exit $rc after ${secs} s, $(wc -l <"$T/long.flat") lines)"
else
	skip "busybox awk reads a report of 4096 writes in at most 30 s" "no busybox here (Debian package busybox-static)"
fi
echo "1..$n"
