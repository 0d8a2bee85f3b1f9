# Shared by the guest scripts (busybox sh): sending files to the host and
# capturing the machine as a root tree.  Sourced, not run.

# send NAME DIR: a directory to the host as a gzipped tar in base64.
send() {
	echo "WMARK-FILE $1"
	tar -C "$2" -cf - . | gzip -c | base64
	echo "WMARK-FILE-END"
}

# snap DIR: the machine as a root tree (wmark.1, CAPTURE FORMAT), zoneinfo first.
snap() {
	mkdir -p "$1"/proc/sys/vm "$1"/proc/sys/kernel "$1"/proc/pressure \
		"$1"/sys/kernel/mm/transparent_hugepage
	cat /proc/zoneinfo >"$1"/proc/zoneinfo
	for f in min_free_kbytes watermark_scale_factor watermark_boost_factor \
		lowmem_reserve_ratio extra_free_kbytes percpu_pagelist_high_fraction; do
		[ -e $V/$f ] && cat $V/$f >"$1"/proc/sys/vm/$f
	done
	cat /proc/sys/kernel/osrelease >"$1"/proc/sys/kernel/osrelease
	cat /proc/sys/kernel/version >"$1"/proc/sys/kernel/version
	[ -e /proc/sys/kernel/arch ] && cat /proc/sys/kernel/arch >"$1"/proc/sys/kernel/arch
	for f in meminfo vmstat buddyinfo pagetypeinfo cmdline pressure/memory; do
		[ -e /proc/$f ] && cat /proc/$f >"$1"/proc/$f
	done
	for f in enabled defrag; do
		[ -e /sys/kernel/mm/transparent_hugepage/$f ] &&
			cat /sys/kernel/mm/transparent_hugepage/$f \
				>"$1"/sys/kernel/mm/transparent_hugepage/$f
	done
	# the per-size mTHP controls (6.8+): THP's min_free_kbytes follows them on 7.x
	for f in /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled; do
		[ -e "$f" ] || continue
		d=${f%/enabled}
		mkdir -p "$1$d"
		cat "$f" >"$1$f"
	done
}

