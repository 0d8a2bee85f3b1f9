#!/bin/bash
# The command line as a user meets it: JSON that parses, Prometheus output
# that promtool accepts, every usage error of calc/show/verify/whatif/capture
# with its exit status and one-line message, stdout write errors, and a
# one-page change that verify must call a mismatch.  Prints TAP.
. "$(dirname "$0")/lib.sh"
D=data/machines

check() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@" >"$tmp/o" 2>"$tmp/e"; then ok "$what"; else nok "$what"; sed 's/^/# /' "$tmp/e" | head -5; fi
}

# usage errors: exit 2, one line naming the problem, then the Try line
expect_usage() {	# want-regex args...
	local want=$1
	shift
	"$W" "$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$? lines
	lines=$(wc -l <"$tmp/e")
	if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && grep -q "$want" "$tmp/e" && [ "$lines" -le 2 ] &&
	   grep -q "^Try 'wmark --help'" "$tmp/e"; then
		ok "wmark $* is a usage error: $want"
	else
		nok "wmark $* is a usage error: $want (exit $rc)"
		sed 's/^/# /' "$tmp/e" | head -5
	fi
}

check "calc --mem 8G -j is one JSON document" bash -c "'$W' -j calc --mem 8G | py -m json.tool"
for c in "calc --mem 8G --formula both" "--root $D/vm-6.18-firecracker-A show" \
	 "--root $D/qemu-k61-4g-after verify" "--root $D/qemu-k61-4g-before whatif --wsf 120" \
	 "--root $D/qemu-k612-16g-2n-movable4g-before show"; do
	check "-j $c parses as JSON" bash -c "'$W' -j $c | py -m json.tool"
done
check "verify -j keeps stdout JSON even when the check fails" \
	bash -c "'$W' -j --root $D/qemu-k61-4g-before verify | py -c 'import json,sys; d=json.load(sys.stdin); assert d[\"verdict\"]==\"stale\" and d[\"match\"] is False'"
if command -v promtool >/dev/null; then
	check "show -o prom passes promtool check metrics" \
		bash -c "'$W' -o prom --root $D/vm-6.18-firecracker-A show | promtool check metrics"
	check "verify -o prom passes promtool check metrics" \
		bash -c "'$W' --root $D/qemu-k61-4g-before verify -o prom | promtool check metrics"
	check "calc -o prom passes promtool check metrics" \
		bash -c "'$W' -o prom calc --zone DMA=15M --zone DMA32=3G --zone 1:Normal=4G | promtool check metrics"
else
	n=$((n + 1)); echo "ok $n - -o prom passes promtool # SKIP promtool not installed"
fi

expect_usage "unknown option '--bogus'" calc --mem 8G --bogus
expect_usage "give --mem SIZE or --zone" calc
expect_usage "do not go together" calc --mem 8G --zone Normal=1G
expect_usage "not a size" calc --mem big
expect_usage "unknown unit" calc --mem 8Q
expect_usage "unknown unit" calc --mem 1P
expect_usage "not a size" calc --mem "1 G"
expect_usage "too large" calc --mem 99999999999999999999
expect_usage "unknown zone 'Foo'" calc --zone Foo=1G
expect_usage "expected \[NODE:\]NAME=SIZE" calc --zone Normal
expect_usage "bad node number" calc --zone :Normal=1G
expect_usage "given twice" calc --zone Normal=1G --zone Normal=2G
expect_usage "Device zone manages no pages" calc --zone Device=1G
expect_usage "accepts 1..3000" calc --mem 8G --wsf 0
expect_usage "accepts 1..3000" calc --mem 8G --wsf 3001
expect_usage "watermark_scale_factor -1 is out of range" calc --mem 8G --wsf -1
expect_usage "accepts 1..1000" --kernel 5.16.20 calc --mem 8G --wsf 1001
expect_usage "no watermark boost" --kernel 4.19 calc --mem 8G --boost-factor 100
expect_usage "out of range" calc --mem 8G --min-free-kbytes -1
expect_usage "not a whole number" calc --mem 8G --min-free-kbytes 12k
expect_usage "always, madvise, never or none" calc --mem 8G --thp sometimes
expect_usage "stock, sqrt, quarter or both" calc --mem 8G --formula cubic
expect_usage "stock, sqrt or quarter" verify --formula both
expect_usage "4096, 16384 or 65536" calc --mem 8G --page-size 8192
expect_usage "lowmem-reserve-ratio: .*not a" calc --mem 8G --lowmem-reserve-ratio "256 x"
expect_usage "at most 6 values" calc --mem 8G --lowmem-reserve-ratio "1 2 3 4 5 6 7"
expect_usage "not a kernel release" --kernel 6 calc --mem 8G
expect_usage "unknown format 'xml'" -o xml show
expect_usage "unknown command 'shw'" shw
expect_usage "no command given"
expect_usage "unexpected argument" show extra
expect_usage "option '--root' needs a value" --root
expect_usage "option '--kernel' needs a value" --kernel
expect_usage "option '-o' needs a value" -o
expect_usage "option '--burst' needs a value" recommend --burst
expect_usage "option '--mem' needs a value" calc --mem
expect_usage "option '--wsf' needs a value" calc --mem 4G --wsf
expect_usage "option '--wsf' needs a value" --root data/machines/vm-6.18-firecracker-A verify --wsf
expect_usage "option '--wsf' needs a value" --root data/machines/vm-6.18-firecracker-A whatif --wsf
expect_usage "name a change" --root $D/qemu-k61-4g-before whatif
expect_usage "accepts 1..3000" --root $D/qemu-k61-4g-before whatif --wsf 3001
expect_usage "accepts 0..2147483647" --root $D/qemu-k61-4g-before whatif --min-free-kbytes -5
expect_usage "has 5 entries, not 3" --root $D/qemu-k61-4g-before whatif --lowmem-reserve-ratio "1 2 3"
expect_usage "out of range" --root $D/qemu-k61-4g-before verify --wsf 0
expect_usage "give one destination" capture

# blanks around a size are skipped on both sides
for m in " 1G" "1G " " 1G "; do
	check "calc --mem '$m' is 1 GiB" bash -c "'$W' -j calc --mem '$m' | py -c 'import json,sys; assert json.load(sys.stdin)[\"zones\"][0][\"managed\"] == 262144'"
done

# --help and --version go to stdout with status 0
for c in "--help" "-V" "help" "calc --help" "show --help" "verify --help" "whatif --help" "capture --help"; do
	check "wmark $c prints to stdout and exits 0" bash -c "'$W' $c | grep -q ."
done

# the system refused: exit 3 naming the path
"$W" --root "$tmp/none" show >"$tmp/o" 2>"$tmp/e"
if [ $? = 3 ] && grep -q "$tmp/none/proc/zoneinfo: No such file" "$tmp/e"; then ok "a missing zoneinfo is exit 3 naming the path"; else nok "a missing zoneinfo is exit 3 naming the path"; fi
"$W" --root $D/vm-6.18-firecracker-A show >/dev/full 2>"$tmp/e"
if [ $? = 3 ] && grep -q "write error" "$tmp/e"; then ok "show > /dev/full fails with a write error"; else nok "show > /dev/full fails with a write error"; fi

# malformed zoneinfo: exit 2 with file:line
mkdir -p "$tmp/bad/proc"
printf 'Node 0, zone   Normal\n  pages free     10\n        min      abc\n' >"$tmp/bad/proc/zoneinfo"
"$W" --root "$tmp/bad" show >"$tmp/o" 2>"$tmp/e"
if [ $? = 2 ] && grep -q "$tmp/bad/proc/zoneinfo:3:" "$tmp/e"; then ok "malformed zoneinfo is exit 2 with file:line"; else nok "malformed zoneinfo is exit 2 with file:line"; sed 's/^/# /' "$tmp/e"; fi

# verify: a copy with one watermark one page off is a mismatch, never stale
for f in min low high; do
	cp -r $D/qemu-k61-4g-after "$tmp/off-$f"
	awk -v f="$f" 'BEGIN { done = 0 } /zone +DMA32/ { z = 1 } z && !done && $1 == f { sub(/[0-9]+$/, $2 + 1); done = 1 } { print }' \
		$D/qemu-k61-4g-after/proc/zoneinfo >"$tmp/off-$f/proc/zoneinfo"
	"$W" --root "$tmp/off-$f" verify >"$tmp/o" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "verdict: mismatch" "$tmp/o" && grep -q "$f .*kernel .*(+1)" "$tmp/o"; then
		ok "verify calls DMA32 $f one page off a mismatch, with the diff"
	else
		nok "verify calls DMA32 $f one page off a mismatch, with the diff (exit $rc)"
		sed 's/^/# /' "$tmp/o" | tail -8
	fi
done
cp -r $D/qemu-k61-4g-after "$tmp/prot"
sed 's/protection: (0, 11967, 15592, 15592, 15592)/protection: (0, 11967, 15593, 15592, 15592)/' \
	$D/qemu-k61-4g-after/proc/zoneinfo >"$tmp/prot/proc/zoneinfo"
"$W" --root "$tmp/prot" verify >"$tmp/o" 2>&1
if [ $? = 1 ] && grep -q "protection kernel (0, 11967, 15593" "$tmp/o" && grep -q "verdict: mismatch" "$tmp/o"; then
	ok "verify shows a protection entry one page off"
else
	nok "verify shows a protection entry one page off"
	sed 's/^/# /' "$tmp/o" | tail -8
fi

# an excerpt without managed or present pages cannot be verified
mkdir -p "$tmp/excerpt/proc"
printf 'Node 0, zone   Normal\n  pages free     10\n        min      5\n        low      6\n        high     7\n' >"$tmp/excerpt/proc/zoneinfo"
"$W" --root "$tmp/excerpt" verify >"$tmp/o" 2>"$tmp/e"
if [ $? = 1 ] && grep -q "cannot verify: no managed pages" "$tmp/e"; then ok "verify of an excerpt without managed pages says it cannot, exit 1"; else nok "verify of an excerpt without managed pages says it cannot, exit 1"; fi
# zone headers alone: whatif, apply -n and recommend refuse too, naming the file
cp -r $D/vm-6.18-firecracker-A "$tmp/headers"
printf 'Node 0, zone      DMA\n  per-node s' >"$tmp/headers/proc/zoneinfo"
for c in "whatif --wsf 200" "apply -n --wsf 200" "recommend --burst 100M"; do
	# shellcheck disable=SC2086
	"$W" --root "$tmp/headers" $c >"$tmp/o" 2>"$tmp/e"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && grep -q "$tmp/headers/proc/zoneinfo: no managed pages" "$tmp/e"; then
		ok "$c on zone headers alone: exit 2, no managed pages"
	else
		nok "$c on zone headers alone: exit 2, no managed pages (exit $rc)"; sed 's/^/# /' "$tmp/e" | head -3
	fi
done

# capture: round trip, and no overwrite
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/cap" 2>/dev/null
if [ $? = 0 ] && "$W" --root "$tmp/cap" verify >/dev/null && cmp -s $D/vm-6.18-firecracker-A/proc/zoneinfo "$tmp/cap/proc/zoneinfo"; then
	ok "capture of a root tree verifies and keeps zoneinfo byte for byte"
else
	nok "capture of a root tree verifies and keeps zoneinfo byte for byte"
fi
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/cap" >"$tmp/o" 2>"$tmp/e"
if [ $? = 2 ] && grep -q "not an empty directory" "$tmp/e"; then ok "capture refuses a non-empty destination"; else nok "capture refuses a non-empty destination"; fi
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/no/such/parent" >"$tmp/o" 2>"$tmp/e"
if [ $? = 3 ] && [ ! -e "$tmp/no" ]; then ok "capture into a missing parent fails and leaves nothing"; else nok "capture into a missing parent fails and leaves nothing"; fi
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/slash/" >"$tmp/o" 2>"$tmp/e"
if [ $? = 0 ] && cmp -s $D/vm-6.18-firecracker-A/proc/zoneinfo "$tmp/slash/proc/zoneinfo" &&
   [ -z "$(ls -d "$tmp"/slash?* 2>/dev/null)" ]; then
	ok "capture DIR/ (a trailing slash) writes DIR"
else
	nok "capture DIR/ (a trailing slash) writes DIR"; sed 's/^/# /' "$tmp/e"
fi

# capture: a destination that cannot be used says why, not "exists"
long=$(printf 'x%.0s' $(seq 1 300))
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/$long" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 2 ] && grep -q "$long: File name too long" "$tmp/e" && ! grep -q "exists" "$tmp/e"; then
	ok "capture into a 300-character name: exit 2, the name too long"
else
	nok "capture into a 300-character name: exit 2, the name too long (exit $rc)"; sed 's/^/# /' "$tmp/e"
fi
ln -s "$tmp/nowhere" "$tmp/dangling"
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/dangling" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 2 ] && grep -q "dangling: is a symbolic link; not writing through it" "$tmp/e" && [ ! -e "$tmp/nowhere" ]; then
	ok "capture into a dangling link: exit 2, the link named, nothing made where it points"
else
	nok "capture into a dangling link: exit 2, the link named (exit $rc)"; sed 's/^/# /' "$tmp/e"
fi
: >"$tmp/afile"
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/afile" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 2 ] && grep -q "afile: exists and is not a directory; not overwriting it" "$tmp/e"; then
	ok "capture onto a file: exit 2, 'not a directory'"
else
	nok "capture onto a file: exit 2, 'not a directory' (exit $rc)"; sed 's/^/# /' "$tmp/e"
fi

# The man page gives one exit status for a capture without a needed sysctl,
# in CAPTURE FORMAT and in EXIT STATUS, and it is the one verify returns.
rm -rf "$tmp/nomfk"
cp -r $D/vm-6.18-firecracker-A "$tmp/nomfk" && rm "$tmp/nomfk/proc/sys/vm/min_free_kbytes"
"$W" --root "$tmp/nomfk" verify >/dev/null 2>&1
rc=$?
said=$(py -c '
import re, sys
t = open("wmark.1").read()
i = t.index("A command that needs a sysctl the root does not have")
print(re.search(r"exits ([0-9])", t[i:]).group(1))')
if [ "$rc" = 2 ] && [ "$said" = 2 ] && tr '\n' ' ' <wmark.1 | grep -q 'a capture without a sysctl the command needs'; then
	ok "a capture without min_free_kbytes: verify exits 2, as both places in the man page say"
else
	nok "a capture without min_free_kbytes: verify exits 2, as both places in the man page say (exit $rc, CAPTURE FORMAT says '$said')"
fi

# a root that resolves to / is the live machine, with the live machine's checks
if [ -r /proc/zoneinfo ]; then
	for r in // /. /proc/..; do
		src=$("$W" --root "$r" -j show 2>"$tmp/e" | py -c 'import json,sys; print(json.load(sys.stdin)["source"])' 2>/dev/null)
		if [ "$src" = live ]; then ok "--root $r is the live machine"; else nok "--root $r is the live machine (source '$src')"; sed 's/^/# /' "$tmp/e"; fi
	done
	src=$(cd / && "$W" --root . -j show 2>/dev/null | py -c 'import json,sys; print(json.load(sys.stdin)["source"])' 2>/dev/null)
	if [ "$src" = live ]; then ok "--root . in / is the live machine"; else nok "--root . in / is the live machine (source '$src')"; fi
else
	n=$((n + 1)); echo "ok $n - --root // is the live machine # SKIP no /proc/zoneinfo"
fi
# capture records the page size and the pageblock order (wmark/geometry),
# and a capture's own record beats MemTotal: on this VM MemTotal is twice
# the managed pages (a balloon), which cannot tell the page size, so a
# 16 KiB-page capture of it must come out 16384 bytes with 2048-page
# pageblocks (order 11), not the 4096 assumed without the record.
rm -rf "$tmp/g16"
cp -r $D/vm-6.18-firecracker-A "$tmp/g16"
mkdir -p "$tmp/g16/wmark"
printf 'page_size 16384\npageblock_order 11\n' >"$tmp/g16/wmark/geometry"
got=$("$W" --root "$tmp/g16" -j show 2>"$tmp/e" | py -c 'import json,sys; d=json.load(sys.stdin); print(d["page_size"], d["page_size_source"], d["pageblock_pages"], d["pageblock_source"])' 2>&1)
if [ "$got" = "16384 capture 2048 capture" ] && ! grep -q assumed "$tmp/e"; then
	ok "a capture's wmark/geometry gives show its page size and pageblock ($got)"
else
	nok "a capture's wmark/geometry gives show its page size and pageblock ($got)"; sed 's/^/# /' "$tmp/e"
fi
"$W" --root "$tmp/g16" verify >"$tmp/o" 2>"$tmp/e"
"$W" --root "$tmp/g16" -j verify 2>/dev/null | py -c 'import json,sys; d=json.load(sys.stdin); print(d["page_size"], d["page_size_source"])' >"$tmp/ps" 2>&1
if ! grep -q 'assumed' "$tmp/o" "$tmp/e" && [ "$(cat "$tmp/ps")" = "16384 capture" ]; then
	ok "verify of a 16K capture models 16384-byte pages, nothing assumed"
else
	nok "verify of a 16K capture models 16384-byte pages, nothing assumed"; sed 's/^/# /' "$tmp/o" "$tmp/e" | head -5
fi
rm -rf "$tmp/g16cap"
"$W" --root "$tmp/g16" capture "$tmp/g16cap" 2>/dev/null
if [ "$(cat "$tmp/g16cap/wmark/geometry" 2>&1)" = "$(printf 'page_size 16384\npageblock_order 11')" ]; then
	ok "a capture of a capture keeps its page size and pageblock order"
else
	nok "a capture of a capture keeps its page size and pageblock order ($(cat "$tmp/g16cap/wmark/geometry" 2>&1))"
fi
printf 'page_size 12288\n' >"$tmp/g16/wmark/geometry"
"$W" --root "$tmp/g16" show >"$tmp/o" 2>"$tmp/e"
if [ $? = 2 ] && grep -q "g16/wmark/geometry:1: .*power of two" "$tmp/e" && [ ! -s "$tmp/o" ]; then
	ok "a bad page size in wmark/geometry is exit 2 naming file:line"
else
	nok "a bad page size in wmark/geometry is exit 2 naming file:line"; sed 's/^/# /' "$tmp/e"
fi
rm -rf "$tmp/gcap"
"$W" --root $D/vm-6.18-firecracker-A capture "$tmp/gcap" 2>/dev/null
if [ ! -e "$tmp/gcap/wmark/geometry" ]; then
	ok "a capture of a root whose page size was only assumed records none"
else
	nok "a capture of a root whose page size was only assumed records none ($(cat "$tmp/gcap/wmark/geometry"))"
fi
if [ -r /proc/zoneinfo ]; then
	rm -rf "$tmp/live"
	"$W" capture "$tmp/live" 2>/dev/null
	ps=$(getconf PAGESIZE)
	if head -1 "$tmp/live/wmark/geometry" 2>/dev/null | grep -qx "page_size $ps" &&
	   grep -q '^pageblock_order [0-9]*$' "$tmp/live/wmark/geometry" &&
	   ! "$W" --root "$tmp/live" verify 2>&1 | grep -q assumed; then
		ok "a live capture records getpagesize() ($ps) and the pageblock order; its verify assumes nothing"
	else
		nok "a live capture records getpagesize() ($ps) and the pageblock order; its verify assumes nothing"
		sed 's/^/# /' "$tmp/live/wmark/geometry" 2>&1
	fi
else
	n=$((n + 1)); echo "ok $n - a live capture records getpagesize() # SKIP no /proc/zoneinfo"
fi
echo "1..$n"
