#!/bin/bash
# wmark reclaim against fake cgroup trees under --root: usage errors, the
# model in --dry-run (docs/model.md §12.2.1), missing cgroup v2 / v1 only /
# kernels without memory.reclaim, and whole runs whose totals are checked.
#
# The fake kernel (tests/sh/fake_reclaim.py): memory.reclaim is a regular
# file, as on cgroupfs, under a read lease the fake holds, so wmark's
# open() for writing waits until the fake has moved memory.stat and
# memory.current as the step says and gives the lease up: the readings
# before and after each write are deterministic.  No real cgroup is
# touched.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/reclaim.sh   (TAP on stdout)
set -u
: "${WMARK:?set WMARK to the wmark binary}"
. "$(dirname "$0")/lib.sh"

check() {	# STATUS WHAT; the status stays in $last
	last=$1
	if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi
}

at_exit 'jobs -p | xargs -r kill 2>/dev/null'

run() {	# ARGS...: stdout in $T/out, stderr in $T/err, status in $rc
	"$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}


# mktree DIR RELEASE: a machine with a cgroup v2 mount and cgroup "app":
# 200 MiB charged, of which 150 MiB file and 50 MiB anon, and no reclaim yet.
mktree() {
	local d=$1
	mkdir -p "$d/proc/sys/kernel" "$d/sys/fs/cgroup/app"
	echo "$2" >"$d/proc/sys/kernel/osrelease"
	printf 'sysfs /sys sysfs rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec 0 0\n' \
		>"$d/proc/mounts"
	printf 'MemTotal: 4000000 kB\nMemFree: 3000000 kB\n' >"$d/proc/meminfo"
	stat_fmt "$d/sys/fs/cgroup/app" pgsteal_direct
	set_state "$d/sys/fs/cgroup/app" 209715200 52428800 157286400 0 0
	: >"$d/sys/fs/cgroup/app/memory.reclaim"
}

# stat_fmt CG COUNTER: memory.stat's layout, with COUNTER the steal counter
stat_fmt() {
	local extra=
	[ "$2" = pgsteal_proactive ] && extra='pgsteal_direct 7\n'
	printf 'anon {anon}\nfile {file}\nworkingset_refault_anon 0\nworkingset_refault_file {refaults}\npgsteal_kswapd 0\n%b%s {steal}\npgsteal {steal}\n' \
		"$extra" "$2" >"$1/.stat.fmt"
}

# set_state CG CURRENT ANON FILE STEAL REFAULTS (bytes, bytes, bytes, pages, count)
set_state() {
	local cg=$1 f
	f=$(cat "$cg/.stat.fmt")
	f=${f//\{anon\}/$3} f=${f//\{file\}/$4} f=${f//\{steal\}/$5} f=${f//\{refaults\}/$6}
	printf '%s\n' "$f" >"$cg/.stat.tmp"
	mv "$cg/.stat.tmp" "$cg/memory.stat"
	echo "$2" >"$cg/.cur.tmp"
	mv "$cg/.cur.tmp" "$cg/memory.current"
	echo "$2 $3 $4 $5 $6" >"$cg/.state"
}

wait_for() {	# FILE: up to 30 s for it to appear (a loaded machine)
	local i
	for ((i = 0; i < 3000; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

# reclaim_start ROOT STEPS -- ARGS...: start wmark reclaim ARGS in the
# background against ROOT's cgroup app (pid in $pid), answered by the fake
# kernel STEPS (pid in $helper).  reclaim_end waits for both.
reclaim_start() {
	local root=$1 steps=()
	cg=$1/sys/fs/cgroup/app
	shift
	while [ "$1" != -- ]; do steps+=("$1"); shift; done
	shift
	rm -f "$cg/.requests" "$cg/.ready" "$cg"/.waiting.* "$T/pid"
	python3 tests/sh/fake_reclaim.py "$cg" "$T/pid" "${steps[@]}" 2>"$T/fake.err" &
	helper=$!
	wait_for "$cg/.ready" || diag "the fake kernel is not ready after 30 s: $(cat "$T/fake.err")"
	"$WMARK" --root "$root" "$@" >"${OUT:-$T/out}" 2>"$T/err" &
	pid=$!
	echo "$pid" >"$T/pid"
}
reclaim_end() {
	wait "$pid"
	rc=$?
	wait "$helper" 2>/dev/null
}

# fake_diag: what a failed case against the fake kernel saw
fake_diag() {
	diag "rc=$rc requests: [$(requests "${cg%/sys/fs/cgroup/app}")]"
	diag "$(head -c 2000 "$T/out")"
	diag "$(cat "$T/err" "$T/fake.err")"
}

# reclaim_with ROOT STEPS -- ARGS...: the two in one
reclaim_with() {
	reclaim_start "$@"
	reclaim_end
}

requests() { [ -f "$1/sys/fs/cgroup/app/.requests" ] && tr '\n' ' ' <"$1/sys/fs/cgroup/app/.requests" | sed 's/ $//'; }

# ---- usage ---------------------------------------------------------------
run reclaim --help
[ "$rc" -eq 0 ] && grep -q -- '--batch' "$T/out" && grep -q 'memory.reclaim' "$T/out"
check $? "reclaim --help exits 0 and documents --batch and memory.reclaim"
# swappiness=max: 6.15's memory.reclaim refuses it (EINVAL), 6.16's takes it
"$W" --kernel 6.15 reclaim x --bytes 1M --swappiness max -n >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "kernel 6.15 has no swappiness=max" "$T/err"
check $? "reclaim --kernel 6.15 --swappiness max -n: exit 2 naming the kernel"
"$W" --kernel 6.16 reclaim x --bytes 1M --swappiness max -n >"$T/out" 2>"$T/err"
check $? "reclaim --kernel 6.16 --swappiness max -n: exit 0"
# 6.12 memory_reclaim(): nr_retries = MAX_RECLAIM_RETRIES (16) and
# "if (!reclaimed && !nr_retries--) return -EAGAIN": the 17th call that
# reclaims nothing ends the write (16 pass the post-decrement test)
tr '\n' ' ' <"$T/out" | grep -q '17 calls that reclaim nothing, then EAGAIN'
check $? "reclaim --help: 17 calls that reclaim nothing, then EAGAIN"

usage_case() {	# WHAT PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	run "$@"
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 2 ] && grep -q "^wmark: reclaim: .*$pat" "$T/err" &&
		grep -q "^Try 'wmark --help'" "$T/err" && [ ! -s "$T/out" ]
	check $? "$what: exit 2 with one line naming it ($(head -1 "$T/err"))"
}
usage_case "no cgroup" "no cgroup given" --kernel 6.12 reclaim --bytes 1G
usage_case "neither --bytes nor --to" "needed" --kernel 6.12 reclaim app
usage_case "--bytes and --to" "give one" --kernel 6.12 reclaim app --bytes 1G --to 1G
usage_case "a bad size" "--bytes '1X'" --kernel 6.12 reclaim app --bytes 1X
usage_case "a bad batch" "--batch 'half'" --kernel 6.12 reclaim app --bytes 1G --batch half
usage_case "a fixed step of 0" "must not be 0" --kernel 6.12 reclaim app --bytes 1G --batch fixed:0
usage_case "swappiness 201" "0 to 200 or max" --kernel 6.12 reclaim app --bytes 1G --swappiness 201
usage_case "swappiness on 6.1" "kernel 6.1 has no swappiness" --kernel 6.1 reclaim app --bytes 1G -n --swappiness 10
usage_case "swappiness=max on 6.12" "6.16" --kernel 6.12 reclaim app --bytes 1G -n --swappiness max
usage_case "--node on 6.12" "kernel 6.12 has no per-node" --kernel 6.12 reclaim --node 0 --bytes 1G -n
usage_case "--node with a cgroup" "not a cgroup" --kernel 7.2 reclaim app --node 0 --bytes 1G
usage_case "a bad timeout" "--timeout" --kernel 6.12 reclaim app --bytes 1G --timeout -1
usage_case "an unknown option" "unknown option '--fast'" --kernel 6.12 reclaim app --bytes 1G --fast
usage_case "-o prom" "no Prometheus form" --kernel 6.12 -o prom reclaim app --bytes 1G -n
usage_case "a .. in the cgroup" "'..' is not allowed" --root "$T" reclaim ../etc --bytes 1G

# ---- the model, no cgroup needed with --kernel --------------------------------
run --kernel 6.12.117+deb12-amd64 -j reclaim nowhere --bytes 1G --dry-run
[ "$rc" -eq 0 ] && json 'd["model"]["calls"] == 31 and d["model"]["overshoot_pages"] == 16 and
	d["model"]["rule"] == "quarter" and d["model"]["targets"][0] == {"pages": 65536, "calls": 1} and
	d["model"]["targets"][-1] == {"pages": 32, "calls": 4} and
	sum(t["pages"] * t["calls"] for t in d["model"]["targets"]) == 262144 + 16 and
	d["request_pages"] == 262144 and "writes" not in d'
check $? "dry-run 1 GiB on 6.12: 31 calls, 16 pages over, first 65536, last 4 of 32 (A2.1)"
run --kernel 6.6.9 -j reclaim nowhere --bytes 1G -n
[ "$rc" -eq 0 ] && json 'd["model"]["calls"] == 8192 and d["model"]["targets"] == [{"pages": 32, "calls": 8192}] and d["model"]["overshoot_pages"] == 0'
check $? "dry-run 1 GiB on 6.6: 8192 calls of 32"
# the largest folio the LRU may hold on this machine, as reclaim works it out
folio=256
pmd=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null)
[ -n "$pmd" ] && [ $((pmd / $(getconf PAGESIZE))) -gt 1 ] && folio=$((pmd / $(getconf PAGESIZE)))
run --kernel 6.1.0-57-amd64 -j reclaim nowhere --bytes 1G -n --batch quarter
[ "$rc" -eq 0 ] && json 'd["model"]["calls"] == 1 and d["model"]["targets"] == [{"pages": 262144, "calls": 1}] and
	d["model"]["plan"]["writes"] == 31 and d["model"]["plan"]["first_write_pages"] == 65536 and
	d["model"]["over_bound_pages"] == 262143 + '"$folio"' - 1 and
	d["model"]["largest_folio_pages"] == '"$folio"
check $? "dry-run 1 GiB on 6.1: one call; --batch quarter plans 31 writes, first 65536 pages, up to 262143 + $folio - 1 over"

# The over-reclaim bound grows by the largest folio less one page: the
# PMD size from hpage_pmd_size (here 2 MiB of 4 KiB pages), else 256.
R=$T/pmdroot
cp -r data/machines/vm-6.18-firecracker-A "$R"
mkdir -p "$R/sys/kernel/mm/transparent_hugepage"
echo 2097152 >"$R/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
run --root "$R" --kernel 6.12.117+deb12-amd64 -j reclaim nowhere --bytes 1G -n
[ "$rc" -eq 0 ] && json 'd["model"]["largest_folio_pages"] == 512 and d["model"]["over_bound_pages"] == 63 + 511'
check $? "under a root with hpage_pmd_size 2 MiB: folios of 512 pages, at most 63 + 511 pages over"
rm "$R/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
run --root "$R" --kernel 6.12.117+deb12-amd64 reclaim nowhere --bytes 1G -n
[ "$rc" -eq 0 ] && grep -q 'up to 318 pages over per node (folios of up to 256 pages)' "$T/out"
check $? "without hpage_pmd_size: the page cache's order 8, 256 pages, 63 + 255 over"
run --kernel 6.12 reclaim nowhere --bytes 400K -n
[ "$rc" -eq 0 ] && grep -q '4 calls, targets 32x4' "$T/out" && grep -q 'idealised overshoot 28 pages' "$T/out"
check $? "dry-run of 100 pages on 6.12 in text: 4 calls of 32, 28 over (B7.6)"
# Fixed steps are planned in closed form, not write by write: 16000 TiB in
# 4 KiB writes on 6.9+ is 16000 * 2^28 pages, each write of one page a call
# of the 32-page floor, so 16000 * 2^28 / 32 writes and calls, none over.
run() {	# as above, but a run that does not end within 10 s is status 124
	timeout 10 "$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
run --kernel 6.12 -j reclaim x --bytes 16000T --batch fixed:4K -n
[ "$rc" -eq 0 ] && json 'd["request_pages"] == 16000 * 2**28 and d["model"]["plan"]["writes"] == 16000 * 2**23 and
	d["model"]["plan"]["calls"] == 16000 * 2**23 and d["model"]["plan"]["overshoot_pages"] == 0 and
	d["model"]["plan"]["first_write_pages"] == 1'
check $? "dry-run 16000T in fixed 4K writes on 6.12: 16000 * 2^23 writes, at once (status $rc)"
run --kernel 5.10.0-46-amd64 reclaim nowhere --bytes 1G -n
[ "$rc" -eq 3 ] && grep -q 'kernel 5.10.0-46-amd64 has no memory.reclaim (5.19+)' "$T/err"
check $? "dry-run on 5.10: exit 3, the kernel named ($(cat "$T/err"))"

# ---- the system refuses -----------------------------------------------------
mkdir -p "$T/none/proc/sys/kernel" "$T/none/sys/fs/cgroup"
echo 6.12.117+deb12-amd64 >"$T/none/proc/sys/kernel/osrelease"
echo 'proc /proc proc rw 0 0' >"$T/none/proc/mounts"
run --root "$T/none" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && grep -q "no cgroup v2 mount in $T/none/proc/mounts" "$T/err"
check $? "no cgroup2 mount: exit 3 naming the mounts file"
echo 'cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,memory 0 0' >>"$T/none/proc/mounts"
run --root "$T/none" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && grep -q '/sys/fs/cgroup/memory is a cgroup v1 memory hierarchy' "$T/err"
check $? "a v1 memory hierarchy: exit 3 naming it ($(cat "$T/err"))"

mktree "$T/k510" 5.10.0-46-amd64
rm "$T/k510/sys/fs/cgroup/app/memory.reclaim"
run --root "$T/k510" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && grep -q "/sys/fs/cgroup/app/memory.reclaim: kernel 5.10.0-46-amd64 has no memory.reclaim (5.19+)" "$T/err"
check $? "5.10: exit 3 naming the cgroup and the kernel ($(cat "$T/err"))"

mktree "$T/k612" 6.12.117+deb12-amd64
run --root "$T/k612" reclaim missing --bytes 1M
[ "$rc" -eq 3 ] && grep -q "$T/k612/sys/fs/cgroup/missing: no such cgroup" "$T/err"
check $? "a cgroup that does not exist: exit 3 naming its path"
mkdir "$T/k612/sys/fs/cgroup/nomem"
run --root "$T/k612" reclaim /sys/fs/cgroup/nomem --bytes 1M
[ "$rc" -eq 3 ] && grep -q "nomem/memory.reclaim: .*subtree_control" "$T/err"
check $? "a cgroup without the memory controller: exit 3, the parent's subtree_control named"

# A memory.current of 2^62 bytes with --to 0 in 64 KiB writes: 2^50 pages;
# a write of 16 pages reclaims the 32-page floor, so 2^45 writes.
# ---- the page size and the kernel as every command reads them
# Debian's arm64-16k kernel booted under qemu (data/machines), with app's
# cgroup added: memory_reclaim() asks for bytes / PAGE_SIZE pages (6.12
# mm/memcontrol.c), 1 MiB is 64 pages of 16 KiB.
a16=$T/a16
cp -r data/machines/qemu-arm64-k612-16k-4g "$a16"
mktree "$a16" 6.12.117+deb13-arm64-16k
cp data/machines/qemu-arm64-k612-16k-4g/proc/meminfo "$a16/proc/meminfo"
run --root "$a16" -j reclaim app --bytes 1M -n
[ "$rc" -eq 0 ] && json 'd["page_size"] == 16384 and d["request_pages"] == 64'
check $? "the 16K capture: 16384-byte pages from MemTotal, 1M is 64 pages (status $rc)"
# what `wmark capture` recorded, without a zoneinfo to find it from
rm "$a16/proc/zoneinfo"
mkdir -p "$a16/wmark"
printf 'page_size 16384\npageblock_order 11\n' >"$a16/wmark/geometry"
run --root "$a16" reclaim app --bytes 1M -n
[ "$rc" -eq 0 ] && grep -q '^reclaim [^ ]*app: kernel 6.12.117+deb13-arm64-16k, 16384-byte pages$' "$T/out"
check $? "a capture's recorded page size is the page size, not an assumed 4096 ($(head -1 "$T/out"))"
# a zoneinfo that does not parse is an error, not 4096 assumed after it
rm -r "$a16/wmark"
echo 'Node 0, zone Normal' >"$a16/proc/zoneinfo"
echo '  pages free lots' >>"$a16/proc/zoneinfo"
run --root "$a16" reclaim app --bytes 1M -n
[ "$rc" -eq 2 ] && grep -q "$a16/proc/zoneinfo:2:" "$T/err" && [ ! -s "$T/out" ]
check $? "a zoneinfo that does not parse: exit 2 naming its line, nothing modelled (status $rc)"
# no release at all: the newest modelled kernel's rules, said to be assumed
rm "$a16/proc/zoneinfo" "$a16/proc/sys/kernel/osrelease"
run --root "$a16" reclaim app --bytes 1M -n
newest=$("$WMARK" calc --zone Normal=1G | sed -n '1s/^Kernel \([0-9.]*\) rules.*/\1/p')
[ "$rc" -eq 0 ] && [ -n "$newest" ] &&
	grep -q "^reclaim [^ ]*app: kernel $newest (assumed), 4096-byte pages (assumed)$" "$T/out"
check $? "no osrelease: the newest kernel calc models ($newest), assumed ($(head -1 "$T/out"))"

mktree "$T/huge" 6.12.117+deb12-amd64
echo 4611686018427387904 >"$T/huge/sys/fs/cgroup/app/memory.current"
run --root "$T/huge" -j reclaim app --to 0 --batch fixed:64K -n
[ "$rc" -eq 0 ] && json 'd["request_pages"] == 2**50 and d["model"]["plan"]["writes"] == 2**45 and
	d["model"]["plan"]["calls"] == 2**45 and d["model"]["plan"]["first_write_pages"] == 16'
check $? "dry-run --to 0 of a 2^62-byte memory.current in 64K writes: 2^45 writes, at once (status $rc)"
run() {
	"$WMARK" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# memory.reclaim is written only as a regular file inside the root, reached
# without a link: a FIFO would make the open wait for ever (SIGINT and
# SIGTERM used to be blocked there), a link sends the write to its target.
mktree "$T/bad" 6.12.117+deb12-amd64
bcg=$T/bad/sys/fs/cgroup/app
rm "$bcg/memory.reclaim" && mkfifo "$bcg/memory.reclaim"
for extra in "" "--timeout 1e-9"; do
	SECONDS=0
	# SIGKILL: the wait this guards against used to block SIGINT and SIGTERM
	# shellcheck disable=SC2086
	timeout -s KILL 10 "$WMARK" --root "$T/bad" reclaim app --bytes 1M $extra >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 3 ] && [ "$SECONDS" -lt 8 ] && [ ! -s "$T/out" ] &&
		grep -q "$bcg/memory.reclaim: not a regular file (a FIFO, socket or device): refusing" "$T/err"
	check $? "a FIFO in memory.reclaim's place${extra:+ with $extra}: exit 3 naming it, at once (status $rc, ${SECONDS}s)"
done
rm "$bcg/memory.reclaim"
echo "precious data line 1 - do not lose" >"$T/victim"
ln -s "$T/victim" "$bcg/memory.reclaim"
run --root "$T/bad" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && [ "$(cat "$T/victim")" = "precious data line 1 - do not lose" ] &&
	grep -q "$bcg/memory.reclaim: a symbolic link or '..' on the way: refusing" "$T/err"
check $? "memory.reclaim a link to a file outside the root: exit 3, the file untouched ($(head -1 "$T/err"))"
rm "$bcg/memory.reclaim"
mkdir -p "$T/outside/app"
: >"$T/outside/app/memory.reclaim"
ln -s "$T/outside/app" "$T/bad/sys/fs/cgroup/linked"
run --root "$T/bad" reclaim linked --bytes 1M
[ "$rc" -eq 3 ] && [ ! -s "$T/outside/app/memory.reclaim" ] && grep -q "symbolic link" "$T/err"
check $? "a cgroup directory linked out of the root: exit 3, nothing written there"
: >"$bcg/memory.reclaim"
cp "$T/bad/proc/mounts" "$T/mounts.good"
echo 'cgroup2 /sys/fs/cgroup/../../../outside cgroup2 rw 0 0' >"$T/bad/proc/mounts"
run --root "$T/bad" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && grep -q "cgroup2 mount point '/sys/fs/cgroup/../../../outside' is not an absolute path without '..'" "$T/err"
check $? "a cgroup2 mount point with '..' in the root's mounts: exit 3 naming it"
cp "$T/mounts.good" "$T/bad/proc/mounts"
run --kernel 6.12 reclaim ../../etc --bytes 1M -n
[ "$rc" -eq 2 ] && grep -q "cgroup '../../etc': '..' is not allowed" "$T/err" && [ ! -s "$T/out" ]
check $? "a '..' in the cgroup with -n --kernel: exit 2 as without them"

# Messages that name the real cause.
rm -r "$bcg" && touch "$bcg"
run --root "$T/bad" reclaim app --bytes 1M
[ "$rc" -eq 3 ] && grep -q "$bcg: not a directory, so not a cgroup" "$T/err"
check $? "a cgroup path that is a file: exit 3, 'not a directory' ($(cat "$T/err"))"
run --kernel 6.12 reclaim app --bytes 1M --timeout 86401
[ "$rc" -eq 2 ] && grep -q "at most 86400" "$T/err"
check $? "--timeout 86401: the limit of 86400 is named"
run --kernel 6.17 reclaim --node 0 --bytes 1M -n
[ "$rc" -eq 0 ] && grep -q '^reclaim /sys/devices/system/node/node0/reclaim: kernel 6.17' "$T/out"
check $? "--node 0 -n --kernel 6.17: the header names the node's file ($(head -1 "$T/out"))"
run --kernel 6.17 -j reclaim --node 0 --bytes 1M -n
[ "$rc" -eq 0 ] && json 'd["file"] == "/sys/devices/system/node/node0/reclaim" and d["node"] == 0 and "cgroup" not in d'
check $? "--node 0 -n --kernel 6.17 in JSON: the node's file, no null cgroup"

# ---- runs against the fake kernel ---------------------------------------------
# One write of the whole request (--batch kernel); the kernel reclaims 25700
# pages for 25600: 100 over, Δcurrent the same, all of it file.
reclaim_with "$T/k612" 25700 -- -j reclaim app --bytes 100M
[ "$rc" -eq 0 ] && [ "$(requests "$T/k612")" = 104857600 ] &&
	json 'd["result"] == "ok" and d["counter"] == "pgsteal_direct" and len(d["writes"]) == 1 and
	d["writes"][0]["requested_pages"] == 25600 and d["writes"][0]["reclaimed_pages"] == 25700 and
	d["writes"][0]["over_pages"] == 100 and d["writes"][0]["current_drop_pages"] == 25700 and
	d["writes"][0]["file_pages"] == 25700 and d["writes"][0]["anon_pages"] == 0 and
	d["writes"][0]["refaults"] == 1 and d["writes"][0]["result"] == "ok" and
	d["total"]["over_pages"] == 100 and d["total"]["writes"] == 1 and
	d["writes"][0]["time_ns"] > 0 and d["model"]["calls"] == 23'
check $? "one kernel write of 100 MiB: asked 25600, 25700 reclaimed, 100 over, exit 0"
[ "$last" -eq 0 ] || fake_diag

# --batch quarter for 100 pages: writes of max(left/4, 32); the kernel gives
# 40, 32, 30: left 60, 28, then -2.  Text output this time.
reclaim_with "$T/k612" 40 32 30 -- reclaim /sys/fs/cgroup/app --bytes 400K --batch quarter
[ "$rc" -eq 0 ] && [ "$(requests "$T/k612")" = "131072 131072 131072" ] &&
	grep -q '^total: 3 writes, ASKED 100, RECLAIMED 102, dCURRENT 102, OVER 2,' "$T/out" &&
	grep -q '; ok$' "$T/out"
check $? "--batch quarter of 100 pages: three writes of 32 pages, 102 reclaimed, 2 over"
[ "$last" -eq 0 ] || fake_diag

# fixed steps with swappiness on 6.12: the key goes with every write.
reclaim_with "$T/k612" 256 256 -- -j reclaim app --bytes 2M --batch fixed:1M --swappiness 60
[ "$rc" -eq 0 ] && [ "$(requests "$T/k612")" = "1048576 swappiness=60 1048576 swappiness=60" ] &&
	json 'len(d["writes"]) == 2 and d["swappiness"] == 60 and d["total"]["reclaimed_pages"] == 512'
check $? "--batch fixed:1M --swappiness 60: two writes of 1 MiB, each with swappiness=60"
[ "$last" -eq 0 ] || fake_diag

# --to: the runs above took about 100 MiB; down to 50 MiB.  The first write
# reclaims all it asked but memory.current drops by 5000 pages only (the
# cgroup allocated meanwhile): a second write asks for the rest.
read -r cur _ <"$T/k612/sys/fs/cgroup/app/.state"
want=$(((cur - 52428800 + 4095) / 4096))
reclaim_with "$T/k612" "$want:5000" "$((want - 5000))" -- -j reclaim app --to 50M
[ "$rc" -eq 0 ] && [ "$(requests "$T/k612")" = "$((want * 4096)) $(((want - 5000) * 4096))" ] &&
	json "len(d['writes']) == 2 and d['request_pages'] == $want and d['writes'][1]['requested_pages'] == $want - 5000 and d['writes'][0]['current_drop_pages'] == 5000"
check $? "--to 50M: a second write for what memory.current still holds above it ($want pages, then $((want - 5000)))"
[ "$last" -eq 0 ] || fake_diag
read -r cur _ <"$T/k612/sys/fs/cgroup/app/.state"
reclaim_with "$T/k612" -- -j reclaim app --to 50M
[ "$rc" -eq 0 ] && [ "$cur" -le 52428800 ] && json 'd["writes"] == [] and d["result"] == "ok"'
check $? "--to a size already reached: no write, exit 0"
[ "$last" -eq 0 ] || fake_diag

# A write the kernel never answers: --timeout interrupts it, "inf", exit 1.
reclaim_with "$T/k612" hang -- -j reclaim app --bytes 1M --timeout 0.3
[ "$rc" -eq 1 ] && json 'd["result"] == "timeout" and d["writes"][0]["result"] == "inf" and
	d["writes"][0]["time_ns"] >= 3e8'
check $? "--timeout 0.3 on a write that does not finish: reported inf, exit 1"
[ "$last" -eq 0 ] || fake_diag

# A timeout so short that it passes before the write starts is not lost:
# the timer fires again until the wait ends (it used to hang for good).
SECONDS=0
reclaim_with "$T/k612" hang -- -j reclaim app --bytes 1M --timeout 1e-9
[ "$rc" -eq 1 ] && [ "$SECONDS" -lt 8 ] && json 'd["result"] == "timeout" and d["writes"][0]["result"] == "inf"' &&
	[ -z "$(requests "$T/k612")" ]
check $? "--timeout 1e-9 on a write that does not finish: timeout, exit 1, nothing written (status $rc, ${SECONDS}s)"
[ "$last" -eq 0 ] || fake_diag

# Ctrl-C (or SIGTERM) while the second write waits: that write is
# interrupted (what it reclaimed stays counted), the run stops, exit 1.
for sig in INT TERM; do
	reclaim_start "$T/k612" 256 hang -- -j reclaim app --bytes 4M --batch fixed:1M
	wait_for "$cg/.waiting.2" && sleep 0.1
	kill -"$sig" "$pid"
	reclaim_end
	[ "$rc" -eq 1 ] && json 'd["result"] == "interrupted" and len(d["writes"]) == 2 and
		d["writes"][0]["result"] == "ok" and d["writes"][1]["result"] == "EINTR" and
		d["total"]["reclaimed_pages"] == 256' && [ "$(requests "$T/k612")" = 1048576 ]
	check $? "SIG$sig during the second of four writes: it is interrupted, 2 writes reported, exit 1"
	[ "$last" -eq 0 ] || fake_diag
done

# A write error that is no answer of the kernel's loop after a write that
# succeeded: the report of that write comes first, then the error, exit 3.
reclaim_with "$T/k612" '256!' -- -j reclaim app --bytes 4M --batch fixed:1M
[ "$rc" -eq 3 ] && json 'd["result"] == "error" and len(d["writes"]) == 2 and
	d["writes"][0]["result"] == "ok" and d["writes"][0]["reclaimed_pages"] == 256 and
	d["total"]["reclaimed_pages"] == 256' &&
	grep -q "app/memory.reclaim: write of 1048576 bytes: is a directory" "$T/err"
check $? "a write that fails with EISDIR after one that succeeded: the report, then the error, exit 3"
[ "$last" -eq 0 ] || fake_diag
rmdir "$cg/memory.reclaim" && : >"$cg/memory.reclaim"
reclaim_with "$T/k612" '256?' -- reclaim app --to 0 --batch fixed:1M
[ "$rc" -eq 3 ] && grep -q '^total: 1 write, ASKED' "$T/out" && grep -q '; error$' "$T/out" &&
	grep -q "app/memory.current: cannot be read" "$T/err"
check $? "--to with memory.current gone after a write: the text report of that write, then the error, exit 3"
[ "$last" -eq 0 ] || fake_diag
set_state "$cg" 209715200 52428800 157286400 0 0

# Writes that succeed while memory.stat lags (it is flushed in batches):
# each write is taken to have reclaimed what it asked, so 1 MiB in quarters
# is 64, 48, 36, 27... pages; the totals show what the counters said.
reclaim_with "$T/k612" 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 0:0 -- -j reclaim app --bytes 1M --batch quarter
[ "$rc" -eq 0 ] && json 'd["result"] == "ok" and [w["requested_pages"] for w in d["writes"]][:4] == [64, 48, 36, 32] and
	d["total"]["reclaimed_pages"] == 0 and d["total"]["over_pages"] == -256'
check $? "writes the kernel calls met while memory.stat lags: the quarters go on by the kernel's word, 0 counted"
[ "$last" -eq 0 ] || fake_diag

# A lagging counter that catches up: the first 32-page write shows 0 pages
# in memory.stat, the second 64 (its own 32 and the first's), the third 32.
# What is left goes by the larger of the counter's sum and the sum of what
# the writes asked, so the lagged pages are not counted twice: three writes,
# 96 pages, none short.  (Taking the larger of the two write by write
# counted 32 + 64 after two writes and stopped 32 pages short, at 64 of 96:
# 65435 pages for 65536 seen on 6.1 in 32-page writes.)
mktree "$T/klag" 6.1.0
reclaim_with "$T/klag" 0 64 32 -- -j reclaim app --bytes 384K --batch fixed:128K
[ "$rc" -eq 0 ] && json 'd["result"] == "ok" and [w["reclaimed_pages"] for w in d["writes"]] == [0, 64, 32] and
	d["total"]["reclaimed_pages"] == 96 and d["total"]["over_pages"] == 0'
check $? "a lagging counter that catches up: 3 writes of 32 pages, 96 reclaimed, 0 over ($(tr -d '\n\t' <"$T/out" | grep -o '"total":{[^}]*}'))"
[ "$last" -eq 0 ] || fake_diag

# --to when memory.current does not move: wmark stops (stalled), exit 1.
reclaim_with "$T/k612" 0:0 -- -j reclaim app --to 1M
[ "$rc" -eq 1 ] && json 'd["result"] == "stalled" and len(d["writes"]) == 1'
check $? "--to with a write that moves no counter: stalled, exit 1"
[ "$last" -eq 0 ] || fake_diag

# The report lost after the writes were made: say how many, exit 3.
OUT=/dev/full reclaim_with "$T/k612" 256 -- -j reclaim app --bytes 1M
[ "$rc" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q '^wmark: reclaim: standard output: No space left on device: the report is lost; 1 write made$' "$T/err" &&
	[ "$(requests "$T/k612")" = 1048576 ]
check $? "a full stdout after one write: exit 3, one line saying the write was made (status $rc)"
[ "$last" -eq 0 ] || fake_diag

# 7.2's memory.stat has pgsteal_proactive: that is the counter read.
mktree "$T/k72" 7.2.13+deb14-amd64
stat_fmt "$T/k72/sys/fs/cgroup/app" pgsteal_proactive
set_state "$T/k72/sys/fs/cgroup/app" 209715200 52428800 157286400 0 0
reclaim_with "$T/k72" 300 -- -j reclaim app --bytes 1M --swappiness max
[ "$rc" -eq 0 ] && [ "$(requests "$T/k72")" = "1048576 swappiness=max" ] &&
	json 'd["counter"] == "pgsteal_proactive" and d["writes"][0]["reclaimed_pages"] == 300 and d["writes"][0]["over_pages"] == 44'
check $? "7.2: pgsteal_proactive is read, swappiness=max passed"
[ "$last" -eq 0 ] || fake_diag

# stdout is data: a full disk is an error
"$WMARK" --kernel 6.12 reclaim x --bytes 1G -n >/dev/full 2>/dev/null
[ $? -ne 0 ]
check $? "reclaim -n >/dev/full fails"

# A working-set refault counter lower after a write than before it (the
# cgroup removed and made again meanwhile): the difference is unknown,
# printed "-" and null as for pgsteal, never taken modulo 2^64.
mktree "$T/kref" 6.12.0
set_state() {	# refaults 1000 before the write, 0 after it
	local cg=$1
	printf 'anon %s\nfile %s\nworkingset_refault_anon 0\nworkingset_refault_file %s\npgsteal_direct %s\n' \
		"$3" "$4" "$((1000 - $6 * 1000))" "$5" >"$cg/.stat.tmp"
	mv "$cg/.stat.tmp" "$cg/memory.stat"
	echo "$2" >"$cg/.cur.tmp"
	mv "$cg/.cur.tmp" "$cg/memory.current"
	echo "$2 $3 $4 $5 $6" >"$cg/.state"
}
set_state "$T/kref/sys/fs/cgroup/app" 209715200 52428800 157286400 0 0
reclaim_with "$T/kref" 256 -- -j reclaim app --bytes 1M
[ "$rc" -eq 0 ] && json 'd["writes"][0]["refaults"] is None and d["total"]["refaults"] is None and
	d["writes"][0]["reclaimed_pages"] == 256'
check $? "refaults that went backwards: null in the write and the total ($(grep -m1 refaults "$T/out"))"
set_state "$T/kref/sys/fs/cgroup/app" 209715200 52428800 157286400 0 0
reclaim_with "$T/kref" 256 -- reclaim app --bytes 1M
[ "$rc" -eq 0 ] && ! grep -q -- '-9223372036854775808\|18446744073709551' "$T/out" &&
	awk '$1 == "1" && $0 ~ / - / { f = 1 } END { exit !f }' "$T/out"
check $? "refaults that went backwards: '-' in the text table ($(grep -m1 '^ *1 ' "$T/out"))"

# tests/kernel/reclaim-writes.awk, the guests' summary of a report's write
# rows (a run of 32-page writes has thousands, too many to flatten in a
# guest): against the report read by Python, and the rest of the document
# as json-flat.awk reads it whole.
busybox_same() {	# REPORT LINE: busybox awk, the guests' awk, prints LINE too (where there is one)
	command -v busybox >/dev/null 2>&1 || return 0
	[ "$(busybox awk -v rest=/dev/null -f tests/kernel/reclaim-writes.awk "$1")" = "$(cat "$2")" ]
}
mktree "$T/ksum" 6.1.0
reclaim_with "$T/ksum" 256 100 300 '256!' -- -j reclaim app --bytes 20M --batch fixed:1M
cp "$T/out" "$T/sum.json"
awk -v rest="$T/sum.rest" -f tests/kernel/reclaim-writes.awk "$T/sum.json" >"$T/sum.line"
want=$(py - "$T/sum.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["writes"]
res = [x["result"] for x in w]
got = [x["reclaimed_pages"] for x in w if x["reclaimed_pages"] is not None]
print("w_ok:%d,w_eagain:%d,w_eintr:%d,w_inf:%d,w_other:%d,w_pmin:%d,w_pmax:%d,w_short:%d,"
      "w_nsmax:%d,w_last:%s" % (
          res.count("ok"), res.count("EAGAIN"), res.count("EINTR"), res.count("inf"),
          len([r for r in res if r not in ("ok", "EAGAIN", "EINTR", "inf")]), min(got), max(got),
          len([x for x in w if x["result"] == "ok" and x["reclaimed_pages"] is not None
               and x["reclaimed_pages"] < x["requested_pages"]]),
          max(x["time_ns"] for x in w), res[-1].replace(" ", "_")))
P
)
awk -f tests/kernel/json-flat.awk "$T/sum.json" | grep -v '^writes\.' >"$T/sum.flat"
[ "$(cat "$T/sum.line")" = "$want" ] && case $want in w_ok:4,*w_other:1,w_pmin:0,w_pmax:300,w_short:1,*w_last:Is_a_directory) true ;; *) false ;; esac &&
	busybox_same "$T/sum.json" "$T/sum.line" &&
	awk -f tests/kernel/json-flat.awk "$T/sum.rest" | cmp -s - "$T/sum.flat"
check $? "reclaim-writes.awk: $(cat "$T/sum.line") (Python: $want), the rest flattens as the report without its rows"

echo "1..$n"
