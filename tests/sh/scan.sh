#!/bin/bash
# wmark scan over root trees built from a captured machine: a cgroup's
# memory.stat, swappiness and swap from the root, MGLRU, the anon-only line
# of a node and whatif's report of a change that crosses it.  Expected
# numbers come from the notes' worked examples (reclaim-notes.md B6) or are
# worked here with awk from the files the test wrote.  Prints TAP.
. "$(dirname "$0")/lib.sh"
is() {	# is GOT WANT WHAT
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want '$2')"; fi
}
flat() { awk -f tests/kernel/json-flat.awk; }
get() { flat | awk -v k="$1" '$1 == k { print $2 }'; }

# a root: the 6.18 VM, with a cgroup holding B6.1's sizes (bytes of 4 KiB pages)
R=$tmp/root
cp -r data/machines/vm-6.18-firecracker-A "$R"
CG=sys/fs/cgroup/job
mkdir -p "$R/$CG"
printf 'anon 0\ninactive_anon %d\nactive_anon %d\ninactive_file %d\nactive_file %d\nshmem 0\n' \
	$((60000 * 4096)) $((60000 * 4096)) $((1000 * 4096)) $((2000 * 4096)) >"$R/$CG/memory.stat"
echo 60 >"$R/proc/sys/vm/swappiness"
printf 'MemTotal: 8000000 kB\nSwapTotal: 1048576 kB\nSwapFree: 1048576 kB\n' >"$R/proc/meminfo"

# B6.1 today: [4, 4, 0, 0]; 3.14: [4, 4, 22, 22]
p12() { "$W" --root "$R" -j scan --cgroup /$CG "$@" | flat |
	awk '$1 ~ /^targets\.0\.rules\.0\.priorities\.0\.(inactive|active)_(anon|file)$/ { v = v sep $2; sep = "," } END { print v }'; }
is "$(p12)" "4,4,0,0" "--cgroup reads memory.stat in bytes: B6.1 at priority 12 is [4,4,0,0] today"
is "$(p12 --rule 3.14)" "4,4,22,22" "B6.1 under the 3.14 rule: the small file lists are forced: [4,4,22,22]"
is "$("$W" --root "$R" -j scan --cgroup /$CG | get targets.0.memcg)" "true" "--cgroup is cgroup reclaim"

# swap.max 0 in the cgroup: no swap for it, file only
echo 0 >"$R/$CG/memory.swap.max"
is "$("$W" --root "$R" -j scan --cgroup /$CG | get targets.0.rules.0.priorities.0.balance)" \
	"SCAN_FILE" "memory.swap.max 0: SCAN_FILE"
rm "$R/$CG/memory.swap.max"
# the root's swappiness 0 with cgroup reclaim: file only even at priority 0
echo 0 >"$R/proc/sys/vm/swappiness"
is "$("$W" --root "$R" -j scan --cgroup /$CG | get targets.0.rules.0.priorities.12.balance)" \
	"SCAN_FILE" "vm.swappiness 0 under --root, cgroup reclaim: SCAN_FILE at priority 0"
echo 60 >"$R/proc/sys/vm/swappiness"
# a cgroup v1 memory.swappiness wins over vm.swappiness
echo 0 >"$R/$CG/memory.swappiness"
is "$("$W" --root "$R" -j scan --cgroup /$CG | get targets.0.swappiness)" 0 "a cgroup's memory.swappiness (v1) is its swappiness"
rm "$R/$CG/memory.swappiness"
# no swap in meminfo
sed -i 's/^SwapFree:.*/SwapFree: 0 kB/' "$R/proc/meminfo"
is "$("$W" --root "$R" -j scan --cgroup /$CG | get targets.0.swap)" "false" "SwapFree 0: no swap"
is "$("$W" --root "$R" -j scan --cgroup /$CG --swap 1G | get targets.0.swap)" "true" "--swap 1G overrides SwapFree"
sed -i 's/^SwapFree:.*/SwapFree: 1048576 kB/' "$R/proc/meminfo"

# MGLRU on: said in text and JSON
mkdir -p "$R/sys/kernel/mm/lru_gen"
echo 0x0007 >"$R/sys/kernel/mm/lru_gen/enabled"
"$W" --root "$R" scan --cgroup /$CG | grep -q "MGLRU is on"
if [ $? -eq 0 ]; then ok "lru_gen/enabled 0x0007: the text says MGLRU bypasses get_scan_count"
else not_ok "lru_gen/enabled 0x0007: the text says MGLRU bypasses get_scan_count"; fi
is "$("$W" --root "$R" -j scan --cgroup /$CG | get mglru)" "true" "lru_gen/enabled 0x0007: \"mglru\": true"
echo 0 >"$R/sys/kernel/mm/lru_gen/enabled"
"$W" --root "$R" scan --cgroup /$CG | grep -q MGLRU
if [ $? -ne 0 ]; then ok "lru_gen/enabled 0: no MGLRU note"; else not_ok "lru_gen/enabled 0: no MGLRU note"; fi

# a node just above its anon-only line: file 3000 + 2000, free 20441 over
# the zones, Σ high of the managed zones 44 + 9097 + 16200 = 25341 (Movable,
# managed 0, is left out as for_each_managed_zone_pgdat does): 100 pages above
N=$tmp/node
cp -r "$R" "$N"
awk '
	/^Node/ { zone = $4 }
	$1 == "nr_inactive_file" { $0 = "      nr_inactive_file 3000" }
	$1 == "nr_active_file" { $0 = "      nr_active_file 2000" }
	$1 == "pages" && $2 == "free" { $0 = "  pages free     " (zone == "Normal" ? 20441 : 0) }
	{ print }' data/machines/vm-6.18-firecracker-A/proc/zoneinfo >"$N/proc/zoneinfo"
is "$("$W" --root "$N" -j scan | get targets.0.anon_only_margin)" "100" "file + free - Σ high over managed zones: 100 pages"
is "$("$W" --root "$N" -j scan | get targets.0.rules.0.priorities.0.balance)" "SCAN_FRACT" \
	"100 pages above the line, 3000 >> 12 = 0 inactive file: no cache trim, the fraction"
is "$("$W" --root "$N" -j scan | get targets.0.rules.0.priorities.1.balance)" "SCAN_FILE" \
	"at priority 11, 3000 >> 11 = 1 and inactive file not low: cache trim mode, file only"
# 101 pages less free: on the line's other side, anon only (inactive anon 22725 not low, >> 12 = 5)
sed -i 's/^  pages free     20441$/  pages free     20340/' "$N/proc/zoneinfo"
out=$("$W" --root "$N" -j scan)
is "$(echo "$out" | get targets.0.anon_only_margin)" "-1" "101 pages fewer free: margin -1"
is "$(echo "$out" | get targets.0.rules.0.priorities.0.balance)" "SCAN_ANON" "below the line: SCAN_ANON"
is "$(echo "$out" | get targets.0.rules.0.priorities.0.inactive_anon),$(echo "$out" | get targets.0.rules.0.priorities.0.active_anon)" \
	"$((22725 >> 12)),$((381 >> 12))" "below the line: anon lists >> 12"
"$W" --root "$N" scan | grep -q 'file + free <= Σ high: anon only'
if [ $? -eq 0 ]; then ok "the text names the reason: file + free <= Σ high"; else not_ok "the text names the reason: file + free <= Σ high"; fi

# whatif: wsf 1000 moves the node 100 pages above the line to below it;
# the margin after is file + free - Σ of whatif's own predicted highs
sed -i 's/^  pages free     20340$/  pages free     20441/' "$N/proc/zoneinfo"
after_high=$("$W" --root "$N" -j whatif --wsf 1000 | flat |
	awk '$1 ~ /^zones\.[0-9]+\.zone$/ { split($1, a, "."); z[a[2]] = $2 }
	     $1 ~ /^zones\.[0-9]+\.high$/ { split($1, a, "."); h[a[2]] = $2 }
	     END { for (i in h) if (z[i] != "Movable" && z[i] != "Device") s += h[i]; print s }')
want=$(awk -v h="$after_high" 'BEGIN { printf "Node 0: file + free moves to or below the anon-only line (Σ high): margin %.1f MiB now, %.1f MiB after: global reclaim scans anon only", 100 * 4096 / 1048576, (25441 - h) * 4096 / 1048576 }')
got=$("$W" --root "$N" whatif --wsf 1000 | grep '^Node 0: file + free')
is "$got" "$want" "whatif --wsf 1000 reports the node crossing the anon-only line (Σ high after $after_high)"
is "$("$W" --root "$N" -j whatif --wsf 1000 | get anon_only.0.anon_only)" "true" "whatif -j: anon_only after"
is "$("$W" --root "$N" -j whatif --wsf 1000 | get anon_only.0.anon_only_now)" "false" "whatif -j: not anon_only now"
got=$("$W" --root "$N" whatif --wsf 10 | grep '^Node 0: file + free')
case $got in *"stays above"*) ok "whatif --wsf 10 (today's value) stays above the line" ;;
*) not_ok "whatif --wsf 10 stays above the line (got '$got')" ;; esac

# errors
"$W" --root "$R" scan --cgroup /sys/fs/cgroup/nothere >/dev/null 2>"$tmp/err"
rc=$?
is "$rc" 3 "--cgroup of a missing cgroup: exit 3"
grep -q "nothere/memory.stat" "$tmp/err" && ok "the error names the path" || not_ok "the error names the path: $(cat "$tmp/err")"
"$W" --root "$R" scan --anon 1,2 --file 3,4 --swappiness 300 >/dev/null 2>&1
is $? 2 "--swappiness 300: exit 2"
"$W" --root "$R" scan --anon 1,2 --file 3 >/dev/null 2>&1
is $? 2 "--file 3 (one number): exit 2"
"$W" --root "$R" scan --anon 1,2 --file 3,4 --swappiness max --rule 3.14 >/dev/null 2>&1
is $? 2 "--swappiness max with --rule 3.14: exit 2"
is "$("$W" --root "$R" -j scan --anon 60000,60000 --file 1000,2000 --memcg --swap 1G --swappiness max | get targets.0.rules.0.priorities.0.balance)" \
	"SCAN_ANON" "--swappiness max (memory.reclaim swappiness=max, 6.16+): SCAN_ANON"
# swappiness=max only where memory.reclaim takes it (6.16+): 6.12 and 6.15
# answer EINVAL, so scan refuses it there as reclaim does, naming the kernel
for k in 6.12 6.15; do
	"$W" --kernel $k scan --anon 1,2 --file 3,4 --memcg --swap 1G --swappiness max >/dev/null 2>"$tmp/err"
	rc=$?
	is "$rc" 2 "--kernel $k scan --swappiness max: exit 2"
	grep -q "kernel $k has no swappiness=max" "$tmp/err" && ok "the error names kernel $k" ||
		not_ok "the error names kernel $k: $(cat "$tmp/err")"
done
is "$("$W" --kernel 6.16 -j scan --anon 60000,60000 --file 1000,2000 --memcg --swap 1G --swappiness max | get targets.0.rules.0.priorities.0.balance)" \
	"SCAN_ANON" "--kernel 6.16 scan --swappiness max: SCAN_ANON"

# vm.swappiness and a v1 memory.swappiness are 0..200 (the kernel's limits):
# anything else in the root is exit 2 naming file:1, never read as max or 0
S=$tmp/sw
cp -r "$R" "$S"
for v in 201 250 -7; do
	echo $v >"$S/proc/sys/vm/swappiness"
	"$W" --root "$S" scan --node 0 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	is "$rc" 2 "vm.swappiness $v in the root: exit 2"
	grep -q "$S/proc/sys/vm/swappiness:1: " "$tmp/err" && ok "vm.swappiness $v: the error names the file:1" ||
		not_ok "vm.swappiness $v: the error names the file:1: $(cat "$tmp/err")"
	is "$(wc -c <"$tmp/out")" 0 "vm.swappiness $v: nothing on stdout"
done
echo 60 >"$S/proc/sys/vm/swappiness"
echo 250 >"$S/$CG/memory.swappiness"
"$W" --root "$S" scan --cgroup /$CG --rule all >/dev/null 2>"$tmp/err"
is "$?" 2 "a cgroup's memory.swappiness 250: exit 2"
grep -q "$CG/memory.swappiness:1: " "$tmp/err" && ok "memory.swappiness 250: the error names the file:1" ||
	not_ok "memory.swappiness 250: the error names the file:1: $(cat "$tmp/err")"
rm "$S/$CG/memory.swappiness"
# a memory.swap.max that is no number is exit 2, as a bad memory.stat is
echo garbage >"$S/$CG/memory.swap.max"
"$W" --root "$S" scan --cgroup /$CG >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "memory.swap.max 'garbage': exit 2"
grep -q "$CG/memory.swap.max" "$tmp/err" && ok "memory.swap.max 'garbage': the error names the file" ||
	not_ok "memory.swap.max 'garbage': the error names the file: $(cat "$tmp/err")"
is "$(wc -c <"$tmp/out")" 0 "memory.swap.max 'garbage': nothing on stdout"
rm "$S/$CG/memory.swap.max"

"$W" --root "$R" scan --cgroup /$CG >/dev/full 2>/dev/null
rc=$?
[ $rc -ne 0 ] && ok "scan > /dev/full fails (exit $rc)" || not_ok "scan > /dev/full fails"
"$W" scan --help | grep -q -- '--cgroup PATH' && ok "scan --help lists --cgroup" || not_ok "scan --help lists --cgroup"

echo "1..$n"
