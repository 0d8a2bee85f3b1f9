#!/bin/bash
# Nothing lost, nothing hangs: zoneinfo values no machine can have are
# refused at parse (exit 2, file:line), so no sum overflows (show's node
# totals and recommend's vm_total overflowed a long under UBSan); and
# the searches end on machines of any size: verify on a 64 TiB zone
# (the stale search walked every total, 18 s at 16 TiB, no end at 2^53
# pages) and recommend --extra-free-kbytes on 100,000 zones (quadratic:
# over a minute).  The time limits are hang guards, not benchmarks.
# Prints TAP.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/bounds.sh
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

# run SECONDS ARGS...: stdout in $tmp/o, stderr in $tmp/e, status in $rc
run() { local t=$1; shift; timeout "$t" "$W" "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?; }

fresh() {	# a writable copy of a fixture in $tmp/r
	rm -rf "$tmp/r"
	cp -r "$D/$1" "$tmp/r"
}

# refused LINE WHAT: exit 2, nothing on stdout, one line naming zoneinfo:LINE
refused() {
	[ "$rc" = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
		grep -qF "wmark: $tmp/r/proc/zoneinfo:$1: $2" "$tmp/e"
}

# ---- values no 64-bit machine can have --------------------------------
for v in 9223372036854775807 9007199254740993 4503599627370497; do
	for c in "-j show" show verify "verify --infer" "whatif --wsf 200" \
		"-j recommend --extra-free-kbytes 29615" "recommend --burst 100M"; do
		fresh qemu-k61-4g-before
		sed -i "s/managed .*/managed  $v/" "$tmp/r/proc/zoneinfo"
		# shellcheck disable=SC2086
		run 10 --root "$tmp/r" $c
		is "managed $v: $c is exit 2, zoneinfo:53 too large" \
			refused 53 "the value of 'managed' is too large"
	done
done
for key in min present spanned 'pages free'; do
	fresh qemu-k61-4g-before
	sed -i "0,/^ *$key .*/s//        $key 9223372036854775807/" "$tmp/r/proc/zoneinfo"
	line=$(grep -n "$key 9223372036854775807" "$tmp/r/proc/zoneinfo" | cut -d: -f1)
	run 10 --root "$tmp/r" -j show
	is "$key 2^63-1: show is exit 2, zoneinfo:$line too large" \
		refused "$line" "the value of '$key' is too large"
done

# every zone at 2^50: each a page count, but five of them pass 2^52
fresh qemu-k61-4g-before
sed -i 's/managed .*/managed  1125899906842624/' "$tmp/r/proc/zoneinfo"
line=$(grep -n managed "$tmp/r/proc/zoneinfo" | sed -n 5p | cut -d: -f1)
for c in "-j show" "-j recommend --extra-free-kbytes 29615"; do
	# shellcheck disable=SC2086
	run 10 --root "$tmp/r" $c
	is "managed 2^50 in 5 zones: $c is exit 2 at the fifth, zoneinfo:$line" \
		refused "$line" "'managed' of all zones adds up to more than 2^52 pages"
done

# every count at its largest total: 2^52 / 5 per zone; nothing overflows
fresh qemu-k61-4g-before
big=900719925474099
sed -i -E "s/^( *)(managed|present|spanned|pages free|min|low|high) .*/\1\2 $big/" \
	"$tmp/r/proc/zoneinfo"
for c in "-j show" show "-o prom show" "verify" "-j verify --infer" \
	"whatif --wsf 200" "-j recommend --extra-free-kbytes 29615" \
	"recommend --burst 100M"; do
	# shellcheck disable=SC2086
	run 20 --root "$tmp/r" $c
	is "every count 2^52/5: $c ends with exit 0, 1 or 2 and no sanitizer report" \
		test "$rc" -le 2 -a -z "$(grep -E 'runtime error|Sanitizer' "$tmp/e")"
done

# ---- verify on a 64 TiB zone, watermarks fitting no counts -------------
fresh vm-6.18-firecracker-A
sed -i '152s/.*/        spanned  17179869184/;153s/.*/        present  17179869184/;154s/.*/        managed  17179869184/' \
	"$tmp/r/proc/zoneinfo"
for c in verify "verify --infer" "-j verify"; do
	# shellcheck disable=SC2086
	run 10 --root "$tmp/r" $c
	is "64 TiB Normal zone: $c ends within 10 s with verdict mismatch (exit 1)" \
		test "$rc" = 1 -a -n "$(grep -E 'mismatch' "$tmp/o")"
done

# ---- recommend --extra-free-kbytes on 100,000 zones ---------------------
fresh vm-6.18-firecracker-A
awk '/^Node/||/pages free/||/^ +(boost|min|low|high|promo|spanned|present|managed|cma) /||/protection:/' \
	"$D/vm-6.18-firecracker-A/proc/zoneinfo" >"$tmp/node"
awk -v N=20000 'BEGIN { RS = "\0" } { t0 = $0 }
	END { for (n = 0; n < N; n++) { t = t0; gsub(/Node 0,/, "Node " n ",", t); printf "%s", t } }' \
	"$tmp/node" >"$tmp/r/proc/zoneinfo"
run 20 --root "$tmp/r" -j recommend --extra-free-kbytes 29615
is "100,000 zones: recommend --extra-free-kbytes ends within 20 s, exit 0" \
	test "$rc" = 0 -a -n "$(grep -F '"watermark_scale_factor"' "$tmp/o")"
echo "1..$n"
