#!/bin/bash
# apply and rollback under --root on temporary trees: the success path,
# every injected failure (a write that fails, a read-back that differs, a
# journal directory that cannot be written, a crash or SIGKILL at every
# step), refusals, persistence, and predictions checked against what a
# real 6.12 kernel printed after the same writes.
#
# Never touches this machine's /proc/sys: every command has --root.
# Fixtures: data/machines/qemu-k612-4g-{before,step2,after} (see their
# SOURCE.md); the qemu-* captures in ../shared/corpus when present.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/apply.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
M=$top/data/machines
CORPUS=$top/../shared/corpus
TOROOT=$top/../shared/tools/case-to-root.py
export LC_ALL=C
unset WMARK_FAULT

. "$(dirname "$0")/lib.sh"
check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

chmod 755 "$T"

BEFORE=$M/qemu-k612-4g-before
VM=proc/sys/vm
KEYS="min_free_kbytes watermark_scale_factor lowmem_reserve_ratio"
NEW_ARGS=(--min-free-kbytes 32768 --wsf 120 --lowmem-reserve-ratio "64 64 16 0 0")
# What apply writes for NEW_ARGS, byte for byte.
new_text() {
	case $1 in
	min_free_kbytes) echo 32768 ;;
	watermark_scale_factor) echo 120 ;;
	lowmem_reserve_ratio) echo "64 64 16 0 0" ;;
	esac
}

fresh() {	# NAME [FIXTURE] -> path of a new copy
	rm -rf "${T:?}/$1"
	cp -a "${2:-$BEFORE}" "$T/$1"
	echo "$T/$1"
}

# old: every knob byte-equal to the fixture; new: every knob holds what
# NEW_ARGS writes; mix: anything else.
state_of() {	# ROOT
	local k old=1 new=1
	for k in $KEYS; do
		cmp -s "$1/$VM/$k" "$BEFORE/$VM/$k" || old=0
		[ "$(cat "$1/$VM/$k")" = "$(new_text $k)" ] || new=0
	done
	if [ $old = 1 ]; then echo old; elif [ $new = 1 ]; then echo new; else echo mix; fi
}

# Each knob holds its old text or its new text, nothing torn or foreign.
each_old_or_new() {	# ROOT
	local k
	for k in $KEYS; do
		cmp -s "$1/$VM/$k" "$BEFORE/$VM/$k" && continue
		[ "$(cat "$1/$VM/$k")" = "$(new_text $k)" ] || return 1
	done
}

same_vm() {	# ROOT [FIXTURE]: every file of proc/sys/vm byte for byte
	diff -r "${2:-$BEFORE}/$VM" "$1/$VM" >/dev/null
}

journal_state() {	# ROOT
	py -c 'import json,sys; print(json.load(open(sys.argv[1]))["state"])' \
		"$1/var/lib/wmark/state.json" 2>/dev/null || echo none
}

# "zone min low high promo p0 p1 ..." per zone, from a zoneinfo file.
zi_table() {
	awk '/^Node/ { if (z) print z, v; z = $4; v = "" }
	     /^ +(min|low|high|promo) / { v = v " " $2 }
	     /protection:/ { gsub(/[(),]/, " "); for (i = 2; i <= NF; i++) v = v " " $i }
	     END { if (z) print z, v }' "$1" | tr -s ' '
}

# The same from apply -j's "predicted".
pred_table() {
	py -c '
import json, sys
d = json.load(sys.stdin)
for z in d["predicted"]:
    v = [z["min"], z["low"], z["high"]] + ([z["promo"]] if z["promo"] is not None else [])
    print(" ".join([z["zone"]] + [str(x) for x in v + z["protection"]]))' | tr -s ' '
}

# ---------------------------------------------------------------------
# Predictions against the real kernel.

r=$(fresh pred)
"$WMARK" -j --root "$r" apply --dry-run --wsf 120 --min-free-kbytes 32768 \
	>"$T/pred.json" 2>"$T/err"
rc=$?
check $rc "apply --dry-run exits 0"
diff <(pred_table <"$T/pred.json") <(zi_table "$M/qemu-k612-4g-step2/proc/zoneinfo") >"$T/d"
rc=$?
check $rc "the prediction for wsf 120 + min_free_kbytes 32768 is what the 6.12 kernel printed after those writes"
[ $rc -ne 0 ] && diag "$(cat "$T/d")"
same_vm "$r" && [ ! -e "$r/var" ]
check $? "--dry-run writes nothing, not even the journal"

"$WMARK" -j --root "$r" apply -n --wsf 1000 --min-free-kbytes 32768 --boost-factor 0 \
	--lowmem-reserve-ratio "64 64 16 0 0" >"$T/pred.json" 2>"$T/err"
diff <(pred_table <"$T/pred.json") <(zi_table "$M/qemu-k612-4g-after/proc/zoneinfo") >"$T/d"
rc=$?
check $rc "the prediction for all five writes at once (protection included) is what the kernel printed"
[ $rc -ne 0 ] && diag "$(cat "$T/d")"

# Every recorded write of every qemu capture: the prediction made from
# the state before it equals the zoneinfo the kernel printed after it.
# One python process for all of them: its start-up is the slow part.
if [ -d "$CORPUS" ] && [ -f "$TOROOT" ]; then
	res=$(py - "$WMARK" "$CORPUS" "$TOROOT" "$T/c" <<'EOF'
import importlib.util, json, os, re, shutil, subprocess, sys

wmark, corpus, toroot, dest = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("toroot", toroot)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
opts = {"min_free_kbytes": "--min-free-kbytes", "watermark_scale_factor": "--wsf",
        "watermark_boost_factor": "--boost-factor",
        "lowmem_reserve_ratio": "--lowmem-reserve-ratio"}

def zones(path):
    out, z = [], None
    for line in open(path):
        m = re.match(r"Node (\d+), zone +(\S+)", line)
        if m:
            z = {"zone": m.group(2), "protection": []}
            out.append(z)
        elif z is not None:
            m = re.match(r"\s+(min|low|high|promo)\s+(\d+)$", line)
            if m:
                z[m.group(1)] = int(m.group(2))
            m = re.match(r"\s+protection: \((.*)\)", line)
            if m:
                z["protection"] = [int(x) for x in m.group(1).split(",")]
    return out

total, bad = 0, []
for case in sorted(os.listdir(corpus)):
    steps = os.path.join(corpus, case, "steps")
    if not case.startswith("qemu-") or not os.path.isdir(steps):
        continue
    prev = "before"
    for s in sorted(os.listdir(steps), key=int):
        w = open(os.path.join(steps, s, "write.txt")).read()
        m = re.search(r'path=/proc/sys/vm/(\w+) value="([^"]*)" result=accepted', w)
        if m and m.group(1) in opts:
            shutil.rmtree(dest, ignore_errors=True)
            sys.argv = ["case-to-root.py", os.path.join(corpus, case), prev, dest]
            mod.main()
            p = subprocess.run([wmark, "-j", "--root", dest, "apply", "-n", "--force",
                                opts[m.group(1)], m.group(2)], capture_output=True)
            if p.returncode == 2:
                # Garbage the harness fed the kernel ("100 abc"): refused.
                prev = "steps/" + s
                continue
            total += 1
            kern = zones(os.path.join(steps, s, "zoneinfo"))
            try:
                pred = json.loads(p.stdout)["predicted"]
            except ValueError:
                pred = []
            same = len(pred) == len(kern) and p.returncode == 0
            for a, b in zip(pred, kern):
                for f in ("min", "low", "high", "promo", "protection"):
                    if f in b and a[f] != b[f]:
                        same = False
            if not same:
                bad.append("%s:%s" % (case, s))
        prev = "steps/" + s
print(total, " ".join(bad))
EOF
)
	total=${res%% *} bad=${res#* }
	[ "${total:-0}" -gt 0 ] && [ -z "$bad" ]
	check $? "predicted watermarks and protection equal the kernel's after each of $total recorded qemu writes"
	[ -n "$bad" ] && diag "differ: $bad"
else
	skip "predicted watermarks equal the kernel's after each recorded qemu write" \
		"../shared/corpus is not here"
fi

# docs/model.md §9.2, snapshot B of the Firecracker 6.18 guest
# (this capture): the kernel's numbers are current, so a refresh moves
# nothing and wsf 10 predicts exactly what is printed.
F618=$M/vm-6.18-firecracker-A
"$WMARK" --root "$F618" apply -n --refresh >"$T/out" 2>&1
grep -q 'refresh moves nothing' "$T/out"
check $? "6.18 capture: --refresh finds the watermarks and protection current (docs/model.md §9.2)"
"$WMARK" -j --root "$F618" apply -n --wsf 10 | pred_table >"$T/got"
printf '%s\n' "DMA 30 37 44 51 0 3019 8395 8395 8395" "DMA32 6065 7581 9097 10613 0 0 5376 5376 5376" \
	"Normal 10800 13500 16200 18900 0 0 0 0 0" "Movable 32 32 32 32 0 0 0 0 0" \
	"Device 0 0 0 0 0 0 0 0 0" | diff - "$T/got" >"$T/d"
check $? "6.18 capture: the prediction is docs/model.md §9.2's snapshot B"
# wsf 200 by hand: gap = max(min/4, managed*200/10000).
# DMA 3840 -> 76; DMA32 772918 -> 15458; Normal 1376256 -> 27525.
"$WMARK" -j --root "$F618" apply -n --wsf 200 | pred_table | cut -d' ' -f1-5 >"$T/got"
printf '%s\n' "DMA 30 106 182 258" "DMA32 6065 21523 36981 52439" "Normal 10800 38325 65850 93375" \
	"Movable 32 32 32 32" "Device 0 0 0 0" | diff - "$T/got" >"$T/d"
check $? "6.18 capture: wsf 200 gives the gaps worked out by hand"
[ -s "$T/d" ] && diag "$(cat "$T/d")"

# Before 4.12 zoneinfo leaves unpopulated zones out; the prediction lists
# the zones the kernel prints.  (A public capture: read in place.)
if [ -f "$CORPUS/x86-ubuntu-3.13-8g/proc/zoneinfo" ]; then
	r=$T/k313
	mkdir -p "$r/$VM" "$r/proc/sys/kernel"
	cp "$CORPUS/x86-ubuntu-3.13-8g/proc/zoneinfo" "$r/proc/"
	echo 3.13.0-24-generic >"$r/proc/sys/kernel/osrelease"
	echo 67584 >"$r/$VM/min_free_kbytes"
	printf '256\t256\t32\n' >"$r/$VM/lowmem_reserve_ratio"
	"$WMARK" -j --root "$r" apply -n --min-free-kbytes 65536 >"$T/out.json" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(pred_table <"$T/out.json" | cut -d' ' -f1 | tr '\n' ' ')" = "DMA DMA32 Normal " ]
	check $? "a 3.13 kernel: the prediction lists the three zones it prints (exit $rc)"
	"$WMARK" --root "$r" apply -n --wsf 100 >/dev/null 2>"$T/err"
	[ $? -eq 3 ] && grep -q 'no watermark_scale_factor' "$T/err"
	check $? "a 3.13 kernel has no watermark_scale_factor (4.6+): exit 3"
else
	skip "a 3.13 kernel: the prediction lists the zones it prints" "../shared/corpus is not here"
	skip "a 3.13 kernel has no watermark_scale_factor (4.6+): exit 3" "../shared/corpus is not here"
fi

# ---------------------------------------------------------------------
# The success path and rollback.

r=$(fresh ok)
"$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >"$T/out" 2>"$T/err"
rc=$?
check $rc "apply writes three sysctls and exits 0"
[ $rc -ne 0 ] && diag "$(cat "$T/err")"
[ "$(state_of "$r")" = new ]
check $? "every knob holds the new value, the list space-separated"
grep -qx 'watermarks not re-checked: not a live kernel' "$T/out"
check $? "under --root it says the watermarks were not re-checked"
[ "$(journal_state "$r")" = applied ]
check $? "the journal at ROOT/var/lib/wmark/state.json says applied"
py - "$r/var/lib/wmark/state.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["previous"]["lowmem_reserve_ratio"] == "256\t256\t32\t0\t0\n", j["previous"]
assert j["previous"]["min_free_kbytes"] == "67584\n"
assert j["written"]["watermark_scale_factor"] == "120\n"
EOF
check $? "the journal keeps the previous text exactly as the kernel printed it (tabs)"
ls -a "$r/var/lib/wmark" | grep -q tmp
[ $? -ne 0 ]
check $? "no temporary journal file is left behind"

"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
check $rc "rollback exits 0"
same_vm "$r"
check $? "rollback restores every vm file byte for byte"
[ "$(journal_state "$r")" = rolled-back ]
check $? "the journal then says rolled-back"
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && same_vm "$r" && grep -q 'nothing to roll back' "$T/out"
check $? "a second rollback changes nothing and exits 0"

r=$(fresh json)
"$WMARK" -j --root "$r" apply "${NEW_ARGS[@]}" >"$T/out.json" 2>"$T/err"
rc=$?
py - "$T/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["written"] == {"min_free_kbytes": 32768, "watermark_scale_factor": 120,
                        "lowmem_reserve_ratio": [64, 64, 16, 0, 0]}, d["written"]
assert d["previous"] == {"min_free_kbytes": 67584, "watermark_scale_factor": 10,
                         "lowmem_reserve_ratio": [256, 256, 32, 0, 0]}, d["previous"]
assert len(d["predicted"]) == 5 and isinstance(d["warnings"], list)
assert d["check"]["done"] is False and d["ok"] is True
EOF
[ $? -eq 0 ] && [ $rc -eq 0 ]
check $? "apply -j prints one JSON document with written, previous, predicted and warnings"
"$WMARK" -j --root "$r" rollback >"$T/out.json" 2>"$T/err"
py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["restored"]["watermark_scale_factor"] == 10' "$T/out.json" &&
	same_vm "$r"
check $? "rollback -j reports what it restored"

# Several applies, one rollback: back to before the first.
r=$(fresh many)
for a in "--refresh" "--wsf 120" "--min-free-kbytes 32768" "--wsf 1000" "--boost-factor 0"; do
	# shellcheck disable=SC2086
	"$WMARK" --root "$r" apply $a >/dev/null 2>&1 || not_ok "apply $a"
done
"$WMARK" --root "$r" apply --lowmem-reserve-ratio 64,64,16,0,0 >/dev/null 2>&1
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && same_vm "$r"
check $? "after six applies one rollback restores the values from before the first"

r=$(fresh refresh)
"$WMARK" --root "$r" apply --refresh >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && same_vm "$r" && [ "$(journal_state "$r")" = applied ]
check $? "apply --refresh rewrites min_free_kbytes unchanged and journals it"
# The boot watermarks of this capture were stale: the kernel's next
# recompute (its step 1, a wsf write) moved DMA32 min 12726 -> 12734.
grep -qx 'refresh moves 0/DMA, 0/DMA32, 0/Normal (stale since the last recompute)' "$T/out" &&
	grep -q '12726 -> 12734' "$T/out"
check $? "apply --refresh reports the zones that move"
"$WMARK" --root "$M/qemu-k612-4g-after" apply -n --refresh >"$T/out" 2>&1
grep -q 'refresh moves nothing' "$T/out"
check $? "apply --refresh on current watermarks says nothing moves"

# ---------------------------------------------------------------------
# Values the kernel would refuse, and values that are unsafe.

refused() {	# WHAT EXPECTED-RC ARGS...
	local what=$1 want=$2 rc
	shift 2
	r=$(fresh refuse)
	"$WMARK" --root "$r" apply "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq "$want" ] && same_vm "$r" && [ ! -e "$r/var" ]
	check $? "$what: exit $want, nothing written (got $rc)"
	[ $rc -ne "$want" ] && diag "$(head -3 "$T/err")"
}
refused "wsf 3001 on 6.12 (max 3000)" 2 --wsf 3001
refused "wsf 0" 2 --wsf 0
refused "wsf 1.5 is not an integer" 2 --wsf 1.5
refused "wsf 12k is not an integer" 2 --wsf 12k
refused "min_free_kbytes -1" 2 --min-free-kbytes -1
refused "boost factor -1" 2 --boost-factor -1
refused "a ratio list of 3 where the kernel prints 5" 2 --lowmem-reserve-ratio "1 2 3"
refused "no value at all" 2
refused "an unknown option" 2 --swappiness 10
refused "extra_free_kbytes on a mainline kernel (missing knob)" 3 --extra-free-kbytes 1000
grep -q "$VM/extra_free_kbytes" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]
check $? "the missing knob is named by its path in one line"
refused "min_free_kbytes 1 GiB on 4 GiB (over 10% of memory)" 2 --min-free-kbytes 1048576
grep -q 'refused.*--force' "$T/err"
check $? "the refusal says --force writes it anyway"
r=$(fresh force)
"$WMARK" --root "$r" apply --force --min-free-kbytes 1048576 >/dev/null 2>"$T/err"
[ $? -eq 0 ] && [ "$(cat "$r/$VM/min_free_kbytes")" = 1048576 ] && grep -q warning "$T/err"
check $? "--force writes it, with a warning"

# Little free memory: a min above what is free now is refused.
r=$(fresh lowfree)
sed -i 's/^  pages free .*/  pages free     1000/' "$r/proc/zoneinfo"
"$WMARK" --root "$r" apply --min-free-kbytes 90000 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'free now' "$T/err" && same_vm "$r"
check $? "a min above the pages free right now is refused (exit $rc)"

# Before 5.17 (and 5.15.58/5.10.186) the kernel takes wsf up to 1000.
r=$(fresh k510)
echo 5.10.0-20-amd64 >"$r/proc/sys/kernel/osrelease"
"$WMARK" --root "$r" apply --wsf 2000 >/dev/null 2>"$T/err"
rc1=$?
"$WMARK" --root "$r" apply -n --wsf 1000 >/dev/null 2>&1
rc2=$?
[ $rc1 -eq 2 ] && [ $rc2 -eq 0 ] && grep -q '1\.\.1000' "$T/err"
check $? "on 5.10.0 wsf 2000 is refused and 1000 accepted"

# An Android 4.x kernel has extra_free_kbytes.
r=$(fresh android)
echo 4.14.180-android-g1 >"$r/proc/sys/kernel/osrelease"
echo 0 >"$r/$VM/extra_free_kbytes"
"$WMARK" --root "$r" apply --extra-free-kbytes 20000 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$r/$VM/extra_free_kbytes")" = 20000 ]
check $? "extra_free_kbytes is written where the kernel has it"
"$WMARK" --root "$r" apply --wsf 50 >/dev/null 2>"$T/err"
grep -q 'extra_free_kbytes.sh' "$T/err"
check $? "on Android a wsf write warns that extra_free_kbytes.sh may rewrite it"

r=$(fresh floor)
"$WMARK" --root "$r" apply -n --wsf 5 >/dev/null 2>"$T/err"
grep -q 'changes no gap' "$T/err"
check $? "a wsf below every zone's floor warns that it changes nothing"
"$WMARK" --root "$r" apply -n --min-free-kbytes 32768 >/dev/null 2>"$T/err"
grep -q 'khugepaged raises min_free_kbytes back to 67584' "$T/err"
check $? "with THP on, lowering min_free_kbytes warns that khugepaged raises it back to 67584"

# Symlinks out of proc/sys/vm are refused.
r=$(fresh link)
echo 1 >"$T/outside"
rm "$r/$VM/watermark_scale_factor"
ln -s "$T/outside" "$r/$VM/watermark_scale_factor"
"$WMARK" --root "$r" apply --wsf 120 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && [ "$(cat "$T/outside")" = 1 ] && grep -q 'symlink' "$T/err"
check $? "a knob that is a symlink out of the tree is refused (exit $rc) and its target untouched"

# --from: sysctl.d syntax.
r=$(fresh from)
cat >"$T/from.conf" <<'EOF'
# tuning from a sysctl.d file
; also a comment
vm.min_free_kbytes = 32768
vm/watermark_scale_factor=120
vm.lowmem_reserve_ratio = 64 64 16 0 0
-vm.extra_free_kbytes = 100
EOF
"$WMARK" --root "$r" apply --from "$T/from.conf" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(state_of "$r")" = new ] && grep -q 'extra_free_kbytes does not exist: skipped' "$T/err"
check $? "--from reads sysctl.d syntax and skips a missing '-' knob"
echo "vm.swappiness = 10" >"$T/bad.conf"
"$WMARK" --root "$r" apply --from "$T/bad.conf" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'bad.conf:1' "$T/err"
check $? "--from refuses a key outside the allowlist, naming file and line"

# ---------------------------------------------------------------------
# Injected failures: the old values or the new ones, never a mix.

inject() {	# FAULT EXPECTED-RC WHAT
	local rc
	r=$(fresh "f-$1")
	WMARK_FAULT=$1 "$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq "$2" ] && [ "$(state_of "$r")" = old ]
	check $? "$3: exit $2 (got $rc) and every value is the old one"
	[ $rc -ne "$2" ] && diag "$(cat "$T/err")"
	grep -q 'nothing changed' "$T/err"
	check $? "$3: it says nothing changed"
	"$WMARK" --root "$r" rollback >/dev/null 2>&1
	[ $? -eq 0 ] && same_vm "$r"
	check $? "$3: rollback afterwards leaves the old values byte for byte"
}
inject write:1 3 "the first write fails (EIO)"
inject write:2 3 "the second write fails (EIO)"
inject write:3 3 "the last write fails (EIO)"
inject readback:1 1 "the first read-back differs"
inject readback:3 1 "the last read-back differs"

# Runs wmark as user nobody (65534), from a copy it can reach: the build
# tree may sit under a directory only root may enter.
NOBODY=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$WMARK" "$T/wmark-nobody" && chmod 755 "$T/wmark-nobody"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$T/wmark-nobody" --version \
		>/dev/null 2>&1 && NOBODY=$T/wmark-nobody
fi
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY" "$@"
}

# A journal directory that cannot be written: refused before any write.
r=$(fresh rojournal)
mkdir -p "$r/var/lib/wmark"
if [ -n "$NOBODY" ]; then
	chown -R 65534:65534 "$r"
	chown 0:0 "$r/var/lib/wmark"
	chmod 555 "$r/var/lib/wmark"
	as_nobody --root "$r" apply "${NEW_ARGS[@]}" >"$T/out" 2>"$T/err"
	rc=$?
else
	chmod 555 "$r/var/lib/wmark"
	"$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >"$T/out" 2>"$T/err"
	rc=$?
fi
[ $rc -eq 3 ] && [ "$(state_of "$r")" = old ] && grep -q 'journal.*nothing was written' "$T/err"
check $? "a read-only journal directory: exit 3 (got $rc), nothing written"
[ $rc -ne 3 ] && diag "$(cat "$T/err")"
chmod 755 "$r/var/lib/wmark"

# Not root: one line, exit 3, nothing written, no journal.
if [ -n "$NOBODY" ]; then
	r=$(fresh nonroot)
	as_nobody --root "$r" apply "${NEW_ARGS[@]}" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
		same_vm "$r" && [ ! -e "$r/var" ]
	check $? "as an unprivileged user: exit 3 (got $rc), one line, nothing written"
	diag "$(cat "$T/err")"
	as_nobody --root "$r" apply -n "${NEW_ARGS[@]}" >/dev/null 2>&1
	check $? "as an unprivileged user --dry-run still works"
else
	skip "as an unprivileged user: exit 3, one line, nothing written" "needs root and setpriv"
	skip "as an unprivileged user --dry-run still works" "needs root and setpriv"
fi

# Crash (SIGKILL from inside) at every step: step 1 is the journal
# commit, 2-4 the three writes, 5 the final journal commit.
for s in 1 2 3 4 5; do
	r=$(fresh "crash$s")
	{ WMARK_FAULT=crash:$s "$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1; } 2>/dev/null
	rc=$?
	each_old_or_new "$r"
	c1=$?
	"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
	rc2=$?
	# Killed before the journal was first committed: nothing was written.
	[ $rc2 -eq 3 ] && grep -q 'no journal' "$T/err" && [ "$(state_of "$r")" = old ] && rc2=0
	[ $rc -eq 137 ] && [ $c1 -eq 0 ] && [ $rc2 -eq 0 ] && same_vm "$r"
	check $? "killed at step $s (exit $rc): each knob old or new, rollback restores all byte for byte"
	[ $rc2 -ne 0 ] && diag "$(cat "$T/err")"
done

# SIGKILL from outside while stopped at every step.
for s in 1 2 3 4 5; do
	r=$(fresh "kill$s")
	WMARK_FAULT=stop:$s "$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1 &
	pid=$!
	stopped=0
	for _ in $(seq 100); do
		if [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" = T ]; then
			stopped=1
			break
		fi
		sleep 0.1
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	st=$(state_of "$r")
	each_old_or_new "$r"
	c1=$?
	"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
	rc2=$?
	[ $rc2 -eq 3 ] && grep -q 'no journal' "$T/err" && [ "$st" = old ] && rc2=0
	[ $stopped -eq 1 ] && [ $rc -eq 137 ] && [ $c1 -eq 0 ] && [ $rc2 -eq 0 ] && same_vm "$r"
	check $? "kill -9 at step $s (values: $st): rollback restores the original state byte for byte"
done

# A crash leaves a pending journal; the next apply keeps the original
# values in it, so one rollback still goes back to before the crash.
r=$(fresh crash-then-apply)
{ WMARK_FAULT=crash:3 "$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1; } 2>/dev/null
"$WMARK" --root "$r" apply --wsf 200 >/dev/null 2>"$T/err"
rc=$?
grep -q 'did not finish' "$T/err" && [ $rc -eq 0 ]
check $? "an apply after a crash says the earlier one did not finish"
"$WMARK" --root "$r" rollback >/dev/null 2>&1
same_vm "$r"
check $? "and one rollback restores the values from before the crashed apply"

# Two at once: the second waits for nobody and writes nothing.
r=$(fresh lock)
WMARK_FAULT=stop:2 "$WMARK" --root "$r" apply --wsf 120 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" = T ] && break
	sleep 0.1
done
"$WMARK" --root "$r" apply --min-free-kbytes 32768 >/dev/null 2>"$T/err"
rc=$?
"$WMARK" --root "$r" rollback >/dev/null 2>"$T/err2"
rc2=$?
kill -CONT $pid
wait $pid
[ $rc -eq 3 ] && grep -q 'another wmark apply or rollback is running' "$T/err" && [ $rc2 -eq 3 ] &&
	[ "$(cat "$r/$VM/min_free_kbytes")" = 67584 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "while one apply runs, a second apply and a rollback are refused (exit $rc, $rc2)"

# ---------------------------------------------------------------------
# rollback refuses to clobber someone else's change.

r=$(fresh theirs)
"$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1
echo 300 >"$r/$VM/watermark_scale_factor"
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 300 ] &&
	[ "$(cat "$r/$VM/min_free_kbytes")" = 32768 ] && grep -q 'changed since' "$T/err"
check $? "rollback finds a value changed since: exit 1 (got $rc), writes nothing"
"$WMARK" --root "$r" rollback --force >/dev/null 2>&1
[ $? -eq 0 ] && same_vm "$r"
check $? "rollback --force restores all of them"

r=$(fresh nojournal)
"$WMARK" --root "$r" rollback >/dev/null 2>"$T/err"
[ $? -eq 3 ] && grep -q 'no journal' "$T/err"
check $? "rollback without a journal: exit 3, says so"

r=$(fresh state)
"$WMARK" --root "$r" apply --state "$T/elsewhere/j.json" --wsf 120 >/dev/null 2>&1
[ -f "$T/elsewhere/j.json" ] && [ ! -e "$r/var" ]
check $? "--state FILE puts the journal there"
"$WMARK" --root "$BEFORE" rollback --state "$T/elsewhere/j.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'written for root' "$T/err"
check $? "rollback refuses a journal written for another root"
"$WMARK" --root "$r" rollback --state "$T/elsewhere/j.json" >/dev/null 2>&1 && same_vm "$r"
check $? "rollback --state restores from it"

# ---------------------------------------------------------------------
# Persistence.

r=$(fresh persist)
mkdir -p "$r/usr/lib/sysctl.d" "$r/etc/sysctl.d"
echo "vm.watermark_scale_factor = 30" >"$r/usr/lib/sysctl.d/99-vendor.conf"
echo "vm.min_free_kbytes = 1000" >"$r/usr/lib/sysctl.d/10-early.conf"
printf '# admin\nvm.lowmem_reserve_ratio = 1 1 1 0 0\n' >"$r/etc/sysctl.conf"
"$WMARK" --root "$r" apply "${NEW_ARGS[@]}" --persist /etc/sysctl.d/90-wmark.conf \
	--initrc /vendor/etc/init/wmark.rc >"$T/out" 2>"$T/err"
rc=$?
f=$r/etc/sysctl.d/90-wmark.conf
[ $rc -eq 0 ] && grep -qx 'vm.watermark_scale_factor = 120' "$f" &&
	grep -qx 'vm.lowmem_reserve_ratio = 64 64 16 0 0' "$f" &&
	grep -qx 'vm.min_free_kbytes = 32768' "$f" && grep -q '^# Written by wmark' "$f"
check $? "--persist writes a sysctl.d file inside --root with a header and the values"
grep -q '^# .*(was 10)' "$f" && grep -q '^#.*Node 0, zone DMA32 .*6174 / 15250 / 24326' "$f"
check $? "its header says what was there before and which watermarks the values give"
grep -q '/usr/lib/sysctl.d/99-vendor.conf:1 sets vm.watermark_scale_factor = 30' "$T/err" &&
	grep -q '/etc/sysctl.conf:2 sets vm.lowmem_reserve_ratio' "$T/err" &&
	! grep -q '10-early' "$T/err"
check $? "it names the later files that override ours, not the earlier ones"
g=$r/vendor/etc/init/wmark.rc
grep -qx 'on property:sys.boot_completed=1' "$g" &&
	grep -qx '    write /proc/sys/vm/watermark_scale_factor 120' "$g" &&
	grep -qx '    write /proc/sys/vm/lowmem_reserve_ratio "64 64 16 0 0"' "$g"
check $? "--initrc writes an Android init fragment run at boot_completed"
"$WMARK" --root "$r" rollback >/dev/null 2>&1 && same_vm "$r"
check $? "rollback after --persist restores the runtime values"

r=$(fresh persist-dry)
"$WMARK" --root "$r" apply -n --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>&1
[ $? -eq 0 ] && [ ! -e "$r/etc/sysctl.d/90-wmark.conf" ] && grep -q 'would write' "$T/out"
check $? "--dry-run --persist writes no file"
r=$(fresh persist-masked)
mkdir -p "$r/etc/sysctl.d"
: >"$r/etc/sysctl.d/90-wmark.conf"
"$WMARK" --root "$r" apply --wsf 120 --persist /usr/lib/sysctl.d/90-wmark.conf >/dev/null 2>"$T/err"
grep -q 'masked by /etc/sysctl.d/90-wmark.conf' "$T/err"
check $? "a persisted file masked by the same name in /etc is reported"

# ---------------------------------------------------------------------
# Nothing lost: a crash in a second apply, knob files under --root,
# foreign and misplaced persist targets, odd journals, closed stdio.

# A crash inside the second apply of a session: the knobs it had not come
# to still hold the first apply's values, which are wmark's own, so a
# plain rollback goes back to before the first apply.
for s in 1 2 3 4 5; do
	r=$(fresh "crash2-$s")
	"$WMARK" --root "$r" apply --wsf 50 >/dev/null 2>&1
	{ WMARK_FAULT=crash:$s "$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1; } 2>/dev/null
	"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && same_vm "$r"
	check $? "killed at step $s of a second apply: rollback without --force restores the values from before the first (exit $rc)"
	[ $rc -ne 0 ] && diag "$(cat "$T/err")"
done

# Knob files of a root tree are replaced, never truncated in place.
r=$(fresh atomic)
ino=$(stat -c %i "$r/$VM/watermark_scale_factor")
mode=$(stat -c %a "$r/$VM/watermark_scale_factor")
"$WMARK" --root "$r" apply --wsf 120 >/dev/null 2>&1
[ "$(stat -c %i "$r/$VM/watermark_scale_factor")" != "$ino" ] &&
	[ "$(stat -c %a "$r/$VM/watermark_scale_factor")" = "$mode" ] &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ] && ! ls "$r/$VM" | grep -q tmp
check $? "under --root a knob file is replaced by rename (new inode, same mode, no temporary left)"

# An emptied knob (what a kill between open(O_TRUNC) and write() used to
# leave): rollback names it, rollback -f restores it.
r=$(fresh emptied)
"$WMARK" --root "$r" apply "${NEW_ARGS[@]}" >/dev/null 2>&1
: >"$r/$VM/min_free_kbytes"
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'vm.min_free_kbytes is "", not the 32768 apply wrote' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "an emptied knob is changed since: rollback exits 1 (got $rc), naming it, and writes nothing"
"$WMARK" --root "$r" rollback -f >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && same_vm "$r"
check $? "rollback -f restores every knob from the journal, the emptied one too (exit $rc)"
[ $rc -ne 0 ] && diag "$(cat "$T/err")"

# Temporaries a killed process left are removed by the next commit.
r=$(fresh stale)
mkdir -p "$r/var/lib/wmark" "$r/etc/sysctl.d"
: >"$r/var/lib/wmark/state.json.tmpAbC123"
: >"$r/etc/sysctl.d/90-wmark.conf.tmpXyZ789"
: >"$r/$VM/watermark_scale_factor.tmpQwE456"
: >"$r/var/lib/wmark/state.json.tmp-keep"
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >/dev/null 2>&1
[ $? -eq 0 ] && [ ! -e "$r/var/lib/wmark/state.json.tmpAbC123" ] &&
	[ ! -e "$r/etc/sysctl.d/90-wmark.conf.tmpXyZ789" ] &&
	[ ! -e "$r/$VM/watermark_scale_factor.tmpQwE456" ] && [ -e "$r/var/lib/wmark/state.json.tmp-keep" ]
check $? "stale NAME.tmpXXXXXX files of the journal, the persisted file and a knob are removed, nothing else"

one_line() {	# FILE: exactly one line, no usage hint
	[ "$(wc -l <"$1")" -eq 1 ] && ! grep -q "Try 'wmark" "$1"
}

# Journals that are not what wmark wrote.
r=$(fresh badjournal)
"$WMARK" --root "$r" apply --wsf 120 >/dev/null 2>&1
py - "$r/var/lib/wmark/state.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["previous"]["watermark_scale_factor"] = "7\n5\n"
j["state"] = "pending"
json.dump(j, open(sys.argv[1], "w"))
EOF
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && one_line "$T/err" && grep -qF "'7\n5\n'" "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "a journal value with newlines: exit 2 (got $rc), one line with them escaped, nothing restored"
[ $rc -ne 2 ] && diag "$(cat "$T/err")"

r=$(fresh range)
"$WMARK" --root "$r" apply --wsf 120 >/dev/null 2>&1
py - "$r/var/lib/wmark/state.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["previous"]["watermark_scale_factor"] = "5000\n"
json.dump(j, open(sys.argv[1], "w"))
EOF
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && one_line "$T/err" && grep -q '5000 is out of range' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ] && [ "$(journal_state "$r")" = applied ]
check $? "a journal value outside the kernel's range: exit 2 (got $rc), one line, nothing restored"
[ $rc -ne 2 ] && diag "$(cat "$T/err")"

r=$(fresh garbage)
mkdir -p "$r/var/lib/wmark"
echo 'garbage{{' >"$r/var/lib/wmark/state.json"
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
"$WMARK" --root "$r" apply --wsf 120 >"$T/out" 2>"$T/err2"
rc2=$?
[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && one_line "$T/err" && one_line "$T/err2" && same_vm "$r" &&
	[ "$(cat "$r/var/lib/wmark/state.json")" = 'garbage{{' ]
check $? "a corrupt journal is malformed input: rollback and apply exit 2 (got $rc, $rc2), no usage hint, nothing written"

r=$(fresh otherroot)
"$WMARK" --root "$r" apply --state "$T/other.json" --wsf 120 >/dev/null 2>&1
"$WMARK" --root "$BEFORE" rollback --state "$T/other.json" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && one_line "$T/err"
check $? "a journal of another root: exit 2 (got $rc) without a usage hint"

r=$(fresh symjournal)
mkdir -p "$r/var/lib/wmark"
echo '{}' >"$T/elsewhere.json"
ln -s "$T/elsewhere.json" "$r/var/lib/wmark/state.json"
"$WMARK" --root "$r" apply --wsf 120 >"$T/out" 2>"$T/err"
rc=$?
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err2"
rc2=$?
[ $rc -eq 3 ] && [ $rc2 -eq 3 ] && grep -q 'is a symbolic link: refusing' "$T/err" &&
	grep -q 'is a symbolic link: refusing' "$T/err2" && same_vm "$r" &&
	[ "$(cat "$T/elsewhere.json")" = '{}' ]
check $? "a symlinked journal: 'is a symbolic link: refusing', exit 3 (got $rc, $rc2), nothing written"

if [ "$(id -u)" = 0 ]; then
	r=$(fresh immutable)
	if chattr +i "$r/$VM/watermark_scale_factor" 2>/dev/null; then
		"$WMARK" --root "$r" apply --wsf 120 >"$T/out" 2>"$T/err"
		rc=$?
		chattr -i "$r/$VM/watermark_scale_factor"
		[ $rc -eq 3 ] && grep -q 'Operation not permitted' "$T/err" && ! grep -q 'needs root' "$T/err"
		check $? "as root, an immutable knob is refused without the 'needs root' hint (exit $rc)"
	else
		skip "as root, an immutable knob is refused without the 'needs root' hint" "chattr +i not supported here"
	fi
else
	skip "as root, an immutable knob is refused without the 'needs root' hint" "needs root"
fi

# Closed or failing standard streams.
r=$(fresh closed2)
"$WMARK" --root "$r" apply --wsf 120 --min-free-kbytes 1 2>&- >/dev/null
rc=$?
[ $rc -eq 0 ] && [ ! -s "$r/var/lib/wmark/state.json.lock" ]
check $? "with stderr closed the warnings do not land in the lock file (exit $rc)"
r=$(fresh closed1)
"$WMARK" --root "$r" apply --wsf 120 >&- 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ] &&
	[ ! -s "$r/var/lib/wmark/state.json.lock" ]
check $? "with stdout closed apply writes and exits 0 (got $rc)"
r=$(fresh full)
"$WMARK" --root "$r" -j apply --wsf 120 >/dev/full 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && one_line "$T/err" && grep -q 'the sysctls were written' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "a full stdout after the writes: exit 3 (got $rc), one line saying the sysctls were written"
"$WMARK" --root "$r" apply --wsf 200 >/dev/full 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && one_line "$T/err" && grep -q 'nothing was written' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "a full stdout before the writes (text report): exit 3 (got $rc), nothing written"

# A pipe whose reader has gone (| head that has what it wants): SIGPIPE is
# ignored, so the lost report is the EPIPE above, not a silent death (141).
# The child gets the default SIGPIPE, as from a shell.
closed_pipe() {	# ARGS...: wmark ARGS with stdout a pipe nobody reads; status in rc
	py - "$WMARK" "$@" 2>"$T/err" <<'PYEOF'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=sys.stderr, restore_signals=True)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)
PYEOF
	rc=$?
}
r=$(fresh epipe)
closed_pipe --root "$r" -j apply --wsf 120
[ $rc -eq 3 ] && one_line "$T/err" && grep -q 'Broken pipe: the report is lost; the sysctls were written' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "apply -j into a closed pipe: exit 3 (got $rc), one line saying the sysctls were written"
closed_pipe --root "$r" apply --wsf 200
[ $rc -eq 3 ] && one_line "$T/err" && grep -q 'Broken pipe: the report is lost; nothing was written' "$T/err" &&
	[ "$(cat "$r/$VM/watermark_scale_factor")" = 120 ]
check $? "apply into a closed pipe (text report): exit 3 (got $rc), nothing written"
closed_pipe --root "$r" show
[ $rc -eq 0 ] && [ ! -s "$T/err" ]
check $? "show into a closed pipe: its reader has gone, exit 0 and no message (got $rc)"

# Persist targets: someone else's file, a directory, paths out of the root.
r=$(fresh foreign)
mkdir -p "$r/etc/sysctl.d"
echo 'vm.swappiness = 5' >"$r/etc/sysctl.d/90-wmark.conf"
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'not written by wmark' "$T/err" && same_vm "$r" && [ ! -e "$r/var" ] &&
	[ "$(cat "$r/etc/sysctl.d/90-wmark.conf")" = 'vm.swappiness = 5' ]
check $? "--persist refuses a file wmark did not write: exit 2 (got $rc), nothing written"
"$WMARK" --root "$r" apply -f --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -qx 'vm.watermark_scale_factor = 120' "$r/etc/sysctl.d/90-wmark.conf"
check $? "--persist --force replaces it (exit $rc)"
"$WMARK" --root "$r" apply --wsf 200 --persist /etc/sysctl.d/90-wmark.conf >/dev/null 2>&1
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && same_vm "$r" && [ "$(cat "$r/etc/sysctl.d/90-wmark.conf")" = 'vm.swappiness = 5' ] &&
	grep -q "restore $r/etc/sysctl.d/90-wmark.conf" "$T/out"
check $? "after two applies, rollback names the file and puts back the one --force replaced (exit $rc)"

r=$(fresh persist-rb)
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf \
	--initrc /vendor/etc/init/wmark.rc >/dev/null 2>&1
"$WMARK" --root "$r" -j rollback >"$T/out.json" 2>"$T/err"
rc=$?
py - "$T/out.json" "$r" <<'EOF'
import json, sys
d, r = json.load(open(sys.argv[1])), sys.argv[2]
assert d["files"] == [{"path": r + "/etc/sysctl.d/90-wmark.conf", "action": "removed"},
                      {"path": r + "/vendor/etc/init/wmark.rc", "action": "removed"}], d["files"]
EOF
[ $? -eq 0 ] && [ $rc -eq 0 ] && same_vm "$r" && [ ! -e "$r/etc/sysctl.d/90-wmark.conf" ] &&
	[ ! -e "$r/vendor/etc/init/wmark.rc" ]
check $? "rollback removes the files --persist and --initrc created, and -j lists them (exit $rc)"

r=$(fresh persist-edited)
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >/dev/null 2>&1
echo 'vm.swappiness = 5' >"$r/etc/sysctl.d/90-wmark.conf"
"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q '90-wmark.conf no longer starts with' "$T/err" &&
	[ "$(cat "$r/etc/sysctl.d/90-wmark.conf")" = 'vm.swappiness = 5' ]
check $? "a persisted file someone rewrote since: rollback exits 1 (got $rc) and leaves it"

r=$(fresh persist-dir)
mkdir -p "$r/etc/sysctl.d/90-wmark.conf"
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>"$T/err"
rc=$?
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/ >"$T/out" 2>"$T/err2"
rc2=$?
[ $rc -eq 3 ] && grep -q 'is a directory' "$T/err" && [ $rc2 -eq 2 ] && grep -q 'names a directory' "$T/err2" &&
	same_vm "$r" && [ ! -e "$r/var/lib/wmark/state.json" ]
check $? "--persist to a directory is refused before any sysctl is written (exit $rc, $rc2)"

r=$(fresh persist-link)
mkdir -p "$T/etc-out/sysctl.d"
rm -rf "$r/etc"
ln -s "$T/etc-out" "$r/etc"
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'resolves outside' "$T/err" && [ -z "$(ls "$T/etc-out/sysctl.d")" ] && same_vm "$r"
check $? "--persist through a symlink out of the root is refused (exit $rc), nothing written"
r=$(fresh persist-final-link)
mkdir -p "$r/etc/sysctl.d"
echo x >"$T/target.conf"
ln -s "$T/target.conf" "$r/etc/sysctl.d/90-wmark.conf"
"$WMARK" --root "$r" apply --wsf 120 --persist /etc/sysctl.d/90-wmark.conf >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'is a symbolic link: refusing' "$T/err" && [ "$(cat "$T/target.conf")" = x ]
check $? "a persist target that is a symlink is refused (exit $rc)"
r=$(fresh persist-rel)
for f in relative.conf ../../x.conf /etc/../../x.conf; do
	( cd "$T" && "$WMARK" --root "$r" apply --wsf 120 --initrc "$f" >/dev/null 2>"$T/err" )
	rc=$?
	[ $rc -eq 2 ] && grep -q 'give an absolute path' "$T/err" && same_vm "$r" && [ ! -e "$T/relative.conf" ]
	check $? "--initrc $f (relative or with ..) is refused: exit 2 (got $rc), nothing written"
done

# A Debian 5.10 release string hides the stable sublevel that decides the
# wsf range (5.10.186+ accepts up to 3000): rollback must read it from
# proc/sys/kernel/version as every other command does, or it refuses to restore 2000.
r=$(fresh deb510 "$M/qemu-k510-2g-anon")
echo 2000 >"$r/$VM/watermark_scale_factor"
grep -q "Debian 5.10.251" "$r/proc/sys/kernel/version" || echo "fixture lost its version string" >&2
"$WMARK" --root "$r" apply --wsf 100 >"$T/out" 2>"$T/err"
rc=$?
"$WMARK" --root "$r" rollback >"$T/out2" 2>"$T/err2"
rc2=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(cat "$r/$VM/watermark_scale_factor")" = 2000 ]
check $? "Debian 5.10.251 (osrelease 5.10.0-43): apply --wsf 100 from 2000, then rollback restores 2000 (exit $rc, $rc2)"

echo "1..$n"
