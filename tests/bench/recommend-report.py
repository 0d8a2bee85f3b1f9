#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The report of tests/bench/recommend-eval.sh: docs/recommend-eval.md on
stdout from the runs given (docs/recommend-eval-runs/run-*), and for each
run a gnuplot script PLOTS/recommend-eval-WORKLOAD-KERNEL.gp (with its
data) that draws allocation stalls against the reserve as an SVG.

Every number and every finding is computed here from the runs: nothing
is typed in.  Settings measured in fewer rounds than others are compared
per round (the mean of their rounds) and marked; a cell whose guest did
not finish is marked; a cell of --cells without a run is listed as not
measured instead of being dropped silently.  The output depends on the
runs only (their order on the command line does not matter), so the
page regenerates byte for byte.

usage: recommend-report.py [--cells "FLAVOUR:WORKLOAD ..."] PLOTS RUN...
"""
import json
import os
import shlex
import sys

PAGE = 4096
FOLKLORE = {
    "folklore-200": "wsf 200 (Pixel device trees)",
    "folklore-125-boost0": "wsf 125 + boost 0 (zram guides)",
    "folklore-1000": "wsf 1000",
    "folklore-mfk-135168": "min_free_kbytes 135168 (tuned)",
}
WORKLOADS = {
    "anon": "anonymous bursts beside a streaming reader",
    "apps": "Android-like: apps on zram swap, switched with a burst each",
    "server": "server-like: page cache, unmovable pipe buffers, THP and order-0 allocations",
}


def mib(pages):
    return float(pages) * PAGE / 1048576


def kv(line):
    return dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)


def load(run):
    meta = {}
    for l in open(os.path.join(run, "meta")):
        if "=" in l:
            k, v = l.rstrip("\n").split("=", 1)
            w = shlex.split(v)  # written with printf %q
            meta[k] = w[0] if w else ""
    lines = open(os.path.join(run, "data.txt"), errors="replace").read().splitlines()
    info = {}
    for l in lines:
        if l.startswith("INFO zones "):
            info["zones"] = l[len("INFO zones "):].strip()
        elif l.startswith("INFO "):
            info.update(kv(l))
    results = [kv(l) for l in lines if l.startswith("RESULT ")]
    try:
        rec = json.load(open(os.path.join(run, "recommend.json")))
    except (OSError, ValueError):
        rec = None
    return meta, info, results, rec


class Setting:
    def __init__(self, key):
        self.name, self.wsf, self.boost, self.mfk = key
        self.rounds = []

    @property
    def n(self):
        return len(self.rounds)

    def tot(self, f):
        return sum(int(r.get(f, 0)) for r in self.rounds)

    def mean(self, f):
        return self.tot(f) / float(self.n)

    def per_round(self, f):
        return [int(r.get(f, 0)) for r in self.rounds]

    @property
    def high(self):
        return int(self.rounds[0]["high_pages"])

    @property
    def gap(self):
        r = self.rounds[0]
        return int(r["low_pages"]) - int(r["min_pages"])

    def label(self):
        if self.name == "default":
            return "default"
        if self.name == "recommended":
            return "recommended"
        if self.name in FOLKLORE:
            return self.name.replace("folklore-", "")
        return "%s %d" % ("b0" if self.boost == 0 else "wsf", self.wsf)

    def kind(self):
        if self.name in ("default", "recommended") or self.name in FOLKLORE:
            return self.name if self.name in ("default", "recommended") else "folklore"
        return "boost0" if self.boost == 0 else "sweep"

    def title(self):
        if self.name in FOLKLORE:
            return "folklore " + FOLKLORE[self.name]
        if self.name in ("default", "recommended"):
            return self.name
        return "wsf %d%s" % (self.wsf, " with boost 0" if self.boost == 0 else "")


def pct(x):
    """A percentage as the page prints it (no "-0")."""
    t = "%.0f" % x
    return "0" if t == "-0" else t


class Cell:
    """One run: a workload on a kernel, and what its rounds say."""

    def __init__(self, run):
        self.run = run
        self.meta, self.info, results, self.rec = load(run)
        self.workload = self.meta.get("workload", self.info.get("workload", "anon"))
        self.flavour = self.meta.get("flavour", "?")
        self.release = self.meta.get("release", "?")
        self.title = "%s on %s" % (self.workload, self.release)
        self.rows = {}
        self.errors = []
        for r in results:
            if "error" in r:
                self.errors.append(r)
                continue
            key = (r["name"], int(r["wsf"]), int(r["boost"]), int(r.get("mfk", 0)))
            self.rows.setdefault(key, Setting(key)).rounds.append(r)
        planned = int(self.info.get("rounds", 0) or 0)
        self.nrounds = max([planned] + [s.n for s in self.rows.values()])
        self.incomplete = bool(self.meta.get("incomplete"))
        self.partial = [s for s in self.rows.values() if s.n < self.nrounds]
        self.sets = sorted(self.rows.values(), key=lambda s: (s.high, s.name, s.wsf, s.boost))
        self.d = next((s for s in self.sets if s.name == "default"), None)
        self.rk = next((s for s in self.sets if s.name == "recommended"), None)
        self.fk = [s for s in self.sets if s.name in FOLKLORE]
        self.verdict()

    def removed(self, s):
        """Percent of the default's stalls a round that s removes (per round)."""
        return (self.a0 - s.mean("allocstall")) * 100.0 / self.a0

    def verdict(self):
        self.result = None
        self.best = None
        if not self.d:
            self.result = "no default measured"
            return
        self.a0 = self.d.mean("allocstall")
        self.line = self.a0 / 10.0
        if not self.a0:
            self.result = "no stalls at the default"
            return
        passing = [s for s in self.sets if s.mean("allocstall") <= self.line]
        self.best = min(passing, key=lambda s: s.high) if passing else None
        if not self.rk:
            self.result = "no recommendation"
            return
        st = self.rk.mean("allocstall")
        self.ok90 = st <= self.line
        self.ratio = self.rk.high / float(self.best.high) if self.best else None
        self.fk_pass = [s for s in self.fk if s.mean("allocstall") <= self.line]
        self.fk_less = [s for s in self.fk_pass if s.high < self.rk.high]
        if self.ok90 and self.ratio is not None and self.ratio <= 1.5 and not self.fk_less:
            self.result = "met"
        else:
            self.result = "missed"

    def why_missed(self):
        why = []
        if not self.ok90:
            why.append("it removes %s%% of the stalls a round, not 90%%" % pct(self.removed(self.rk)))
        if self.ratio is not None and self.ratio > 1.5:
            why.append("its reserve is %.2fx the smallest sufficient one (1.5x allowed)"
                       % self.ratio)
        if self.fk_less:
            why.append("a folklore value reaches the line with less (%s)" % ", ".join(
                "%s at %.1f MiB" % (FOLKLORE[s.name], mib(s.high)) for s in self.fk_less))
        return "; ".join(why)


def rounds_text(s, cell):
    """The per-round list, marked when the setting has fewer rounds."""
    t = " + ".join(map(str, s.per_round("allocstall")))
    if s.n < cell.nrounds:
        t += "; **%d of %d rounds**" % (s.n, cell.nrounds)
    return t


def section(c, plots, out):
    meta, info = c.meta, c.info
    out("## %s\n" % c.title)
    out("*%s.* Kernel `%s`, %s, %d rounds; the guest ran %d minutes%s.\n" % (
        WORKLOADS.get(c.workload, c.workload), c.release, meta.get("label", "?"),
        c.nrounds, round(int(meta.get("wall", 0)) / 60),
        "; **incomplete: the guest did not finish, the table holds the rounds that did**"
        if c.incomplete else ""))
    out("Command: `REC_MATRIX=%s:%s make bench-recommend` (run `%s`).\n" % (
        c.flavour, c.workload, os.path.basename(c.run)))
    params = " ".join("%s=%s" % (k, v) for k, v in sorted(info.items())
                      if k not in ("zones", "kernel", "recommended", "recommend_rc",
                                   "recommended_boost", "sample_bursts", "reader_pid",
                                   "reader_pgid"))
    out("Guest: %s MiB, zones (managed pages) %s; %s.\n" % (
        int(info.get("mem_kb", 0)) // 1024, info.get("zones", "?"), params))
    if not c.d:
        out("No default setting was measured in this run: nothing to compare.\n")
        return
    out("| setting | wsf | boost | min_free_kbytes | allocstall a round (rounds) | vs default |"
        " pgscan_direct a round | p50 ms | p99 ms | reserved MiB | gap MiB | kswapd CPU s a round |"
        " refaults a round | compact_stall a round |")
    out("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in c.sets:
        m = s.mean("allocstall")
        vs = "%+.0f%%" % ((m - c.a0) * 100.0 / c.a0) if c.a0 else "-"
        p50 = sum(float(r.get("p50_ms", 0)) for r in s.rounds) / s.n
        p99 = max(float(r.get("p99_ms", 0)) for r in s.rounds)
        nm = s.name
        if s.name in FOLKLORE:
            nm = "folklore: " + FOLKLORE[s.name]
        out("| %s | %d | %d | %s | %.1f (%s) | %s | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.0f | %.0f |" % (
            nm, s.wsf, s.boost, s.mfk or "-", m, rounds_text(s, c), vs,
            s.mean("pgscan_direct"), p50, p99, mib(s.high), mib(s.gap),
            s.mean("kswapd_ms") / 1000.0, s.mean("refaults"), s.mean("compact_stall")))
    out("")
    if c.partial:
        out("Measured in fewer rounds than the cell's %d: %s; their columns are means over the"
            " rounds they have.\n" % (c.nrounds, ", ".join(
                "%s (%d)" % (s.title(), s.n) for s in c.partial)))
    if c.errors:
        out("%d setting runs failed (%s).\n" % (len(c.errors), ", ".join(
            "%s %s" % (e.get("name"), e.get("error")) for e in c.errors)))
    spread = c.d.per_round("allocstall")
    out("Spread: the default stalled %s times in its %d rounds (min %d, max %d); the 90%% line"
        " is a tenth of its mean a round: %.1f stalls a round.\n" % (
            " / ".join(map(str, spread)), c.d.n, min(spread), max(spread), c.line))
    if not c.a0:
        out("**The default did not stall here**: the workload did not reach direct reclaim on"
            " this kernel, so there was nothing to remove and the goal cannot be judged.\n")
    else:
        lines = []
        if c.best:
            lines.append("Smallest reserve that reaches the 90%% line: **%s** (wsf %d, boost %d,"
                         " min_free_kbytes %d), %.1f MiB, %.1f stalls a round." % (
                             c.best.label(), c.best.wsf, c.best.boost, c.best.mfk,
                             mib(c.best.high), c.best.mean("allocstall")))
        else:
            lines.append("No measured setting reaches the 90% line.")
        for s in sorted(c.fk, key=lambda s: s.high):
            lines.append("Folklore %s: %.1f stalls a round (%s%% removed) at %.1f MiB%s." % (
                FOLKLORE[s.name], s.mean("allocstall"), pct(c.removed(s)), mib(s.high),
                ", reaches the line" if s.mean("allocstall") <= c.line
                else ", does not reach the line"))
        if not c.rk:
            lines.append("**wmark recommend gave no answer in this run** (see its log).")
        else:
            lines.append("wmark recommend said **wsf %d, boost %d**: %.1f stalls a round (%s%%"
                         " removed), %.1f MiB reserved." % (
                             c.rk.wsf, c.rk.boost, c.rk.mean("allocstall"),
                             pct(c.removed(c.rk)), mib(c.rk.high)))
            if c.result == "met":
                lines.append("**Goal met**: the recommendation removes %s%% of the default's"
                             " stalls a round at %.2fx the smallest sufficient reserve, at or"
                             " under every folklore value that reaches the line." % (
                                 pct(c.removed(c.rk)), c.ratio))
            else:
                lines.append("**Goal missed**: " + c.why_missed() + ".")
        for l in lines:
            out("* " + l)
        out("")
        base = "recommend-eval-%s-%s" % (c.workload, c.flavour)
        with open(os.path.join(plots, base + ".dat"), "w") as f:
            for s in c.sets:
                f.write('%s %.2f %.1f "%s"\n' % (s.kind(), mib(s.high), s.mean("allocstall"),
                                                 s.label()))
        with open(os.path.join(plots, base + ".gp"), "w") as f:
            f.write(GNUPLOT % {"base": base, "title": c.title.replace("_", "\\\\_"),
                               "line": c.line, "rounds": c.nrounds})
        out("![%s: stalls against reserve](%s.svg)\n" % (c.title, base))

    rec = c.rec
    out("What `wmark -j recommend --sample %s` said at the default, while one load ran:\n"
        % info.get("sample_s", "?"))
    out("```")
    if rec:
        out("recommended: %s  verdict: %s" % (json.dumps(rec.get("recommended")),
                                             rec.get("verdict")))
        for r in rec.get("reasons", []):
            out("- " + r)
        b = rec.get("boost") or {}
        out("boost: " + " ".join("%s=%s" % (k, b.get(k)) for k in (
            "action", "readings", "boosted_readings", "fallbacks", "fallback_intervals",
            "fallback_peak", "stalls", "stalls_during_boost", "peak_pages", "allowed_pages")))
    else:
        out("no JSON from wmark recommend (see the run's data.txt)")
    out("```\n")


def short(c):
    """A cell's short name in the findings: workload and kernel series."""
    return "%s %s" % (".".join(c.release.split(".")[:2]), c.workload)


def findings(cells, missing, out):
    """What the runs say, each sentence computed from the cells."""
    out("## What these runs say\n")
    judged = [c for c in cells if c.result in ("met", "missed")]
    met = [c for c in judged if c.result == "met"]
    out("* **The goal is met in %d of the %d cells judged%s.**" % (
        len(met), len(judged), "" if not met else " (%s)" % ", ".join(short(c) for c in met)))
    for c in cells:
        if c.result not in ("met", "missed"):
            out("  * %s: %s." % (short(c), c.result))
            continue
        t = "  * %s: wsf %d, boost %d removed %s%% of the default's stalls a round with %.1f MiB" \
            " reserved" % (short(c), c.rk.wsf, c.rk.boost, pct(c.removed(c.rk)), mib(c.rk.high))
        if c.best:
            t += ", %.2fx the smallest sufficient setting (%s, %.1f MiB)" % (
                c.ratio, c.best.title(), mib(c.best.high))
        else:
            t += "; no setting reached the 90% line"
        if c.fk_less:
            t += "; %s reached the line with less" % ", ".join(
                "the folklore " + FOLKLORE[s.name] for s in c.fk_less)
        out(t + ": goal %s." % c.result)
    gapped = [c for c in judged if c.best]
    if gapped:
        out("* **The gap recommend asked for against the gap that sufficed** (the sum of min->low"
            " of the recommended setting and of the smallest setting that reached the line): %s." %
            "; ".join("%s %.1f MiB against %.1f MiB (%.2fx)" % (
                short(c), mib(c.rk.gap), mib(c.best.gap), c.rk.gap / float(c.best.gap))
                for c in gapped))
    b0 = []
    for c in cells:
        s = next((s for s in c.sets if s.name == "boost0" and s.wsf == 10), None)
        if s and c.d and c.a0:
            b0.append("%s %+.0f%%" % (short(c), -c.removed(s)))
    if b0:
        out("* **Boost 0 beside the default wsf 10** changed the stalls a round by: %s." %
            "; ".join(b0))
    zr = [(c, s) for c in cells if c.d and c.a0 for s in c.fk if s.name == "folklore-125-boost0"]
    if zr:
        out("* **The zram guides' wsf 125 + boost 0** removed %s of the default's stalls a"
            " round." % "; ".join("%s%% in %s" % (pct(c.removed(s)), short(c)) for c, s in zr))
    fb = []
    for c in cells:
        b = (c.rec or {}).get("boost") or {}
        if b:
            fb.append("%s %s fallbacks in %s intervals, %s of %s stalls during a boost (%s)" % (
                short(c), b.get("fallbacks"), b.get("fallback_intervals"),
                b.get("stalls_during_boost"), b.get("stalls"), b.get("action")))
    if fb:
        out("* **What recommend's sample counted of boost** (pageblock fallbacks, stalls while a"
            " zone was boosted, its action on the factor): %s." % "; ".join(fb))
    for c in cells:
        b = (c.rec or {}).get("boost") or {}
        if b.get("hidden"):
            out("* **%s prints no boost line, and recommend found the boost hidden in the"
                " watermarks**: %s of %s readings where a zone's min, low and high had risen"
                " together (at most %s pages, %.1f MiB), %s kswapd runs for a boost alone." % (
                    c.release, b.get("boosted_readings"), b.get("readings"),
                    b.get("peak_pages"), mib(b.get("peak_pages") or 0),
                    b.get("kswapd_boost_runs")))
    guests = {}
    for c in cells:
        guests.setdefault(c.meta.get("label", "?"), []).append(short(c))
    out("* **Guests:** %s." % "; ".join("%s: %s" % (", ".join(v), k)
                                         for k, v in sorted(guests.items())))
    ps = sorted(set(str((c.rec or {}).get("page_size", "?")) for c in cells))
    out("* **Page size:** %s bytes in every run kept." % " and ".join(ps))
    if missing:
        out("* **Not measured here:** %s.  Their raw runs were not kept, so nothing of theirs can"
            " be regenerated and none of it is reported; `REC_MATRIX=\"%s\" make"
            " bench-recommend` measures them again." % (", ".join(missing), " ".join(missing)))
    out("")


def args_cells(args, make):
    """From [--cells "FLAVOUR:WORKLOAD ..."] PLOTS RUN...: PLOTS, the cells
    make(RUN) gives in the order of --cells (then by name), and the cells of
    --cells that have no run."""
    want = []
    if len(args) >= 2 and args[0] == "--cells":
        want = args[1].split()
        args = args[2:]
    plots, runs = args[0], args[1:]
    cells = [make(r) for r in runs]
    order = {c: i for i, c in enumerate(want)}
    cells.sort(key=lambda c: (order.get("%s:%s" % (c.flavour, c.workload), len(order)),
                              c.flavour, c.workload, os.path.basename(c.run)))
    have = set("%s:%s" % (c.flavour, c.workload) for c in cells)
    return plots, cells, [w for w in want if w not in have]


def main():
    plots, cells, missing = args_cells(sys.argv[1:], Cell)
    body = []
    for c in cells:
        section(c, plots, body.append)
    o = sys.stdout.write
    o("# Does `wmark recommend` help? An evaluation under qemu\n\n")
    o("Generated by `tests/bench/recommend-report.py` from the runs kept in"
      " `docs/recommend-eval-runs/` (each cell's `meta`, `data.txt` and `recommend.json`):"
      " every number and every finding below is computed from them, and"
      " `REC_REPORT_ONLY=\"$(ls -d docs/recommend-eval-runs/run-*)\" make bench-recommend`"
      " writes this page again byte for byte.  `make bench-recommend` measures the cells"
      " (`tests/bench/recommend-eval.sh`: each cell is one Debian kernel under qemu running one"
      " workload; `REC_MATRIX` picks the cells, `REC_JOBS` how many run at a time), keeps each"
      " new run there in place of the cell's older one, and writes the page from every kept"
      " run, so cells it did not rerun stay.\n\n")
    o("## How\n\n")
    o("* Each cell boots the kernel under qemu (TCG with `-icount shift=3,sleep=off`: guest"
      " time counts executed instructions, so the host's load does not reach the guest; the"
      " vCPUs of each cell are on its line below, 2 GiB) with a data disk holding a sparse 3 GiB"
      " file.\n")
    o("* Workloads (`tests/bench/recommend-burst.c`, `recommend-guest.sh`; the exact parameters"
      " are on each cell's Guest line): **anon**, four processes writing 512 MiB of anonymous"
      " memory at once, twice, beside a reader that streams the file (the page cache stays"
      " full); **apps**, 1 GiB locked away (the rest of a phone), seven \"apps\" of 112 MiB heap"
      " (a quarter of each page random: about 3:1 in zram) and 16 MiB of file pages on 1 GiB of"
      " zram swap, launched once and kept, each load seven round-robin switches that touch the"
      " app's whole heap and file pages and write a 32 MiB burst; **server**, the reader, 256"
      " pipes of 256 KiB kept full (unmovable pages, like socket buffers) with every other one"
      " drained and refilled each cycle, 128 MiB of MADV_HUGEPAGE memory (order-9 faults) and"
      " 384 MiB of order-0 memory in four processes, two cycles.\n")
    o("* Settings: the default (wsf 10, boost 15000); wsf sweeps with the default boost and"
      " with `watermark_boost_factor` 0; the folklore values (wsf 200 from Pixel device trees;"
      " wsf 125 with boost 0 from zram guides; wsf 1000; min_free_kbytes 135168 from tuned);"
      " and what `wmark -j recommend --sample` said while one load ran at the default, right"
      " after the fill (both knobs when it proposes boost 0).  Every setting in every round;"
      " odd rounds in one order, even rounds in the reverse.\n")
    o("* Columns: `allocstall` and `pgscan_direct` are vmstat deltas around one load, given as"
      " the mean a round (so a setting measured in fewer rounds compares fairly, and is"
      " marked); p50/p99 are the load's burst (or switch, or cycle) latencies in guest time,"
      " the mean of the rounds' medians and the largest 99th percentile; `reserved` is the sum"
      " of the zones' high watermarks (what kswapd keeps free), `gap` the sum of min->low;"
      " `kswapd CPU` is kswapd's utime+stime; `refaults` is workingset_refault.\n")
    o("* The goal, per cell: the recommendation removes at least 90% of the default's stalls"
      " a round with a reserve at most 1.5x the smallest measured setting that does, and at or"
      " below every folklore value's reserve that reaches 90%.\n\n")
    o("## Summary\n\n")
    o("| cell | recommended | stalls removed a round | reserve vs smallest sufficient | goal |\n")
    o("|---|---|---:|---:|---|\n")
    for c in cells:
        judged = c.result in ("met", "missed")
        o("| %s%s | %s | %s | %s | %s |\n" % (
            c.title, " (incomplete)" if c.incomplete else
            " (rounds unequal)" if c.partial else "",
            "wsf %d, boost %d" % (c.rk.wsf, c.rk.boost) if c.rk else "-",
            "%s%%" % pct(c.removed(c.rk)) if judged else "-",
            "%.2fx" % c.ratio if judged and c.ratio else "-", c.result))
    for w in missing:
        o("| %s | not measured here: no kept run | - | - | - |\n" % w)
    o("\n")
    findings(cells, missing, lambda l: o(l + "\n"))
    o("\n".join(body))
    o("\n")


GNUPLOT = r'''set terminal svg size 760,460 dynamic font "sans,11"
set output "%(base)s.svg"
set title "%(title)s: allocation stalls against reserve (%(rounds)d rounds)"
set xlabel "reserve: the zones' high watermarks, MiB"
set ylabel "allocstall, mean a round"
set key outside right top
set grid
set yrange [0:*]
set style line 1 pt 7 ps 0.9 lc rgb "#1f77b4"
set style line 2 pt 5 ps 0.9 lc rgb "#2ca02c"
set style line 3 pt 9 ps 1.4 lc rgb "#ff7f0e"
set style line 4 pt 3 ps 2.2 lc rgb "#d62728" lw 2
set style line 5 pt 6 ps 1.6 lc rgb "black" lw 2
plot \
  "%(base)s.dat" using (strcol(1) eq "sweep" ? $2 : 1/0):3 with points ls 1 title "wsf sweep (boost 15000)", \
  "" using (strcol(1) eq "boost0" ? $2 : 1/0):3 with points ls 2 title "wsf sweep, boost 0", \
  "" using (strcol(1) eq "folklore" ? $2 : 1/0):3 with points ls 3 title "folklore", \
  "" using (strcol(1) eq "folklore" ? $2 : 1/0):3:4 with labels offset 0,1 notitle, \
  "" using (strcol(1) eq "recommended" ? $2 : 1/0):3 with points ls 4 title "wmark recommend", \
  "" using (strcol(1) eq "default" ? $2 : 1/0):3 with points ls 5 title "default", \
  %(line)f with lines dt 2 lc rgb "gray40" title "90%% line"
'''


if __name__ == "__main__":
    main()
