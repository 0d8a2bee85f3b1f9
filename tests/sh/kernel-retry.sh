#!/bin/bash
# tests/kernel/retry.sh: which failed guest boots the kernel suite boots
# again (the emulator's fault) and which count as failures.  The int3
# oops is cut from a real console (a 6.12.118 guest under multi-threaded
# TCG); the other consoles are written in the kernel's words for those
# deaths.  Prints TAP.
. "$(dirname "$0")/lib.sh"
. tests/kernel/retry.sh

guest() {	# NAME DATA CONSOLE: a guest directory with those two logs
	mkdir -p "$T/$1"
	printf '%s' "$2" >"$T/$1/data.log"
	printf '%s' "$3" >"$T/$1/console.log"
}
retried() {	# NAME WANT_WORDS WHAT: retry_why says yes, with those words
	local why
	if why=$(retry_why "$T/$1") && [[ $why == *"$2"* ]]; then
		ok "$3 ($why)"
	else
		not_ok "$3 (rc $?, '$why')"
	fi
}
counted() {	# NAME WHAT: retry_why says no
	local why
	if why=$(retry_why "$T/$1"); then
		not_ok "$2 (retried: '$why')"
	else
		ok "$2"
	fi
}

begun='WMARK-BEGIN
ok 1 - boot zoneinfo (5 zones) and sysctls captured
WMARK-INFO section_tune=0.04
'
guest int3 "$begun" '[   23.834866] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[   23.835996] Workqueue: events delayed_vfree_work
[   23.836455] RIP: 0010:kfree+0xa2/0x370
[   23.836597] Code: c4 f6 c2 01 0f 85 aa 01 00 00 0f 1f 44 00 00 41 80 7c 24 33 f5 0f 85 6c 01 00 00 4c 8b 75 08 4d 8b 6c 24 08 48 89 5c 24 10 66 <90> 4d 8b 44 24 38
[   23.839680] Kernel panic - not syncing: Fatal exception in interrupt
'
retried int3 "int3" "a kernel oops on an int3 after the tests began: booted again"

guest early '' '[    1.912345] Kernel panic - not syncing: IO-APIC + timer doesn'"'"'t work!  Boot with apic=debug
'
retried early "before /init" "a kernel that died before /init wrote WMARK-BEGIN: booted again"

mkdir -p "$T/nothing"
retried nothing "before /init" "a guest that left no data.log at all: booted again"

guest nullptr "$begun" '[   40.101010] BUG: kernel NULL pointer dereference, address: 0000000000000008
[   40.101020] Oops: 0000 [#1] PREEMPT SMP NOPTI
[   40.101900] Kernel panic - not syncing: Fatal exception
'
counted nullptr "any other kernel oops after the tests began counts as a failure"

guest oom "$begun" '[   55.000000] Kernel panic - not syncing: System is deadlocked on memory
'
counted oom "a panic on memory after the tests began counts as a failure"

guest hung "$begun" ''
counted hung "a guest that began its tests and went quiet (killed by the timeout) counts as a failure"

guest int3text "${begun}# the test printed the words Oops: int3 on its data line
" ''
counted int3text "the words on the data line alone are not a kernel oops"

echo "1..$n"
