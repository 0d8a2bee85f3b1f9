#!/bin/bash
# verify against every real capture in ../shared/corpus, read in place:
# each public capture with the kernel and sysctls its SOURCE.md records
# (or --infer where none were published) must verify exact or stale, and
# every state of every qemu capture must too.  Prints TAP; skips when
# ../shared is absent.
. "$(dirname "$0")/lib.sh"
C=../shared/corpus
T=../shared/tools/case-to-root.py

if [ ! -d "$C" ]; then
	echo "ok 1 - verify the public captures # SKIP ../shared/corpus is absent"
	echo "1..1"
	exit 0
fi

run() {	# capture, expected verdicts (regex), wmark arguments...
	local cap=$1 want=$2 v rc
	shift 2
	n=$((n + 1))
	if [ ! -f "$C/$cap/proc/zoneinfo" ]; then
		echo "ok $n - $cap # SKIP not in this corpus"
		return
	fi
	"$W" -j --root "$C/$cap" "$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	v=$(py -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/o" 2>/dev/null)
	if [[ $v =~ ^($want)$ ]]; then
		echo "ok $n - $cap verifies $v ($*)"
	else
		echo "not ok $n - $cap verifies '$v', want $want (exit $rc; $*)"
		sed 's/^/# /' "$tmp/e" | head -3
		"$W" --root "$C/$cap" "$@" 2>&1 | tail -12 | sed 's/^/# /'
	fi
}

L5="256 256 32 0 0"
# kernel and sysctls as each SOURCE.md records them
run vm-6.18-firecracker-A exact verify
run arm32-zte-f680-router-4.1 exact --kernel 4.1.25 verify --min-free-kbytes 1227 --lowmem-reserve-ratio 32
run arm32-zynq-4.4-cma exact --kernel 4.4.0 verify --min-free-kbytes 2008 --lowmem-reserve-ratio "32 32"
run arm720t-2.6.16-legacy exact --kernel 2.6.16 verify --min-free-kbytes 724 --lowmem-reserve-ratio "256 256 32"
run x86-ubuntu-3.13-8g 'exact|stale' --kernel 3.13.0-77-generic verify --min-free-kbytes 67584 --lowmem-reserve-ratio "256 256 32"
run x86-ubuntu-3.2-8g-nomanaged 'exact|stale' --kernel 3.2.0-58-generic verify --min-free-kbytes 67584 --infer
run sosreport-coreos-x86-8g 'exact|stale' --kernel 4.18.0-80.11.2.el8_0 verify --min-free-kbytes 67584 --wsf 10 --lowmem-reserve-ratio "$L5"
run x86-cs9-droplet-1cpu-boost 'exact|stale' --kernel 5.14.0-325.el9 verify --min-free-kbytes 34548 --wsf 10 --lowmem-reserve-ratio "$L5"
# kernel known, sysctls inferred
run android-samsung-5.10-excerpt exact --kernel 5.10.0-android12 verify --infer
run arm32-jmr540-3.18-cma 'exact|stale' --kernel 3.18.20 verify --infer
run arm32-tablet-3.4-highmem 'exact|stale' --kernel 3.4.5 verify --infer
run linuxmm-x86-2cpu-3.11-avgage 'exact|stale' --kernel 3.11 verify --infer
run lkml-qemu-2node-movable-5.6-excerpt exact --kernel 5.6 verify --infer
run x86-el8-issabel-5g 'exact|stale' --kernel 4.18.0-477.27.1.el8_8 verify --infer
run x86-vm-2g-dma32-only 'exact|stale' --kernel 5.10.84 verify --infer
# neither published: the era is inferred too
for cap in node-exporter-fixture pcp-x86-2node-8g-numa pcp-x86-i7-16g-4.x \
	   pcp-x86-i7-16g-movable-device pcp-x86-kvm-4g pcp-x86-kvm-nehalem-4g \
	   pcp-x86-xeon-2node-128g procfs-fixture; do
	run "$cap" 'exact|stale' verify --infer
done

# qemu captures: every state, from its own sysctls and release
for cdir in "$C"/qemu-*/; do
	case=$(basename "$cdir")
	for st in before after settled $(cd "$cdir" && ls -d steps/* 2>/dev/null); do
		[ -f "$cdir/$st/zoneinfo" ] && [ -f "$cdir/$st/sysctl.txt" ] || continue
		root="$tmp/$case-${st//\//-}"
		py "$T" "$cdir" "$st" "$root" 2>/dev/null || continue
		n=$((n + 1))
		out=$("$W" --root "$root" verify 2>&1)
		if grep -qE "verdict: (exact|stale)" <<<"$out"; then
			echo "ok $n - $case $st verifies $(grep -oE 'verdict: [a-z]+' <<<"$out")"
		else
			echo "not ok $n - $case $st"
			tail -12 <<<"$out" | sed 's/^/# /'
		fi
	done
done
echo "1..$n"
