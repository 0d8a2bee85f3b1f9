#!/bin/bash
# Golden transcripts: each tests/golden/cases/NAME.cmd holds the arguments
# of one wmark run, quoted as in a shell (paths relative to the repository); NAME.out is the
# stdout it must print, NAME.err the stderr (every case has one: empty where
# nothing may be printed there; a case without one fails) and NAME.rc the
# exit status (0 if absent).  Prints TAP.
#
# usage: tests/golden/run.sh WMARK
# UPDATE=1 rewrites the expected files; every number in them must then be
# checked by hand against docs/model.md or the capture it came from.
cd "$(dirname "$0")/../.." || exit 2
wmark=$(realpath "${1:-build/wmark}")
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cmd in tests/golden/cases/*.cmd; do
	name=${cmd%.cmd}
	n=$((n + 1))
	eval "set -- $(cat "$cmd")"	# shell quoting, so values may hold spaces
	"$wmark" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$tmp/out" "$name.out"
		cp "$tmp/err" "$name.err"
		[ "$rc" -ne 0 ] && echo "$rc" >"$name.rc" || rm -f "$name.rc"
	fi
	want_rc=0
	[ -f "$name.rc" ] && want_rc=$(cat "$name.rc")
	ok=1
	diff -u "$name.out" "$tmp/out" >"$tmp/diff" || ok=0
	if [ -f "$name.err" ]; then
		diff -u "$name.err" "$tmp/err" >>"$tmp/diff" || ok=0
	else
		ok=0
		echo "no $name.err: every case says what its stderr must be (empty: nothing)" >>"$tmp/diff"
	fi
	[ "$rc" = "$want_rc" ] || { ok=0; echo "exit $rc, want $want_rc" >>"$tmp/diff"; }
	if [ $ok = 1 ]; then
		echo "ok $n - ${name##*/}"
	else
		echo "not ok $n - ${name##*/}"
		sed 's/^/# /' "$tmp/diff" | head -40
	fi
done
echo "1..$n"
