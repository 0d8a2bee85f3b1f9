#!/bin/bash
# Boot the kernel of tests/kernel/rfc/build.sh under qemu, once per memory
# size and wmark_rfc= arm, and keep what each guest captured: zoneinfo and
# the sysctls at boot and after watermark_scale_factor 10, 120 and 1000
# (tests/kernel/guest-rfc.sh).
#
# usage: tests/kernel/rfc/capture.sh [--keep] [SIZE:ARM...]
#   SIZE is guest RAM (2G, 4G, 64G, 140G), ARM the wmark_rfc= value (1 the
#   2018 RFC, 2 a quarter of the gap, 0 stock).  Default: 2G:1 2G:2 4G:1
#   4G:2 64G:1 64G:2 140G:1 140G:2.  Guests boot with
#   transparent_hugepage=never, as the RFC's 4.9 devices had no THP: the
#   boot min_free_kbytes is the sqrt rule's.
#   --keep copies the captures to data/machines/qemu-k612rfc-SIZE-rfcARM-STATE
#   (STATE boot, wsf10, wsf120, wsf1000), replacing those of an earlier run.
#
# One boot at a time; RAM is mapped lazily (reserve=off), so a 140 GiB guest
# costs the host the few GiB the kernel touches.  Each run's files are in
# build/rfc-runs/RUN/NAME (console.log, data.log, the captures).  The boot
# line of each guest ("wmark_rfc=N: high watermark ...") is printed.
# Environment as tests/kernel/run.sh: WMARK_KERNEL_CACHE, WMARK_KERNEL_ACCEL
# (kvm or tcg; default tcg; a kvm boot that fails is tried again under tcg),
# WMARK_KERNEL_TIMEOUT (per boot, default 900 s), WMARK_KERNEL_QEMU.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
cache=${WMARK_KERNEL_CACHE:-$top/build/kernel-cache}
limit=${WMARK_KERNEL_TIMEOUT:-900}
qemu=${WMARK_KERNEL_QEMU:-qemu-system-x86_64}
t0=$(date +%s)

say() { echo "rfc-capture: [$(($(date +%s) - t0))s] $*" >&2; }
die() { say "$*"; exit 1; }

keep=0
if [ "${1:-}" = --keep ]; then
	keep=1
	shift
fi
[ $# -gt 0 ] || set -- 2G:1 2G:2 4G:1 4G:2 64G:1 64G:2 140G:1 140G:2

kdir=$(ls -d "$cache"/*-wmark-rfc 2>/dev/null | sort -V | tail -1)
[ -n "$kdir" ] && [ -s "$kdir/vmlinuz" ] || die "no *-wmark-rfc kernel in $cache: run tests/kernel/rfc/build.sh"
rel=${kdir##*/}
command -v "$qemu" >/dev/null || die "no $qemu (Debian package qemu-system-x86)"

run=$top/build/rfc-runs/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run" || die "cannot create $run"
"$top/tests/kernel/mkinitramfs.sh" - "$run/initramfs.cpio.gz" 2>"$run/mkinitramfs.log" ||
	die "the initramfs does not build: $(cat "$run/mkinitramfs.log")"
say "kernel $rel, results in ${run#"$top"/}"

# TCG boots these guests in seconds; a nested KVM hung here
accel=${WMARK_KERNEL_ACCEL:-tcg}

boot() {	# dir mib args accel
	local dir=$1 mib=$2 args=$3 acc=$4 lim=$limit
	[ "$acc" = tcg ] && acc=tcg,thread=multi
	# a nested KVM that hangs must not cost a whole timeout
	[ "$acc" = kvm ] && [ "$lim" -gt 180 ] && lim=180
	rm -f "$dir"/*.log
	timeout -k 10 "$lim" "$qemu" -nodefaults -nographic -no-reboot -monitor none \
		-accel "$acc" -cpu max -smp 1 -m "${mib}M" \
		-object "memory-backend-ram,id=ram0,size=${mib}M,reserve=off" \
		-machine memory-backend=ram0 \
		-kernel "$kdir/vmlinuz" -initrd "$run/initramfs.cpio.gz" \
		-append "console=ttyS0 quiet panic=-1 $args" \
		-serial "file:$dir/console.log" -serial "file:$dir/data.log" \
		</dev/null >"$dir/qemu.log" 2>&1
	grep -q '^WMARK-END' "$dir/data.log" 2>/dev/null
}

# The data.log of a guest into info.txt and one folder per WMARK-FILE.
unpack() {
	local dir=$1 f
	tr -d '\r' <"$dir/data.log" | awk -v dir="$dir" '
		/^WMARK-BEGIN/ { on = 1; next }
		!on { next }
		/^WMARK-END/ { print > (dir "/info.txt"); on = 0; next }
		/^WMARK-FILE-END/ { file = ""; next }
		/^WMARK-FILE / { file = $2; printf "" > (dir "/" file ".b64"); next }
		file != "" { print > (dir "/" file ".b64"); next }
		/^WMARK-INFO / { sub(/^WMARK-INFO /, ""); print > (dir "/info.txt"); next }'
	for f in "$dir"/*.b64; do
		[ -f "$f" ] || continue
		rm -rf "${f%.b64}"
		mkdir -p "${f%.b64}"
		base64 -d "$f" | tar -xzf - -C "${f%.b64}" || return 1
		rm -f "$f"
	done
}

status=0
for spec; do
	size=${spec%%:*} arm=${spec#*:}
	case $size in
	*G) mib=$((${size%G} * 1024)) ;;
	*M) mib=${size%M} ;;
	*) die "$spec: SIZE like 2G or 512M" ;;
	esac
	case $arm in 0|1|2) ;; *) die "$spec: ARM is 0, 1 or 2" ;; esac
	lsize=$(echo "$size" | tr 'A-Z' 'a-z')
	name=k612rfc-$lsize-rfc$arm
	dir=$run/$name
	mkdir -p "$dir"
	args="wmark_rfc=$arm transparent_hugepage=never wmark.script=/tests/guest-rfc.sh wmark.entry=$name"
	say "$name: booting ($accel, $size)"
	b0=$(date +%s)
	if ! boot "$dir" "$mib" "$args" "$accel"; then
		if [ "$accel" = kvm ] && ! grep -q '^WMARK-BEGIN' "$dir/data.log" 2>/dev/null; then
			say "$name: no result under kvm: booting under tcg"
			accel=tcg
			boot "$dir" "$mib" "$args" tcg
		fi
	fi
	if ! grep -q '^WMARK-END rc=0' "$dir/data.log" 2>/dev/null || ! unpack "$dir"; then
		say "$name: no results ($(tail -3 "$dir/console.log" 2>/dev/null | tr '\n' ' '))"
		status=1
		continue
	fi
	say "$name: done in $(($(date +%s) - b0)) s; $(grep '^bootline=' "$dir/info.txt" | tr '_' ' ')"
	if [ "$keep" = 1 ]; then
		for st in boot wsf10 wsf120 wsf1000; do
			[ -s "$dir/$st/proc/zoneinfo" ] || { say "$name: no $st capture"; status=1; continue; }
			dest=$top/data/machines/qemu-$name-$st
			rm -rf "$dest"
			cp -r "$dir/$st" "$dest"
		done
	fi
done
exit $status
