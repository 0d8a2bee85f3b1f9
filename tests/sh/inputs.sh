#!/bin/bash
# Inputs that are not what they claim to be: every file the commands read
# under --root replaced by a FIFO, a symlink to /dev/zero, a directory or
# a symlink loop ends within 5 s with exit 2 or 3 and one line naming it
# (a FIFO used to block in open, /dev/zero to be read until memory ran
# out); files past the size limits are refused as too large; and
# `apply --from` reads the whole file or refuses it, never a value cut at
# a buffer's end (it read 64 KiB and wrote the 6553 of a cut 65536).
# Prints TAP.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/inputs.sh
. "$(dirname "$0")/lib.sh"
D=data/machines
export LC_ALL=C
unset WMARK_FAULT

is() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then
		ok "$what"
	else
		nok "$what"
		echo "# exit $rc"
		sed 's/^/# /' "$tmp/e" 2>/dev/null | head -3 | cut -c1-200
	fi
}

# run ARGS...: at most 5 s; stdout in $tmp/o, stderr in $tmp/e, status in $rc
run() { timeout 5 "$W" "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?; }

fresh() {	# a writable copy of a fixture in $tmp/r
	rm -rf "$tmp/r"
	cp -r "$D/$1" "$tmp/r"
}

# replace REL KIND: put a KIND where $tmp/r/REL was
replace() {
	local p=$tmp/r/$1
	rm -rf "$p"
	mkdir -p "$(dirname "$p")"
	case $2 in
	fifo) mkfifo "$p" ;;
	zero) ln -s /dev/zero "$p" ;;
	directory) mkdir "$p" ;;
	loop) ln -s "$(basename "$p")" "$p" ;;
	esac
}

# refused PATH: exit 2 or 3 (not 124, the timeout), nothing on stdout, and
# one line on stderr, "wmark: PATH: what"
refused() {
	[ "$rc" = 2 ] || [ "$rc" = 3 ] || return 1
	[ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
		grep -qF "wmark: $1: " "$tmp/e"
}

# ---- every input the snapshot reads, as each kind of file that is no input
for rel in proc/zoneinfo proc/sys/vm/min_free_kbytes proc/meminfo \
	proc/sys/kernel/osrelease proc/pagetypeinfo; do
	for kind in fifo zero directory loop; do
		for c in show verify; do
			fresh qemu-k61-4g-before
			replace "$rel" "$kind"
			run --root "$tmp/r" "$c"
			case $kind in
			fifo) what="a FIFO" ;;
			zero) what="a symlink to /dev/zero" ;;
			directory) what="a directory" ;;
			loop) what="a symlink loop" ;;
			esac
			is "$rel $what: $c ends within 5 s, exit 2 or 3 naming the path" \
				refused "$tmp/r/$rel"
		done
	done
done

# ---- what the messages say
fresh qemu-k61-4g-before
replace proc/zoneinfo fifo
run --root "$tmp/r" show
is "a FIFO zoneinfo: exit 3, 'is a FIFO, not a regular file'" \
	test $rc = 3 -a -n "$(grep -F "$tmp/r/proc/zoneinfo: is a FIFO, not a regular file" "$tmp/e")"
replace proc/zoneinfo zero
run --root "$tmp/r" show
is "zoneinfo a symlink to /dev/zero: exit 3, 'is a character device'" \
	test $rc = 3 -a -n "$(grep -F "$tmp/r/proc/zoneinfo: is a character device, not a regular file" "$tmp/e")"
fresh qemu-k61-4g-before
ln -sf /dev/urandom "$tmp/r/proc/meminfo"
run --root "$tmp/r" verify
is "meminfo a symlink to /dev/urandom: verify ends with exit 3 naming it" \
	test $rc = 3 -a -n "$(grep -F "$tmp/r/proc/meminfo: is a character device" "$tmp/e")"

# ---- the size limits: 64 MiB for zoneinfo, 1 MiB for the small files
fresh qemu-k61-4g-before
truncate -s $((64 * 1048576 + 1)) "$tmp/r/proc/zoneinfo"
run --root "$tmp/r" show
is "a zoneinfo over 64 MiB: exit 2, too large, naming it" \
	test $rc = 2 -a -n "$(grep -F "wmark: $tmp/r/proc/zoneinfo: too large (over 64 MiB)" "$tmp/e")"
fresh qemu-k61-4g-before
{ echo 6.1.0-57-amd64; head -c 1048576 /dev/zero | tr '\0' '\n'; } >"$tmp/r/proc/sys/kernel/osrelease"
run --root "$tmp/r" show
is "an osrelease over 1 MiB (the release, then blank lines): exit 2, too large" \
	test $rc = 2 -a -n "$(grep -F "wmark: $tmp/r/proc/sys/kernel/osrelease: too large (over 1 MiB)" "$tmp/e")"

# ---- apply --from: the whole file or nothing
fresh qemu-k61-4g-before
{ printf '#'; head -c 65508 /dev/zero | tr '\0' x; printf '\n'; echo 'vm.min_free_kbytes = 65536'; } >"$tmp/cut.conf"
whole_or_refused() {	# applied as 65536, or refused with exit 2 and nothing predicted
	{ [ $rc = 0 ] && [ "$(jq .written.min_free_kbytes "$tmp/o")" = 65536 ]; } ||
		{ [ $rc = 2 ] && ! grep -q 6553 "$tmp/o"; }
}
run --root "$tmp/r" -j apply -n --from "$tmp/cut.conf"
is "--from: a value across byte 65535 (after a 65510-byte comment) is 65536, never 6553" \
	whole_or_refused
run --root "$tmp/r" apply --from "$tmp/cut.conf"
is "--from: apply writes 65536 into min_free_kbytes" \
	test $rc = 0 -a "$(cat "$tmp/r/proc/sys/vm/min_free_kbytes")" = 65536

fresh qemu-k61-4g-before
{ echo 'vm.min_free_kbytes = 65536'; head -c 1048576 /dev/zero | tr '\0' '#'; echo; } >"$tmp/big.conf"
run --root "$tmp/r" apply --from "$tmp/big.conf"
is "--from a file over 1 MiB: exit 2 naming it, nothing written" \
	test $rc = 2 -a -n "$(grep -F "$tmp/big.conf: too large (over 1 MiB)" "$tmp/e")" \
	-a "$(cat "$tmp/r/proc/sys/vm/min_free_kbytes")" = "$(cat "$D/qemu-k61-4g-before/proc/sys/vm/min_free_kbytes")"
mkfifo "$tmp/fifo.conf"
run --root "$tmp/r" apply -n --from "$tmp/fifo.conf"
is "--from a FIFO: ends within 5 s, exit 3 naming it" refused "apply: $tmp/fifo.conf"
mkdir "$tmp/dir.conf"
run --root "$tmp/r" apply -n --from "$tmp/dir.conf"
is "--from a directory: exit 3, 'is a directory' (not a bare 'read error')" \
	test $rc = 3 -a -n "$(grep -F "$tmp/dir.conf: is a directory" "$tmp/e")"

echo "1..$n"
