#!/bin/bash
# Does `wmark recommend` help?  Boot a Debian kernel under qemu (2 GiB, two
# CPUs) with a data disk, keep its page cache full, make allocation bursts,
# and measure each watermark_scale_factor setting: allocation stalls,
# direct-reclaim scans, burst latency, the memory the watermarks hold and
# refaults.  Settings: the default; a sweep for the smallest wsf that
# removes 90% of the default's stalls; what `wmark recommend --sample`
# said while the bursts ran at the default; folklore values 125 (boost 0),
# 200 and 1000; the default again.  Writes docs/recommend-eval.md.
#
# usage: tests/bench/recommend-eval.sh        (make bench-recommend)
#
# Environment:
#   WMARK                 wmark to put in the guest (default build/wmark)
#   REC_KERNEL_FLAVOUR    Debian kernel flavour (default 6.12-cloud: ext4
#                         and NVMe built in, so no modules are needed)
#   REC_BURST_MIB, REC_BURSTS, REC_PAUSE_MS, REC_SAMPLE_S, REC_SETTLE_S,
#   REC_SWEEP (comma list), REC_BISECT   workload (see recommend-guest.sh)
#   REC_TIMEOUT           hard limit of the boot in seconds (default 1500)
#   REC_ACCEL             qemu accelerator (default tcg)
#   REC_DOC               output (default docs/recommend-eval.md; "-" for stdout)
#
# Pieces reused from tests/kernel (called, not changed): fetch-kernels.sh
# for the kernel, mkinitramfs.sh for busybox + wmark + init.sh.  Our own
# cpio archive, appended to theirs (the kernel unpacks concatenated
# archives in order), adds the guest script and the burst program.
# Files stay in build/bench-recommend/ (the data disk is made once).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 2

wmark=${WMARK:-build/wmark}
case $wmark in /*) ;; *) wmark=$top/$wmark ;; esac
flavour=${REC_KERNEL_FLAVOUR:-6.12-cloud}
limit=${REC_TIMEOUT:-1500}
accel=${REC_ACCEL:-tcg}
doc=${REC_DOC:-docs/recommend-eval.md}
work=$top/build/bench-recommend
burst=${REC_BURST_MIB:-192} bursts=${REC_BURSTS:-8} pause=${REC_PAUSE_MS:-2500}
sample=${REC_SAMPLE_S:-30} settle=${REC_SETTLE_S:-5}
sweep=${REC_SWEEP:-100,200,400,700,1000,1500,2000,3000} bisect=${REC_BISECT:-3}

say() { echo "bench-recommend: $*" >&2; }
die() { say "$*"; exit 1; }

[ -x "$wmark" ] || die "$wmark: not built (make all)"
command -v qemu-system-x86_64 >/dev/null || die "needs qemu-system-x86_64 (Debian qemu-system-x86)"
command -v mke2fs >/dev/null || die "needs mke2fs (Debian e2fsprogs)"
command -v cpio >/dev/null || die "needs cpio"
command -v gcc >/dev/null || die "needs gcc (the burst program is linked statically)"
mkdir -p "$work" || die "cannot create $work"

# ---- kernel ---------------------------------------------------------------
line=$("$here/../kernel/fetch-kernels.sh" "$flavour" 2>"$work/fetch.log" | head -1)
set -- $line
[ $# -ge 3 ] && [ "$2" != - ] || die "no $flavour kernel: ${line:-see $work/fetch.log}"
release=$2 kernel=$3
say "kernel $release"

# ---- data disk: ext4 with a sparse 3 GiB file the reader streams ----------
disk=$work/disk.img
if [ ! -s "$disk" ]; then
	rm -rf "$work/diskdir" && mkdir -p "$work/diskdir" || die "cannot make $work/diskdir"
	truncate -s 3G "$work/diskdir/stream"
	mke2fs -q -F -t ext4 -L wmdata -d "$work/diskdir" "$disk.tmp" 4G ||
		die "mke2fs -d failed"
	mv "$disk.tmp" "$disk"
	rm -rf "$work/diskdir"
fi

# ---- initramfs: tests/kernel's, plus our archive ---------------------------
"$here/../kernel/mkinitramfs.sh" "$wmark" "$work/base.cpio.gz" 2>"$work/mkinitramfs.log" ||
	die "tests/kernel/mkinitramfs.sh failed: $(tail -1 "$work/mkinitramfs.log")"
rm -rf "$work/extra" && mkdir -p "$work/extra/bin" "$work/extra/tests" || die "cannot stage"
gcc -O2 -static -o "$work/extra/bin/recommend-burst" "$here/recommend-burst.c" ||
	die "cannot link recommend-burst statically (Debian libc6-dev)"
install -m 755 "$here/recommend-guest.sh" "$work/extra/tests/recommend-guest.sh"
(cd "$work/extra" && find . -mindepth 1 | sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
	>"$work/extra.cpio.gz" || die "cpio failed"
cat "$work/base.cpio.gz" "$work/extra.cpio.gz" >"$work/initrd.gz"

# ---- boot ------------------------------------------------------------------
run=$work/run-$(date +%Y%m%d-%H%M%S)
mkdir -p "$run" && ln -sfn "${run##*/}" "$work/last"
args="console=ttyS0 quiet panic=-1 wmark.script=/tests/recommend-guest.sh wmark.entry=recommend-eval"
args="$args wmark.burst_mib=$burst wmark.bursts=$bursts wmark.pause_ms=$pause"
args="$args wmark.sample_s=$sample wmark.settle_s=$settle wmark.sweep=$sweep wmark.bisect=$bisect"
cmd=(qemu-system-x86_64 -nodefaults -nographic -no-reboot -monitor none
	-accel "$accel$([ "$accel" = tcg ] && echo ,thread=multi)" -cpu max -smp 2 -m 2048M
	-object memory-backend-ram,id=ram0,size=2048M,reserve=off -machine memory-backend=ram0
	-kernel "$kernel" -initrd "$work/initrd.gz" -append "$args"
	-drive "file=$disk,if=none,id=data,format=raw,snapshot=on"
	-device nvme,serial=wmdata,drive=data
	-serial "file:$run/console.log" -serial "file:$run/data.log")
printf '%q ' "${cmd[@]}" >"$run/cmdline.txt"
say "booting ($accel, 2 GiB, 2 CPUs); log in ${run#"$top"/}; this takes several minutes"
t0=$(date +%s)
timeout -k 10 "$limit" "${cmd[@]}" </dev/null >"$run/qemu.log" 2>&1
qrc=$?
wall=$(($(date +%s) - t0))
tr -d '\r' <"$run/data.log" >"$run/data.txt"
grep -q '^WMARK-END' "$run/data.txt" ||
	die "the guest did not finish (qemu exit $qrc after ${wall}s); see $run/console.log"
sed -n '/^REC-JSON-BEGIN$/,/^REC-JSON-END$/p' "$run/data.txt" | sed '1d;$d' >"$run/recommend.json"
grep '^RESULT ' "$run/data.txt" >"$run/results.txt"
say "guest done in ${wall}s"

# ---- the table and the verdict ---------------------------------------------
info() { grep '^INFO ' "$run/data.txt" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k { print substr($0, length(k) + 2); exit }'; }
rec=$(info recommended)
suff=$(info smallest_sufficient)
insuff=$(info largest_insufficient)

out=$run/recommend-eval.md
awk -v rec="$rec" -v suff="$suff" -v insuff="$insuff" -v release="$release" \
	-v accel="$accel" -v wall="$wall" -v burst="$burst" -v bursts="$bursts" -v pause="$pause" \
	-v sample="$sample" -v mem="$(info mem_kb)" -v mfk="$(info mfk)" -v thp="$(info thp)" \
	-v zones="$(grep '^INFO zones' "$run/data.txt" | sed 's/^INFO zones //')" \
	-v fill="$(info fill_s)" -v dmean="$(info default_stalls_mean)" '
function kv(line, key,   i, n, f) {
	n = split(line, f, " ")
	for (i = 1; i <= n; i++)
		if (index(f[i], key "=") == 1)
			return substr(f[i], length(key) + 2)
	return ""
}
function mib(p) { return sprintf("%.1f", p * 4096 / 1048576) }
{
	row[NR] = $0
	name[NR] = kv($0, "name"); w[NR] = kv($0, "wsf") + 0
	if (name[NR] == "default" && !d0) d0 = NR
	if (name[NR] == "sweep" && w[NR] == suff + 0 && suff != "none") s0 = NR
	if (name[NR] == "recommended") r0 = NR
}
END {
	a0 = dmean + 0
	print "# Does `wmark recommend` help? An evaluation under qemu"
	print ""
	print "Regenerate with `make bench-recommend` (runs `tests/bench/recommend-eval.sh`; about " \
	      int(wall / 60 + 0.5) " minutes here)."
	print ""
	print "## Set-up"
	print ""
	print "* Debian kernel `" release "` under qemu (" accel ", 2 vCPUs), " \
	      sprintf("%.0f", mem / 1024) " MiB RAM; zones (managed pages): " zones \
	      "; min_free_kbytes " mfk " (THP `" thp "`), the kernel default watermark_scale_factor 10."
	print "* Data disk: an ext4 image made with `mke2fs -d` on an emulated NVMe drive" \
	      " (the cloud kernel has NVMe and ext4 built in; its virtio-blk is a module," \
	      " and the kernel cache holds no modules). It holds one sparse 3 GiB file."
	print "* Page cache kept full: a reader streams that file again and again (larger" \
	      " than RAM, so every read adds clean page cache and kswapd reclaims behind it)." \
	      " Filling took " fill " s before the first measurement."
	print "* Bursts: `recommend-burst` maps " burst " MiB of anonymous memory" \
	      " (MADV_NOHUGEPAGE) and writes every page, " bursts " times, " pause " ms apart;" \
	      " latency is mmap to last write."
	print "* Per setting: write watermark_scale_factor (and watermark_boost_factor)," \
	      " wait, read /proc/vmstat, run the bursts, read it again. `reserved` is the sum" \
	      " of the zones'\'' high watermarks (what kswapd keeps free), `gap` the sum of" \
	      " min->low."
	print "* `recommended`: `wmark -j recommend --sample " sample "` run in the guest" \
	      " while the same bursts ran at the default; the value it printed was then measured" \
	      " like every other setting."
	print ""
	print "## Results"
	print ""
	print "`vs default`: allocation stalls against the mean of the two `default` runs (" a0 ")," \
	      " which also draws the 90% line: a setting removes 90% when it has at most a tenth of it."
	print ""
	print "| setting | wsf | boost | allocstall | vs default | pgscan_direct | burst p50 ms | burst p99 ms | reserved MiB | gap MiB | refaults | compact_stall |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= NR; i++) {
		st = kv(row[i], "allocstall") + 0
		vs = a0 ? sprintf("%+.0f%%", (st - a0) * 100 / a0) : "-"
		printf "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			name[i], kv(row[i], "wsf"), kv(row[i], "boost"), st, vs,
			kv(row[i], "pgscan_direct"), kv(row[i], "p50_ms"), kv(row[i], "p99_ms"),
			mib(kv(row[i], "high_pages")), mib(kv(row[i], "low_pages") - kv(row[i], "min_pages")),
			kv(row[i], "refaults"), kv(row[i], "compact_stall")
	}
	print ""
	print "## Verdict"
	print ""
	if (!a0) {
		print "The default setting had no allocation stall in this run, so there was nothing" \
		      " to remove: the workload did not reach direct reclaim and the comparison says nothing."
		exit
	}
	if (suff == "none" || !s0)
		print "* No swept value up to the largest tried removed 90% of the defaults'\'' " a0 \
		      " stalls (largest tried without success: " insuff ")."
	else
		printf "* Smallest sufficient wsf found by the sweep: **%s** (%d stalls, %s%% of the defaults'\'' mean %d; reserved %s MiB). Largest swept value that fell short: %s.\n",
			suff, kv(row[s0], "allocstall"), sprintf("%.0f", kv(row[s0], "allocstall") * 100 / a0),
			a0, mib(kv(row[s0], "high_pages")), insuff
	if (!r0) {
		print "* wmark recommend gave no value (see the log)."
		exit
	}
	rs = kv(row[r0], "allocstall") + 0
	rr = kv(row[r0], "high_pages") + 0
	printf "* wmark recommend said **%s**; measured: %d stalls (%s%% of the defaults'\'' mean), reserved %s MiB.\n",
		rec, rs, sprintf("%.0f", rs * 100 / a0), mib(rr)
	if (s0) {
		ratio = rr / kv(row[s0], "high_pages")
		gratio = (kv(row[r0], "low_pages") - kv(row[r0], "min_pages")) / (kv(row[s0], "low_pages") - kv(row[s0], "min_pages"))
		reached = rs * 10 <= a0
		printf "* Reserve of the recommendation against the smallest sufficient: %.2fx (gap %.2fx).\n", ratio, gratio
		if (reached && ratio <= 1.5)
			print "* **The recommendation reaches the 90% line within 1.5x the smallest sufficient reserve.**"
		else if (reached)
			printf "* **The recommendation reaches the 90%% line but reserves %.2fx the smallest sufficient setting: more than the 1.5x target.**\n", ratio
		else
			printf "* **The recommendation does not reach the 90%% line: %d stalls left of %d (%.0f%% removed, 90%% needed), at %.2fx the smallest sufficient reserve.**\n",
				rs, a0, (a0 - rs) * 100 / a0, ratio
	}
	print ""
	print "One run, one machine: stall counts under TCG move from run to run (compare" \
	      " the two `default` runs with `default-again`, measured first and last)."
}' "$run/results.txt" >"$out"

{
	echo ""
	echo "## What wmark recommend measured"
	echo ""
	echo '```'
	if command -v python3 >/dev/null; then
		python3 - "$run/recommend.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print("recommended:", d["recommended"], " verdict:", d["verdict"])
for r in d["reasons"]:
    print("-", r)
m = d.get("measurements") or {}
keys = ["seconds", "samples", "allocstall", "pgscan_direct", "pgsteal_direct",
        "pgsteal_kswapd", "pgalloc", "workingset_refault", "peak_alloc_mib_s",
        "bursts", "deficit_pages"]
print(" ".join("%s=%s" % (k, m.get(k)) for k in keys))
EOF
	else
		cat "$run/recommend.json"
	fi
	echo '```'
} >>"$out"

if [ "$doc" = - ]; then
	cat "$out"
else
	mkdir -p "$(dirname "$doc")" && cp "$out" "$doc"
	say "wrote $doc"
fi
