#!/bin/sh
# The guest script of tests/kernel/rfc/capture.sh (busybox alone, no wmark
# inside): the kernel built by tests/kernel/rfc/build.sh, booted with
# wmark_rfc=N, captured at boot and after each write of
# watermark_scale_factor (10, the default, so the kernel recomputes from
# today's managed counts; then 120 and 1000).  Sends the captures boot,
# wsf10, wsf120 and wsf1000 as WMARK-FILEs, each with its proc/cmdline,
# and the kernel's wmark_rfc boot line as WMARK-INFO bootline=...
T=/tests
V=/proc/sys/vm
. $T/guest-lib.sh

echo "WMARK-INFO bootline=$(dmesg | grep 'wmark_rfc=[0-9]: high watermark' | head -1 | sed 's/^\[[^]]*\] *//' | tr ' ' '_')"
snap /tmp/s/boot
send boot /tmp/s/boot
for wsf in 10 120 1000; do
	(echo $wsf >$V/watermark_scale_factor) 2>/dev/null
	echo "WMARK-INFO wsf$wsf=$?"
	snap /tmp/s/wsf$wsf
	send wsf$wsf /tmp/s/wsf$wsf
done
