#!/bin/bash
# The live machine, read only: verify stays exact while memory is being
# allocated (on VMs whose managed pages grow as memory is touched, the
# kernel recomputes its watermarks meanwhile), show and capture work, and
# nothing here writes a sysctl.  Prints TAP.
. "$(dirname "$0")/lib.sh"
hog=
at_exit '[ -n "$hog" ] && kill "$hog" 2>/dev/null'
managed() { awk '$1 == "managed" { s += $2 } END { print s }' /proc/zoneinfo; }

if [ ! -r /proc/zoneinfo ]; then
	echo "ok 1 - live machine # SKIP no /proc/zoneinfo"
	echo "1..1"
	exit 0
fi
before_sysctls=$(cat /proc/sys/vm/min_free_kbytes /proc/sys/vm/watermark_scale_factor /proc/sys/vm/lowmem_reserve_ratio 2>/dev/null)

"$W" -j verify >"$tmp/v.json" 2>"$tmp/e"
first=$(py -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/v.json" 2>/dev/null)
case $first in
exact) ok "live verify is exact" ;;
stale) ok "live verify is stale (this machine's watermarks date from boot)" ;;
*) nok "live verify gives exact or stale, not '$first'"; sed 's/^/# /' "$tmp/e" ;;
esac

# Touch a quarter of the available memory (at most 4 GiB) while verifying.
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
hog_mb=$((avail_kb / 4 / 1024))
[ "$hog_mb" -gt 4096 ] && hog_mb=4096
m0=$(managed)
python3 -c "import time; b = b'\x01' * ($hog_mb << 20); time.sleep(3)" &
hog=$!
for i in 1 2 3 4 5 6; do
	sleep 0.5
	"$W" verify >"$tmp/o" 2>&1
	rc=$?
	if [ "$first" = exact ]; then
		if [ $rc = 0 ]; then ok "verify run $i while ${hog_mb} MiB are touched: exact"
		else nok "verify run $i while ${hog_mb} MiB are touched: exit $rc"; sed 's/^/# /' "$tmp/o" | tail -6; fi
	else
		if grep -q "verdict: mismatch" "$tmp/o"; then nok "verify run $i: mismatch"; sed 's/^/# /' "$tmp/o" | tail -6
		else ok "verify run $i while ${hog_mb} MiB are touched: not a mismatch"; fi
	fi
done
wait "$hog" 2>/dev/null
hog=
echo "# managed pages: $m0 before, $(managed) after"

if "$W" show >"$tmp/o" 2>&1 && grep -q "free stands" "$tmp/o"; then ok "live show prints the table"; else nok "live show prints the table"; fi
# The pageblock: without pagetypeinfo where the kernel allows (sysfs), and
# the one pagetypeinfo prints wherever this user can read that
"$W" -j show >"$tmp/s.json" 2>"$tmp/e"
pb=$(py -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d["pageblock_pages"], d["pageblock_source"])' "$tmp/s.json" 2>/dev/null)
ptb=$(awk '/^Pages per block:/ { print $4; exit }' /proc/pagetypeinfo 2>/dev/null)
if [ -z "$ptb" ]; then
	skip "live show's pageblock is pagetypeinfo's ($pb)" "/proc/pagetypeinfo is not readable here"
elif [ "${pb% *}" = "$ptb" ]; then
	ok "live show's pageblock is pagetypeinfo's: $pb"
else
	nok "live show's pageblock is pagetypeinfo's: '$pb', pagetypeinfo $ptb"
fi
if "$W" -o prom show | grep -q '^wmark_zone_min_pages{node="0"'; then ok "live show -o prom has min per zone"; else nok "live show -o prom has min per zone"; fi
if "$W" capture "$tmp/cap" 2>/dev/null && "$W" --root "$tmp/cap" verify >"$tmp/o" 2>&1; [ -f "$tmp/cap/proc/zoneinfo" ] &&
   ! grep -q "verdict: mismatch" "$tmp/o"; then
	ok "a capture of the live machine verifies from --root"
else
	nok "a capture of the live machine verifies from --root"
	sed 's/^/# /' "$tmp/o" | tail -5
fi
after_sysctls=$(cat /proc/sys/vm/min_free_kbytes /proc/sys/vm/watermark_scale_factor /proc/sys/vm/lowmem_reserve_ratio 2>/dev/null)
if [ "$before_sysctls" = "$after_sysctls" ]; then ok "no sysctl changed"; else nok "no sysctl changed"; fi
echo "1..$n"
