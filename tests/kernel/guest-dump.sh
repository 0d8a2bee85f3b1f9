#!/bin/sh
# The guest script of machines without wmark inside (ppc64le, or arm64
# before its static build exists): busybox alone captures the machine at
# boot and after each write of a sequence, and run.sh checks every state
# on the host with wmark --root: the boot state verifies exact or stale,
# whatif from the state before each write predicts the zoneinfo after it
# to the page, and the last state verifies exact.
#
# Prints "WMARK-INFO step<i>=<knob>:<value>:<exit of the write>" per write
# and the captures s0 (boot), s1 ... as WMARK-FILEs.  The writes are the
# ones guest-tests.sh applies; lowmem_reserve_ratio gets as many entries
# as the kernel has (4 on 5.10 arm64, 3 on ppc64le).
T=/tests
V=/proc/sys/vm
. $T/guest-lib.sh

snap /tmp/s/s0
send s0 /tmp/s/s0
lrr=$(awk '{ split("64 64 16 0 0 0", w, " "); s = "";
	for (i = 1; i <= NF; i++) s = s (i > 1 ? " " : "") w[i]; print s }' $V/lowmem_reserve_ratio)
i=0
for step in watermark_scale_factor=120 min_free_kbytes=32768 watermark_scale_factor=1000 \
	watermark_boost_factor=0 "lowmem_reserve_ratio=$lrr"; do
	i=$((i + 1))
	knob=${step%%=*} val=${step#*=}
	(echo "$val" >$V/$knob) 2>/dev/null
	rc=$?
	echo "WMARK-INFO step$i=$knob:$(echo "$val" | tr ' ' _):$rc"
	snap /tmp/s/s$i
	send s$i /tmp/s/s$i
done
echo "WMARK-INFO steps=$i"
