#!/bin/bash
# The unit tests on a big-endian machine: every tests/unit/test_*.c built
# for s390x (make units-s390x: Debian's gcc-s390x-linux-gnu, static, with
# libnl, cJSON and cmocka from tests/sysroot.sh --cmocka) and run under
# qemu-s390x, so the decoders of binary data (taskstats records, netlink
# attributes, the word-at-a-time zoneinfo scanner) run where the most
# significant byte comes first.  The tests that need the running kernel's
# taskstats family skip there: qemu-user does not carry generic netlink;
# the s390x guest of the kernel suite runs stalls against a real one.
# Prints TAP, each test as "BINARY: NAME".  Without the cross compiler,
# qemu-s390x or the sysroot's packages (no network) the suite is a SKIP.
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
log=build/units-s390x.log

if ! command -v qemu-s390x >/dev/null 2>&1; then
	skip "unit tests on s390x" "no qemu-s390x (Debian package qemu-user)"
elif ! make -s --no-print-directory units-s390x >"$log" 2>&1; then
	if [ -s build/sysroot-s390x/lib/libcmocka.a ] && command -v s390x-linux-gnu-gcc >/dev/null; then
		not_ok "make units-s390x builds the unit tests for s390x"
		tail -20 "$log" | sed 's/^/# /'
	else
		skip "unit tests on s390x" "make units-s390x could not get its compiler or sysroot (see $log)"
	fi
else
	for t in build/units-s390x/tests/test_*; do
		[ -x "$t" ] || continue
		case $t in *.d) continue ;; esac
		name=${t##*/}
		out=$(CMOCKA_MESSAGE_OUTPUT=tap WMARK_SRC="$PWD" timeout 600 qemu-s390x "$t" 2>&1)
		rc=$?
		while IFS= read -r line; do
			case $line in
			"ok "[0-9]*) ok "$name: ${line#ok * - }" ;;
			"not ok "[0-9]*) not_ok "$name: ${line#not ok * - }" ;;
			"#"*) case $line in "# ok - "* | "# not ok - "*) ;; *) echo "$line" ;; esac ;;
			esac
		done <<<"$out"
		[ $rc = 0 ] || not_ok "$name exits 0 under qemu-s390x (exit $rc)"
	done
fi
echo "1..$n"
