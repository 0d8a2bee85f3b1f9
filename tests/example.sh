#!/bin/bash
# examples/verify-zoneinfo, built against libwmark.a and the installed
# header layout, judges real captures as wmark verify does.  Prints TAP.
cd "$(dirname "$0")/.." || exit 2
X=${1:-build/examples/verify-zoneinfo}
D=data/machines
n=0
t() {	# description, expected stdout, expected status, args...
	local what=$1 want=$2 wrc=$3 out rc
	shift 3
	out=$("$X" "$@" 2>/dev/null)
	rc=$?
	n=$((n + 1))
	if [ "$out" = "$want" ] && [ $rc = "$wrc" ]; then echo "ok $n - $what"
	else echo "not ok $n - $what (got '$out', exit $rc)"; fi
}
if [ ! -x "$X" ]; then
	echo "1..0 # SKIP $X not built"
	exit 0
fi
m() { echo "$D/$1/proc/sys/vm/$2"; }
for c in qemu-k61-4g-after qemu-k612-4g-after; do
	t "$c: exact, as wmark verify says" exact 0 "$(cat $D/$c/proc/sys/kernel/osrelease)" \
		$D/$c/proc/zoneinfo "$(m $c min_free_kbytes)" "$(m $c watermark_scale_factor)" \
		"$(m $c lowmem_reserve_ratio)"
done
c=qemu-k61-4g-before
t "$c: stale after boot" stale 1 "$(cat $D/$c/proc/sys/kernel/osrelease)" $D/$c/proc/zoneinfo \
	"$(m $c min_free_kbytes)" "$(m $c watermark_scale_factor)" "$(m $c lowmem_reserve_ratio)"
t "$c with another wsf: mismatch" mismatch 1 "$(cat $D/$c/proc/sys/kernel/osrelease)" \
	$D/$c/proc/zoneinfo "$(m $c min_free_kbytes)" "$(m qemu-k61-4g-after watermark_scale_factor)"
t "a release that is not one: exit 2" "" 2 linux $D/$c/proc/zoneinfo \
	"$(m $c min_free_kbytes)" "$(m $c watermark_scale_factor)"
echo "1..$n"
