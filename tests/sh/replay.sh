#!/bin/bash
# wmark recommend --record and --replay: the readings of --sample written
# as text and decided from again.  A replay of a recording must give the
# sample's answer; hand-made readings with pageblock fallbacks during the
# stalls (what the tracepoint counts on a live machine) must turn
# watermark_boost_factor to 0 with the gap the rule says; broken files
# must be refused naming the file and line.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/replay.sh   (TAP on stdout)
. "$(dirname "$0")/lib.sh"

vm=data/machines/vm-6.18-firecracker-A

run() {
	"$W" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else nok "$2"; head -c 3000 "$T/out" "$T/err" | sed 's/^/# /'; fi
}

# 1. Record a --sample of the root tree, replay it: the same answer.
run --root "$vm" -j recommend --sample 1 --record "$T/rec.txt"
[ "$rc" -eq 0 ] && head -1 "$T/rec.txt" | grep -q '^# wmark recommend readings 1 zones=5$' &&
	[ "$(grep -c '^t=' "$T/rec.txt")" -ge 5 ]
check $? "--record writes the readings, one line each, after the header (zones=5)"
cp "$T/out" "$T/sample.json"
run --root "$vm" -j recommend --replay "$T/rec.txt"
cp "$T/out" "$T/replay.json"
py - "$T/sample.json" "$T/replay.json" <<'EOF' >"$T/out" 2>&1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for k in ("recommended", "verdict", "wsf", "gaps", "zones"):
    assert a[k] == b[k], (k, a[k], b[k])
for k in a["boost"]:
    if k != "fallbacks_why_not":
        assert a["boost"][k] == b["boost"][k], (k, a["boost"][k], b["boost"][k])
assert b["mode"] == "replay", b["mode"]
assert abs(a["measurements"]["seconds"] - b["measurements"]["seconds"]) < 1e-3
EOF
check $? "a replay of the recording gives the sample's answer (recommended, gaps, zones, boost)"

# 2. Hand-made readings: 9 stalls, all in the two intervals in which
# pageblocks fell back (2, then 1), none boosted in zoneinfo.  The rule:
# boost 0; the headroom is the most fallbacks of one interval times the
# pageblock (2 * 512 = 1024 pages, under Normal's ceiling 16200 * 1.5);
# the deficit (direct reclaim's 800 pages) fits in it, so the gaps stay.
readings() {	# STEAL1 STEAL2: pgsteal_direct at the 3rd and 4th reading
	echo "# wmark recommend readings 1 zones=5"
	local i t stall=(0 0 5 9 9 9) steal=(0 0 "$1" "$2" "$2" "$2") fb=(0 0 2 3 3 3)
	for i in 0 1 2 3 4 5; do
		t=$(printf '0.%d' "$i")
		echo "t=$t pgalloc=$((1000000 + i * 20000)) pgfree=$((1000000 + i * 19000))" \
			"allocstall=${stall[i]} pgscan_direct=${steal[i]} pgsteal_direct=${steal[i]}" \
			"pgscan_kswapd=$((i * 9000)) pgsteal_kswapd=$((i * 9000)) pageoutrun=$((i * 2))" \
			"workingset_refault=0 workingset_activate=0 compact_stall=0" \
			"pageblock_fallbacks=$((100 + fb[i])) nr_free_pages_lowest=12000" \
			"zone=3840,30,37,44,0 zone=772855,6065,7581,9097,0" \
			"zone=12000,10800,13500,16200,0 zone=0,32,32,32,0 zone=0,0,0,0,0"
	done
}
readings 400 800 >"$T/fb.txt"
run --root "$vm" -j recommend --replay "$T/fb.txt"
[ "$rc" -eq 0 ] && json 'd["boost"]["action"] == "zero" and d["boost"]["factor_recommended"] == 0
	and d["boost"]["fallbacks"] == 3 and d["boost"]["fallback_intervals"] == 2
	and d["boost"]["fallback_peak"] == 2 and d["boost"]["stalls"] == 9
	and d["boost"]["stalls_during_boost"] == 9 and d["boost"]["peak_pages"] == 1024
	and d["boost"]["boosted_readings"] == 0
	and d["recommended"]["watermark_boost_factor"] == 0
	and d["boost"]["gap_needed_pages"] == d["gaps"]["pages_now"]'
check $? "stalls in fallback intervals: boost 0, headroom 2 pageblocks, the 800-page deficit fits: gaps stay"
readings 1500 3000 >"$T/fb2.txt"
run --root "$vm" -j recommend --replay "$T/fb2.txt"
[ "$rc" -eq 0 ] && json 'd["boost"]["action"] == "zero"
	and d["boost"]["gap_needed_pages"] == d["gaps"]["pages_now"] + 3000 - 1024
	and d["verdict"] == "raise"'
check $? "a 3000-page deficit: the gaps need today's plus 3000 - 1024 pages"
run --root "$vm" recommend --replay "$T/fb2.txt"
[ "$rc" -eq 0 ] && grep -q 'counted 3 pageblock fallbacks' "$T/out" &&
	grep -q 'Apply with: wmark apply --wsf [0-9]* --boost-factor 0' "$T/out"
check $? "the text says what was counted and ends with an apply line that sets boost 0"

# Fallbacks, but no stall in an interval with one: the factor stays.
sed 's/allocstall=[0-9]* /allocstall=0 /' "$T/fb2.txt" >"$T/nostall.txt"
run --root "$vm" -j recommend --replay "$T/nostall.txt"
[ "$rc" -eq 0 ] && json 'd["boost"]["action"] == "harmless" and d["boost"]["fallbacks"] == 3
	and d["boost"]["factor_recommended"] is None
	and any("no allocation stalled in one of them" in r for r in d["reasons"])'
check $? "fallbacks without a stall in their intervals: the factor stays, and the reasons say so"

# The same readings without the fallback counter: nothing to go on.
sed 's/ pageblock_fallbacks=[0-9]*//' "$T/fb2.txt" >"$T/nofb.txt"
run --root "$vm" -j recommend --replay "$T/nofb.txt"
[ "$rc" -eq 0 ] && json 'd["boost"]["action"] == "idle" and d["boost"]["fallbacks"] is None
	and "has none" in d["boost"]["fallbacks_why_not"]'
check $? "without pageblock_fallbacks the factor stays and the JSON says why"

# 3. Broken files, refused naming the file and line.
refused() {	# FILE PATTERN WHAT: exit 2 with PATTERN on stderr
	run --root "$vm" recommend --replay "$1"
	[ "$rc" -eq 2 ] && grep -q -- "$2" "$T/err"
	check $? "$3"
}
printf 't=0 allocstall=0\n' >"$T/bad1.txt"
refused "$T/bad1.txt" "bad1.txt:1: not a file of wmark recommend --record" \
	"no header line: exit 2 naming line 1"
readings 400 800 | sed '4s/ zone=0,0,0,0,0$//' >"$T/bad2.txt"
refused "$T/bad2.txt" "bad2.txt:4: 4 zones, but .* has 5" \
	"a reading with a zone missing: exit 2 naming line 4 and both counts"
readings 400 800 | sed '5s/^t=0.3/t=0.1/' >"$T/bad3.txt"
refused "$T/bad3.txt" "bad3.txt:5: t=0.100 is not later" "time going backwards: exit 2 naming line 5"
readings 400 800 | sed '3s/allocstall=0/allocstall=x/' >"$T/bad4.txt"
refused "$T/bad4.txt" "bad4.txt:3: bad value in 'allocstall=x'" \
	"a counter that is not a number: exit 2 naming the field"
head -2 "$T/fb.txt" >"$T/one.txt"
refused "$T/one.txt" "1 readings; two or more" "one reading: exit 2"
refused "$T/missing.txt" "missing.txt: No such file" "a missing file: exit 2 naming it"
run --root "$vm" recommend --burst 10M --record "$T/x.txt"
[ "$rc" -eq 2 ] && grep -q -- "--record goes with --sample" "$T/err" && [ ! -e "$T/x.txt" ]
check $? "--record without --sample: exit 2, nothing written"
run --root "$vm" recommend --sample 1 --record "$T/nodir/x.txt"
[ "$rc" -ne 0 ] && grep -q "nodir/x.txt: No such file" "$T/err"
check $? "--record into a missing folder: an error naming it"

# A real 5.10 guest's readings (server workload), counted here from the
# file itself, independently of wmark.  5.10 prints no boost line, so a
# boost is min, low and high risen together by whole pageblocks (512 pages
# here) over their lowest: the readings so risen and the largest rise
# over the zones.  And kswapd's runs for a boost alone (an interval with a
# boost or a fallback at either end, free above every zone's unboosted
# low at both ends, pageoutrun moved), what it reclaimed in them, and the
# refaults in them and the interval after each.
srv=tests/golden/cases/recommend-data/k510-2g-server.readings
run --root data/machines/qemu-k510-2g-server -j recommend --replay "$srv"
py - "$srv" "$T/out" <<'EOF' >"$T/count" 2>&1
import json, re, sys
rows = []
for line in open(sys.argv[1]):
    if not line.startswith("t="):
        continue
    c = dict(kv.split("=", 1) for kv in line.split() if "=" in kv and not kv.startswith("zone="))
    zones = [z.split(",") for z in re.findall(r"zone=(\S+)", line)]
    zones = [[int(x) for x in z[:4]] if z[1] != "-" else None for z in zones]
    rows.append((c, zones))
base = [None] * len(rows[0][1])
for _, zs in rows:
    for i, z in enumerate(zs):
        if z is not None:
            base[i] = z[1:4] if base[i] is None else [min(a, b) for a, b in zip(base[i], z[1:4])]

def boosts(zs):
    out = []
    for z, b in zip(zs, base):
        d = [a - c for a, c in zip(z[1:4], b)] if z is not None else [0]
        out.append(d[0] if d[0] > 0 and d[0] == d[1] == d[2] and d[0] % 512 == 0 else 0)
    return out

def above(zs, bs):
    return all(z is None or z[0] >= max(z[2] - b, 0) for z, b in zip(zs, bs))

rises = [sum(boosts(zs)) for _, zs in rows]
boosted, peak = sum(1 for r in rises if r), max(rises)
runs = reclaimed = refaults = after = 0
for s in range(1, len(rows)):
    (c0, z0), (c1, z1) = rows[s - 1], rows[s]
    b0, b1 = boosts(z0), boosts(z1)
    fell_back = int(c1["pageblock_fallbacks"]) > int(c0["pageblock_fallbacks"])
    if (any(b1) or any(b0) or fell_back) and above(z1, b1) and above(z0, b0) and \
       int(c1["pageoutrun"]) > int(c0["pageoutrun"]):
        runs += 1
        reclaimed += int(c1["pgsteal_kswapd"]) - int(c0["pgsteal_kswapd"])
        after = 2
    if after > 0:
        refaults += max(0, int(c1["workingset_refault"]) - int(c0["workingset_refault"]))
        after -= 1
b = json.load(open(sys.argv[2]))["boost"]
got = (b["boosted_readings"], b["peak_pages"])
print("rises", "ok" if (boosted, peak) == got and boosted > 0 and b["hidden"] else "BAD",
      boosted, peak, "wmark:", *got, b["hidden"])
got = (b["kswapd_boost_runs"], b["boost_reclaimed_pages"], b["refaults_after_boost"])
print("runs", "ok" if (runs, reclaimed, refaults) == got and runs > 0 else "BAD",
      runs, reclaimed, refaults, "wmark:", *got)
EOF
grep -q "^rises ok " "$T/count"
check $? "5.10 readings of a real guest: the boosted readings and the peak wmark reports are the uniform pageblock rises counted from the file ($(grep '^rises' "$T/count"))"
grep -q "^runs ok " "$T/count"
check $? "5.10 readings of a real guest: kswapd's boost-only runs, what they reclaimed and the refaults after them as counted from the file ($(grep '^runs' "$T/count"))"

# 5. A recording is one run of one boot: an event counter lower than on
# the line before, a header whose zones= is not the zones of the lines,
# or a boost below -1 (the one mark for "not printed") is refused naming
# the file and line, as the two-file mode refuses counters that went
# backwards.
run --root "$vm" recommend --sample 1 --interval 200 --record "$T/base.txt"
sed '3s/pgalloc=[0-9]*/pgalloc=5/' "$T/base.txt" >"$T/r_back.txt"
run --root "$vm" -j recommend --replay "$T/r_back.txt"
[ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && grep -q "r_back.txt:3: pgalloc went backwards" "$T/err"
check $? "replay: a counter lower than on the line before is exit 2 naming file:line ($(head -c 200 "$T/err"))"
sed '3s/allocstall=0/allocstall=18446744073709551615/' "$T/base.txt" >"$T/r_huge.txt"
run --root "$vm" -j recommend --replay "$T/r_huge.txt"
[ "$rc" -eq 2 ] && grep -q "r_huge.txt:4: allocstall went backwards" "$T/err"
check $? "replay: a counter that jumps to 2^64 - 1 and back is refused where it goes back ($(head -c 200 "$T/err"))"
sed '2s/psi=0,0/psi=7,7/' "$T/base.txt" >"$T/r_psi.txt"
run --root "$vm" -j recommend --replay "$T/r_psi.txt"
[ "$rc" -eq 2 ] && grep -q "r_psi.txt:3: .*memory pressure.* went backwards" "$T/err"
check $? "replay: PSI totals that go backwards are refused naming file:line ($(head -c 200 "$T/err"))"
sed '1s/zones=5/zones=3/' "$T/base.txt" >"$T/r_z3.txt"
run --root "$vm" recommend --replay "$T/r_z3.txt"
[ "$rc" -eq 2 ] && grep -q "r_z3.txt:1: .*zones=3" "$T/err"
check $? "replay: a zones= header other than the capture's zones is exit 2 naming file:1 ($(head -c 200 "$T/err"))"
sed '1s/ zones=5//' "$T/base.txt" >"$T/r_z0.txt"
run --root "$vm" recommend --replay "$T/r_z0.txt"
[ "$rc" -eq 2 ] && grep -q "r_z0.txt:1: " "$T/err"
check $? "replay: a header without zones= is exit 2 naming file:1 ($(head -c 200 "$T/err"))"
sed '3s/zone=3840,30,37,44,0/zone=3840,30,37,44,-5/' "$T/base.txt" >"$T/r_b5.txt"
run --root "$vm" recommend --replay "$T/r_b5.txt"
[ "$rc" -eq 2 ] && grep -q "r_b5.txt:3: " "$T/err"
check $? "replay: a boost of -5 (only -1 means not printed) is exit 2 naming file:line ($(head -c 200 "$T/err"))"
sed '3s/zone=3840,30,37,44,0/zone=3840,30,37,44,-1/' "$T/base.txt" >"$T/r_b1.txt"
run --root "$vm" recommend --replay "$T/r_b1.txt"
[ "$rc" -eq 0 ]
check $? "replay: a boost of -1 (not printed) is still read"

# 6. JSON page counts of 2^53 or more are digit strings: a pgsteal_direct
# that grows by 2^60 per interval, with stalls (the burst's deficit).
py - "$T/base.txt" "$T/r_big.txt" <<'EOF'
import re, sys
L = open(sys.argv[1]).read().splitlines(); out = [L[0]]
for i, l in enumerate(L[1:]):
    l = re.sub(r'allocstall=\d+', 'allocstall=%d' % (i * 5), l)
    l = re.sub(r'pgsteal_direct=\d+', 'pgsteal_direct=%d' % (i * 2**60), l)
    out.append(l)
open(sys.argv[2], 'w').write("\n".join(out) + "\n")
EOF
run --root "$vm" -j recommend --replay "$T/r_big.txt"
py - "$T/out" <<'EOF' >"$T/chk" 2>&1
import json, sys
def walk(v, path):
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(x, "%s[%d]" % (path, i))
    elif isinstance(v, float) and v == int(v) and abs(v) >= 2**53:
        print("inexact", path, v)
    elif isinstance(v, int) and abs(v) >= 2**53:
        print("unquoted", path, v)
d = json.loads(open(sys.argv[1]).read())
walk(d, "")
assert d["gaps"]["pages_needed"] == d["boost"]["gap_needed_pages"] == "5764607523034239096", d["gaps"]
EOF
[ "$rc" -le 1 ] && [ -s "$T/out" ] && [ ! -s "$T/chk" ]
check $? "replay: pages_needed and gap_needed_pages at 2^53 or more are digit strings ($(head -c 300 "$T/chk"))"

# 7. recommend --replay and tune --replay read the file with one reader:
# every broken file above is refused by both, exit 2, in the same words
# (after each command's own "wmark: CMD: ").
: >"$T/empty.txt"
for f in bad1 bad3 bad4 missing empty r_back r_huge r_psi r_z3 r_z0; do
	"$W" --root "$vm" recommend --replay "$T/$f.txt" >/dev/null 2>"$T/e_rec"
	a=$?
	"$W" --root "$vm" tune --replay "$T/$f.txt" >/dev/null 2>"$T/e_tune"
	b=$?
	sed 's/^wmark: recommend: //' "$T/e_rec" >"$T/e_rec2"
	sed 's/^wmark: tune: //' "$T/e_tune" >"$T/e_tune2"
	[ "$a" -eq 2 ] && [ "$b" -eq 2 ] && [ -s "$T/e_rec2" ] && cmp -s "$T/e_rec2" "$T/e_tune2"
	check $? "$f.txt: recommend and tune --replay refuse it in the same words ($(head -c 160 "$T/e_tune"))"
done

echo "1..$n"
