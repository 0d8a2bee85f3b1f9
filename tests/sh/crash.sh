#!/bin/bash
# kill -9 at random moments of apply and of rollback, on a root tree: each
# knob holds its old or its new text (never an empty or torn file), the
# journal always loads, one rollback without --force restores every knob
# byte for byte and removes the persisted file, and the temporary files a
# kill leaves are gone after the next successful commits.
#
# Bounded and repeatable: a fixed number of iterations, delays drawn from
# RANDOM with a fixed seed and scaled to how long one apply takes with
# this build (ASan or not), so the kills spread over the whole run.
#
# Never touches this machine's /proc/sys: every command has --root.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/crash.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
P=$top/data/machines/vm-6.18-firecracker-A
VM=proc/sys/vm
KEYS="min_free_kbytes watermark_scale_factor watermark_boost_factor lowmem_reserve_ratio"
ARGS=(--wsf 100 --min-free-kbytes 70000 --boost-factor 0 --lowmem-reserve-ratio "128 128 16 0 0"
	--persist /etc/sysctl.d/90-wmark.conf)
APPLY_KILLS=40
ROLLBACK_KILLS=20
export LC_ALL=C
unset WMARK_FAULT
RANDOM=977

. "$(dirname "$0")/lib.sh"
check() {	# STATUS WHAT
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}


# The text each knob may hold: the fixture's, the first apply's (wsf 50),
# or what ARGS write.
new_text() {
	case $1 in
	min_free_kbytes) echo 70000 ;;
	watermark_scale_factor) echo 100 ;;
	watermark_boost_factor) echo 0 ;;
	lowmem_reserve_ratio) echo "128 128 16 0 0" ;;
	esac
}
knobs_sane() {	# ROOT -> 0, or 1 with the offending knob on stdout
	local k t
	for k in $KEYS; do
		cmp -s "$1/$VM/$k" "$P/$VM/$k" && continue
		t=$(<"$1/$VM/$k")
		[ "$t" = "$(new_text $k)" ] && continue
		[ $k = watermark_scale_factor ] && [ "$t" = 50 ] && continue
		printf '%s=%q\n' "$k" "$t"
		return 1
	done
}
restored() {	# ROOT: knobs byte for byte, no persisted file
	diff -r "$P/$VM" "$1/$VM" >/dev/null && [ ! -e "$1/etc/sysctl.d/90-wmark.conf" ]
}
why() {	# ROOT: what restored() found
	diff -r "$P/$VM" "$1/$VM" | head -3 | tr '\n' ' '
	[ -e "$1/etc/sysctl.d/90-wmark.conf" ] && echo "90-wmark.conf is there"
}
stale() {	# ROOT: temporary files left anywhere in the tree
	find "$1" -name '*.tmp??????' | sed "s|^$1/||"
}
# A sleep without a fork (sleep(1) itself can take tens of ms to start on
# a loaded machine): read on a FIFO nobody writes, with a timeout.
mkfifo "$T/never"
exec 9<>"$T/never"
usleep() {	# MICROSECONDS
	read -r -t "$(printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)))" -u 9
}
rnd() {	# MAX -> 0..MAX-1, from two RANDOMs (MAX may exceed 32767)
	echo $(((RANDOM * 32768 + RANDOM) % $1))
}

# How long one apply and one rollback take here (the fastest of three):
# the kills are spread over that.
r=$T/probe
cp -r "$P" "$r"
span_apply=0 span_rollback=0
for _ in 1 2 3; do
	t0=$(date +%s%N)
	"$WMARK" --root "$r" apply "${ARGS[@]}" >/dev/null 2>&1
	t1=$(date +%s%N)
	"$WMARK" --root "$r" rollback >/dev/null 2>&1
	t2=$(date +%s%N)
	a=$(((t1 - t0) / 1000)) b=$(((t2 - t1) / 1000))
	[ $span_apply = 0 ] || [ $a -lt $span_apply ] && span_apply=$a
	[ $span_rollback = 0 ] || [ $b -lt $span_rollback ] && span_rollback=$b
done
diag "kills spread over ${span_apply} us of apply, ${span_rollback} us of rollback"

# ---------------------------------------------------------------------
# kill -9 in apply, half the time the second apply of a session.

r=$T/apply
cp -r "$P" "$r"
bad=0 killed=0 msgs=
for i in $(seq $APPLY_KILLS); do
	[ $((RANDOM % 2)) = 1 ] && "$WMARK" --root "$r" apply --wsf 50 >/dev/null 2>&1
	"$WMARK" --root "$r" apply "${ARGS[@]}" >/dev/null 2>&1 &
	pid=$!
	usleep "$(rnd $span_apply)"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ $? -eq 137 ] && killed=$((killed + 1))
	if ! k=$(knobs_sane "$r"); then
		bad=$((bad + 1)) msgs="$msgs iter $i: $k;"
	fi
	"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
	rc=$?
	# Killed before the first journal commit of a fresh tree: no journal.
	[ $rc -eq 3 ] && grep -q 'no journal' "$T/err" && rc=0
	if [ $rc -ne 0 ] || ! restored "$r"; then
		bad=$((bad + 1)) msgs="$msgs iter $i: rollback exit $rc $(head -1 "$T/err") $(why "$r");"
		"$WMARK" --root "$r" rollback -f >/dev/null 2>&1
	fi
done
[ $bad -eq 0 ]
check $? "kill -9 in apply ($killed of $APPLY_KILLS killed mid-run): every knob old or new, one rollback without --force restores every knob byte for byte"
[ $bad -ne 0 ] && diag "$msgs"

# The next successful commits remove what the kills left behind.
"$WMARK" --root "$r" apply "${ARGS[@]}" >/dev/null 2>&1 && "$WMARK" --root "$r" rollback >/dev/null 2>&1
left=$(stale "$r")
[ -z "$left" ] && restored "$r"
check $? "after the next apply and rollback no temporary file is left"
[ -n "$left" ] && diag "$left"

# ---------------------------------------------------------------------
# kill -9 in rollback.

r=$T/rollback
cp -r "$P" "$r"
bad=0 killed=0 msgs=
for i in $(seq $ROLLBACK_KILLS); do
	"$WMARK" --root "$r" apply "${ARGS[@]}" >/dev/null 2>&1 ||
		{ bad=$((bad + 1)) msgs="$msgs iter $i: apply failed;"; }
	"$WMARK" --root "$r" rollback >/dev/null 2>&1 &
	pid=$!
	usleep "$(rnd $span_rollback)"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ $? -eq 137 ] && killed=$((killed + 1))
	if ! k=$(knobs_sane "$r"); then
		bad=$((bad + 1)) msgs="$msgs iter $i: $k;"
	fi
	"$WMARK" --root "$r" rollback >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 0 ] || ! restored "$r"; then
		bad=$((bad + 1)) msgs="$msgs iter $i: rollback exit $rc $(head -1 "$T/err") $(why "$r");"
		"$WMARK" --root "$r" rollback -f >/dev/null 2>&1
	fi
done
[ $bad -eq 0 ]
check $? "kill -9 in rollback ($killed of $ROLLBACK_KILLS killed mid-run): every knob old or new, the next rollback finishes the job"
[ $bad -ne 0 ] && diag "$msgs"
"$WMARK" --root "$r" apply "${ARGS[@]}" >/dev/null 2>&1 && "$WMARK" --root "$r" rollback >/dev/null 2>&1
left=$(stale "$r")
[ -z "$left" ] && restored "$r"
check $? "after the next apply and rollback no temporary file is left"
[ -n "$left" ] && diag "$left"

echo "1..$n"
