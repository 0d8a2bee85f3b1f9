#!/bin/bash
# wmark recommend: live sampling of this machine and of a root tree whose
# vmstat changes while it samples, an Android kernel that still has
# extra_free_kbytes, missing and malformed inputs, and that nothing is
# ever written (this machine's sysctls and a root tree stay as they were).
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/recommend.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
export LC_ALL=C
. "$(dirname "$0")/lib.sh"

check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; diag "$(head -c 2000 "$T/err")"; fi
}

writer=
cleanup() {
	[ -n "$writer" ] && kill "$writer" 2>/dev/null
	rm -rf "$T"
}
at_exit cleanup

run() {
	"$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# json EXPR: evaluate a Python expression over the JSON in $T/out ("d").

vm=data/machines/vm-6.18-firecracker-A
sysctls() { cat /proc/sys/vm/watermark_scale_factor /proc/sys/vm/min_free_kbytes 2>/dev/null; }
before_sysctls=$(sysctls)

# ---- usage --------------------------------------------------------------
run recommend --help
[ $rc -eq 0 ] && grep -q -- '--extra-free-kbytes' "$T/out" && grep -q -- '--sample' "$T/out"
check $? "recommend --help exits 0 and names the modes"

run --root "$vm" -o prom recommend --burst 1M
[ $rc -eq 2 ] && grep -q "Try 'wmark --help'" "$T/err"
check $? "-o prom is a usage error (exit 2)"

run --root "$vm" recommend --sample 0
[ $rc -eq 2 ]
check $? "--sample 0 is a usage error"

# ---- every mode: one JSON document with recommended and reasons ----------
for mode in "--extra-free-kbytes 29615" "--burst 64M" "--sample 1"; do
	# shellcheck disable=SC2086
	run --root "$vm" -j recommend $mode
	[ $rc -eq 0 ] && json 'isinstance(d["recommended"]["watermark_scale_factor"], int) and len(d["reasons"]) > 0 and d["apply"].startswith("wmark apply --wsf ")'
	check $? "recommend $mode -j: recommended.watermark_scale_factor, reasons and the apply line"
done

# ---- the live machine -----------------------------------------------------
if [ -r /proc/vmstat ]; then
	run -j recommend --sample 1
	[ $rc -eq 0 ] && json 'd["source"] == "live" and d["measurements"]["samples"] >= 8 and d["measurements"]["time_resolved"]'
	check $? "--sample 1 on this machine reads vmstat about every 100 ms ($(json 'print(d["measurements"]["samples"]) or True' 2>/dev/null) readings)"
	grep -q '^wmark: recommend: 0/1 s' "$T/err"
	check $? "--sample reports progress on stderr"
	run -j recommend --sample 1 --interval 250
	[ $rc -eq 0 ] && json '4 <= d["measurements"]["samples"] <= 6'
	check $? "--interval 250 takes about 5 readings in a second"
else
	ok "--sample on this machine # SKIP no /proc/vmstat"
	ok "--sample progress # SKIP no /proc/vmstat"
	ok "--interval # SKIP no /proc/vmstat"
fi
[ "$(sysctls)" = "$before_sysctls" ]
check $? "this machine's watermark_scale_factor and min_free_kbytes are unchanged"

# ---- a root tree whose vmstat moves during the sample ----------------------
# One interval sees allocation 50000 pages, kswapd 10000, direct reclaim
# (allocstall +3, pgscan_direct +40000, pgsteal_direct +40000): deficit
# 40000, plus today's 4216 pages of gap over DMA32 and Normal = 44216.
# wsf 205 gives 15844 + 28213 = 44057, wsf 206 gives 15922 + 28350 = 44272.
cp -r "$vm" "$T/root"
cp -r "$vm" "$T/pristine"
awk '{
	if ($1 == "pgalloc_normal") $2 += 50000
	if ($1 == "pgsteal_kswapd") $2 += 10000
	if ($1 == "allocstall_movable") $2 += 3
	if ($1 == "pgscan_direct") $2 += 40000
	if ($1 == "pgsteal_direct") $2 += 40000
	print }' "$vm/proc/vmstat" >"$T/vmstat.burst"
( sleep 0.5; cp "$T/vmstat.burst" "$T/root/proc/vmstat.new" &&
	mv "$T/root/proc/vmstat.new" "$T/root/proc/vmstat" ) &
writer=$!
run --root "$T/root" -j recommend --sample 2
wait "$writer"
writer=
[ $rc -eq 0 ] && json 'd["verdict"] == "raise" and d["measurements"]["deficit_pages"] == 40000 and d["gaps"]["pages_needed"] == 44216 and d["recommended"]["watermark_scale_factor"] == 206'
check $? "a burst seen while sampling a root: deficit 40000 pages, wsf 206"
json 'd["measurements"]["bursts"] == 1 and d["measurements"]["worst_burst"]["allocstall"] == 3'
check $? "the burst is one run with 3 stalls"

rm -f "$T/root/proc/pressure/memory"
cp "$vm/proc/vmstat" "$T/root/proc/vmstat"
run --root "$T/root" -j recommend --sample 1
[ $rc -eq 0 ] && json 'd["measurements"]["psi_some_us"] is None and d["verdict"] == "keep"'
check $? "without /proc/pressure/memory the sample still decides (PSI null, keep)"

rm -f "$T/root/proc/vmstat"
run --root "$T/root" recommend --sample 1
[ $rc -eq 3 ] && grep -q "proc/vmstat" "$T/err"
check $? "a root without proc/vmstat: exit 3 naming the path"
cp "$vm/proc/vmstat" "$T/root/proc/vmstat"
cp "$vm/proc/pressure/memory" "$T/root/proc/pressure/memory"

# ---- captured files ---------------------------------------------------------
run --root "$vm" recommend --vmstat-before "$T/none" --vmstat-after "$vm/proc/vmstat"
[ $rc -eq 3 ] && grep -q "$T/none" "$T/err"
check $? "a missing --vmstat-before file: exit 3 naming it"

printf 'pgalloc_normal 12\nthis is not vmstat\n' >"$T/bad"
run --root "$vm" recommend --vmstat-before "$vm/proc/vmstat" --vmstat-after "$T/bad"
[ $rc -eq 2 ] && grep -q "line 2" "$T/err"
check $? "a malformed vmstat file: exit 2 with the line"

# counters that go backwards: swapped files, or two boots
awk '$1=="allocstall_normal"{$2+=100} $1=="pgsteal_direct"{$2+=50000} $1=="pgscan_direct"{$2+=60000} $1=="pgalloc_normal"{$2+=900000} {print}' \
	"$vm/proc/vmstat" >"$T/later"
run --root "$vm" recommend --vmstat-before "$vm/proc/vmstat" --vmstat-after "$T/later"
[ $rc -eq 0 ] && grep -q "Apply with: wmark apply --wsf 253" "$T/out"
check $? "vmstat files in order: raise to 253"
run --root "$vm" recommend --vmstat-before "$T/later" --vmstat-after "$vm/proc/vmstat"
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "$vm/proc/vmstat: pgalloc_\* went backwards since $T/later" "$T/err"
check $? "vmstat files swapped: exit 2, the counter that went backwards named"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=500\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=400\n' >"$T/psi-a"
printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=50\n' >"$T/psi-b"
run --root "$vm" recommend --vmstat-before "$vm/proc/vmstat" --vmstat-after "$T/later" --psi-before "$T/psi-a" --psi-after "$T/psi-b"
[ $rc -eq 2 ] && grep -q "$T/psi-b: the memory pressure totals went backwards" "$T/err"
check $? "PSI files swapped: exit 2"

# ---- a kernel that still has extra_free_kbytes ------------------------------
echo 4.19.191-android11-5 >"$T/root/proc/sys/kernel/osrelease"
echo 0 >"$T/root/proc/sys/vm/extra_free_kbytes"
cp "$T/root/proc/sys/kernel/osrelease" "$T/pristine/proc/sys/kernel/osrelease"
cp "$T/root/proc/sys/vm/extra_free_kbytes" "$T/pristine/proc/sys/vm/extra_free_kbytes"
run --root "$T/root" -j recommend --extra-free-kbytes 29615
[ $rc -eq 0 ] && json 'd["recommended"] == {"extra_free_kbytes": 29615} and d["apply"] == "wmark apply --extra-free-kbytes 29615" and d["extra_free_kbytes"]["kernel_has_knob"]'
check $? "an Android 4.19 kernel with the knob gets extra_free_kbytes itself"
json 'd["wsf"]["kernel_max"] == 1000 and d["wsf"]["recommended"] == 55'
check $? "and the wsf equivalent (55) within 4.19's range 1..1000"

# ---- the AOSP script's simulation: on CRLF text too, or a reason why not ----
k61=data/machines/qemu-k61-4g-before
mkdir -p "$T/crlf" && cp -r "$k61/." "$T/crlf/"
sed 's/$/\r/' "$k61/proc/zoneinfo" >"$T/crlf/proc/zoneinfo"
run --root "$k61" -j recommend --extra-free-kbytes 29615
py -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["extra_free_kbytes"]["script"], sort_keys=True))' "$T/out" >"$T/script-lf"
run --root "$T/crlf" -j recommend --extra-free-kbytes 29615
[ $rc -eq 0 ] && json 'd["extra_free_kbytes"]["script"] is not None and any("CRLF line ends" in x for x in d["reasons"])' &&
	py -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["extra_free_kbytes"]["script"], sort_keys=True))' "$T/out" | cmp -s - "$T/script-lf"
check $? "CRLF zoneinfo: the script is simulated as on the LF text, and the reasons say so"
mkdir -p "$T/many" && cp -r "$k61/." "$T/many/"
awk -v N=14 'BEGIN{RS="\0"} {t0=$0} END{for(n=0;n<N;n++){t=t0; gsub(/Node 0,/,"Node " n ",",t); printf "%s",t}}' \
	"$k61/proc/zoneinfo" >"$T/many/proc/zoneinfo"
run --root "$T/many" recommend --extra-free-kbytes 29615
[ $rc -eq 0 ] && grep -q "init/extra_free_kbytes.sh is not simulated: more than 64 zones" "$T/out"
check $? "70 zones: the script is not simulated, and the reasons say why"

# ---- a kernel before 4.6: one answer for every command that would change wsf ----
mkdir -p "$T/k24" && cp -r "$vm/." "$T/k24/"
echo 2.4.37 >"$T/k24/proc/sys/kernel/osrelease"
for c in "recommend --burst 100M" "whatif --wsf 200" "apply -n --wsf 100"; do
	# shellcheck disable=SC2086
	run --root "$T/k24" $c
	[ $rc -eq 2 ] && grep -q "kernel 2.4 has no watermark_scale_factor (4.6+)" "$T/err" && [ ! -s "$T/out" ]
	check $? "kernel 2.4 with a watermark_scale_factor file: $c is exit 2, no wsf before 4.6"
done

# ---- nothing written ----------------------------------------------------------
for mode in "--extra-free-kbytes 100000" "--burst 1G" "--sample 1" \
	"--vmstat-before $vm/proc/vmstat --vmstat-after $vm/proc/vmstat"; do
	# shellcheck disable=SC2086
	"$WMARK" --root "$T/root" recommend $mode >/dev/null 2>&1
done
diff -r "$T/pristine" "$T/root" >"$T/err" 2>&1
check $? "recommend writes nothing under --root (every mode)"

echo "1..$n"
