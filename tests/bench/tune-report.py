#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The report of tests/bench/tune-eval.sh: docs/tune-eval.md on stdout
from the runs given (docs/tune-eval-runs/run-*: meta, data.txt.gz or
data.txt, wall.txt, recommend.json), and gnuplot scripts with their data
in PLOTS for each cell: the reserve and the stalls over a run for wmark
tune against adaptivemmd, and stalls against reserve for every setting
with both tuners marked.

Every number and every finding is computed here from the runs; a cell of
--cells without a run is listed as not measured.  The output depends on
the runs only (not on their order on the command line), so the page
regenerates byte for byte.

usage: tune-report.py [--cells "FLAVOUR:WORKLOAD ..."] PLOTS RUN...
"""
import gzip
import importlib.util
import json
import os
import shlex
import statistics
import sys

_spec = importlib.util.spec_from_file_location(
    "recommend_report", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "recommend-report.py"))
rr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rr)
kv, mib, pct, FOLKLORE, WORKLOADS = rr.kv, rr.mib, rr.pct, rr.FOLKLORE, rr.WORKLOADS

TUNERS = ["tune", "adaptivemmd-2", "adaptivemmd-3"]
# tune's reasons for a period in which allocations stalled: its answer
ANSWERS = {
    "stalled": "raised",
    "boost-stall": "boost off",
    "no-cache": "held: what kswapd can free would not pay",
    "at-bound": "held: at the reserve bound",
    "at-top": "held: at the kernel's largest wsf",
}
FIXED_SPECIAL = {"default": "default", "recommended": "static recommend",
                 "from-tune": "static answer from tune"}
LOOKBACK = 8  # adaptivemmd's least-squares window, in periods
PERIOD = {"adaptivemmd-2": 30, "adaptivemmd-3": 15}
MIN_ROUNDS = 5  # rounds in which every setting ran, before a cell's goals are judged
MIN_STALLS = 10  # the default's median stalls a run, before a cell's goals are judged


def med(vals):
    return statistics.median(vals) if vals else None


def mm(vals, fmt="%.0f"):
    """median (min-max), or the one value, or '-'."""
    if not vals:
        return "-"
    m = fmt % med(vals)
    if len(vals) == 1:
        return m
    return "%s (%s-%s)" % (m, fmt % min(vals), fmt % max(vals))


def read_lines(run):
    gz = os.path.join(run, "data.txt.gz")
    if os.path.exists(gz):
        with gzip.open(gz, "rt", errors="replace") as f:
            return f.read().splitlines()
    with open(os.path.join(run, "data.txt"), errors="replace") as f:
        return f.read().splitlines()


def read_meta(run):
    meta = {}
    for l in open(os.path.join(run, "meta")):
        if "=" in l:
            k, v = l.rstrip("\n").split("=", 1)
            w = shlex.split(v)
            meta[k] = w[0] if w else ""
    return meta


def prefixed(line, tag):
    """(round, name, rest) of a line 'TAG round=R name=N rest'."""
    p = line.split(" ", 3)
    return int(p[1].split("=", 1)[1]), p[2].split("=", 1)[1], p[3] if len(p) > 3 else ""


class Run:
    """One run of one setting: its RESULT, cycles, samples and tuner log."""

    def __init__(self, res):
        self.r = res
        self.round = int(res["round"])
        self.name = res["name"]
        self.slot = res.get("slot", "middle")
        self.cycles = []
        self.ts = []      # (t from the run's start, wsf, boost, high, allocstall, pgscan_direct)
        self.tune = []    # wmark's JSON objects
        self.amm = []     # adaptivemmd's lines
        self.wall = None

    def f(self, k):
        return float(self.r.get(k, 0))

    @property
    def key(self):
        return (self.name, int(self.r["wsf"]), int(self.r["boost"]), int(self.r["mfk"]))

    def reserve(self):
        """The time average of the summed high watermarks over the run, pages."""
        return sum(s[3] for s in self.ts) / float(len(self.ts)) if self.ts else None

    def last_cycle(self):
        """allocstall in the run's last cycle (from the samples), or None."""
        if not self.cycles or not self.ts:
            return None
        t = float(self.cycles[-1].get("t", 0))
        before = [s[4] for s in self.ts if s[0] <= t]
        return self.ts[-1][4] - (before[-1] if before else self.ts[0][4])

    def first_cycle(self):
        """allocstall in the run's first cycle (from the samples), or None."""
        if len(self.cycles) < 2 or not self.ts:
            return None
        t = float(self.cycles[1].get("t", 0))
        before = [s[4] for s in self.ts if s[0] <= t]
        return (before[-1] if before else self.ts[0][4]) - self.ts[0][4]

    def lat(self, k):
        v = [float(c[k]) for c in self.cycles if k in c]
        if not v:
            return None
        return med(v) if k == "p50_ms" else max(v)

    def changes(self):
        """Times (s) at which the sampled wsf or boost factor changed."""
        return [b[0] for a, b in zip(self.ts, self.ts[1:]) if (a[1], a[2]) != (b[1], b[2])]

    def writes(self):
        if self.name.startswith("tune"):
            s = [o["summary"] for o in self.tune if "summary" in o]
            if s:
                return int(s[-1]["writes"])
            return sum(1 for o in self.tune if o.get("written"))
        return sum(1 for l in self.amm if "New watermark scale factor" in l)

    def converge_s(self):
        """When the sampled wsf or boost last changed; None when it never did."""
        c = self.changes()
        return c[-1] if c else None

    def moved(self):
        """The largest distance of the wsf from its last value over the last
        third of the run, as a share of that value."""
        if not self.ts:
            return None
        end = self.ts[-1][0]
        w = self.ts[-1][1]
        return max(abs(s[1] - w) / float(w) for s in self.ts if s[0] >= end * 2 / 3.0)

    def steady(self):
        """The wsf over the last third of the run within +-10% of its last value."""
        m = self.moved()
        return None if m is None else m <= 0.1


class Setting:
    def __init__(self, key):
        self.name, self.wsf, self.boost, self.mfk = key
        self.runs = []

    def vals(self, fn):
        return [v for v in (fn(r) for r in self.runs) if v is not None]

    def m(self, fn):
        return med(self.vals(fn))

    @property
    def stalls(self):
        return self.m(lambda r: r.f("allocstall"))

    @property
    def reserve(self):
        return self.m(lambda r: r.reserve())

    @property
    def tuner(self):
        return self.name in TUNERS

    def title(self):
        if self.name in FOLKLORE:
            return "folklore " + FOLKLORE[self.name]
        if self.name in FIXED_SPECIAL:
            return "%s (wsf %d, boost %d)" % (FIXED_SPECIAL[self.name], self.wsf, self.boost)
        if self.name == "tune":
            return "wmark tune"
        if self.name.startswith("adaptivemmd-"):
            return "adaptivemmd -a %s" % self.name.split("-")[1]
        return "wsf %d" % self.wsf

    def label(self):
        if self.name in FOLKLORE:
            return self.name.replace("folklore-", "")
        if self.name in ("default", "recommended", "from-tune", "tune"):
            return self.name
        if self.name.startswith("adaptivemmd-"):
            return "amm -a " + self.name.split("-")[1]
        return "wsf %d" % self.wsf


class Cell:
    def __init__(self, run):
        self.run = run
        self.meta = read_meta(run)
        lines = read_lines(run)
        # the guest's INFO lines; in a cell split across guests, the first
        # guest's (a later one's boot, fill and given answers are its own)
        self.info = {}
        for l in lines:
            if l.startswith("WMARK-PART-BEGIN"):
                break
            if l.startswith("INFO zones "):
                self.info["zones"] = l[len("INFO zones "):].strip()
            elif l.startswith("INFO "):
                self.info.update(kv(l))
        self.runs = []
        self.errors = []
        byname = {}
        cur = None
        fromtune, infrom = [], False
        for l in lines:
            if l == "TUNE-FROM-JSON-BEGIN":
                infrom = True
            elif l == "TUNE-FROM-JSON-END":
                infrom = False
            elif infrom:
                fromtune.append(l)
            elif l.startswith("RESULT "):
                r = kv(l)
                if "error" in r:
                    self.errors.append(r)
                    continue
                cur = Run(r)
                self.runs.append(cur)
                byname[(cur.round, cur.name)] = cur
            elif l.startswith("CYCLE ") and cur:
                cur.cycles.append(kv(l))
            elif l.startswith("TS ") and cur:
                _, _, rest = prefixed(l, "TS")
                v = rest.split()
                if len(v) == 6:
                    cur.ts.append([float(v[0])] + [int(x) for x in v[1:]])
            elif l.startswith("TUNE ") and cur:
                _, _, rest = prefixed(l, "TUNE")
                try:
                    cur.tune.append(json.loads(rest))
                except ValueError:
                    pass
            elif l.startswith("AMM ") and cur:
                cur.amm.append(prefixed(l, "AMM")[2])
        for r in self.runs:
            t0 = float(r.r.get("t0", 0))
            for s in r.ts:
                s[0] = round(s[0] - t0, 1)
        try:
            self.fromtune = json.loads("\n".join(fromtune)) if fromtune else None
        except ValueError:
            self.fromtune = None
        try:
            self.rec = json.load(open(os.path.join(run, "recommend.json")))
        except (OSError, ValueError):
            self.rec = None
        # wall time: the host's elapsed seconds when the n-th RESULT came out,
        # and in a cell split across guests the part (guest) it came from;
        # a run's wall time is the step from the run before it in its guest
        self.walls = []
        try:
            for l in open(os.path.join(run, "wall.txt")):
                p = l.split()
                if len(p) in (2, 3):
                    self.walls.append((int(p[1]), int(p[0]), p[2] if len(p) == 3 else "1"))
        except OSError:
            pass
        self.parts = len(set(w[2] for w in self.walls)) or 1
        # a cell measured in pieces (REC_UPTO, REC_RESUME): each call's
        # guests, first and last round, wall seconds and run, in order
        self.calls = []
        for call in filter(None, self.meta.get("calls", "").split(",")):
            p = call.split(":")
            if len(p) == 4:
                a, _, b = p[1].partition("-")
                self.calls.append((int(p[0]), int(a), int(b or a), int(p[2]), p[3]))
        self.upto = int(self.meta.get("upto", 0) or 0)
        prev = {}
        for n, t, part in self.walls:
            pn, pt = prev.get(part, (0, 0))
            if n - pn == 1 and pn > 0 and n <= len(self.runs):
                self.runs[n - 1].wall = t - pt
            prev[part] = (n, t)
        self.workload = self.meta.get("workload", "anon")
        self.flavour = self.meta.get("flavour", "?")
        self.release = self.meta.get("release", "?")
        self.title = "%s on %s" % (self.workload, self.release)
        self.incomplete = bool(self.meta.get("incomplete"))
        self.calib = [r for r in self.runs if r.round == 0]
        rounds = [r for r in self.runs if r.round > 0]
        self.nrounds = max([int(self.info.get("rounds", 0) or 0)] + [r.round for r in rounds])
        self.done = max([r.round for r in rounds] or [0])  # rounds begun
        self.sets = {}
        for r in rounds:
            self.sets.setdefault(r.key, Setting(r.key)).runs.append(r)
        self.order = sorted(self.sets.values(), key=lambda s: (
            s.reserve if s.reserve is not None else 0, s.name, s.wsf))
        self.by = {s.name: s for s in self.sets.values()}
        names = set(self.by)
        self.full = len([n for n in set(r.round for r in rounds)
                         if set(r.name for r in rounds if r.round == n) >= names])
        self.judge()

    def removes90(self, s):
        return s.stalls is not None and s.stalls <= self.line

    def judge(self):
        d = self.by.get("default")
        self.d = d
        self.v = {}
        self.judged = False  # True once the goals below are judged
        if not d or d.stalls is None:
            self.a0 = None
            return
        self.a0 = d.stalls
        self.line = self.a0 / 10.0
        fixed = [s for s in self.sets.values() if not s.tuner]
        passing = [s for s in fixed if self.removes90(s) and s.reserve is not None]
        self.best = min(passing, key=lambda s: s.reserve) if passing else None
        t = self.by.get("tune")
        self.t = t
        if self.full < MIN_ROUNDS:
            self.v = {g: "not judged: %d of %d rounds complete" % (self.full, MIN_ROUNDS)
                      for g in ("g1", "g2", "g3", "g4")}
            return
        if self.a0 < MIN_STALLS:
            # the 90% line under one stall: any stall at all would miss it
            self.v = {g: "not judged: the default stalls %.0f times a run (median), under %d"
                      % (self.a0, MIN_STALLS) for g in ("g1", "g2", "g3", "g4")}
            return
        self.judged = True
        # goal 1: tune removes 90% at <= 1.25x the smallest sufficient fixed reserve
        if not t:
            self.v["g1"] = "not measured"
        elif not self.removes90(t):
            self.v["g1"] = "missed: removes %s%%" % pct(self.removed(t))
        elif not self.best:
            self.v["g1"] = "met: no fixed setting removes 90%"
        else:
            x = t.reserve / self.best.reserve
            self.v["g1"] = "%s: %.2fx the reserve" % ("met" if x <= 1.25 else "missed", x)
        # goal 2: against each adaptivemmd level
        g2 = []
        for a in ("adaptivemmd-2", "adaptivemmd-3"):
            s = self.by.get(a)
            if not t or not s:
                g2.append("-a %s not measured" % a[-1])
                continue
            ts, tr, as_, ar = t.stalls, t.reserve, s.stalls, s.reserve
            if (ts < as_ and tr <= ar) or (tr < ar and ts <= as_):
                w = "beats"
            elif (as_ < ts and ar <= tr) or (ar < tr and as_ <= ts):
                w = "loses to"
            else:
                w = "trades with"
            g2.append("%s -a %s" % (w, a[-1]))
        self.v["g2"] = ", ".join(g2)
        self.g2met = bool(g2) and all(x.startswith("beats") for x in g2)
        # goal 3: tune's setting steady over the last third of each run
        if t:
            st = [r.steady() for r in t.runs]
            self.v["g3"] = "%s: steady in %d of %d runs, moved by up to %s%%" % (
                "met" if all(st) else "missed", sum(st), len(st),
                pct(100.0 * max(r.moved() for r in t.runs)))
        else:
            self.v["g3"] = "not measured"
        # goal 4: the static answer from tune against recommend's goal
        ft = self.by.get("from-tune")
        if not ft:
            self.v["g4"] = "not measured"
        else:
            fk_less = [s for s in fixed if s.name in FOLKLORE and self.removes90(s)
                       and s.reserve < ft.reserve]
            ok90 = self.removes90(ft)
            ratio = ft.reserve / self.best.reserve if self.best else None
            why = []
            if not ok90:
                why.append("removes %s%%" % pct(self.removed(ft)))
            if ratio is not None and ratio > 1.5:
                why.append("%.2fx the reserve" % ratio)
            if fk_less:
                why.append("folklore %s needs less" % ", ".join(s.label() for s in fk_less))
            self.v["g4"] = ("met" + (": %.2fx the reserve" % ratio if ratio else "")) \
                if not why else "missed: " + "; ".join(why)

    def removed(self, s):
        return (self.a0 - s.stalls) * 100.0 / self.a0 if self.a0 else 0.0

    def met(self, g):
        return self.v.get(g, "").startswith("met") or (g == "g2" and getattr(self, "g2met", False))


def round_span(a, b):
    """Rounds a to b, in words."""
    return "round %d" % a if a == b else "rounds %d-%d" % (a, b)


def short(c):
    return "%s %s" % (".".join(c.release.split(".")[:2]), c.workload)


def section(c, plots, out):
    info = c.info
    out("## %s\n" % c.title)
    out("*%s.* Kernel `%s`, %s, %d rounds planned, %d begun%s; %s %d minutes of"
        " wall time.\n" % (
        WORKLOADS.get(c.workload, c.workload), c.release, c.meta.get("label", "?"), c.nrounds,
        c.done,
        "; **incomplete: %s of %d measured so far, `REC_RESUME` measures the rest**"
        % (round_span(1, c.upto), c.nrounds) if c.incomplete and c.upto else
        "; **incomplete: the guest did not finish, the tables hold the runs that did**"
        if c.incomplete else "",
        "the rounds measured in %d calls of `make bench-tune` (%s), which ran" % (
            len(c.calls), "; ".join(
                "%s in %s, %d minutes" % (
                    round_span(a, b), "%d guests at once" % n if n > 1 else "one guest", round(w / 60))
                for n, a, b, w, _ in c.calls))
        if len(c.calls) > 1 else
        "the guest ran" if c.parts == 1 else "the rounds split across %d guests at once, which"
        " ran" % c.parts, round(int(c.meta.get("wall", 0)) / 60)))
    if len(c.calls) > 1:
        # the first call names the cell; each later one goes on from the run
        # the call before it kept
        cmds = []
        for i, (n, a, b, w, run) in enumerate(c.calls):
            cmds.append("`%s%s%s%smake bench-tune`" % (
                "REC_RESUME=docs/tune-eval-runs/%s " % c.calls[i - 1][4] if i else "",
                "REC_UPTO=%d " % b if b < c.nrounds else "",
                "REC_SPLIT=%d " % n if n > 1 else "",
                "" if i else "REC_MATRIX=%s:%s " % (c.flavour, c.workload)))
        out("Commands: %s (run `%s`).\n" % (", then ".join(cmds), os.path.basename(c.run)))
    else:
        out("Command: `%s%sREC_MATRIX=%s:%s make bench-tune` (run `%s`).\n" % (
            "REC_UPTO=%d " % c.upto if c.upto else "",
            "REC_SPLIT=%d " % c.parts if c.parts > 1 else "", c.flavour, c.workload,
            os.path.basename(c.run)))
    params = " ".join("%s=%s" % (k, v) for k, v in sorted(info.items())
                      if k not in ("zones", "kernel", "recommended", "recommend_rc",
                                   "recommended_boost", "sample_bursts", "reader_pid",
                                   "reader_pgid", "from_tune", "from_tune_boost"))
    out("Guest: %s MiB, zones (managed pages) %s; %s.\n" % (
        int(info.get("mem_kb", 0)) // 1024, info.get("zones", "?"), params))
    runs = [r for r in c.runs]
    if runs:
        secs = [r.f("seconds") for r in runs]
        busy = [r.f("busy_s") for r in runs]
        walls = [r.wall for r in runs if r.wall is not None]
        out("Each run: %s guest seconds (median, min-max), of which the load (refill and"
            " bursts) was %s s, %s%% of it; %s s of wall time a run (median, min-max, %d runs"
            " timed).\n" % (mm(secs), mm(busy, "%.1f"),
                            pct(100.0 * sum(busy) / sum(secs)) if sum(secs) else "-",
                            mm(walls), len(walls)))
    if c.a0 is None:
        out("No default setting was measured in this run: nothing to compare.\n")
        return
    out("| setting | wsf | boost | mfk | runs | allocstall | pgscan_direct | PSI some s | PSI full s"
        " | reserve MiB (time average) | refaults | kswapd CPU s | p50 ms | p99 ms | writes"
        " | converged at s | allocstall, last cycle |")
    out("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in c.order:
        nr = len(set(r.round for r in s.runs))
        out("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s.title(), "%d" % s.wsf if not s.tuner else "from %d" % s.wsf, s.boost, s.mfk,
            "%d" % len(s.runs) if nr == c.done else "%d, **%d of %d rounds**" % (
                len(s.runs), nr, c.done), mm(s.vals(lambda r: r.f("allocstall"))),
            mm(s.vals(lambda r: r.f("pgscan_direct"))),
            mm(s.vals(lambda r: r.f("psi_some_us") / 1e6), "%.1f"),
            mm(s.vals(lambda r: r.f("psi_full_us") / 1e6), "%.1f"),
            mm(s.vals(lambda r: mib(r.reserve()) if r.reserve() is not None else None), "%.1f"),
            mm(s.vals(lambda r: r.f("refaults"))),
            mm(s.vals(lambda r: r.f("kswapd_ms") / 1000.0), "%.1f"),
            mm(s.vals(lambda r: r.lat("p50_ms"))), mm(s.vals(lambda r: r.lat("p99_ms"))),
            mm(s.vals(lambda r: r.writes())) if s.tuner else "-",
            mm(s.vals(lambda r: r.converge_s())) if s.tuner else "-",
            mm(s.vals(lambda r: r.last_cycle()))))
    out("")
    out("Each cell: median over the runs (min-max).  The tuners' rows start from the default"
        " and move; their wsf column is where they started, their final values per run are"
        " below.  The last column counts the stalls of the run's last cycle alone (from the"
        " samples): for a tuner, the load met again after it had had a whole cycle to"
        " adapt.\n")
    if c.errors:
        out("%d runs failed (%s).\n" % (len(c.errors), ", ".join(
            "%s %s" % (e.get("name"), e.get("error")) for e in c.errors)))
    d = c.d
    first = [r.f("allocstall") for r in d.runs if r.slot == "first"]
    last = [r.f("allocstall") for r in d.runs if r.slot == "last"]
    out("Drift: the default at the start of each round stalled %s times, at the end %s"
        " (medians %s and %s); the 90%% line is a tenth of the default's median: %.1f stalls"
        " a run.\n" % (" / ".join("%.0f" % x for x in first) or "-",
                       " / ".join("%.0f" % x for x in last) or "-",
                       "%.0f" % med(first) if first else "-", "%.0f" % med(last) if last else "-",
                       c.line))
    lines = []
    if c.best:
        lines.append("Smallest fixed setting that removes 90%%: **%s**, %.1f MiB reserved, %.0f"
                     " stalls a run." % (c.best.title(), mib(c.best.reserve), c.best.stalls))
    else:
        lines.append("No fixed setting removes 90% of the default's stalls.")
    for name in TUNERS:
        s = c.by.get(name)
        if not s:
            lines.append("%s: not measured in this run." % name)
            continue
        ends = ", ".join("wsf %s boost %s" % (r.r.get("wsf_end"), r.r.get("boost_end"))
                         for r in sorted(s.runs, key=lambda r: r.round))
        first = s.vals(lambda r: r.changes()[0] if r.changes() else None)
        lines.append("%s: %.0f stalls a run (%s%% removed), %.1f MiB reserved on time"
                     " average; its first change came %s s into the run (%d of %d runs"
                     " changed anything); ended at %s." % (
                         s.title(), s.stalls, pct(c.removed(s)), mib(s.reserve), mm(first),
                         len(first), len(s.runs), ends))
    t = c.by.get("tune")
    if t:
        sm = [[o["summary"] for o in r.tune if "summary" in o] for r in t.runs]
        sm = [x[-1] for x in sm if x]
        bound = [sum(1 for o in r.tune if o.get("why") == "at-bound") for r in t.runs]
        if sm:
            lines.append("tune's own summaries: settled in %d of %d runs; it stood at its"
                         " --max-reserve bound (%.1f MiB of summed high watermarks) with stalls"
                         " coming in %d runs (%d periods in all)." % (
                             sum(1 for x in sm if x.get("settled")), len(sm),
                             mib(sm[0].get("max_reserve_pages", 0)),
                             sum(1 for x in bound if x), sum(bound)))
    if t:
        # the periods with direct reclaim, and what the law did about each
        asked = {}
        for r in t.runs:
            for o in r.tune:
                w = o.get("why")
                if w in ANSWERS:
                    asked[w] = asked.get(w, 0) + 1
        n = sum(asked.values())
        if n:
            lines.append("tune's periods with direct reclaim, over its %d runs: %d; %s." % (
                len(t.runs), n, ", ".join("%s %d (%s)" % (w, asked.get(w, 0), what)
                                          for w, what in ANSWERS.items())))
    if c.calib:
        r = c.calib[0]
        lines.append("The calibration run of tune (before the rounds) ended at wsf %s, boost %s"
                     " after %d writes, its last at %.0f s of %.0f." % (
                         r.r.get("wsf_end"), r.r.get("boost_end"), r.writes(),
                         r.converge_s() or 0, r.f("seconds")))
    ft = c.fromtune
    if ft:
        lines.append("`recommend --from-tune` on that log: **%s** (%s)." % (
            json.dumps(ft.get("recommended")), "; ".join(ft.get("reasons", [])[:2])))
    if c.rec:
        lines.append("`recommend --sample` at the default said **%s**." % json.dumps(
            c.rec.get("recommended")))
    for g, what in (("g1", "tune removes 90% at <= 1.25x the smallest sufficient reserve"),
                    ("g2", "tune against adaptivemmd"),
                    ("g3", "tune's setting steady over the last third"),
                    ("g4", "the static answer from tune meets recommend's goal")):
        lines.append("Goal, %s: **%s**." % (what, c.v.get(g, "-")))
    for l in lines:
        out("* " + l)
    out("")
    base = "tune-eval-%s-%s" % (c.workload, c.flavour)
    if not any(c.by.get(name) for name in TUNERS):
        out("No plots: no tuner ran in this cell.\n")
        return
    write_plots(c, plots, base)
    out("![%s: reserve and stalls over a run, tune against adaptivemmd](%s-time.svg)\n" % (
        c.title, base))
    out("![%s: stalls against reserve, every setting](%s-sweep.svg)\n" % (c.title, base))


def write_plots(c, plots, base):
    with open(os.path.join(plots, base + "-time.dat"), "w") as f:
        for name in TUNERS:
            s = c.by.get(name)
            f.write("# %s\n" % name)
            for r in (sorted(s.runs, key=lambda r: r.round) if s else []):
                a0 = r.ts[0][4] if r.ts else 0
                for t in r.ts:
                    f.write("%.1f %.2f %d\n" % (t[0], mib(t[3]), t[4] - a0))
                f.write("\n")
            f.write("\n")
    with open(os.path.join(plots, base + "-sweep.dat"), "w") as f:
        for s in c.order:
            if s.reserve is None:
                continue
            kind = "tuner" if s.tuner else ("folklore" if s.name in FOLKLORE else "fixed")
            f.write('%s %.2f %.1f "%s"\n' % (kind, mib(s.reserve), s.stalls, s.label()))
    t = c.title.replace("_", "\\\\_")
    with open(os.path.join(plots, base + "-time.gp"), "w") as f:
        f.write(TIME_GP % {"base": base, "title": t})
    with open(os.path.join(plots, base + "-sweep.gp"), "w") as f:
        f.write(SWEEP_GP % {"base": base, "title": t, "line": c.line})


def summary_row(c):
    def cellv(name):
        s = c.by.get(name)
        if not s:
            return "-"
        return "%.0f stalls, %.1f MiB" % (s.stalls, mib(s.reserve))
    ft = c.by.get("from-tune")
    return "| %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        c.title, " (incomplete: %d of %d rounds begun)" % (c.done, c.nrounds) if c.incomplete
        else " (%d of %d rounds)" % (c.done, c.nrounds) if c.done < c.nrounds else "",
        "%.0f stalls, %.1f MiB" % (c.a0, mib(c.d.reserve)) if c.d else "-",
        cellv("tune"), cellv("adaptivemmd-2"), cellv("adaptivemmd-3"),
        "wsf %d: %s" % (ft.wsf, cellv("from-tune")) if ft else "-",
        c.v.get("g1", "-"), c.v.get("g2", "-"), c.v.get("g3", "-"), c.v.get("g4", "-"))


def guests(c):
    """How a cell's rounds were run, for its wall-time finding."""
    if len(c.calls) > 1:
        n = sorted(set(call[0] for call in c.calls))
        return ", in %d calls of `make bench-tune`%s" % (len(c.calls), (
            ", %d guests at once in each" % n[0] if n[0] > 1 else "") if len(n) == 1 else
            ", with %s guests at once" % " and ".join(str(call[0]) for call in c.calls))
    return "" if c.parts == 1 else ", in %d guests at once" % c.parts


def findings(cells, missing, out):
    out("## What these runs say\n")
    judged = [c for c in cells if c.judged]
    for g, what in (("g1", "tune removes at least 90% of the default's stalls at most 1.25x the"
                     " smallest sufficient fixed reserve"),
                    ("g2", "tune beats adaptivemmd at both levels"),
                    ("g3", "tune's setting stays within +-10% over the last third of every run"),
                    ("g4", "the static answer taken from tune meets recommend's goal")):
        ok = [c for c in judged if c.met(g)]
        out("* **%s: in %d of the %d cells judged%s.**" % (
            what[0].upper() + what[1:], len(ok), len(judged),
            "" if not ok else " (%s)" % ", ".join(short(c) for c in ok)))
    g4 = [c for c in judged if c.met("g4")]
    out("* **The goal for the static answer from tune is 5 of the 6 cells of recommend's"
        " evaluation: %d met so far; %d of this page's %d cells have no kept run.**" % (
            len(g4), len(missing), len(missing) + len(cells)))
    for c in judged:
        lc = []
        for name in ["default"] + TUNERS:
            x = c.by.get(name)
            v = x.m(lambda r: r.last_cycle()) if x else None
            if v is not None:
                lc.append("%s %.0f" % (x.label() if name != "default" else "default", v))
        if lc:
            out("* %s, the stalls of the last cycle alone (medians; the tuners had had a whole"
                " cycle to adapt): %s." % (short(c), ", ".join(lc)))
    for c in judged:
        d, t = c.by.get("default"), c.by.get("tune")
        if not d or not t:
            continue
        d1, dall = d.m(lambda r: r.first_cycle()), d.m(lambda r: r.f("allocstall"))
        t1 = t.m(lambda r: r.first_cycle())
        tl = t.m(lambda r: r.f("allocstall") - r.first_cycle()
                 if r.first_cycle() is not None else None)
        if None in (d1, dall, t1, tl) or not dall:
            continue
        out("* %s, the first cycle, which every run meets at the default: the default stalled"
            " %.0f times in it, %.0f%% of its %.0f a run, so removing 90%% of a run's stalls"
            " means removing most of those before the tuner has seen one; tune stalled %.0f"
            " times in it and %.0f in the cycles after it (medians)." % (
                short(c), d1, 100.0 * d1 / dall, dall, t1, tl))
    for c in judged:
        amm = []
        for a in ("adaptivemmd-2", "adaptivemmd-3"):
            s = c.by.get(a)
            if s:
                n = PERIOD[a] * LOOKBACK
                sec = med([r.f("seconds") for r in s.runs])
                amm.append("-a %s: %d writes, its %d-sample lookback (%d s) filled %.1f times a"
                           " run" % (a[-1], med(s.vals(lambda r: r.writes())), LOOKBACK, n,
                                     sec / n))
        if amm:
            out("* %s, adaptivemmd: %s." % (short(c), "; ".join(amm)))
    # the runs of a whole cell: the calibration, then each round's settings and the repeat
    whole = max([1 + c.nrounds * (len(c.sets) + 1) for c in cells if c.full >= c.nrounds > 0]
                or [0])
    for c in cells:
        wall = int(c.meta.get("wall", 0))
        rs = [r for r in c.runs if r.wall is not None]
        more = ""
        if c.incomplete and rs and whole:
            a = med([r.wall for r in rs])
            more = ("  **Incomplete: %s; its runs took %.0f s of wall time each"
                    " (median of %d), so the %d runs of a whole cell would take about %.1f"
                    " hours.**" % (
                        "%s not measured yet" % (
                            round_span(c.upto + 1, c.nrounds) + (" is" if c.upto + 1 == c.nrounds
                                                            else " are")) if c.upto
                        else "the guest was stopped", a, len(rs), whole, whole * a / 3600.0))
        out("* %s: %d runs in %.0f minutes of wall time%s (%.0f s from boot to the end of the"
            " first run: boot, fill, recommend's sample); %.0f guest seconds in all, %.0f s of it"
            " load.%s" % (short(c), len(c.runs), wall / 60.0,
                          guests(c),
                          c.walls[0][1] if c.walls else 0,
                          sum(r.f("seconds") for r in c.runs), sum(r.f("busy_s") for r in c.runs),
                          more))
    if cells:
        tot = sum(int(c.meta.get("wall", 0)) for c in cells)
        out("* **Wall time of the cells kept: %.0f minutes in all.**" % (tot / 60.0))
    if missing:
        out("* **Not measured here:** %s.  No run of theirs is kept, so nothing of theirs is"
            " reported; `REC_MATRIX=\"CELL\" make bench-tune` measures one." % ", ".join(missing))
    out("")


def main():
    o = sys.stdout.write
    plots, cells, missing = rr.args_cells(sys.argv[1:], Cell)
    body = []
    for c in cells:
        section(c, plots, body.append)
    o("# Does `wmark tune` help? Against adaptivemmd, under qemu\n\n")
    o("Generated by `tests/bench/tune-report.py` from the runs kept in `docs/tune-eval-runs/`"
      " (each cell's `meta`, `data.txt.gz`, `wall.txt` and `recommend.json`): every number and"
      " every finding below is computed from them, and"
      " `REC_REPORT_ONLY=\"$(ls -d docs/tune-eval-runs/run-*)\" make bench-tune` writes this"
      " page and its plots again byte for byte.  `make bench-tune` measures one cell a call"
      " (`REC_MATRIX`, default 6.12-cloud:anon; `tests/bench/tune-eval.sh`), keeps its run"
      " there in place of the cell's older one, and writes the page from every kept run; a"
      " cell too long for one sitting is measured in calls of whole rounds (`REC_UPTO`, then"
      " `REC_RESUME`), kept as one run.\n\n")
    o("## How\n\n")
    o("* The guests, kernels and workloads of `docs/recommend-eval.md` (`tests/bench/guest-setup.sh`,"
      " `recommend-burst.c`): Debian cloud kernels under qemu, TCG with `-icount"
      " shift=3,sleep=off`, one vCPU, 2 GiB, a data disk with a sparse 3 GiB file.\n")
    o("* A run is `RUN_CYCLES` cycles of `CYCLE_S` guest seconds (each cell's Guest line): a"
      " cycle lets the reader refill the page cache, runs one load of the workload, stops the"
      " reader and sleeps to the cycle's end.  Under `-icount sleep=off` an idle guest costs"
      " almost no wall time, so a run is long enough in guest time for adaptivemmd's 8-sample"
      " lookback (4 minutes at `-a 2`, 2 at `-a 3`) to fill more than once and for tune to"
      " converge, while its wall time is about that of its loads.  Each cell says how long"
      " its runs were and what share of them was load.\n")
    o("* Settings: the default (wsf 10, boost 15000), at the start and again at the end of"
      " every round (the drift); the folklore values of `docs/recommend-eval.md`; the static"
      " answer of `wmark -j recommend --sample` during one load at the default; `wmark -j tune"
      " --interval TUNE_INTERVAL` (each cell's Guest line) running through the run from the default; the static answer taken from"
      " tune (`wmark -j recommend --from-tune` on the log of a calibration run of tune made"
      " before the rounds), held fixed; adaptivemmd (Oracle's, built statically from its own"
      " source by the bench, with its watermark management on and its negative-dentry and"
      " leak checks off) at `-a 2` and `-a 3`, running through the run from the default.  The"
      " settings between the two defaults run in one order in odd rounds and in the reverse"
      " in even ones; the knobs and `vfs_cache_pressure` (which adaptivemmd also moves) are"
      " set again before every run.\n")
    o("* Columns, each over a whole run: `allocstall` and `pgscan_direct` (vmstat deltas);"
      " PSI memory some/full (seconds); the reserve, the time average of the summed high"
      " watermarks sampled every `TS_S` seconds; refaults (workingset_refault); kswapd's"
      " utime+stime; p50 (median of the cycles' medians) and p99 (the largest of the cycles'"
      " 99th percentiles) of the burst latencies in guest time; for the tuners, the writes"
      " (tune's summary, adaptivemmd's \"New watermark scale factor\" lines) and the time of"
      " the last change of wsf or boost seen by the sampler (converged at; \"-\" when it never"
      " changed them).\n")
    o("* Goals, per cell, on the medians: (1) tune removes at least 90% of the default's"
      " stalls with a time-averaged reserve at most 1.25x the smallest fixed setting that does;"
      " (2) tune beats adaptivemmd (each level) on stalls at no more reserve, or on reserve at"
      " no more stalls (\"trades with\" when neither wins); (3) tune's wsf stays within +-10%"
      " of its last value over the last third of every run; (4) the static answer taken from"
      " tune meets `docs/recommend-eval.md`'s goal (90% of the stalls removed, at most 1.5x the"
      " smallest sufficient reserve, no folklore value reaching 90% with less), in at least 5"
      " of the 6 cells.\n\n")
    o("## Summary\n\n")
    o("| cell | default | tune | adaptivemmd -a 2 | adaptivemmd -a 3 | static answer from tune"
      " | goal 1 | goal 2 | goal 3 | goal 4 |\n")
    o("|---|---|---|---|---|---|---|---|---|---|\n")
    for c in cells:
        o(summary_row(c) + "\n")
    for w in missing:
        o("| %s | not measured here: no kept run | - | - | - | - | - | - | - | - |\n" % w)
    o("\nStalls are allocstall a run and MiB the time-averaged reserve, medians over the"
      " rounds.\n\n")
    findings(cells, missing, lambda l: o(l + "\n"))
    o("\n".join(body))
    o("\n")


TIME_GP = r'''set terminal svg size 760,560 dynamic font "sans,11"
set output "%(base)s-time.svg"
set multiplot layout 2,1 title "%(title)s: tune against adaptivemmd, every round"
set grid
set key outside right top
set xlabel "guest seconds from the run's start"
set ylabel "reserve (summed high), MiB"
plot "%(base)s-time.dat" index 0 using 1:2 with lines lw 1.5 lc rgb "#d62728" title "wmark tune", \
  "" index 1 using 1:2 with lines lw 1.5 lc rgb "#1f77b4" title "adaptivemmd -a 2", \
  "" index 2 using 1:2 with lines lw 1.5 lc rgb "#2ca02c" title "adaptivemmd -a 3"
set ylabel "allocstall since the start"
plot "%(base)s-time.dat" index 0 using 1:3 with lines lw 1.5 lc rgb "#d62728" title "wmark tune", \
  "" index 1 using 1:3 with lines lw 1.5 lc rgb "#1f77b4" title "adaptivemmd -a 2", \
  "" index 2 using 1:3 with lines lw 1.5 lc rgb "#2ca02c" title "adaptivemmd -a 3"
unset multiplot
'''

SWEEP_GP = r'''set terminal svg size 760,460 dynamic font "sans,11"
set output "%(base)s-sweep.svg"
set title "%(title)s: allocation stalls against time-averaged reserve (medians)"
set xlabel "reserve: the zones' high watermarks, time average, MiB"
set ylabel "allocstall a run"
set key outside right top
set grid
set yrange [0:*]
plot \
  "%(base)s-sweep.dat" using (strcol(1) eq "fixed" ? $2 : 1/0):3 with points pt 7 ps 1 lc rgb "#1f77b4" title "fixed", \
  "" using (strcol(1) eq "folklore" ? $2 : 1/0):3 with points pt 9 ps 1.4 lc rgb "#ff7f0e" title "folklore", \
  "" using (strcol(1) eq "tuner" ? $2 : 1/0):3 with points pt 3 ps 2.2 lw 2 lc rgb "#d62728" title "tuners", \
  "" using 2:3:4 with labels offset 0,1 notitle, \
  %(line)f with lines dt 2 lc rgb "gray40" title "90%% line"
'''


if __name__ == "__main__":
    main()
