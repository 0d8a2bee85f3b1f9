#!/bin/bash
# Special files in place of the inputs tests/sh/inputs.sh leaves out: the
# other sysctls, the kernel's version string, both THP files, vmstat (for
# recommend --sample), the journal (apply, rollback), apply --from, and
# recommend's --vmstat-before/--vmstat-after and --psi-before/--psi-after
# files.  Each of a FIFO, a symlink to /dev/zero, a directory and a
# symlink loop must end within 5 s, exit 2 or 3 with nothing on stdout,
# one line on stderr naming the path, and no knob written.  Prints TAP.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/special.sh
. "$(dirname "$0")/lib.sh"
D=data/machines
export LC_ALL=C
unset WMARK_FAULT


# run ARGS...: at most 5 s; stdout in $tmp/o, stderr in $tmp/e, status in $rc
run() { timeout 5 "$W" "$@" >"$tmp/o" 2>"$tmp/e" </dev/null; rc=$?; }

F=vm-6.18-firecracker-A
fresh() {	# a writable copy of capture $F in $tmp/r
	rm -rf "$tmp/r"
	cp -r "$D/$F" "$tmp/r"
}

# make PATH KIND: put a KIND at PATH
make_kind() {
	rm -rf "$1"
	mkdir -p "$(dirname "$1")"
	case $2 in
	fifo) mkfifo "$1" ;;
	zero) ln -s /dev/zero "$1" ;;
	directory) mkdir "$1" ;;
	loop) ln -s "$(basename "$1")" "$1" ;;
	esac
}

what() {
	case $1 in
	fifo) echo "a FIFO" ;;
	zero) echo "a symlink to /dev/zero" ;;
	directory) echo "a directory" ;;
	loop) echo "a symlink loop" ;;
	esac
}

# refused DESCRIPTION PATH: exit 2 or 3 (not 124, the timeout), nothing on
# stdout, one line on stderr naming PATH, the knobs as they were
refused() {
	if { [ "$rc" = 2 ] || [ "$rc" = 3 ]; } && [ ! -s "$tmp/o" ] &&
	   [ "$(wc -l <"$tmp/e")" = 1 ] && grep -qF "$2" "$tmp/e" && knobs_kept; then
		ok "$1"
	else
		nok "$1 (exit $rc)"
		sed 's/^/# /' "$tmp/e" | head -3 | cut -c1-200
	fi
}

knobs_kept() {
	local k
	for k in min_free_kbytes watermark_scale_factor watermark_boost_factor lowmem_reserve_ratio; do
		[ -L "$tmp/r/proc/sys/vm/$k" ] || [ ! -f "$tmp/r/proc/sys/vm/$k" ] && continue
		cmp -s "$tmp/r/proc/sys/vm/$k" "$D/$F/proc/sys/vm/$k" || return 1
	done
}

# ---- sysctls and files the snapshot reads, beyond those inputs.sh covers
# (whatif and verify read the root as show and recommend do; apply is the
# one that writes, so it runs for real on the copy)
for rel in proc/sys/vm/watermark_scale_factor proc/sys/vm/watermark_boost_factor \
	proc/sys/vm/lowmem_reserve_ratio proc/sys/vm/extra_free_kbytes proc/sys/kernel/version \
	sys/kernel/mm/transparent_hugepage/enabled \
	sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled; do
	# Debian's release string hides the sublevel: only then is version read
	case $rel in */version) F=qemu-k61-4g-before ;; *) F=vm-6.18-firecracker-A ;; esac
	for kind in fifo zero directory loop; do
		for c in show "recommend --burst 64M" "apply --wsf 200"; do
			fresh
			make_kind "$tmp/r/$rel" "$kind"
			# shellcheck disable=SC2086
			run --root "$tmp/r" $c
			refused "$rel $(what $kind): ${c%% *} ends within 5 s, exit 2 or 3 naming it" "$tmp/r/$rel"
		done
	done
done

# ---- vmstat, read by recommend --sample under --root
F=vm-6.18-firecracker-A
for kind in fifo zero directory loop; do
	fresh
	make_kind "$tmp/r/proc/vmstat" "$kind"
	run --root "$tmp/r" recommend --sample 1
	refused "proc/vmstat $(what $kind): recommend --sample ends within 5 s naming it" "$tmp/r/proc/vmstat"
	fresh
	make_kind "$tmp/r/proc/pressure/memory" "$kind"
	run --root "$tmp/r" recommend --sample 1
	refused "proc/pressure/memory $(what $kind): recommend --sample ends within 5 s naming it" \
		"$tmp/r/proc/pressure/memory"
done

# ---- recommend's captured files
V=$D/vm-6.18-firecracker-A/proc/vmstat
for kind in fifo zero directory loop; do
	make_kind "$tmp/in" "$kind"
	run --root "$D/vm-6.18-firecracker-A" recommend --vmstat-before "$tmp/in" --vmstat-after "$V"
	refused "--vmstat-before $(what $kind): ends within 5 s naming it" "recommend: $tmp/in: "
	run --root "$D/vm-6.18-firecracker-A" recommend --vmstat-before "$V" --vmstat-after "$tmp/in"
	refused "--vmstat-after $(what $kind): ends within 5 s naming it" "recommend: $tmp/in: "
	run --root "$D/vm-6.18-firecracker-A" recommend --vmstat-before "$V" --vmstat-after "$V" \
		--psi-before "$tmp/in" --psi-after "$D/vm-6.18-firecracker-A/proc/pressure/memory"
	refused "--psi-before $(what $kind): ends within 5 s naming it" "recommend: $tmp/in: "
done
mkfifo "$tmp/vm.fifo"
run --root "$D/vm-6.18-firecracker-A" recommend --vmstat-before "$tmp/vm.fifo" --vmstat-after "$V"
if [ $rc = 3 ] && grep -qF "recommend: $tmp/vm.fifo: is a FIFO, not a regular file" "$tmp/e"; then
	ok "a FIFO --vmstat-before: 'is a FIFO, not a regular file' (not 'No such device or address')"
else
	nok "a FIFO --vmstat-before: 'is a FIFO, not a regular file' (exit $rc)"; sed 's/^/# /' "$tmp/e"
fi

# ---- apply --from, beside inputs.sh's FIFO and directory
for kind in zero loop; do
	fresh
	make_kind "$tmp/from.conf" "$kind"
	run --root "$tmp/r" apply --from "$tmp/from.conf"
	refused "apply --from $(what $kind): ends within 5 s naming it, nothing written" "$tmp/from.conf"
done

# ---- the journal: apply and rollback read it before anything is written
for kind in fifo zero directory loop; do
	for c in "apply --wsf 100" rollback "rollback -f"; do
		fresh
		make_kind "$tmp/r/var/lib/wmark/state.json" "$kind"
		# shellcheck disable=SC2086
		run --root "$tmp/r" $c
		refused "the journal $(what $kind): ${c} ends within 5 s naming it, nothing written" \
			"$tmp/r/var/lib/wmark/state.json"
	done
done

echo "1..$n"
