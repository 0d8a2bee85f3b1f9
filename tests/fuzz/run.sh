#!/bin/bash
# Run every libFuzzer target in FUZZ_BIN_DIR from a seed corpus and print
# one TAP line per target.
#
# usage: tests/fuzz/run.sh FUZZ_BIN_DIR short|long
#   short  about 20000 executions per target (a few seconds; make check)
#   long   1000000 executions per target, or WMARK_FUZZ_RUNS (make fuzz)
#
# Seeds come from ../shared/corpus (every zoneinfo, meminfo, vmstat,
# sysctl, THP and PSI file, when that directory exists), from
# data/machines/*/ root trees, and from a few built-in texts.  A crash,
# leak, sanitizer report or broken contract leaves its input in
# FUZZ_BIN_DIR/artifacts/ and makes the line "not ok".
set -u
export LC_ALL=C

usage() {
	echo "usage: $0 FUZZ_BIN_DIR short|long" >&2
	exit 2
}
[ $# -eq 2 ] || usage
bindir=$1
case $2 in
short) runs=20000 ;;
long) runs=${WMARK_FUZZ_RUNS:-1000000} ;;
*) usage ;;
esac
[ -d "$bindir" ] || { echo "$0: no directory $bindir" >&2; exit 2; }
bindir=$(cd "$bindir" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$src/../shared/corpus

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wmark-fuzz.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/seeds/zoneinfo" "$tmp/seeds/procfs" "$tmp/seeds/vmstat_pair" \
	"$tmp/seeds/conf_big" "$tmp/seeds/replay" "$tmp/seeds/memstat" \
	"$tmp/seeds/cgroup_value" "$bindir/artifacts"

nseed=0
# seed TARGET NAME SELECTOR FILE: copy FILE, prefixed with the parser
# selector byte for the procfs target (see tests/fuzz/fuzz_procfs.c).
seed() {
	nseed=$((nseed + 1))
	if [ "$1" = procfs ]; then
		{ printf '%s' "$3"; cat "$4"; } >"$tmp/seeds/procfs/$2-$nseed"
	else
		cp "$4" "$tmp/seeds/zoneinfo/$2-$nseed"
	fi
}

# Sort a file into the seeds by its name (selectors as fuzz_procfs.c).
classify() {
	case $1 in
	*zoneinfo*) seed zoneinfo zi "" "$1" ;;
	*meminfo) seed procfs meminfo 5 "$1" ;;
	*vmstat) seed procfs vmstat 6 "$1" ;;
	*/pressure/*) seed procfs psi 7 "$1" ;;
	*/transparent_hugepage/*enabled) seed procfs thp 4 "$1"
		seed procfs choice 3 "$1" ;;
	*/lowmem_reserve_ratio) seed procfs lrr 1 "$1" ;;
	*/osrelease) seed procfs line 2 "$1" ;;
	*/proc/sys/*) seed procfs long 0 "$1" ;;
	esac
}

trees=()
[ -d "$corpus" ] && trees+=("$corpus")
for d in "$src"/data/machines/*/; do
	[ -d "$d" ] && trees+=("$d")
done
if [ ${#trees[@]} -gt 0 ]; then
	while IFS= read -r -d '' f; do
		classify "$f"
	done < <(find "${trees[@]}" -type f \( -name '*zoneinfo*' \
		-o -name meminfo -o -name vmstat -o -path '*/proc/sys/*' \
		-o -path '*/pressure/*' -o -path '*/transparent_hugepage/*enabled' \) \
		-size -1M -print0)
fi

# Built-in seeds, so the targets start from every format even alone.
b=$tmp/builtin
mkdir -p "$b"
printf 'Node 0, zone      DMA\n  pages free     3840\n        min      30\n        low      37\n        high     44\n        spanned  4095\n        present  3998\n        managed  3840\n        protection: (0, 3019, 8395, 8395)\n  pagesets\n    cpu: 0\n              count: 0\n              high:  0\n              batch: 1\n  vm stats threshold: 4\n' >"$b/zi-5x"
printf 'Node 0, zone   Normal\n  per-node stats\n      nr_inactive_anon 1\n                   537792\n...\n  pages free     1\n        boost    0\n        min      32\n        low      32\n        high     32\n        promo    32\n        cma      0\n        protection: (0, 0)\n    cpu: 0 pcp: 0\n              high_min: 18\n              high_max: 240\nNode 1, zone  HighMem\n  pages free 2\n' >"$b/zi-odd"
seed zoneinfo builtin "" "$b/zi-5x"
seed zoneinfo builtin "" "$b/zi-odd"
printf '67584\n' >"$b/long"
printf '256\t256\t32\t0\t0\n' >"$b/lrr"
printf '6.1.0-18-amd64\n' >"$b/line"
printf 'always [madvise] never\n' >"$b/thp"
printf 'MemTotal:  100 kB\nHugePages_Total:  0\n' >"$b/meminfo"
printf 'nr_free_pages 1\npgscan_direct 18446744073709551615\n' >"$b/vmstat"
printf 'some avg10=0.00 avg60=1.50 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=7\n' >"$b/psi"
seed procfs builtin 0 "$b/long"
seed procfs builtin 1 "$b/lrr"
seed procfs builtin 2 "$b/line"
seed procfs builtin 3 "$b/thp"
seed procfs builtin 4 "$b/thp"
seed procfs builtin 5 "$b/meminfo"
seed procfs builtin 6 "$b/vmstat"
seed procfs builtin 7 "$b/psi"

# The vmstat pair: two files joined by a NUL (fuzz_vmstat_pair.c), in
# order and swapped; the big sysctl.d text: two bytes for where the
# padding ends, then an assignment or a few.
vms=()
for f in "$src"/data/machines/*/proc/vmstat; do [ -f "$f" ] && vms+=("$f"); done
if [ ${#vms[@]} -gt 0 ]; then
	v=${vms[0]}
	awk '$1 ~ /^(allocstall_normal|pgsteal_direct|pgscan_direct|pgalloc_normal)$/ { $2 += 1000 } { print }' \
		"$v" >"$b/vmstat-later"
	{ cat "$v"; printf '\0'; cat "$b/vmstat-later"; } >"$tmp/seeds/vmstat_pair/forward"
	{ cat "$b/vmstat-later"; printf '\0'; cat "$v"; } >"$tmp/seeds/vmstat_pair/swapped"
	cp "$v" "$tmp/seeds/vmstat_pair/same"
fi
{ printf '\003\377'; printf 'vm.min_free_kbytes = 135168\nvm.watermark_scale_factor = 100\n'; } \
	>"$tmp/seeds/conf_big/two"
{ printf '\004\000'; printf -- '-vm/lowmem_reserve_ratio=256 256 32 0 0\n; x\n\n  # y\nbad line\n'; } \
	>"$tmp/seeds/conf_big/mixed"

# recommend --replay's readings (fuzz_replay.c): a recording of two
# zones, one that goes backwards, one header per capture's zone count;
# memory.stat and the one-value cgroup files (fuzz_memstat.c,
# fuzz_cgroup_value.c).
r=$tmp/seeds/replay
printf '# wmark recommend readings 1 zones=2\nt=0.000000 pgalloc=100 allocstall=0 pgsteal_direct=0 psi=0,0 zone=3840,30,37,44,0 zone=772855,6065,7581,9097,-1\nt=0.200000 pgalloc=900 allocstall=5 pgsteal_direct=800 psi=10,4 zone=3000,30,37,44,0 zone=700000,6065,7581,9097,-1\n' >"$r/two"
printf '# wmark recommend readings 1 zones=1\nt=0 pgalloc=5 zone=1,2,3,4,0\nt=1 pgalloc=3 zone=1,2,3,4,512\nt=2 pgalloc=18446744073709551615 zone=1,2,3,4,-1\n' >"$r/back"
for f in "$src"/data/machines/*/proc/zoneinfo; do
	[ -f "$f" ] || continue
	printf '# wmark recommend readings 1 zones=%s\nt=0 workingset_refault=1 nr_free_pages_lowest=9\n' \
		"$(grep -c '^Node' "$f")" >"$r/zones-$(basename "$(dirname "$(dirname "$f")")")"
done
printf 'anon 104857600\nfile 209715200\nactive_anon 0\ninactive_anon 104857600\nactive_file 1\ninactive_file 209715199\npgsteal_direct 1000\npgsteal_proactive 7\nworkingset_refault_anon 5\nworkingset_refault_file 7\n' \
	>"$tmp/seeds/memstat/stat"
printf 'MemTotal:       4000000 kB\nMemFree:        1000000 kB\n' >"$tmp/seeds/memstat/meminfo"
printf 'anon -5\nfile 99999999999999999999\npgsteal_direct\t12\n' >"$tmp/seeds/memstat/odd"
printf 'max\n' >"$tmp/seeds/cgroup_value/max"
printf '314572800\n' >"$tmp/seeds/cgroup_value/current"
printf '18446744073709551615' >"$tmp/seeds/cgroup_value/top"
printf 'garbage\n' >"$tmp/seeds/cgroup_value/garbage"
cat >"$tmp/replay.dict" <<'EOF'
"# wmark recommend readings 1"
" zones="
"t="
"psi="
"zone="
"pgalloc="
"allocstall="
"pgsteal_direct="
"pgsteal_kswapd="
"workingset_refault="
"nr_free_pages_lowest="
",-1"
"18446744073709551615"
"\x0a"
EOF
cat >"$tmp/memstat.dict" <<'EOF'
"anon "
"file "
"pgsteal_direct "
"pgsteal_proactive "
"workingset_refault_anon "
"workingset_refault_file "
"inactive_anon "
"active_file "
"MemTotal: "
" kB"
"18446744073709551616"
"\x0a"
EOF
cat >"$tmp/cgroup_value.dict" <<'EOF'
"max"
"\x0a"
"18446744073709551615"
"18446744073709551616"
EOF

# Keywords the parsers look for, so mutations reach past the first byte.
cat >"$tmp/zoneinfo.dict" <<'EOF'
"Node "
", zone "
"pages free"
"boost"
"min"
"low"
"high"
"promo"
"spanned"
"present"
"managed"
"cma"
"protection: ("
"cpu: "
" pcp: "
"count: "
"high: "
"batch: "
"high_min: "
"high_max: "
"pagesets"
"per-node stats"
"18446744073709551615"
"9223372036854775808"
EOF
cat >"$tmp/procfs.dict" <<'EOF'
"["
"]"
"always"
"madvise"
"never"
" kB"
":"
"some "
"full "
"avg10="
"avg60="
"avg300="
"total="
"18446744073709551615"
"-9223372036854775808"
EOF

cat >"$tmp/vmstat_pair.dict" <<'EOF'
"allocstall_normal "
"allocstall_movable "
"pgscan_direct "
"pgsteal_direct "
"pgsteal_kswapd "
"pgalloc_normal "
"pgalloc_dma32 "
"workingset_activate_file "
"workingset_refault_file "
"nr_free_pages "
"18446744073709551615"
"\x00"
EOF
cat >"$tmp/conf_big.dict" <<'EOF'
"vm."
"vm/"
" = "
"-vm."
"min_free_kbytes"
"watermark_scale_factor"
"watermark_boost_factor"
"lowmem_reserve_ratio"
"extra_free_kbytes"
"\x0a#"
"\x0a;"
EOF

targets=()
for f in "$bindir"/fuzz_*; do
	[ -x "$f" ] && [ -f "$f" ] && case $f in *.d) ;; *) targets+=("$f") ;; esac
done
echo "1..${#targets[@]}"
[ ${#targets[@]} -gt 0 ] || { echo "# no fuzz targets in $bindir"; exit 1; }

fail=0 n=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	name=${t##*/}
	kind=${name#fuzz_}
	work=$tmp/work-$kind
	mkdir -p "$work"
	dict=()
	[ -f "$tmp/$kind.dict" ] && dict=(-dict="$tmp/$kind.dict")
	if [ -d "$tmp/seeds/$kind" ]; then
		seeds=("$tmp/seeds/$kind")
	else
		seeds=("$tmp/seeds/zoneinfo" "$tmp/seeds/procfs")
	fi
	log=$tmp/$name.log
	start=$(date +%s)
	"$t" -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$bindir/artifacts/$name-" \
		"${dict[@]}" "$work" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1)
	if [ $rc -eq 0 ] && [ -n "$execs" ]; then
		echo "ok $n - $name: ${execs} executions in ${secs}s (${cov:-cov: ?}), no finding"
	else
		fail=1
		echo "not ok $n - $name: exit $rc after ${execs:-?} executions"
		grep -E 'ERROR|SUMMARY|Test unit written|deadly signal|==[0-9]+==' "$log" |
			head -20 | sed 's/^/# /'
		cp "$log" "$bindir/artifacts/$name.log"
		echo "# full log: $bindir/artifacts/$name.log"
	fi
done
exit $fail
