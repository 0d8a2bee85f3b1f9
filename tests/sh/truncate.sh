#!/bin/bash
# Truncation at every byte offset: two real zoneinfo files (the 6.1 qemu
# guest and the 6.18 Firecracker VM) cut at each offset for show and
# verify, and a sysctl.d file cut at each offset for `apply -n --from`
# under --root on a copy.  Each case runs under `timeout` and must exit
# 0, 1 or 2, never crash, hang or call malformed content a system error
# (3); an exit 2 names FILE:LINE (or says the file has no zone header, or
# nothing to apply, which have no line to name) with nothing on stdout.
#
# Under an ASan build every run checks memory, and every 8th also looks
# for leaks (LeakSanitizer's scan at exit costs more than the run).
#
# To stay fast (about two thousand runs), zoneinfo is cut at every byte
# of the places a cut means most (cut_here: the first zone's header,
# watermark, size and protection lines, the end of the file) and at every
# 13th byte elsewhere; verify runs at each cut and show, which reads the
# file the same way, at every third.  TRUNCATE_ALL=1 runs both at every
# byte.  The two files run side by side.  The sysctl.d file is cut at
# every byte.  Prints TAP, one line per file and command.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/truncate.sh
. "$(dirname "$0")/lib.sh"
D=data/machines
export LC_ALL=C
unset WMARK_FAULT

# cut_here I: is offset I of the zoneinfo in $text one to cut at?  Every
# byte of the first zone's header line, of its watermark, size and
# protection lines (from its "pages free" to 64 bytes past its
# "protection:") and of the last 64 bytes; every TRUNCATE_STRIDE-th byte
# (default 13) elsewhere.
cut_here() {
	[ -n "$TRUNCATE_ALL" ] || [ "$1" -lt 40 ] || [ "$1" -gt $((${#text} - 64)) ] ||
		{ [ "$1" -ge "$zstart" ] && [ "$1" -le "$zend" ]; } ||
		[ $(($1 % ${TRUNCATE_STRIDE:-13})) = 0 ]
}

# judge RC PATH TAG: set why to what is wrong with one case's outcome
# (its output in $tmp/TAG.o and .e), or to "" (no subshell: it runs
# thousands of times)
judge() {
	why=
	case $1 in
	0 | 1) return ;;
	2) ;;
	124) why="timed out"; return ;;
	*) why="exit $1"; return ;;
	esac
	if [ -s "$tmp/$3.o" ]; then
		why="exit 2 with output on stdout"
	elif ! grep -qE "^wmark: ([a-z]+: )?$2:[0-9]+: |^wmark: $2: no 'Node N, zone NAME' line|nothing to apply" "$tmp/$3.e"; then
		why="exit 2 without $2:LINE: $(head -c 160 "$tmp/$3.e")"
	fi
}

# zoneinfo_cuts NAME: cut NAME's zoneinfo at each offset under show and
# verify; the failures into $tmp/NAME.fail, the case count into $tmp/NAME.n
zoneinfo_cuts() {
	local name=$1 r=$tmp/$1 z text rest zstart zend i k=0 c why count=0
	cp -r "$D/$name" "$r"
	z=$D/$name/proc/zoneinfo
	IFS= read -r -d '' text <"$z"
	rest=${text#*  pages free}
	zstart=$((${#text} - ${#rest} - 12))
	rest=${text#*protection:}
	zend=$((${#text} - ${#rest} + 64))
	: >"$tmp/$name.fail"
	for ((i = 0; i <= ${#text}; i++)); do
		cut_here $i || continue
		printf '%s' "${text:0:i}" >"$r/proc/zoneinfo"
		k=$((k + 1))
		for c in verify show; do
			# show reads as verify does: it runs at every third cut
			[ $c = show ] && [ $((k % 3)) != 0 ] && [ -z "$TRUNCATE_ALL" ] && continue
			# an ASan build looks for leaks at every 8th cut: the check at
			# exit costs 60 ms a process, more than the run itself
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$((k % 8 == 0)) \
				timeout 10 "$W" --root "$r" "$c" >"$tmp/$name.o" 2>"$tmp/$name.e"
			judge $? "$r/proc/zoneinfo" "$name"
			count=$((count + 1))
			[ -n "$why" ] && echo "$c at offset $i: $why" >>"$tmp/$name.fail"
		done
	done
	echo $count >"$tmp/$name.n"
}

report() {	# NAME WHAT
	local fails
	fails=$(wc -l <"$tmp/$1.fail")
	n=$((n + 1))
	if [ "$fails" = 0 ] && [ -s "$tmp/$1.n" ]; then
		echo "ok $n - $2: $(cat "$tmp/$1.n") cuts, each exit 0, 1 or 2 with FILE:LINE"
	else
		echo "not ok $n - $2: $fails of $(cat "$tmp/$1.n" 2>/dev/null) cuts went wrong"
		sed 's/^/# /' "$tmp/$1.fail" | head -10
	fi
}

# ---- a sysctl.d file, cut at every byte, for apply -n --from
from_cuts() {
	local r=$tmp/from conf i why count=0
	cp -r "$D/vm-6.18-firecracker-A" "$r"
	conf='# wmark: watermark tuning for this VM
; an old-style comment
vm.watermark_scale_factor = 100
vm/min_free_kbytes=70000

  vm.watermark_boost_factor	=	0
-vm.lowmem_reserve_ratio = 256 256 32 0 0
vm.watermark_scale_factor = 120   # the last one wins
'
	: >"$tmp/from.fail"
	for ((i = 0; i <= ${#conf}; i++)); do
		printf '%s' "${conf:0:i}" >"$tmp/t.conf"
		timeout 10 "$W" --root "$r" apply -n --from "$tmp/t.conf" >"$tmp/from.o" 2>"$tmp/from.e"
		judge $? "$tmp/t.conf" from
		count=$((count + 1))
		[ -n "$why" ] && echo "offset $i: $why" >>"$tmp/from.fail"
	done
	echo $count >"$tmp/from.n"
}

zoneinfo_cuts qemu-k61-4g-before &
zoneinfo_cuts vm-6.18-firecracker-A &
from_cuts &
wait
report qemu-k61-4g-before "zoneinfo of the 6.1 guest, cut: verify and show"
report vm-6.18-firecracker-A "zoneinfo of the 6.18 VM, cut: verify and show"
report from "a sysctl.d file cut at every byte: apply -n --from"
r=$tmp/from
if cmp -s "$r/proc/sys/vm/min_free_kbytes" "$D/vm-6.18-firecracker-A/proc/sys/vm/min_free_kbytes" &&
   cmp -s "$r/proc/sys/vm/watermark_scale_factor" "$D/vm-6.18-firecracker-A/proc/sys/vm/watermark_scale_factor"; then
	n=$((n + 1)); echo "ok $n - apply -n --from wrote nothing"
else
	n=$((n + 1)); echo "not ok $n - apply -n --from wrote nothing"
fi

echo "1..$n"
