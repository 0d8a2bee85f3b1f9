#!/bin/bash
# wmark tune under --root on copies of a real 6.12 capture whose vmstat the
# test drives: raises on stalls, dry run, the journal, read-back, the undo
# on SIGTERM/SIGINT/SIGHUP, --keep, the restore after a SIGKILL, a knob
# written by someone else meanwhile, and no write past --max-reserve
# whatever the input (the summed high watermarks recomputed here from the
# capture's min and managed lines with the 6.12 formula, not by wmark).
#
# Never touches this machine's /proc/sys: every command has --root.
# usage: WMARK=/abs/path/to/wmark bash tests/sh/tune.sh   (TAP on stdout)
set -u
. "$(dirname "$0")/lib.sh"

M=data/machines/qemu-k612-2g-apps
VM=proc/sys/vm
check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

fresh() {	# NAME -> a copy of the capture
	rm -rf "${T:?}/$1"
	cp -a "$M" "$T/$1"
	echo "$T/$1"
}

wait_for() {	# SECONDS COMMAND...: poll until COMMAND succeeds
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# load ROOT STALLS STEAL: every 0.1 s add STALLS to allocstall_movable and
# STEAL pages to pgsteal_direct (and half again to pgscan_direct), the file
# replaced whole so that a reader never sees half of it.  Prints the pid.
load() {
	py_load() {
		python3 - "$@" <<'EOF'
import os, re, sys, time
root, stalls, steal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = os.path.join(root, "proc/vmstat")
while True:
    s = open(p).read()
    s = re.sub(r"^(allocstall_movable )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + stalls), s, flags=re.M)
    s = re.sub(r"^(pgsteal_direct )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + steal), s, flags=re.M)
    s = re.sub(r"^(pgscan_direct )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + steal * 3 // 2), s, flags=re.M)
    open(p + ".new", "w").write(s)
    os.replace(p + ".new", p)
    open(os.path.join(root, ".loaded"), "w").close()
    time.sleep(0.1)
EOF
	}
	py_load "$@" >/dev/null 2>&1 &
	echo $!
	# running once it has bumped the counters (python starts slowly on a busy machine)
	wait_for 30 test -e "$1/.loaded"
}
loads=()
at_exit 'for p in "${loads[@]}"; do kill "$p" 2>/dev/null; done'


# The summed high watermarks of ROOT's zones at wsf W on 6.12:
# high = min + 2 * max(min / 4, managed * W / 10000) per zone with managed
# pages; a zone without keeps the high the kernel printed (6.12's empty
# Movable zone: 32/32/32, whatever the wsf).
high_sum() {	# ROOT WSF
	awk -v w="$2" '
		/^Node/ { inz = 1 }
		inz && $1 == "min" { mn = $2 }
		inz && $1 == "high" { hi = $2 }
		inz && $1 == "managed" {
			g = int($2 * w / 10000); q = int(mn / 4); if (q > g) g = q
			s += $2 > 0 ? mn + 2 * g : hi
			inz = 0
		}
		END { print s }' "$1/proc/zoneinfo"
}

# ---- usage ----------------------------------------------------------------
"$W" tune --help >"$T/out" 2>&1
check $? "tune --help exits 0"
grep -q -- '--max-reserve' "$T/out"
check $? "tune --help names --max-reserve"
"$W" --root "$M" tune --interval 0 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'interval' "$T/err"
check $? "--interval 0 is refused with exit 2 (got $rc)"
"$W" --root "$M" tune --max-reserve 101% >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'max-reserve' "$T/err"
check $? "--max-reserve 101% is refused with exit 2 (got $rc)"
"$W" --root "$M" -o prom tune >"$T/out" 2>"$T/err"
[ $? -eq 2 ]
check $? "-o prom tune is refused (exit 2): tune writes --prom-file instead"

# ---- a dry run decides and writes nothing ---------------------------------
r=$(fresh dry)
loads+=("$(load "$r" 3 2000)")
"$W" --root "$r" tune -n --interval 0.3 --duration 2 >"$T/out" 2>"$T/err"
rc=$?
kill "${loads[-1]}"
[ $rc -eq 0 ] && grep -q 'wsf 10 -> ' "$T/out" && grep -q 'dry run: not written' "$T/out" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] && [ ! -e "$r/var/lib/wmark/state.json" ]
check $? "a dry run under stalls prints a raise from wsf 10, writes no knob and no journal (exit $rc)"

# ---- stalls raise wsf; SIGTERM puts it back ---------------------------------
for sig in TERM INT HUP; do
	r=$(fresh sig$sig)
	loads+=("$(load "$r" 3 2000)")
	"$W" --root "$r" tune --interval 0.2 >"$T/out" 2>"$T/err" &
	p=$!
	wait_for 60 grep -q '"state":.*"applied"' "$r/var/lib/wmark/state.json" 2>/dev/null
	raised=$(cat "$r/$VM/watermark_scale_factor")
	kill -"$sig" $p
	wait $p
	rc=$?
	kill "${loads[-1]}"
	[ $rc -eq 0 ] && [ "$raised" -gt 10 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] &&
		grep -q '"rolled-back"' "$r/var/lib/wmark/state.json" &&
		grep -q 'the values from before are back' "$T/out"
	check $? "SIG$sig: wsf was raised (10 -> $raised, journaled) and is back at 10, journal rolled back (exit $rc)"
done
diag "$(grep 'wsf 10 ->' "$T/out" | head -1)"

# The journal during the run holds the value from before the first write.
r=$(fresh journal)
loads+=("$(load "$r" 3 2000)")
"$W" --root "$r" tune --interval 0.2 >"$T/out" 2>"$T/err" &
p=$!
wait_for 60 grep -q '"applied"' "$r/var/lib/wmark/state.json" 2>/dev/null
cp "$r/var/lib/wmark/state.json" "$T/j.json"
kill -TERM $p
wait $p
kill "${loads[-1]}"
py - "$T/j.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
ok = j["state"] == "applied" and j["previous"]["watermark_scale_factor"] == "10\n" \
    and int(j["written"]["watermark_scale_factor"]) > 10 and j["command"].startswith("wmark tune")
sys.exit(0 if ok else 1)
EOF
check $? "while it runs the journal is 'applied' with previous 10 and the raised wsf as written"

# ---- --keep leaves the values; rollback restores them ----------------------
r=$(fresh keep)
loads+=("$(load "$r" 3 2000)")
"$W" --root "$r" tune --interval 0.2 --duration 1.5 --keep >"$T/out" 2>"$T/err"
rc=$?
kill "${loads[-1]}"
kept=$(cat "$r/$VM/watermark_scale_factor")
"$W" --root "$r" rollback >/dev/null 2>"$T/err2"
rc2=$?
[ $rc -eq 0 ] && [ "$kept" -gt 10 ] && [ $rc2 -eq 0 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] &&
	grep -q "wmark apply --wsf $kept" "$T/out"
check $? "--keep leaves wsf $kept and prints its apply line; 'wmark rollback' then restores 10 (exit $rc, $rc2)"

# ---- SIGKILL: the next tune puts the values back first ---------------------
r=$(fresh kill9)
loads+=("$(load "$r" 3 2000)")
"$W" --root "$r" tune --interval 0.2 >"$T/out" 2>"$T/err" &
p=$!
wait_for 60 grep -q '"applied"' "$r/var/lib/wmark/state.json" 2>/dev/null
kill -KILL $p
wait $p 2>/dev/null
kill "${loads[-1]}"
left=$(cat "$r/$VM/watermark_scale_factor")
"$W" --root "$r" tune -n --interval 0.1 --duration 0.2 >"$T/out" 2>"$T/err"
[ "$left" -gt 10 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] || {
	# a dry run does not restore: only a real run does
	"$W" --root "$r" tune --interval 0.1 --duration 0.2 >"$T/out" 2>"$T/err"
	[ "$left" -gt 10 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] &&
		grep -q 'put back 10 from journal' "$T/err"
}
check $? "after a SIGKILL (wsf left at $left) the next tune puts 10 back from the journal and says so"

# ---- a write that fails, a read-back that differs ---------------------------
for fault in write:1 readback:1; do
	r=$(fresh fault-${fault%%:*})
	loads+=("$(load "$r" 3 2000)")
	WMARK_FAULT=$fault "$W" --root "$r" tune --interval 0.2 --duration 5 >"$T/out" 2>"$T/err"
	rc=$?
	kill "${loads[-1]}"
	case $fault in
	write:*) want=3 msg='write: Input/output error' ;;
	readback:*) want=1 msg='read back' ;;
	esac
	[ $rc -eq $want ] && grep -q "$msg" "$T/err" && [ "$(cat "$r/$VM/watermark_scale_factor")" = 10 ] &&
		grep -q 'nothing was written\|the values from before are back' "$T/out"
	check $? "WMARK_FAULT=$fault: tune stops with exit $want (got $rc), says '$msg', and wsf is 10 again"
done

# ---- a knob written by someone else is left alone --------------------------
r=$(fresh foreign)
loads+=("$(load "$r" 3 2000)")
"$W" --root "$r" tune --interval 0.2 >"$T/out" 2>"$T/err" &
p=$!
wait_for 60 grep -q '"applied"' "$r/var/lib/wmark/state.json" 2>/dev/null
echo 55 >"$r/$VM/watermark_scale_factor"
wait_for 60 grep -q 'written by someone else' "$T/err"
sleep 0.5
mid=$(cat "$r/$VM/watermark_scale_factor")
kill -TERM $p
wait $p
rc=$?
kill "${loads[-1]}"
[ "$mid" = 55 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 55 ] &&
	grep -q 'vm.watermark_scale_factor was written by someone else (now 55)' "$T/err"
check $? "a wsf written by someone else (55) is said once, never changed again, not restored on exit (exit $rc)"

# ---- no write past --max-reserve, whatever the input -----------------------
for bound in 100M 150M 12%; do
	r=$(fresh bound$bound)
	loads+=("$(load "$r" 500 200000)")
	"$W" --root "$r" -j tune --interval 0.1 --duration 2 --max-reserve "$bound" --keep \
		>"$T/out" 2>"$T/err"
	rc=$?
	kill "${loads[-1]}"
	wsf=$(cat "$r/$VM/watermark_scale_factor")
	hs=$(high_sum "$r" "$wsf")
	case $bound in
	*%) managed=$(awk '$1 == "managed" { s += $2 } END { print s }' "$r/proc/zoneinfo")
	    lim=$((managed * ${bound%\%} / 100)) ;;
	*M) lim=$(( ${bound%M} * 256 )) ;;
	esac
	py - "$T/out" "$lim" <<'EOF'
import json, sys
lim = int(sys.argv[2])
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
w = [r for r in recs if "written" in r and r["written"]]
ok = len(w) >= 1 and all(r["pages"]["reserve_new"] <= lim for r in w) and "summary" in recs[-1]
sys.exit(0 if ok else 1)
EOF
	[ $? -eq 0 ] && [ "$rc" -eq 0 ] && [ "$wsf" -gt 10 ] && [ "$hs" -le "$lim" ]
	check $? "--max-reserve $bound under a stall storm: wsf $wsf, summed high $hs <= $lim pages (recomputed here), every JSON write within it"
done

# ---- what kswapd can free bounds a raise: free, file, swappable anon ---------
# The capture (2 GiB with zram) stalls with little file cache: free pages
# plus the node's file LRU are far below the high watermarks a stall storm
# asks for; its anon LRU is not, while swap space is free.  Worked here from
# the capture's lines: without swap the final summed high must fit free +
# file, with the capture's SwapFree it must pass that and fit free + file +
# anon (all below the free swap).
pay=$(awk '$1 == "pages" && $2 == "free" { f += $3 }
	$1 == "nr_inactive_file" || $1 == "nr_active_file" { c += $2 }
	$1 == "nr_inactive_anon" || $1 == "nr_active_anon" { a += $2 }
	END { print f + c, f + c + a }' "$M/proc/zoneinfo")
set -- $pay
for swap in 0 capture; do
	r=$(fresh swap$swap)
	[ $swap = 0 ] && sed -i 's/^SwapFree:.*/SwapFree:              0 kB/' "$r/proc/meminfo"
	loads+=("$(load "$r" 500 200000)")
	"$W" --root "$r" -j tune --interval 0.1 --duration 2 --max-reserve 100% --keep \
		>"$T/out" 2>"$T/err"
	rc=$?
	kill "${loads[-1]}"
	wsf=$(cat "$r/$VM/watermark_scale_factor")
	hs=$(high_sum "$r" "$wsf")
	if [ $swap = 0 ]; then
		grep -q '"why":"no-cache"' "$T/out" && [ "$hs" -le "$1" ] && [ "$wsf" -gt 10 ]
		check $? "no swap: a stall storm raises wsf to $wsf, summed high $hs <= free + file $1 pages, then holds (no-cache) (exit $rc)"
	else
		[ "$hs" -gt "$1" ] && [ "$hs" -le "$2" ] && [ "$rc" -eq 0 ]
		check $? "with swap free: wsf $wsf, summed high $hs past free + file $1, within free + file + anon $2 (exit $rc)"
	fi
done

# ---- --replay: the law over real recordings, checked from the files ---------
# Periods, stalls and the first raise are worked out here from the readings
# (the first reading at or after each period's end, counters being totals);
# every change's reserve is the summed high watermarks recomputed with the
# formula above from the capture's min and managed lines (5.10 and 6.12
# alike: high = min + 2 * max(min / 4, managed * wsf / 10000)).
for spec in "qemu-k612-2g-apps k612-2g-apps 1" "qemu-k510-2g-anon k510-2g-anon 2" \
	"qemu-k510-2g-server k510-2g-server 2"; do
	set -- $spec
	root=data/machines/$1
	rec=tests/golden/cases/recommend-data/$2.readings
	"$W" --root "$root" -j tune --replay "$rec" --interval "$3" >"$T/out" 2>"$T/err"
	rc=$?
	: >"$T/highs"
	for w in $(py -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "action" in r and r["action"] != "hold":
        print(r["wsf"]["new"])' "$T/out"); do
		echo "$w $(high_sum "$root" "$w")" >>"$T/highs"
	done
	py - "$T/out" "$rec" "$3" "$T/highs" <<'PYEOF'
import json, sys
out, rec, step, highs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
rows = []
for l in open(rec):
    if l.startswith("#") or not l.strip():
        continue
    f = dict(kv.split("=", 1) for kv in l.split() if not kv.startswith("zone="))
    rows.append((float(f["t"]), int(f["allocstall"]), int(f["pgscan_direct"])))
samples, nxt = [rows[0]], rows[0][0] + step
for r in rows[1:]:
    if r[0] + 1e-9 >= nxt:
        samples.append(r)
        while nxt <= r[0] + 1e-9:
            nxt += step
stalls = [b[1] - a[1] for a, b in zip(samples, samples[1:])]
direct = [(b[1] - a[1]) + (b[2] - a[2]) for a, b in zip(samples, samples[1:])]
recs = [json.loads(l) for l in open(out)]
periods = [r for r in recs if "action" in r][1:]
summ = recs[-1]["summary"]
want_high = dict(tuple(map(int, l.split())) for l in open(highs))
bad = []
if [p["evidence"]["allocstall"] for p in periods] != stalls:
    bad.append("stalls per period differ")
if summ["stalls"] != sum(stalls) or summ["periods"] != len(stalls):
    bad.append("summary %s vs %d stalls in %d periods" % (summ, sum(stalls), len(stalls)))
first = next(i for i, d in enumerate(direct) if d > 0)
acts = [p["action"] for p in periods]
if acts[first] != "raise" or any(a != "hold" for a in acts[:first]):
    bad.append("first change at %s, direct reclaim first in period %d" % (acts, first))
for p in periods:
    if p["action"] != "hold" and p["pages"]["reserve_new"] != want_high[p["wsf"]["new"]]:
        bad.append("wsf %d: reserve %d, formula %d" % (p["wsf"]["new"], p["pages"]["reserve_new"], want_high[p["wsf"]["new"]]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
	[ $? -eq 0 ] && [ $rc -eq 0 ]
	check $? "--replay $2 every $3 s: periods, stalls and the first raise as the readings say, every change's reserve as the formula (exit $rc)"
done
"$W" --root "$M" tune --replay tests/golden/cases/recommend-data/k612-2g-apps.readings --keep >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'writes nothing' "$T/err"
check $? "--replay with --keep is refused (exit 2): a replay writes nothing"
sed '5s/allocstall=[0-9]*/allocstall=0/' tests/golden/cases/recommend-data/k612-2g-apps.readings >"$T/back.readings"
"$W" --root "$M" tune --replay "$T/back.readings" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'back.readings:5: allocstall went backwards' "$T/err"
check $? "--replay of a counter that goes backwards is exit 2 naming file:line"

# ---- --prom-file ------------------------------------------------------------
r=$(fresh prom)
"$W" --root "$r" tune -n --interval 0.1 --duration 0.3 --prom-file "$T/wmark.prom" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^wmark_tune_wsf 10$' "$T/wmark.prom" && grep -q '^# TYPE wmark_tune_stalls_total counter' "$T/wmark.prom" &&
	[ ! -e "$T/wmark.prom.tmp" ]
check $? "--prom-file writes a textfile with wmark_tune_wsf 10 and no temporary left (exit $rc)"
if command -v promtool >/dev/null; then
	promtool check metrics <"$T/wmark.prom" >"$T/pt" 2>&1
	check $? "promtool accepts the textfile"
else
	skip "promtool accepts the textfile" "no promtool"
fi

echo "1..$n"
