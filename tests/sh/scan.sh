#!/bin/bash
# wmark scan over root trees built from a captured machine: a cgroup's
# memory.stat, swappiness and swap from the root, MGLRU, the anon-only line
# of a node and whatif's report of a change that crosses it.  Expected
# numbers come from the worked examples of docs/model.md §13.6 or are
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

# the default rule by release: 4.13 up to 5.7, 5.8 for 5.8 and 5.9, current from 5.10
for kr in 4.13:4.13 5.7:4.13 5.8:5.8 5.9:5.8 5.10:current; do
	is "$("$W" --kernel ${kr%%:*} -j scan --anon 1,2 --file 3,4 --swap 1G | get default_rule)" "${kr#*:}" \
		"--kernel ${kr%%:*}: the default rule is ${kr#*:}"
done

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

# protection: a cgroup under a parent cgroup, B6.1's lists in both, usage
# 123000 pages, memory.min 50000 pages.  Reclaim of the cgroup itself
# ignores its own protection (mem_cgroup_protection()); reclaim from the
# parent applies it: B6.4, 60000 - 60000 * 50000 / 123001 = 35610, >> 12 = 8,
# 8 * 60 / 200 = 2, file 1000 - 406 = 594 >> 12 = 0
P=$tmp/prot
cp -r "$R" "$P"
PC=sys/fs/cgroup/par
mkdir -p "$P/$PC/job"
cp "$R/$CG/memory.stat" "$P/$PC/memory.stat"
cp "$R/$CG/memory.stat" "$P/$PC/job/memory.stat"
echo $((123000 * 4096)) >"$P/$PC/memory.current"
echo $((123000 * 4096)) >"$P/$PC/job/memory.current"
echo $((50000 * 4096)) >"$P/$PC/job/memory.min"
echo 0 >"$P/$PC/job/memory.low"
pp() { "$W" --root "$P" -j scan --cgroup /$PC/job "$@" | flat |
	awk -v p="${PRIO:-0}" '$1 ~ "^targets\\.0\\.rules\\.0\\.priorities\\." p "\\.(inactive|active)_(anon|file)$" { v = v sep $2; sep = "," } END { print v }'; }
is "$(pp)" "4,4,0,0" "a protected cgroup reclaimed itself: its protection is ignored, B6.1's [4,4,0,0]"
"$W" --root "$P" scan --cgroup /$PC/job | grep -q "memory.min 50000, memory.low 0, usage 123000 pages: not applied" &&
	ok "the text says the target's own memory.min is not applied" ||
	not_ok "the text says the target's own memory.min is not applied"
is "$(pp --from-parent)" "2,2,0,0" "--from-parent: memory.min 50000 of usage 123000 scales B6.1 to B6.4's [2,2,0,0]"
is "$("$W" --root "$P" -j scan --cgroup /$PC/job --from-parent | get targets.0.protection.applied)" true \
	"--from-parent: \"applied\": true"
is "$("$W" --root "$P" -j scan --cgroup /$PC/job --from-parent | get targets.0.reclaim_from)" parent \
	"the parent has a memory.current: reclaim from a parent cgroup"
echo $((123000 * 4096)) >"$P/$PC/job/memory.min"
is "$(PRIO=12 pp --from-parent)" "0,0,0,0" "usage <= memory.min: skipped even at priority 0"
"$W" --root "$P" scan --cgroup /$PC/job --from-parent | grep -q "usage <= memory.min: the cgroup is skipped" &&
	ok "the why column says the cgroup is skipped" || not_ok "the why column says the cgroup is skipped"
echo 0 >"$P/$PC/job/memory.min"
echo $((130000 * 4096)) >"$P/$PC/job/memory.low"
is "$(pp --from-parent)" "0,0,0,0" "usage <= memory.low: skipped in the first pass"
# the retry pass: protection is memory.min, 0: max(60000 - 0, 32) >> 12 = 14, 14 * 60 / 200 = 4
is "$(pp --from-parent --low-reclaim)" "4,4,0,0" "--low-reclaim: memory.low disregarded, [4,4,0,0]"
echo max >"$P/$PC/job/memory.low"
is "$("$W" --root "$P" -j scan --cgroup /$PC/job --from-parent | get targets.0.rules.0.priorities.12.balance)" "SCAN_EQUAL" \
	"memory.low max reads (balance still decided at priority 0)"
is "$(PRIO=12 pp --from-parent)" "0,0,0,0" "memory.low max: skipped"
echo 0 >"$P/$PC/job/memory.low"
echo $((50000 * 4096)) >"$P/$PC/job/memory.min"
# a cgroup whose parent is the root cgroup (no memory.current): global reclaim,
# the balance on node 0; at priority 0 SCAN_EQUAL: max(35610, 32) >> 0
mkdir -p "$P/sys/fs/cgroup/top"
cp "$P/$PC/job/memory."* "$P/sys/fs/cgroup/top/"
out=$("$W" --root "$P" -j scan --cgroup /sys/fs/cgroup/top --from-parent)
is "$(echo "$out" | get targets.0.reclaim_from),$(echo "$out" | get targets.0.memcg)" "global,false" \
	"the parent is the root cgroup: global reclaim"
is "$(echo "$out" | get targets.0.rules.0.priorities.12.inactive_anon)" 35610 \
	"global reclaim at priority 0: 60000 - 60000 * 50000 / 123001 = 35610"
"$W" --root "$P" scan --cgroup /$PC/job --low-reclaim >/dev/null 2>&1
is $? 2 "--low-reclaim without --from-parent: exit 2"
"$W" --root "$P" scan --cgroup /$PC/job --from-parent --node 0 >/dev/null 2>&1
is $? 2 "--node with --from-parent under a parent cgroup: exit 2"
echo junk >"$P/$PC/job/memory.min"
"$W" --root "$P" scan --cgroup /$PC/job >/dev/null 2>"$tmp/err"
is $? 2 "memory.min 'junk': exit 2"
grep -q "job/memory.min:1: " "$tmp/err" && ok "memory.min 'junk': the error names file:1" ||
	not_ok "memory.min 'junk': the error names file:1: $(cat "$tmp/err")"

# 7.x: the counts are of order-0 pages; each list's large-folio bound is
# N + ceil(N / 32) x (F - 1), F the largest folio (PMD size here)
out=$("$W" --kernel 7.2 -j scan --anon 60000,60000 --file 150000,100 --memcg --swap 1G --swappiness 60)
echo "$out" | flat | awk '
	$1 == "largest_folio_pages" { f = $2 }
	$1 ~ /priorities\.[0-9]+\.(inactive|active)_(anon|file)$/ { k = $1; sub(/\.[a-z_]+$/, "", k); i = ($1 ~ /inactive_anon$/) ? 0 : ($1 ~ /active_anon$/) ? 1 : ($1 ~ /inactive_file$/) ? 2 : 3; nr[k "." i] = $2 }
	$1 ~ /priorities\.[0-9]+\.folio_bound\.[0-3]$/ { k = $1; i = k; sub(/^.*\./, "", i); sub(/\.folio_bound\.[0-3]$/, "", k); fb[k "." i] = $2; nb++ }
	END { if (f < 2 || nb != 52) { print "no bound"; exit }
	      for (x in fb) { n = nr[x]; w = n ? n + int((n + 31) / 32) * (f - 1) : 0; if (fb[x] != w) { print "bad " x " " fb[x] " " w; exit } }
	      print "ok" }' >"$tmp/fb"
is "$(cat "$tmp/fb")" ok "--kernel 7.2: each list's folio_bound is N + ceil(N / 32) x (F - 1)"
"$W" --kernel 7.2 scan --anon 60000,60000 --file 150000,100 --memcg --swap 1G | grep -q "counts are of order-0 pages" &&
	ok "--kernel 7.2: the text says the counts are of order-0 pages" ||
	not_ok "--kernel 7.2: the text says the counts are of order-0 pages"
"$W" --kernel 6.12 scan --anon 60000,60000 --file 150000,100 --memcg --swap 1G | grep -q "order-0" &&
	not_ok "--kernel 6.12: no order-0 note" || ok "--kernel 6.12: no order-0 note"

# ---- the machine's page size with given sizes: Debian's arm64-16k and
# powerpc64le-64k kernels booted under qemu.  A swap smaller than one page
# is none: get_scan_count() scans file only when can_reclaim_anon_pages()
# finds no free swap page (get_nr_swap_pages() counts pages; 6.12 mm/vmscan.c)
for m in qemu-arm64-k612-16k-4g:16384:8K qemu-ppc64le-k612-64k-4g:65536:32K; do
	IFS=: read -r name ps sw <<<"$m"
	"$W" --root "data/machines/$name" -j scan --anon 1000,2000 --file 3000,4000 --swap "$sw" \
		>"$tmp/ps.json"
	is "$(get page_size <"$tmp/ps.json")" "$ps" "given sizes on $name: the root's page size $ps"
	is "$(get targets.0.swap <"$tmp/ps.json")" false \
		"given sizes on $name: --swap $sw is less than one page, so no swap"
	is "$(get targets.0.rules.0.priorities.0.balance <"$tmp/ps.json")" SCAN_FILE \
		"given sizes on $name: file only at priority 12, as the kernel without swap"
done

# a root without vm.swappiness and SwapFree: 60 and swap assumed, said in
# text before the report, and not in JSON (its swappiness and swap say them)
N=$tmp/noswap
cp -r data/machines/qemu-k612-2g-apps "$N"
rm -f "$N/proc/sys/vm/swappiness"
sed -i '/^SwapFree:/d' "$N/proc/meminfo"
"$W" --root "$N" scan >"$tmp/ns.txt" 2>&1
is "$(sed -n 1p "$tmp/ns.txt")" "vm.swappiness not readable: 60 assumed (give --swappiness)" \
	"no vm.swappiness: the text's first line says 60 is assumed"
is "$(sed -n 2p "$tmp/ns.txt")" "SwapFree not readable: swap assumed available (give --swap)" \
	"no SwapFree: the text's second line says swap is assumed"
"$W" --root "$N" -j scan >"$tmp/ns.json" 2>&1
is "$(head -c 1 "$tmp/ns.json")" "{" "no vm.swappiness, -j: the document alone on stdout"
is "$(get targets.0.swappiness <"$tmp/ns.json") $(get targets.0.swap <"$tmp/ns.json")" "60 true" \
	"no vm.swappiness, -j: swappiness 60 and swap true in the document"

"$W" --root "$R" scan --cgroup /$CG >/dev/full 2>/dev/null
rc=$?
[ $rc -ne 0 ] && ok "scan > /dev/full fails (exit $rc)" || not_ok "scan > /dev/full fails"
"$W" scan --help | grep -q -- '--cgroup PATH' && ok "scan --help lists --cgroup" || not_ok "scan --help lists --cgroup"

echo "1..$n"
