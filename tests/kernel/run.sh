#!/bin/bash
# Boot Debian kernels under qemu and run wmark's guest tests inside them.
#
# usage: tests/kernel/run.sh [ENTRY...]
#   With no ENTRY, runs the short matrix of tests/kernel/matrix.txt (or the
#   whole matrix when WMARK_KERNEL_MATRIX=full); with ENTRY names, only
#   those.  Prints TAP on stdout, progress on stderr.
#
# Environment:
#   WMARK                  wmark to test (default build/wmark)
#   WMARK_KERNEL_MATRIX    short (default) or full
#   WMARK_KERNEL_ACCEL     kvm or tcg to skip the probe (default: probe
#                          /dev/kvm once, with one boot)
#   WMARK_KERNEL_APPEND    more kernel arguments for every guest (wmark.KEY=VALUE
#                          reaches the guest script as WMARK_KEY)
#   WMARK_KERNEL_TIMEOUT   hard limit per boot in seconds (default 240;
#                          twice that for s390x and riscv64)
#   WMARK_KERNEL_JOBS      boots at once (default: one per CPU, at most
#                          4, fewer when memory is short)
#   WMARK_KERNEL_CACHE     kernel cache (default build/kernel-cache)
#   WMARK_KERNEL_OFFLINE=1 use cached kernels only
#   WMARK_KERNEL_QEMU      the qemu program (default qemu-system-x86_64)
#   WMARK_KERNEL_SCRIPT=probe  boot and power off only: times bare boots
#
# When qemu, busybox or a kernel cannot be had, the affected tests print
# "ok N - ... # SKIP why": counted as skipped, never as passed.
#
# Each run keeps its files in build/kernel-runs/RUN (console and data
# logs, the guests' captures, boot times); build/kernel-runs/last points
# to the newest.  Only the last five runs are kept.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2
. "$here/retry.sh"

wmark=${WMARK:-build/wmark}
case $wmark in /*) ;; *) wmark=$top/$wmark ;; esac
matrix_set=${WMARK_KERNEL_MATRIX:-short}
limit=${WMARK_KERNEL_TIMEOUT:-240}
# A TCG guest keeps about one host core busy and a 140 GiB one touches
# ~3 GiB: one boot per core, as many as memory allows, at most four.
jobs=${WMARK_KERNEL_JOBS:-$(awk -v n="$(nproc 2>/dev/null || echo 1)" '
	$1 == "MemAvailable:" { m = int($2 / (3 * 1024 * 1024)) }
	END { j = n < 4 ? n : 4; if (m < j) j = m; print j < 1 ? 1 : j }' /proc/meminfo)}
qemu=${WMARK_KERNEL_QEMU:-qemu-system-x86_64}
guest_script=${WMARK_KERNEL_SCRIPT:+wmark.script=$WMARK_KERNEL_SCRIPT }

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }
diag() { [ -n "$*" ] || return 0; printf '%s\n' "$*" | sed 's/^/# /'; }
say() { echo "kernel: $*" >&2; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t_start=$(now)

# ---------------------------------------------------------------------
# The plan: "name flavour mem nodes args..." lines.  Entries named on the
# command line are taken from the whole matrix.
[ $# -gt 0 ] && matrix_set=full
plan=$(awk -v set="$matrix_set" '
	/^[ \t]*(#|$)/ { next }
	set == "full" || $1 == "short" {
		line = $2 " " $3 " " $4 " " $5
		for (i = 6; i <= NF; i++)
			line = line " " $i
		print line
	}' "$here/matrix.txt")
if [ $# -gt 0 ]; then
	want=" $* "
	plan=$(echo "$plan" | while read -r name rest; do
		case $want in *" $name "*) echo "$name $rest" ;; esac
	done)
	[ -n "$plan" ] || { echo "run.sh: no matrix entry named: $*" >&2; exit 2; }
fi

# skip_all REASON: every entry skipped for the same reason, then stop.
skip_all() {
	say "skipping every kernel test: $1"
	echo "$plan" | while read -r name flavour mem nodes args; do
		echo "$name"
	done | {
		i=$n
		while read -r name; do
			i=$((i + 1))
			echo "ok $i - [$name] guest tests # SKIP $1"
		done
		echo "1..$i"
	}
	exit 0
}

if [ ! -x "$wmark" ]; then
	not_ok "the wmark under test exists ($wmark; build it with make)"
	exit 1
fi
command -v "$qemu" >/dev/null 2>&1 ||
	skip_all "no $qemu here (Debian package qemu-system-x86)"
command -v cpio >/dev/null 2>&1 || skip_all "no cpio here (Debian package cpio)"
static_busybox() {
	local b
	for b in /bin/busybox /usr/bin/busybox; do
		[ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && return 0
	done
	return 1
}
static_busybox || skip_all "no static busybox here (Debian package busybox-static)"

# ---------------------------------------------------------------------
# Run directory, pruned to the last five.
runs=$top/build/kernel-runs
run=$runs/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run" || exit 2
ln -sfn "${run##*/}" "$runs/last"
ls -1d "$runs"/2*-* 2>/dev/null | sort | head -n -5 | while read -r old; do
	rm -rf "$old"
done
say "results in ${run#"$top"/}"

# ---------------------------------------------------------------------
# Kernels.
flavours=$(echo "$plan" | awk '{ print $2 }' | sort -u)
# Guests of another architecture (arm64:6.12-16k) need its busybox too.
archs=$(echo "$flavours" | awk -F: 'NF > 1 { print $1 }' | sort -u)
# shellcheck disable=SC2086
"$here/fetch-kernels.sh" $flavours $(for a in $archs; do echo "busybox:$a"; done) \
	>"$run/kernels.txt" 2>"$run/fetch.log"
while read -r line; do say "kernel $line"; done <"$run/kernels.txt"
kernel_of() {	# flavour -> "release path" or "- reason"
	awk -v f="$1" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' "$run/kernels.txt"
}

# ---------------------------------------------------------------------
# The initramfs of each architecture: amd64 with this wmark; arm64,
# s390x, riscv64 and i386 with the static build of that architecture when
# there is one (make static-arm64, static-s390x, static-riscv64,
# static-i386; else, like ppc64el, none: those guests run guest-dump.sh
# and the host checks what they send).
arch_of() {	# flavour -> amd64, arm64, ppc64el, s390x, riscv64, i386
	case $1 in *:*) echo "${1%%:*}" ;; *) echo amd64 ;; esac
}
wmark_arm64=${WMARK_ARM64:-$top/build/static-arm64/wmark}
static_wmark() {	# arch -> its static wmark, or nothing
	local w
	case $1 in
	arm64) w=$wmark_arm64 ;;
	s390x|riscv64|i386) w=$top/build/static-$1/wmark ;;
	*) return ;;
	esac
	[ -x "$w" ] && echo "$w"
}
initrd_of() { echo "$run/initramfs-$1.cpio.gz"; }
for a in amd64 $archs; do
	[ "$a" = amd64 ] || [ -n "$(kernel_of "busybox:$a")" ] || continue
	bb=() w=$wmark
	if [ "$a" != amd64 ]; then
		k=$(kernel_of "busybox:$a")
		[ "${k%% *}" = - ] && continue
		bb=(--busybox "${k##* }")
		w=$(static_wmark "$a")
		w=${w:--}
	fi
	# shellcheck disable=SC2046
	if ! "$here/mkinitramfs.sh" "${bb[@]}" "$w" "$(initrd_of "$a")" \
		$(awk -v a="$a" '$2 != "-" && $1 !~ /^busybox:/ {
			f = $1; arch = (index(f, ":") ? substr(f, 1, index(f, ":") - 1) : "amd64")
			if (arch == a) { sub(/\/vmlinuz$/, "", $3); print $3 } }' "$run/kernels.txt") \
		2>>"$run/mkinitramfs.log"; then
		not_ok "the $a test initramfs builds"
		diag "$(cat "$run/mkinitramfs.log")"
		exit 1
	fi
	say "initramfs $a $(du -k "$(initrd_of "$a")" | cut -f1) KiB${w:+ (wmark: ${w#"$top"/})}"
done
initrd=$(initrd_of amd64)

# ---------------------------------------------------------------------
# One boot.  boot DIR KERNEL ACCEL MEM NODES ARGS: fills DIR with
# console.log, data.log, qemu.log, rc, wall, rss_kib and cmdline.txt.
mib() {	# 256M, 4G -> MiB
	case $1 in
	*G) echo $((${1%G} * 1024)) ;;
	*M) echo "${1%M}" ;;
	*) echo "$1" ;;
	esac
}

boot() {
	local dir=$1 kernel=$2 accel=$3 mem=$4 nodes=$5 args=$6 arch=${7:-amd64} t0 rc
	local size per i cpu console=ttyS0 out one=
	size=$(mib "$mem")
	mkdir -p "$dir"
	rm -f "$dir"/*.log "$dir"/rc "$dir"/wall "$dir"/rss_kib
	[ "$accel" = tcg ] && accel=tcg,thread=multi
	local cmd
	case $arch in
	arm64)
		# pauth-impdef: the cheap pointer-authentication hash halves TCG boots
		cmd=(qemu-system-aarch64 -M virt -nodefaults -nographic -no-reboot -monitor none
			-accel tcg,thread=multi -cpu max,pauth-impdef=on -smp 2 -m "${size}M")
		console=ttyAMA0 one=1
		;;
	ppc64el)
		cmd=(qemu-system-ppc64 -M pseries -nodefaults -nographic -no-reboot -monitor none
			-accel tcg,thread=multi -cpu power9 -smp 2 -m "${size}M")
		console=hvc0 one=1
		;;
	s390x)
		cmd=(qemu-system-s390x -M s390-ccw-virtio -nodefaults -nographic -no-reboot
			-monitor none -accel tcg,thread=multi -cpu max -smp 2 -m "${size}M")
		console=ttysclp0 one=1
		;;
	riscv64)
		# -bios default: the OpenSBI of Debian's opensbi package
		cmd=(qemu-system-riscv64 -M virt -bios default -nodefaults -nographic -no-reboot
			-monitor none -accel tcg,thread=multi -smp 2 -m "${size}M")
		one=1
		;;
	i386)
		cmd=(qemu-system-i386 -nodefaults -nographic -no-reboot -monitor none
			-accel "$accel" -cpu max -smp 2 -m "${size}M")
		;;
	*)
		cmd=("$qemu" -nodefaults -nographic -no-reboot -monitor none
			-accel "$accel" -cpu max -smp 2 -m "${size}M")
		;;
	esac
	if [ "$nodes" -le 1 ]; then
		# reserve=off: RAM is mapped without swap reservation and only
		# touched pages cost the host anything (a 140G guest ~3 GiB).
		cmd+=(-object "memory-backend-ram,id=ram0,size=${size}M,reserve=off"
			-machine memory-backend=ram0)
	else
		per=$((size / nodes))
		for ((i = 0; i < nodes; i++)); do
			[ $i -eq $((nodes - 1)) ] && per=$((size - per * (nodes - 1)))
			cpu=
			[ $i -lt 2 ] && cpu=,cpus=$i
			cmd+=(-object "memory-backend-ram,id=m$i,size=${per}M,reserve=off"
				-numa "node,nodeid=$i,memdev=m$i$cpu")
		done
	fi
	cmd+=(-kernel "$kernel" -initrd "$(initrd_of "$arch")"
		-append "console=$console quiet panic=-1${one:+ wmark.out=console} $args")
	case $arch in
	arm64)
		# one UART: the data share the console (init.sh turns printk down)
		cmd+=(-serial "file:$dir/console.log")
		out=console.log
		;;
	ppc64el)
		cmd+=(-chardev "file,id=con,path=$dir/console.log" -device "spapr-vty,chardev=con")
		out=console.log
		;;
	s390x)
		cmd+=(-chardev "file,id=con,path=$dir/console.log" -device "sclpconsole,chardev=con")
		out=console.log
		;;
	riscv64)
		cmd+=(-serial "file:$dir/console.log")
		out=console.log
		;;
	*)
		cmd+=(-serial "file:$dir/console.log" -serial "file:$dir/data.log")
		out=data.log
		;;
	esac
	[ "$out" = data.log ] || ln -sf console.log "$dir/data.log"
	printf '%q ' "${cmd[@]}" >"$dir/cmdline.txt"
	echo >>"$dir/cmdline.txt"
	t0=$(now)
	local measure=()
	[ -x /usr/bin/time ] && measure=(/usr/bin/time -f %M -o "$dir/rss_kib")
	# timeout(1) runs qemu in a process group of its own, out of reach
	# of ^C: the pid file lets stop_boots end it.
	# s390x and riscv64 run two to three times slower under TCG than the
	# others: twice the limit
	local lim=$limit
	case $arch in s390x|riscv64) lim=$((limit * 2)) ;; esac
	timeout -k 10 "$lim" "${measure[@]}" "${cmd[@]}" \
		</dev/null >"$dir/qemu.log" 2>&1 &
	echo $! >"$dir/pid"
	wait $!
	rc=$?
	rm -f "$dir/pid"
	secs "$t0" "$(now)" >"$dir/wall"
	echo $rc >"$dir/rc"
	# GNU time adds "Command exited with non-zero status" lines.
	[ -f "$dir/rss_kib" ] && tail -1 "$dir/rss_kib" >"$dir/rss" && mv "$dir/rss" "$dir/rss_kib"
	grep -q '^WMARK-END' "$dir/data.log" 2>/dev/null
}

# Interrupted: end the boots still running (timeout passes the signal on
# to qemu), by the pids recorded in boot().
stop_boots() {
	local p
	for p in "$run"/*/pid; do
		[ -f "$p" ] && kill -TERM "$(cat "$p")" 2>/dev/null
	done
	say "interrupted"
	exit 130
}
trap stop_boots INT TERM

# ---------------------------------------------------------------------
# KVM or TCG: stock Debian kernels may not boot under a nested KVM, so
# KVM is used only when a real boot completes with it.
accel=${WMARK_KERNEL_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	probe_kernel=$(awk '$2 != "-" { print $3; exit }' "$run/kernels.txt")
	if [ ! -e /dev/kvm ]; then
		say "no /dev/kvm: using TCG"
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		say "/dev/kvm is not usable by $(id -un): using TCG"
	elif [ -n "$probe_kernel" ]; then
		save=$limit
		limit=30
		if boot "$run/kvm-probe" "$probe_kernel" kvm 256M 1 \
			"wmark.script=probe wmark.entry=kvm-probe"; then
			accel=kvm
			say "KVM works (probe boot $(cat "$run/kvm-probe/wall")s)"
		else
			say "a KVM boot did not complete (rc $(cat "$run/kvm-probe/rc")): using TCG"
		fi
		limit=$save
	fi
fi
diag "accelerator: $accel, matrix: $matrix_set, boots at once: $jobs, wmark: ${wmark#"$top"/}"

# ---------------------------------------------------------------------
# Boot every entry, $jobs at a time; results are read afterwards, in order.
# Why an entry's architecture cannot boot here, or nothing.
cannot_boot() {	# arch
	local q
	case $1 in
	arm64) q=qemu-system-aarch64 ;;
	ppc64el) q=qemu-system-ppc64 ;;
	s390x) q=qemu-system-s390x ;;
	riscv64) q=qemu-system-riscv64 ;;
	i386) q=qemu-system-i386 ;;
	*) return 1 ;;
	esac
	if ! command -v $q >/dev/null 2>&1; then
		echo "no $q here (Debian package qemu-system-${q#qemu-system-}; qemu-system-arm for aarch64, qemu-system-misc for s390x and riscv64, qemu-system-x86 for i386)"
	elif [ ! -f "$(initrd_of "$1")" ]; then
		echo "no busybox-static:$1 could be had for its initramfs"
	else
		return 1
	fi
}

running=0
while read -r name flavour mem nodes args; do
	k=$(kernel_of "$flavour")
	[ -z "$k" ] || [ "${k%% *}" = - ] && continue
	cannot_boot "$(arch_of "$flavour")" >/dev/null && continue
	dir=$run/$name
	(
		t0=$(now)
		say "$name: booting ${k%% *}, $mem, $nodes node(s) $args"
		bargs="${guest_script}${WMARK_KERNEL_APPEND:+$WMARK_KERNEL_APPEND }wmark.entry=$name wmark.nodes=$nodes $args"
		if boot "$dir" "${k#* }" "$accel" "$mem" "$nodes" "$bargs" "$(arch_of "$flavour")"; then
			say "$name: done in $(cat "$dir/wall")s"
		elif why=$(retry_why "$dir"); then
			# died for the emulator's sake (retry.sh): once more, the first kept
			mkdir -p "$dir/first-boot"
			cp -L "$dir"/console.log "$dir"/qemu.log "$dir"/rc "$dir"/wall "$dir/first-boot/" 2>/dev/null
			echo "$why" >"$dir/first-boot/why"
			say "$name: died $why (qemu exit $(cat "$dir/rc")): booting again"
			if boot "$dir" "${k#* }" "$accel" "$mem" "$nodes" "$bargs" "$(arch_of "$flavour")"; then
				say "$name: done in $(cat "$dir/wall")s on the second boot"
			else
				say "$name: no results on the second boot either"
			fi
		else
			say "$name: no results (qemu exit $(cat "$dir/rc"), $(cat "$dir/wall")s)"
		fi
	) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done <<<"$plan"
wait

# ---------------------------------------------------------------------
# Results.
# unpack DIR: split data.log into guest TAP (tap.txt), facts (info.txt)
# and the files sent with WMARK-FILE (DIR/NAME/...).
unpack() {
	local dir=$1 f
	tr -d '\r' <"$dir/data.log" | awk -v dir="$dir" '
		/^WMARK-BEGIN/ { on = 1; next }
		!on { next }
		/^WMARK-END/ { print > (dir "/info.txt"); on = 0; next }
		/^WMARK-FILE-END/ { file = ""; next }
		/^WMARK-FILE / { file = $2; printf "" > (dir "/" file ".b64"); next }
		file != "" { print > (dir "/" file ".b64"); next }
		/^WMARK-INFO / { sub(/^WMARK-INFO /, ""); print > (dir "/info.txt"); next }
		{ print > (dir "/tap.txt") }'
	for f in "$dir"/*.b64; do
		[ -f "$f" ] || continue
		rm -rf "${f%.b64}"
		mkdir -p "${f%.b64}"
		base64 -d "$f" | tar -xzf - -C "${f%.b64}" 2>/dev/null
		rm -f "$f"
	done
}

info_get() {	# info_get DIR KEY
	awk -v k="$2" '{ for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) {
		print substr($i, length(k) + 2); exit } }' "$1/info.txt" 2>/dev/null
}

verdict_of() {	# verdict_of ROOT: "rc verdict" of wmark -j verify there
	local out rc
	out=$("$wmark" --root "$1" -j verify 2>/dev/null)
	rc=$?
	echo "$rc $(echo "$out" | awk -f "$here/json-flat.awk" |
		awk '$1 == "verdict" { print $2; exit }')"
}

json_key() {	# json_key ROOT KEY: a top-level value of wmark -j verify there
	"$wmark" --root "$1" -j verify 2>/dev/null | awk -f "$here/json-flat.awk" |
		awk -v k="$2" '$1 == k { print $2; exit }'
}

# The option whatif takes for a knob.
knob_opt() {
	case $1 in
	watermark_scale_factor) echo --wsf ;;
	min_free_kbytes) echo --min-free-kbytes ;;
	watermark_boost_factor) echo --boost-factor ;;
	lowmem_reserve_ratio) echo --lowmem-reserve-ratio ;;
	*) echo "--$1" ;;
	esac
}

# dump_checks DIR NAME RELEASE: the host's checks of a guest that ran
# guest-dump.sh (no wmark inside): states s0 (boot) to sN, one per write.
dump_checks() {
	local dir=$1 name=$2 rel=$3 steps i step knob val wrc opt ps pb want_ps src ptb vrc vv
	steps=$(info_get "$dir" steps)
	if [ -z "$steps" ] || [ ! -s "$dir/s0/proc/zoneinfo" ]; then
		not_ok "[$name] the guest's states reached the host"
		return
	fi
	ok "[$name] the guest's $((steps + 1)) states reached the host ($(cat "$dir/s0/proc/sys/kernel/osrelease"))"
	case $rel in
	*-16k) want_ps=16384 ;;
	*-64k) want_ps=65536 ;;
	*) want_ps=4096 ;;
	esac
	ps=$(json_key "$dir/s0" page_size) src=$(json_key "$dir/s0" page_size_source)
	[ "$ps" = "$want_ps" ] && [ "$src" != assumed ]
	check $? "[$name] wmark reads the page size of the capture: $ps ($src; the kernel's is $want_ps)"
	pb=$(json_key "$dir/s0" pageblock_pages)
	ptb=$(awk '/^Pages per block:/ { print $4; exit }' "$dir/s0/proc/pagetypeinfo" 2>/dev/null)
	[ -n "$pb" ] && [ "$pb" = "$ptb" ]
	check $? "[$name] wmark's pageblock is the kernel's: $pb pages (pagetypeinfo: ${ptb:-none}; $(json_key "$dir/s0" pageblock_source))"
	read -r vrc vv <<<"$(verdict_of "$dir/s0")"
	{ [ "$vrc" = 0 ] && [ "${vv:-}" = exact ]; } || { [ "$vrc" = 1 ] && [ "${vv:-}" = stale ]; }
	check $? "[$name] verify --root of the boot state: exact or stale (exit $vrc, ${vv:-no verdict})"
	for ((i = 1; i <= steps; i++)); do
		step=$(info_get "$dir" "step$i")
		knob=${step%%:*} val=${step#*:} wrc=${val##*:} val=${val%:*} val=${val//_/ }
		opt=$(knob_opt "$knob")
		[ "$wrc" = 0 ]
		check $? "[$name] the kernel takes $knob = $val (write exit $wrc)"
		if ! "$wmark" --root "$dir/s$((i - 1))" -j whatif "$opt" "$val" >"$dir/whatif$i.json" \
			2>"$dir/whatif$i.err"; then
			not_ok "[$name] whatif $opt '$val' from the state before it exits 0"
			diag "$(head -3 "$dir/whatif$i.err")"
			continue
		fi
		awk -f "$here/json-flat.awk" "$dir/whatif$i.json" | awk -f "$here/json-zones.awk" \
			>"$dir/pred$i.txt"
		awk -f "$here/zoneinfo-norm.awk" "$dir/s$i/proc/zoneinfo" >"$dir/act$i.txt"
		awk -f "$here/wm-compare.awk" "$dir/pred$i.txt" "$dir/act$i.txt" >"$dir/cmp$i.txt"
		check $? "[$name] after $knob = $val zoneinfo's min/low/high/promo/protection equal whatif's from the state before"
		diag "$(sort "$dir/cmp$i.txt" | head -10)"
	done
	read -r vrc vv <<<"$(verdict_of "$dir/s$steps")"
	[ "$vrc" = 0 ] && [ "${vv:-}" = exact ]
	check $? "[$name] verify --root of the state after the last write: exact (exit $vrc, ${vv:-no verdict})"
	calc_check "$dir" "$rel" "s$steps"
	check $? "[$name] calc from the managed pages, sysctls and page geometry alone gives the kernel's numbers after the last write"
	diag "$(head -10 "$dir/calc-diff.txt")"
}

# thp_anon_check DIR NAME: with transparent_hugepage=never and an mTHP size
# on from the command line, khugepaged set the boot min_free_kbytes (7.x)
# or did not (6.12); wmark's "khugepaged raises min_free_kbytes back to N"
# must say the same, N being the kernel's boot value.
thp_anon_check() {
	local dir=$1 name=$2 mfk out said
	mfk=$(cat "$dir/raw/proc/sys/vm/min_free_kbytes" 2>/dev/null)
	out=$("$wmark" --root "$dir/raw" apply -n --min-free-kbytes 1024 2>&1)
	said=$(echo "$out" | sed -n 's/.*raises min_free_kbytes back to \([0-9]*\) KiB.*/\1/p' | head -1)
	case $name in
	*k72*|*k7.*)
		[ -n "$said" ] && [ "$said" = "$mfk" ]
		check $? "[$name] THP never with an mTHP size on: wmark says khugepaged sets min_free_kbytes ${said:-(nothing)} KiB, the kernel booted with $mfk"
		;;
	*)
		[ -z "$said" ]
		check $? "[$name] THP never with an mTHP size on: wmark says khugepaged does not run (${said:+it says $said KiB; }the kernel booted with $mfk)"
		;;
	esac
}

host_has_verify=0 host_has_calc=0
"$wmark" help 2>/dev/null | grep -q '^  verify ' && host_has_verify=1
"$wmark" help 2>/dev/null | grep -q '^  calc ' && host_has_calc=1

# calc_check DIR RELEASE: wmark calc, given only DIR/fresh's managed pages
# and sysctls, must print the kernel's own numbers (no stale ones there:
# the guest refreshed them).  Differences go to DIR/calc-diff.txt.
# With a third argument the capture's name (default fresh); the page size
# and pageblock are the ones wmark reads from that capture.
calc_check() {
	local dir=$1 rel=$2 cap=${3:-fresh} v=$1/${3:-fresh}/proc/sys/vm args rc ps pb
	awk -f "$here/zoneinfo-norm.awk" "$dir/$cap/proc/zoneinfo" >"$dir/fresh-zones.txt"
	ps=$(json_key "$dir/$cap" page_size) pb=$(json_key "$dir/$cap" pageblock_pages)
	mapfile -t args < <(awk -v ps="${ps:-4096}" '$3 == "managed" {
		print "--zone"; printf "%s:%s=%.0f\n", $1, $2, $4 * ps }' "$dir/fresh-zones.txt")
	"$wmark" --kernel "$rel" -j calc "${args[@]}" --page-size "${ps:-4096}" \
		--pageblock-pages "${pb:-512}" \
		--min-free-kbytes "$(cat "$v/min_free_kbytes")" \
		--wsf "$(cat "$v/watermark_scale_factor")" \
		--boost-factor "$(cat "$v/watermark_boost_factor")" \
		--lowmem-reserve-ratio "$(tr -s ' \t' '  ' <"$v/lowmem_reserve_ratio")" \
		>"$dir/calc.json" 2>"$dir/calc-diff.txt"
	rc=$?
	[ $rc -eq 0 ] || return $rc
	awk -f "$here/json-flat.awk" "$dir/calc.json" | awk -f "$here/json-zones.awk" |
		awk -f "$here/wm-compare.awk" - "$dir/fresh-zones.txt" | sort >"$dir/calc-diff.txt"
	[ ! -s "$dir/calc-diff.txt" ]
}

times=$run/times.txt
printf '%-22s %-28s %5s %5s %7s %7s %7s %8s\n' entry kernel mem nodes wall_s \
	init_s done_s rss_mib >"$times"
while read -r name flavour mem nodes args; do
	k=$(kernel_of "$flavour")
	if [ -z "$k" ] || [ "${k%% *}" = - ]; then
		skip "[$name] guest tests" "no $flavour kernel: ${k#- }"
		continue
	fi
	if why=$(cannot_boot "$(arch_of "$flavour")"); then
		skip "[$name] guest tests" "$why"
		continue
	fi
	dir=$run/$name
	rel=${k%% *}
	unpack "$dir"
	wall=$(cat "$dir/wall") rc=$(cat "$dir/rc")
	rss=$(cat "$dir/rss_kib" 2>/dev/null)
	end=$(grep '^WMARK-END' "$dir/data.log" 2>/dev/null | tr -d '\r')
	what="$rel, $mem, $nodes node(s)${args:+, $args}, $accel"
	printf '%-22s %-28s %5s %5s %7s %7s %7s %8s\n' "$name" "$rel" "$mem" \
		"$nodes" "$wall" "$(info_get "$dir" uptime_init)" \
		"$(info_get "$dir" uptime_done)" "$(( ${rss:-0} / 1024 ))" >>"$times"
	# The guest's own results, renumbered; shown even when it never
	# finished, to see where it stopped.
	if [ -f "$dir/tap.txt" ]; then
		while IFS= read -r line; do
			case $line in
			"ok "[0-9]*|"not ok "[0-9]*)
				n=$((n + 1))
				echo "$line" | sed -E "s/^(not )?ok [0-9]+ - /\\1ok $n - [$name] /"
				;;
			"#"*) echo "$line" ;;
			*) echo "# $line" ;;
			esac
		done <"$dir/tap.txt"
	fi
	if [ -z "$end" ]; then
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			not_ok "[$name] the guest finishes its tests ($what): killed after ${wall}s"
		else
			not_ok "[$name] the guest finishes its tests ($what): qemu exit $rc after ${wall}s"
		fi
		# The console's last lines, without SeaBIOS's escape sequences.
		diag "$(tail -15 "$dir/console.log" 2>/dev/null |
			sed -E 's/\x1b(\[[0-9;?]*[A-Za-z]|c)//g' | tr -cd '[:print:]\t\n')"
		diag "$(tail -5 "$dir/qemu.log" 2>/dev/null)"
		continue
	fi
	if [ -d "$dir/first-boot" ]; then
		diag "[$name] the first boot died $(cat "$dir/first-boot/why") (qemu exit $(cat "$dir/first-boot/rc"), $(cat "$dir/first-boot/wall")s); the second one counts. Its console's last lines:"
		diag "$(tail -5 "$dir/first-boot/console.log" 2>/dev/null | tr -cd '[:print:]\t\n')"
	fi
	grc=${end#*rc=}
	[ "$grc" = 0 ]
	check $? "[$name] the guest finishes its tests ($what) in ${wall}s (exit $grc)"
	[ "${WMARK_KERNEL_SCRIPT:-}" = probe ] && continue
	case ${WMARK_KERNEL_SCRIPT:-} in *guest-reclaim-bench.sh) continue ;; esac	# make bench-reclaim reads info.txt
	if [ -n "$(info_get "$dir" steps)" ]; then
		dump_checks "$dir" "$name" "$rel"
		continue
	fi
	# Lazy guest RAM: a big guest must not cost the host its size.
	if [ -n "$rss" ] && [ "$(mib "$mem")" -ge 30720 ]; then
		[ $((rss / 1024)) -lt $(($(mib "$mem") / 4)) ]
		check $? "[$name] guest RAM is allocated lazily: qemu peaked at $((rss / 1024)) MiB for $mem"
	else
		skip "[$name] guest RAM is allocated lazily" "checked for guests of 30 GiB and more (${rss:-no} peak RSS read)"
	fi
	# Host side: wmark --root on what the guest sent.
	boot_verdict=$(info_get "$dir" boot_verdict)
	if [ ! -s "$dir/raw/proc/zoneinfo" ]; then
		not_ok "[$name] the boot capture reached the host"
	elif [ $host_has_verify = 0 ]; then
		ok "[$name] the boot capture reached the host ($(cat "$dir/raw/proc/sys/kernel/osrelease"))"
		skip "[$name] wmark --root verify of the boot capture" "verify not built"
	else
		# The truest "right after boot": zoneinfo as the kernel left it,
		# read before anything read lowmem_reserve_ratio (which
		# recomputes protection).  The guest's own verify ran a little
		# later and may have seen fresher protection.
		read -r vrc vv <<<"$(verdict_of "$dir/raw")"
		{ [ "$vrc" = 0 ] && [ "${vv:-}" = exact ]; } ||
			{ [ "$vrc" = 1 ] && [ "${vv:-}" = stale ]; }
		check $? "[$name] verify --root of the boot capture: exact or stale (exit $vrc, ${vv:-no verdict}; in the guest: ${boot_verdict:-not run})"
	fi
	if [ ! -s "$dir/fresh/proc/zoneinfo" ]; then
		not_ok "[$name] the capture after the refresh reached the host"
	else
		if [ $host_has_calc = 1 ]; then
			calc_check "$dir" "$rel"
			check $? "[$name] calc from the managed pages and sysctls alone gives the kernel's min/low/high/promo/protection"
			diag "$(head -20 "$dir/calc-diff.txt")"
		else
			skip "[$name] calc from the managed pages alone gives the kernel's numbers" "calc not built"
		fi
		if [ $host_has_verify = 1 ]; then
			read -r vrc vv <<<"$(verdict_of "$dir/fresh")"
			[ "$vrc" = 0 ] && [ "${vv:-}" = exact ]
			check $? "[$name] verify --root of the capture after the refresh: exact (exit $vrc, ${vv:-no verdict})"
		else
			skip "[$name] verify --root of the capture after the refresh" "verify not built"
		fi
	fi
	# thp_anon=: the boot min_free_kbytes follows the per-size controls
	case " $args " in
	*" thp_anon="*) thp_anon_check "$dir" "$name" ;;
	esac
	cap_verdict=$(info_get "$dir" capture_verdict)
	cap_rc=$(info_get "$dir" capture_verify_rc)
	if [ -d "$dir/capture" ] && [ $host_has_verify = 1 ]; then
		read -r vrc vv <<<"$(verdict_of "$dir/capture")"
		[ "$vrc" = "$cap_rc" ] && [ -n "${vv:-}" ] && [ "${vv:-}" = "$cap_verdict" ]
		check $? "[$name] verify --root of the guest's capture gives what verify gave in the guest (host: exit $vrc ${vv:-none}; guest: exit $cap_rc $cap_verdict)"
		[ "$vrc" = 0 ]
		check $? "[$name] the guest's capture, taken after rollback, verifies exact on the host"
		ps=$(json_key "$dir/capture" page_size) src=$(json_key "$dir/capture" page_size_source)
		[ -n "$ps" ] && [ "$src" != assumed ] && [ "$ps" = "$(json_key "$dir/raw" page_size)" ]
		check $? "[$name] the guest's capture tells its page size: $ps bytes ($src)"
	elif [ -d "$dir/capture" ]; then
		skip "[$name] verify --root of the guest's capture" "verify not built"
	fi
	# The kernel's answers to out-of-range writes, for the record.
	grep '^kernel_write' "$dir/info.txt" 2>/dev/null | sed "s/^/# [$name] /" | head -6
done <<<"$plan"

t_total=$(secs "$t_start" "$(now)")
echo "total $t_total" >>"$times"
diag "boot times ($accel):"
diag "$(cat "$times")"
cat "$times" >&2
say "kernel tests took ${t_total}s"
echo "1..$n"
exit 0
