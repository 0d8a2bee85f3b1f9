#!/bin/bash
# Does `wmark recommend` help?  Boot a Debian kernel under qemu (2 GiB, two
# CPUs) with a data disk, keep its page cache full, make allocation bursts,
# and measure each watermark_scale_factor setting: allocation stalls,
# direct-reclaim scans, burst latency, the memory the watermarks hold and
# refaults.  Settings: the default; a sweep of wsf values, to find the
# smallest that removes 90% of the default's stalls; what `wmark recommend
# --sample` said while the bursts ran at the default; the folklore values
# 125 with boost 0, 200 and 1000 (the last two in the sweep).  Every
# setting is measured in each of REC_ROUNDS rounds.  Writes
# docs/recommend-eval.md.
#
# usage: tests/bench/recommend-eval.sh        (make bench-recommend)
#
# Environment:
#   WMARK                 wmark to put in the guest (default build/wmark)
#   REC_KERNEL_FLAVOUR    Debian kernel flavour (default 6.12-cloud: ext4
#                         and NVMe built in, so no modules are needed)
#   REC_BURST_MIB, REC_BURSTS, REC_PAUSE_MS, REC_SAMPLE_S, REC_SETTLE_S,
#   REC_ROUNDS, REC_SWEEP (comma list), REC_PROCS, REC_STOP_READER
#                         workload (see recommend-guest.sh)
#   REC_TIMEOUT           hard limit of the boot in seconds (default 2400)
#   REC_ACCEL             qemu accelerator (default tcg)
#   REC_ICOUNT            TCG's -icount option (default shift=3,sleep=off;
#                         empty for none): guest time counts executed
#                         instructions, so the host's load, which moved
#                         stall counts tenfold between identical runs with
#                         multi-threaded TCG, no longer reaches the guest
#   REC_DOC               output (default docs/recommend-eval.md; "-" for stdout)
#   REC_REPORT_ONLY=DIR   no boot: write the report again from the run kept in
#                         DIR (build/bench-recommend/run-*)
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
limit=${REC_TIMEOUT:-2400}
accel=${REC_ACCEL:-tcg}
icount=${REC_ICOUNT-shift=3,sleep=off}
doc=${REC_DOC:-docs/recommend-eval.md}
work=$top/build/bench-recommend
report_only=${REC_REPORT_ONLY:-}
burst=${REC_BURST_MIB:-512} bursts=${REC_BURSTS:-3} pause=${REC_PAUSE_MS:-2500}
sample=${REC_SAMPLE_S:-45} settle=${REC_SETTLE_S:-5} rounds=${REC_ROUNDS:-2}
sweep=${REC_SWEEP:-100,200,400,700,1000,1500,2000,3000}
procs=${REC_PROCS:-4} stop_reader=${REC_STOP_READER:-0}

say() { echo "bench-recommend: $*" >&2; }
die() { say "$*"; exit 1; }

[ -n "$report_only" ] || [ -x "$wmark" ] || die "$wmark: not built (make all)"
command -v python3 >/dev/null || die "needs python3 (the report)"
[ -n "$report_only" ] || command -v qemu-system-x86_64 >/dev/null || die "needs qemu-system-x86_64 (Debian qemu-system-x86)"
command -v mke2fs >/dev/null || die "needs mke2fs (Debian e2fsprogs)"
command -v cpio >/dev/null || die "needs cpio"
command -v gcc >/dev/null || die "needs gcc (the burst program is linked statically)"
mkdir -p "$work" || die "cannot create $work"

if [ -n "$report_only" ]; then
	# Only the report, again, from a run kept in build/bench-recommend.
	run=$(cd "$report_only" && pwd) || die "$report_only: no such run"
	[ -f "$run/meta" ] && [ -f "$run/data.txt" ] || die "$run: no meta or data.txt"
	. "$run/meta"
else
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
	args="$args wmark.sample_s=$sample wmark.settle_s=$settle wmark.sweep=$sweep wmark.rounds=$rounds"
	args="$args wmark.procs=$procs wmark.stop_reader=$stop_reader"
	if [ "$accel" = tcg ] && [ -n "$icount" ]; then
		acc=(-accel tcg -icount "$icount")	# icount needs single-threaded TCG
	elif [ "$accel" = tcg ]; then
		acc=(-accel tcg,thread=multi)
	else
		acc=(-accel "$accel")
	fi
	cmd=(qemu-system-x86_64 -nodefaults -nographic -no-reboot -monitor none
		"${acc[@]}" -cpu max -smp 2 -m 2048M
		-object memory-backend-ram,id=ram0,size=2048M,reserve=off -machine memory-backend=ram0
		-kernel "$kernel" -initrd "$work/initrd.gz" -append "$args"
		-drive "file=$disk,if=none,id=data,format=raw,snapshot=on"
		-device nvme,serial=wmdata,drive=data
		-serial "file:$run/console.log" -serial "file:$run/data.log")
	printf '%q ' "${cmd[@]}" >"$run/cmdline.txt"
	say "booting ($accel, 2 GiB, 2 CPUs); log in ${run#"$top"/}; this takes about a quarter of an hour"
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
	printf 'release=%q\nlabel=%q\nwall=%q\n' "$release" "$accel${icount:+ -icount $icount}" "$wall" >"$run/meta"
	. "$run/meta"
fi

# ---- the table and the verdict ---------------------------------------------
out=$run/recommend-eval.md
python3 - "$run" "$release" "$label" "$wall" >"$out" <<'EOF' || die "cannot write the report"
import json, sys

run, release, accel, wall = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(run + "/data.txt").read().splitlines()

def kv(line):
    return dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)

info = {}
for l in lines:
    if l.startswith("INFO zones "):
        info["zones"] = l[len("INFO zones "):].strip()
    elif l.startswith("INFO "):
        info.update(kv(l))
results = [kv(l) for l in lines if l.startswith("RESULT ")]
P = lambda pages: float(pages) * 4096 / 1048576

# One row per setting, summed over rounds.
rows, order = {}, []
for r in results:
    if "error" in r:
        continue
    key = (r["name"], int(r["wsf"]), int(r["boost"]))
    if key not in rows:
        rows[key] = {"rounds": [], "high": int(r["high_pages"]),
                     "gap": int(r["low_pages"]) - int(r["min_pages"])}
        order.append(key)
    rows[key]["rounds"].append(r)
order.sort(key=lambda k: (k[1], k[0]))

def tot(key, field):
    return sum(int(r[field]) for r in rows[key]["rounds"])

dkey = ("default", 10, 15000)
a0 = tot(dkey, "allocstall") if dkey in rows else 0
line = a0 / 10.0
nrounds = max(len(v["rounds"]) for v in rows.values()) if rows else 0
rec = info.get("recommended", "none")

def passes(key):
    return tot(key, "allocstall") <= line

# wsf-only settings (boost 15000): the smallest wsf from which every
# measured wsf reaches the line, and the smallest single one that does.
wsf_keys = sorted((k for k in rows if k[2] == 15000), key=lambda k: k[1])
envelope = None
for i, k in enumerate(wsf_keys):
    if all(passes(j) for j in wsf_keys[i:]):
        envelope = k
        break
single = next((k for k in wsf_keys if passes(k)), None)

print("# Does `wmark recommend` help? An evaluation under qemu")
print()
print("Regenerate with `make bench-recommend` (runs `tests/bench/recommend-eval.sh`;"
      " about %d minutes here). The run behind this page: kernel `%s`, %s." % (
          round(wall / 60), release, accel))
print()
print("## Set-up")
print()
print("* Debian kernel `%s` under qemu (`%s`, 2 vCPUs, no KVM on the build machine), %.0f MiB RAM;"
      " zones (managed pages): %s; min_free_kbytes %s (THP `%s`), watermark_scale_factor 10"
      " by default." % (release, accel, int(info.get("mem_kb", 0)) / 1024.0, info.get("zones", "?"),
                        info.get("mfk", "?"), info.get("thp", "?")))
print("* Data disk: an ext4 image made with `mke2fs -d` from a directory holding one sparse"
      " 3 GiB file, attached as an emulated NVMe drive (the Debian cloud kernel has NVMe and"
      " ext4 built in; its virtio-blk is a module, and the kernel cache keeps no modules)."
      " Reading a hole still fills the page cache with clean, reclaimable pages.")
print("* Page cache kept full: a reader streams that file again and again (larger than RAM)."
      " Filling took %s s." % info.get("fill_s", "?"))
print("* Bursts: `tests/bench/recommend-burst.c` maps %s MiB of anonymous memory"
      " (MADV_NOHUGEPAGE) in %s process(es), writes every page, unmaps it, %s times per"
      " setting and round, %s ms apart, while the reader goes on%s. Latency is mmap to last"
      " write, in guest time (with -icount, guest time counts instructions: slower than a real"
      " machine, but the same from run to run). allocstall counts every task's stalls, the"
      " reader's too." % (
          info.get("burst_mib", "?"), info.get("procs", "?"), info.get("bursts", "?"),
          info.get("pause_ms", "?"),
          " (stopped during each burst)" if info.get("stop_reader") == "1" else ""))
print("* Per setting: write watermark_scale_factor (and watermark_boost_factor), wait, read"
      " /proc/vmstat, run the bursts, read it again. %d rounds over all settings, ascending"
      " wsf in odd rounds and descending in even ones; the table sums the rounds." % nrounds)
print("* `reserved` is the sum of the zones' high watermarks (what kswapd keeps free),"
      " `gap` the sum of min->low; `refaults` is workingset_refault (the reader's re-reads of"
      " evicted pages: it streams, so most are refaults whatever the setting).")
print("* `recommended`: `wmark -j recommend --sample %s` ran in the guest while the same"
      " bursts ran at the default, right after the fill; its answer was then measured like"
      " every other setting." % info.get("sample_s", "?"))
print()
print("## Results")
print()
print("`vs default`: allocation stalls against the default's (%d over %d rounds). The 90%%"
      " line: at most a tenth of them (%.1f)." % (a0, nrounds, line))
print()
print("| setting | wsf | boost | allocstall (per round) | vs default | pgscan_direct |"
      " burst p50 ms | burst p99 ms | reserved MiB | gap MiB | refaults | compact_stall |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for k in order:
    rs = rows[k]["rounds"]
    st = tot(k, "allocstall")
    vs = "%+.0f%%" % ((st - a0) * 100.0 / a0) if a0 else "-"
    p50 = sum(float(r.get("p50_ms", 0)) for r in rs) / len(rs)
    p99 = max(float(r.get("p99_ms", 0)) for r in rs)
    print("| %s | %d | %d | %d (%s) | %s | %d | %.0f | %.0f | %.1f | %.1f | %d | %d |" % (
        k[0], k[1], k[2], st, " + ".join(r["allocstall"] for r in rs), vs,
        tot(k, "pgscan_direct"), p50, p99, P(rows[k]["high"]), P(rows[k]["gap"]),
        tot(k, "refaults"), tot(k, "compact_stall")))
print()
print("p50 is the mean of the rounds' medians, p99 the largest of their 99th percentiles"
      " (nearest rank).")
print()
print("## Verdict")
print()
rkey = next((k for k in rows if k[0] == "recommended"), None)
if not a0:
    print("The default had no allocation stall in this run: the workload did not reach"
          " direct reclaim, so there was nothing to remove and the comparison says nothing.")
else:
    if envelope:
        print("* Smallest sufficient wsf: **%d**, the smallest measured wsf from which every"
              " larger one also stays at or under the line (%d stalls; reserved %.1f MiB)."
              % (envelope[1], tot(envelope, "allocstall"), P(rows[envelope]["high"])))
        if single and single != envelope:
            print("  The smallest single value under the line was %d (%d stalls), with larger"
                  " values above it again: run-to-run noise, not a threshold." % (
                      single[1], tot(single, "allocstall")))
    else:
        print("* No measured wsf stays under the line from there on up.")
    if not rkey:
        print("* wmark recommend gave no value (see the log).")
    else:
        rs = tot(rkey, "allocstall")
        print("* wmark recommend said **%s**: %d stalls (%.0f%% removed), reserved %.1f MiB."
              % (rec, rs, (a0 - rs) * 100.0 / a0, P(rows[rkey]["high"])))
        if envelope:
            ratio = rows[rkey]["high"] / float(rows[envelope]["high"])
            gratio = rows[rkey]["gap"] / float(rows[envelope]["gap"])
            print("* Its reserve is %.2fx that of the smallest sufficient wsf (gap: %.2fx)."
                  % (ratio, gratio))
            if passes(rkey) and ratio <= 1.5:
                print("* **The recommendation reaches the 90%% line within 1.5x the smallest"
                      " sufficient reserve.**")
            elif passes(rkey):
                print("* **The recommendation reaches the 90%% line but reserves %.2fx the"
                      " smallest sufficient setting, more than the 1.5x target.**" % ratio)
            else:
                print("* **The recommendation does not reach the 90%% line: %d stalls left of"
                      " %d (%.0f%% removed, 90%% needed), at %.2fx the smallest sufficient"
                      " reserve.**" % (rs, a0, (a0 - rs) * 100.0 / a0, ratio))
    # The folklore values, and what the boost did.
    named = [("folklore-125-boost0", 125, 0), ("sweep", 200, 15000), ("sweep", 1000, 15000)]
    parts = []
    for k in named:
        if k in rows:
            st = tot(k, "allocstall")
            parts.append("%d%s: %d stalls (%.0f%% removed) at %.1f MiB" % (
                k[1], " with boost 0" if k[2] == 0 else "", st, (a0 - st) * 100.0 / a0,
                P(rows[k]["high"])))
    if parts:
        print("* Folklore values: " + "; ".join(parts) + ".")
    b0 = [k for k in rows if k[2] == 0 and passes(k)]
    if b0 and envelope and min(rows[k]["high"] for k in b0) < rows[envelope]["high"]:
        k = min(b0, key=lambda k: rows[k]["high"])
        print("* watermark_boost_factor 0 did what no wsf alone did at that size: wsf %d with"
              " boost 0 reached the line at %.1f MiB reserved, %.2fx the smallest sufficient"
              " wsf alone. With the default boost factor, fragmentation events (pageblock"
              " fallbacks) raise the watermarks by up to 150%% of high for a while, and"
              " allocations meet the raised min sooner; `wmark recommend` chooses wsf only and"
              " does not see this (vmstat has no boost counter; zoneinfo shows the boost of"
              " the moment)." % (k[1], P(rows[k]["high"]), rows[k]["high"] / float(rows[envelope]["high"])))
print()
print("%d rounds on one machine. Under -icount the host's load no longer reaches the guest,"
      " yet stall counts still move between rounds of one setting (see the per-round"
      " numbers; disk completions still arrive at host-dependent moments), so a wsf between"
      " two measured values is not resolved, and values near the line can land on either"
      " side of it in another run." % nrounds)
print()
print("## What wmark recommend measured")
print()
print("```")
try:
    d = json.load(open(run + "/recommend.json"))
    print("recommended:", json.dumps(d["recommended"]), " verdict:", d["verdict"])
    for r in d["reasons"]:
        print("-", r)
    m = d.get("measurements") or {}
    keys = ["seconds", "samples", "allocstall", "pgscan_direct", "pgsteal_direct",
            "pgsteal_kswapd", "pgalloc", "workingset_refault", "peak_alloc_mib_s",
            "bursts", "deficit_pages"]
    print(" ".join("%s=%s" % (k, round(m[k], 1) if isinstance(m.get(k), float) else m.get(k))
                   for k in keys))
except (OSError, ValueError, KeyError) as e:
    print("no JSON from wmark recommend:", e)
print("```")
EOF

if [ "$doc" = - ]; then
	cat "$out"
else
	mkdir -p "$(dirname "$doc")" && cp "$out" "$doc"
	say "wrote $doc"
fi
