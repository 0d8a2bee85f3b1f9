# shellcheck shell=bash
# tests/kernel/retry.sh - whether a guest's failed boot is booted again.
# Sourced by run.sh and by tests/sh/kernel-retry.sh.
#
# retry_why DIR: when the boot whose console.log and data.log are in DIR
# died for the emulator's sake, print why (words that follow "died") and
# return 0; otherwise return 1, and the failure counts.
#  - Nothing reached data.log's WMARK-BEGIN: the kernel died before /init
#    started the tests (TCG's timer check panics early under load).
#  - The console shows "Oops: int3": the kernel trapped on a breakpoint it
#    no longer finds in its code.  x86 patches live code (static keys,
#    alternatives) by writing an int3 first and taking it out last; a vCPU
#    that still runs the old translation after the patch is done traps on
#    a byte that is a NOP again, which multi-threaded TCG allows.
retry_why() {
	local dir=$1
	if ! grep -q '^WMARK-BEGIN' "$dir/data.log" 2>/dev/null; then
		echo "before /init started the tests"
	elif grep -q 'Oops: int3' "$dir/console.log" 2>/dev/null; then
		echo "of a kernel oops on an int3 the kernel had already patched out (code patching under TCG)"
	else
		return 1
	fi
}
