#!/bin/bash
# One rule in one place: every command gives the same answer to the same
# input (an out-of-range value, a missing or impossible sysctl file, a
# number no zoneinfo can hold), apply and whatif predict the same zones,
# and machines with 16 KiB and 64 KiB pages are modelled with their own
# geometry (docs/model.md §11.1).  Prints TAP.
. "$(dirname "$0")/lib.sh"
D=data/machines

is() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then ok "$what"; else nok "$what"; sed 's/^/# /' "$tmp/e" 2>/dev/null | head -5; fi
}

# run ARGS...: stdout in $tmp/o, stderr in $tmp/e, status in $rc
run() { "$W" "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?; }

fresh() {	# a writable copy of a fixture
	rm -rf "$tmp/r"
	cp -r "$D/$1" "$tmp/r"
}

# ---- an out-of-range value: exit 2, the same words, in every command
fresh qemu-k61-4g-before
for c in "verify --wsf 2000" "whatif --wsf 2000" "apply -n --wsf 2000"; do
	# shellcheck disable=SC2086
	run --root "$tmp/r" --kernel 4.9 $c
	is "--kernel 4.9 $c: exit 2, kernel 4.9 accepts 1..1000" \
		test $rc = 2 -a -n "$(grep 'watermark_scale_factor 2000 is out of range: kernel 4.9 accepts 1..1000' "$tmp/e")"
done
run calc --mem 8G --wsf -1
is "calc --wsf -1 is exit 2 (it computed wsf 10)" test $rc = 2 -a -n "$(grep 'accepts 1..3000' "$tmp/e")"
run --kernel 6.1 calc --mem 8G --min-free-kbytes -1
is "calc --min-free-kbytes -1 is exit 2" test $rc = 2

# ---- a sysctl file holding a value no kernel holds: exit 2 naming file:line
for knob in min_free_kbytes watermark_scale_factor watermark_boost_factor; do
	fresh qemu-k61-4g-before
	echo -1 >"$tmp/r/proc/sys/vm/$knob"
	for c in show verify "whatif --wsf 100" "recommend --burst 10M" "apply -n --wsf 100"; do
		# shellcheck disable=SC2086
		run --root "$tmp/r" $c
		is "$knob -1: $c is exit 2 naming the file" \
			test $rc = 2 -a -n "$(grep -F "$tmp/r/proc/sys/vm/$knob:1: $knob -1 is out of range" "$tmp/e")"
	done
done

# ---- a capture without min_free_kbytes: exit 2 naming the path, with the option that gives it
fresh qemu-k61-4g-before
rm "$tmp/r/proc/sys/vm/min_free_kbytes"
for c in verify "whatif --wsf 100" "recommend --burst 10M" "apply -n --wsf 100"; do
	# shellcheck disable=SC2086
	run --root "$tmp/r" $c
	is "no min_free_kbytes: $c is exit 2 naming the path" \
		test $rc = 2 -a -n "$(grep -F "$tmp/r/proc/sys/vm/min_free_kbytes: not there" "$tmp/e")"
done
run --root "$tmp/r" recommend --burst 10M
is "recommend says which option supplies it" test -n "$(grep -F '(give --min-free-kbytes)' "$tmp/e")"
run --root "$tmp/r" recommend --burst 10M --min-free-kbytes 67584
is "and with --min-free-kbytes it recommends (exit 0)" test $rc = 0 -a -n "$(grep 'Apply with' "$tmp/o")"
run --root "$tmp/r" verify
is "verify says which option supplies it" test -n "$(grep -F '(give --min-free-kbytes, or --infer)' "$tmp/e")"
run --root "$tmp/r" verify --min-free-kbytes 67584
is "and with --min-free-kbytes it verifies (stale, exit 1)" test $rc = 1 -a -n "$(grep 'verdict: stale' "$tmp/o")"
run --root "$tmp/r" show
is "show needs no min_free_kbytes (exit 0)" test $rc = 0

# ---- 2^64-1 in zoneinfo cannot be a page count: exit 2 "too large", file:line
fresh qemu-k61-4g-before
sed -i '53s/managed  3840/managed  18446744073709551615/' "$tmp/r/proc/zoneinfo"
for c in show verify "-j show"; do
	# shellcheck disable=SC2086
	run --root "$tmp/r" $c
	is "managed 2^64-1: $c is exit 2, zoneinfo:53 too large" \
		test $rc = 2 -a -n "$(grep -F "$tmp/r/proc/zoneinfo:53: the value of 'managed' is too large" "$tmp/e")"
done

# ---- page counts up to 2^52 are printed exactly in JSON; past it no
# machine's: refused (2^53+1 once came out as 9.00719925474099e+15)
fresh qemu-k61-4g-before
sed -i '94s/managed  765920/managed  4503599625273345/' "$tmp/r/proc/zoneinfo"
run --root "$tmp/r" -j show
is "show -j prints managed 2^52-2^21+1 digit for digit" \
	test $rc = 0 -a -n "$(grep -F '"managed":	4503599625273345,' "$tmp/o")"
fresh qemu-k61-4g-before
sed -i '94s/managed  765920/managed  9007199254740993/' "$tmp/r/proc/zoneinfo"
run --root "$tmp/r" -j show
is "show -j refuses managed 2^53+1: exit 2, zoneinfo:94 too large" \
	test $rc = 2 -a ! -s "$tmp/o" -a -n "$(grep -F "$tmp/r/proc/zoneinfo:94: the value of 'managed' is too large" "$tmp/e")"

# ---- apply -j and whatif -j predict the same zones
same_prediction() {	# root, change options...
	local r=$1
	shift
	"$W" --root "$r" -j whatif "$@" >"$tmp/w.json" 2>"$tmp/e" &&
	"$W" --root "$r" -j apply -n "$@" >"$tmp/a.json" 2>>"$tmp/e" &&
	py - "$tmp/w.json" "$tmp/a.json" 2>>"$tmp/e" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))
a = json.load(open(sys.argv[2]))
key = lambda z: (z["node"], z["zone"])
wz = {key(z): z for z in w["zones"]}
az = {key(z): z for z in a["predicted"]}
assert wz.keys() == az.keys(), (sorted(wz), sorted(az))
for k in wz:
    for f in ("min", "low", "high", "promo", "boost", "protection"):
        assert wz[k][f] == az[k][f], (k, f, wz[k][f], az[k][f])
EOF
}
fresh qemu-k61-4g-before
for c in "--wsf 120" "--min-free-kbytes 32768" "--boost-factor 0" "--lowmem-reserve-ratio 64,64,16,0,0"; do
	# shellcheck disable=SC2086
	is "apply -n -j and whatif -j predict the same zones: $c" same_prediction "$tmp/r" $c
done
# a boosted zone: the boost stays when nothing recomputes, and goes when it does
awk 'NR == 47 { $0 = "        boost    512" }
     NR >= 48 && NR <= 50 { $0 = sprintf("        %-8s %d", $1, $2 + 512) } { print }' \
	"$tmp/r/proc/zoneinfo" >"$tmp/zi" && mv "$tmp/zi" "$tmp/r/proc/zoneinfo"
for c in "--boost-factor 0" "--wsf 120"; do
	# shellcheck disable=SC2086
	is "with a 512-page boost, the same zones: $c" same_prediction "$tmp/r" $c
done
"$W" --root "$tmp/r" -j whatif --boost-factor 0 >"$tmp/w.json"
is "a boost_factor write keeps the printed watermarks and their boost" py -c "
import json; z = [z for z in json.load(open('$tmp/w.json'))['zones'] if z['zone'] == 'DMA'][0]
assert z['boost'] == 512 and z['min'] == z['now']['min'] and z['high'] == z['now']['high'], z"
"$W" --root "$tmp/r" -j whatif --wsf 120 >"$tmp/w.json"
is "a wsf write recomputes and resets the boost" py -c "
import json; z = [z for z in json.load(open('$tmp/w.json'))['zones'] if z['zone'] == 'DMA'][0]
assert z['boost'] == 0 and z['min'] == z['now']['min'] - 512, z"

# ---- 16 KiB pages: a root whose MemTotal says so (docs/model.md §11.1 worked example)
mk16k() {
	rm -rf "$tmp/k16"
	mkdir -p "$tmp/k16/proc/sys/vm" "$tmp/k16/proc/sys/kernel"
	echo 6.12.117+deb13-arm64-16k >"$tmp/k16/proc/sys/kernel/osrelease"
	echo 202272 >"$tmp/k16/proc/sys/vm/min_free_kbytes"
	echo 120 >"$tmp/k16/proc/sys/vm/watermark_scale_factor"
	echo 15000 >"$tmp/k16/proc/sys/vm/watermark_boost_factor"
	printf '256\t256\t32\t0\t0\n' >"$tmp/k16/proc/sys/vm/lowmem_reserve_ratio"
	printf 'MemTotal:        4066048 kB\nMemFree:         3000000 kB\n' >"$tmp/k16/proc/meminfo"
	zone() {	# name managed min low high promo
		printf 'Node 0, zone %8s\n  pages free     %s\n        boost    0\n        min      %s\n        low      %s\n        high     %s\n        promo    %s\n        spanned  %s\n        present  %s\n        managed  %s\n        cma      0\n        protection: (0, 0, 0, 0, 0)\n' \
			"$1" "$(($2 / 2))" "$3" "$4" "$5" "$6" "$2" "$2" "$2"
	}
	{
		zone DMA 189223 9413 11766 14119 16472
		zone DMA32 0 0 0 0 0
		zone Normal 64905 3228 4035 4842 5649
		zone Movable 0 32 32 32 32
		zone Device 0 0 0 0 0
	} >"$tmp/k16/proc/zoneinfo"
}
mk16k
run --root "$tmp/k16" verify --lowmem-reserve-ratio "0 0 0 0 0"
is "16K: verify says exact (the watermarks of 11.1, page size from MemTotal)" \
	test $rc = 0 -a -n "$(grep 'verdict: exact' "$tmp/o")"
run --root "$tmp/k16" -j show
is "16K: show -j says page size 16384 from meminfo, pageblock 2048" py -c "
import json; d = json.load(open('$tmp/o'))
assert (d['page_size'], d['page_size_source'], d['pageblock_pages']) == (16384, 'meminfo', 2048), d"
run --root "$tmp/k16" -j whatif --wsf 10
is "16K: whatif --wsf 10 changes nothing (the floor wins at 16K)" py -c "
import json; z = {z['zone']: z for z in json.load(open('$tmp/o'))['zones']}
assert (z['DMA']['min'], z['DMA']['low'], z['DMA']['high']) == (9413, 11766, 14119), z['DMA']
assert (z['Normal']['min'], z['Normal']['low'], z['Normal']['high']) == (3228, 4035, 4842), z['Normal']"
run -j --kernel 6.12.117 calc --page-size 16K --zone DMA=$((189223 * 16384)) --zone DMA32=0 \
	--zone Normal=$((64905 * 16384)) --zone Movable=0 --zone Device=0 --min-free-kbytes 202272 --wsf 120
is "16K: calc --page-size 16K reproduces 11.1: DMA 9413/11766/14119/16472" py -c "
import json; z = {z['zone']: z for z in json.load(open('$tmp/o'))['zones']}
assert [z['DMA'][f] for f in ('min', 'low', 'high', 'promo')] == [9413, 11766, 14119, 16472], z['DMA']
assert [z['Normal'][f] for f in ('min', 'low', 'high', 'promo')] == [3228, 4035, 4842, 5649]"
rm "$tmp/k16/proc/meminfo"
run --root "$tmp/k16" verify --lowmem-reserve-ratio "0 0 0 0 0"
is "16K without meminfo: 4096 assumed, said, and the numbers do not fit" \
	test $rc = 1 -a -n "$(grep 'page size 4096 bytes assumed' "$tmp/o")"

# ---- 64 KiB pages with a 32-page pageblock (ppc64le radix: only pagetypeinfo says)
run -j --kernel 6.12.107 calc --page-size 64K --pageblock-pages 32 --zone Normal=$((64494 * 65536)) \
	--zone Movable=0 --zone Device=0 --thp always
is "64K: calc gives the boot min_free_kbytes 22528 and min/low/high/promo 352/440/528/616" py -c "
import json; d = json.load(open('$tmp/o')); z = d['zones'][0]
assert d['min_free_kbytes']['value'] == 22528, d['min_free_kbytes']
assert [z[f] for f in ('min', 'low', 'high', 'promo')] == [352, 440, 528, 616], z"
run -j --kernel 6.12.107 calc --page-size 64K --zone Normal=$((64494 * 65536)) \
	--zone Movable=0 --zone Device=0 --thp always
is "64K: without the pageblock the PMD rule (8192 pages) gives another value" py -c "
import json; d = json.load(open('$tmp/o')); assert d['min_free_kbytes']['value'] != 22528, d"
rm -rf "$tmp/p64"
mkdir -p "$tmp/p64/proc/sys/vm" "$tmp/p64/proc/sys/kernel"
echo 6.12.107+deb13-powerpc64le-64k >"$tmp/p64/proc/sys/kernel/osrelease"
echo 22528 >"$tmp/p64/proc/sys/vm/min_free_kbytes"
echo 120 >"$tmp/p64/proc/sys/vm/watermark_scale_factor"
printf '32\t0\t0\n' >"$tmp/p64/proc/sys/vm/lowmem_reserve_ratio"
printf 'MemTotal:        4127616 kB\n' >"$tmp/p64/proc/meminfo"
printf 'Page block order: 5\nPages per block:  32\n' >"$tmp/p64/proc/pagetypeinfo"
printf 'Node 0, zone   Normal\n  pages free     60000\n        boost    0\n        min      352\n        low      1125\n        high     1898\n        promo    2671\n        spanned  65536\n        present  65536\n        managed  64494\n        protection: (0, 0, 0)\nNode 0, zone  Movable\n  pages free     0\n        boost    0\n        min      32\n        low      32\n        high     32\n        promo    32\n        spanned  0\n        present  0\n        managed  0\n        protection: (0, 0, 0)\nNode 0, zone   Device\n  pages free     0\n        boost    0\n        min      0\n        low      0\n        high     0\n        promo    0\n        spanned  0\n        present  0\n        managed  0\n        protection: (0, 0, 0)\n' \
	>"$tmp/p64/proc/zoneinfo"
run --root "$tmp/p64" -j verify
is "64K: verify of the ppc64le state after wsf 120 is exact, pageblock 32 from pagetypeinfo" py -c "
import json; d = json.load(open('$tmp/o'))
assert d['verdict'] == 'exact', d['verdict']
assert (d['page_size'], d['pageblock_pages'], d['pageblock_source']) == (65536, 32, 'given'), d"
printf 'Page block order: 5\nPages per block:  64\n' >"$tmp/p64/proc/pagetypeinfo"
run --root "$tmp/p64" show
is "a pagetypeinfo that contradicts itself is exit 2 naming its line" \
	test $rc = 2 -a -n "$(grep -F "$tmp/p64/proc/pagetypeinfo:2:" "$tmp/e")"

# ---- -o prom: produced (calc, show, verify) or refused with exit 2, never text
fresh vm-6.18-firecracker-A
for c in "whatif --wsf 100" "apply -n --wsf 100" rollback "recommend --burst 1M" capture "stalls --all" "completion bash"; do
	# shellcheck disable=SC2086
	run --root "$tmp/r" -o prom $c
	is "-o prom $c is refused (exit 2, nothing on stdout)" \
		test $rc = 2 -a ! -s "$tmp/o" -a -n "$(grep 'has no Prometheus form' "$tmp/e")"
done
run -o prom whatif --help
is "-o prom whatif --help still prints the help" test $rc = 0 -a -s "$tmp/o"
# verify's Prometheus form says what its JSON says (the JSON is checked
# against the kernel in the goldens): per-zone match, verdict, moved pages
for m in qemu-k61-4g-before qemu-k612-4g-after qemu-k612-4g-before; do
	"$W" --root "$D/$m" verify -j >"$tmp/j" 2>/dev/null
	jrc=$?
	run --root "$D/$m" verify -o prom
	is "verify -o prom of $m: exit $jrc as -j, and match/verdict/moved pages as its JSON" py -c "
import json, re, sys
d = json.load(open('$tmp/j'))
rc, jrc = $rc, $jrc
assert rc == jrc, (rc, jrc)
s = {}
for line in open('$tmp/o'):
    if not line.startswith('#'):
        k, v = line.rsplit(' ', 1)
        s[k] = float(v)
for z in d['zones']:
    k = 'wmark_verify_match{node=\"%d\",zone=\"%s\"}' % (z['node'], z['zone'])
    assert s[k] == (1 if z['match'] else 0), k
    for f in ('min', 'low', 'high'):
        k = 'wmark_verify_expected_%s_pages{node=\"%d\",zone=\"%s\"}' % (f, z['node'], z['zone'])
        assert s[k] == z['expected'][f], k
for v in ('exact', 'stale', 'mismatch', 'cannot-verify'):
    assert s['wmark_verify_verdict{verdict=\"%s\"}' % v] == (v == d['verdict']), v
assert s.get('wmark_verify_managed_moved_pages') == d.get('managed_moved_pages', 0), s.get('wmark_verify_managed_moved_pages')
"
done
fresh qemu-k61-4g-before
rm "$tmp/r/proc/sys/vm/min_free_kbytes"
run --root "$tmp/r" verify -o prom
is "verify -o prom that cannot verify: the verdict cannot-verify, and no text" \
	test $rc != 0 -a -n "$(grep -Fx 'wmark_verify_verdict{verdict="cannot-verify"} 1' "$tmp/o")" \
	-a -z "$(grep -v '^wmark_\|^# ' "$tmp/o")"
run --root "$tmp/r" -o prom show
is "-o prom show is Prometheus text" test $rc = 0 -a -n "$(grep '^# TYPE wmark_' "$tmp/o")"

echo "1..$n"
