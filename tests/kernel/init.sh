#!/bin/busybox sh
# /init of the test initramfs (see mkinitramfs.sh).
#
# Mounts proc, sysfs, devtmpfs, cgroup2 and tmpfs, runs one test script and
# powers the machine off.  The script's stdout and stderr go to the second
# serial port (/dev/ttyS1; the console on machines with one, kernel
# messages turned down), between two marker lines the host looks for:
#
#   WMARK-BEGIN <entry>
#   ... whatever the script prints ...
#   WMARK-END rc=<exit status of the script>
#
# The kernel command line chooses the script and names the run:
#   wmark.script=PATH   script inside the initramfs (default
#                       /tests/guest-tests.sh); "probe" only reports back,
#                       for checking that a boot completes
#   wmark.entry=NAME    name of the matrix entry, echoed in WMARK-BEGIN
#   wmark.out=console   the results go to the console: machines with one
#                       serial port (arm64 virt, ppc64 pseries), whose
#                       kernels still have ttyS1 devices without hardware
# Every wmark.KEY=VALUE is also exported to the script as WMARK_KEY=VALUE.
# With panic=-1 and qemu's -no-reboot, an /init that dies still ends qemu.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/ TMPDIR=/tmp

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /sys/fs/cgroup
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null

# The few modules the tests need (loop), for this kernel; see
# fetch-kernels.sh.
modules=
for m in /lib/modules/$(uname -r)/*.ko; do
	[ -f "$m" ] && insmod "$m" 2>/dev/null && modules="$modules $(basename "$m" .ko)"
done

t_init=$(cut -d' ' -f1 /proc/uptime)
script=/tests/guest-tests.sh
[ -x /bin/wmark ] || script=/tests/guest-dump.sh
entry=unnamed
for arg in $(cat /proc/cmdline); do
	case $arg in
	wmark.*=*)
		key=${arg%%=*}
		key=${key#wmark.}
		val=${arg#*=}
		case $key in
		script) script=$val ;;
		entry) entry=$val ;;
		esac
		key=$(echo "$key" | tr 'a-z.-' 'A-Z__')
		export "WMARK_$key=$val"
		;;
	esac
done

# Raw mode: no CR added before LF, nothing echoed back.
out=/dev/ttyS1
if [ "${WMARK_OUT:-}" = console ] || [ ! -c "$out" ]; then
	# One console for both (arm64 virt's ttyAMA0, ppc64 pseries' hvc0):
	# only emergencies may interrupt the framed output.
	out=/dev/console
	echo 1 >/proc/sys/kernel/printk
fi
stty -F "$out" raw -echo 2>/dev/null

{
	echo "WMARK-BEGIN $entry"
	echo "WMARK-INFO uptime_init=$t_init"
	echo "WMARK-INFO osrelease=$(cat /proc/sys/kernel/osrelease)"
	echo "WMARK-INFO modules=$(echo $modules | tr ' ' ',')"
	if [ "$script" = probe ]; then
		rc=0
	elif [ -f "$script" ]; then
		sh "$script" 2>&1
		rc=$?
	else
		echo "not ok 1 - test script $script is in the initramfs"
		rc=127
	fi
	echo "WMARK-INFO uptime_done=$(cut -d' ' -f1 /proc/uptime)"
	echo "WMARK-END rc=$rc"
} >"$out" 2>&1
sync
poweroff -f
# Not reached unless poweroff failed; the panic ends qemu.
exit 1
