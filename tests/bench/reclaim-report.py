#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/reclaim-eval.md from the runs kept in docs/reclaim-eval-runs/
(make bench-reclaim): RUN/ENTRY/info.txt (or info.txt.gz) holds a guest's
WMARK-INFO facts, one reclaim_LRU_ROW_COL_rROUND=... line per case and
round (tests/kernel/guest-reclaim-bench.sh).

Every number on the page is computed here from those lines, and so is
every sentence that states a measurement: the page depends on the kept
runs only and regenerates byte for byte.  Where a run holds fewer rounds
than it planned (the guest ran out of time), the cells say how many.

usage: reclaim-report.py RUNS_DIR
"""
import gzip
import os
import statistics
import sys

PAGE = 4096	# x86-64 guests
ROWS = [("root", "root full reclaim"), ("part", None), ("full", "full reclaim of one cgroup")]
COLS = [("pre", "pre: one write"), ("post", "post: 32-page writes"), ("q", "/4: `--batch quarter`")]
LRUS = [("classic", "classic LRU"), ("mglru", "MGLRU")]


def mib(pages):
    return float(pages) * PAGE / 1048576


def read(path):
    if os.path.exists(path):
        return open(path, errors="replace").read()
    if os.path.exists(path + ".gz"):
        return gzip.open(path + ".gz", "rt", errors="replace").read()
    return None


def fields(v):
    out = {}
    for kv in v.split(","):
        if ":" in kv:
            k, x = kv.split(":", 1)
            out[k] = x
    return out


class Entry:
    """One guest of one run: its kernel, setup and cases by round."""

    def __init__(self, run, entry, text, log, host):
        self.run, self.entry = run, entry
        self.facts = {}
        self.cases = {}		# (lru, row, col) -> [fields of each round]
        self.rounds_done = 0
        self.host = host	# the host's rc and wall of the boot, where kept
        for tok in text.split():
            if "=" not in tok:
                continue
            k, v = tok.split("=", 1)
            if k.startswith("reclaim_") and "_r" in k and k.count("_") == 4:
                _, lru, row, col, r = k.split("_")
                if r[1:].isdigit():
                    f = fields(v)
                    f["round"] = int(r[1:])
                    self.cases.setdefault((lru, row, col), []).append(f)
                    continue
            if k == "reclaim_round_done":
                self.rounds_done = max(self.rounds_done, int(v))
            self.facts[k] = v
        self.release = self.facts.get("osrelease", "?")
        # a guest script that timed the reading of wmark's report apart
        # (read_ms) and traced the kernel's calls; earlier scripts read each
        # report with a reader whose time grew faster than its size squared
        self.traced = any("read_ms" in f for rs in self.cases.values() for f in rs)
        self.setup = fields(self.facts.get("reclaim_setup", ""))
        self.planned = int(self.setup.get("rounds", 0) or 0)
        # cases the guest's log says it started and no result line ended
        self.unfinished = []
        for l in (log or "").splitlines():
            w = l.split()
            if len(w) >= 5 and w[0] == "#" and w[1] == "round" and w[4].endswith(":"):
                r, lru, c = w[2], w[3], w[4][:-1]
                key = (lru,) + tuple(c.split("_"))
                if len(key) == 3 and not any(f["round"] == int(r)
                                             for f in self.cases.get(key, [])):
                    self.unfinished.append((int(r), key))


class Kernel:
    """Every kept guest of one kernel release: their rounds pooled."""

    def __init__(self, entries):
        self.entries = entries
        self.release = entries[0].release
        self.cases = {}
        for e in entries:
            for k, rs in e.cases.items():
                self.cases.setdefault(k, []).extend(
                    dict(f, round=(e.run, f["round"])) for f in rs)
        self.setup = entries[-1].setup
        self.planned = max(e.planned for e in entries)
        self.unfinished = [(e, r, k) for e in entries if e.traced for r, k in e.unfinished]
        self.untraced_stops = [(e, r, k) for e in entries if not e.traced
                               for r, k in e.unfinished]

    def series(self):
        return ".".join(self.release.split(".")[:2])


def num(f, k):
    try:
        return float(f.get(k))
    except (TypeError, ValueError):
        return None


def stat(vals, fmt):
    """median (min-max) of the values that exist, or '-'."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    med = statistics.median(vals)
    if len(vals) == 1 or min(vals) == max(vals):
        return fmt % med
    return "%s (%s-%s)" % (fmt % med, fmt % min(vals), fmt % max(vals))


def cell(e, lru, row, col):
    """The three numbers of one cell of the 2024 table, over the rounds."""
    rs = sorted(e.cases.get((lru, row, col), []), key=lambda f: f["round"])
    stuck = [(x, r) for x, r, k in e.unfinished if k == (lru, row, col)]
    if not rs and stuck:
        return {"n": 0, "stuck": stuck}
    if not rs:
        return None
    rate = [num(f, "rate") for f in rs]
    secs = [num(f, "time_ns") / 1e9 if num(f, "time_ns") is not None else None for f in rs]
    over = [mib(num(f, "over")) if num(f, "over") is not None else None for f in rs]
    stopped = sum(1 for f in rs if f.get("result") == "interrupted")
    results = sorted(set(f.get("result", "?") for f in rs))
    return {"n": len(rs), "stuck": stuck, "rate": stat(rate, "%.0f"), "time": stat(secs, "%.2f"),
            "over": stat(over, "%.2f") if row == "part" else None, "stopped": stopped,
            "results": results, "rs": rs,
            "rate_med": statistics.median([v for v in rate if v is not None])
            if any(v is not None for v in rate) else None,
            "over_med": statistics.median([v for v in over if v is not None])
            if any(v is not None for v in over) else None}


def row_name(e, row):
    if row != "part":
        return dict(ROWS)[row]
    s = e.setup
    return "%s MiB of one cgroup of %d MiB (the 2024 \"1G reclaim\", scaled to a %d MiB guest)" % (
        s.get("part_mb", "?"), int(s.get("file_mb", 0)) + int(s.get("anon_mb", 0)),
        int(s.get("mem_kb", 0)) // 1024)


def stuck_text(stuck):
    return "did not end: the guest was still in it when stopped (%s)" % ", ".join(
        "run `%s` round %d%s" % (x.run, r, "; qemu stopped %s s after it started" % x.host["wall"]
                                 if x.host.get("wall") else "") for x, r in stuck)


def cell_text(c, planned, e=None):
    if not c:
        return "not measured"
    if not c["n"]:
        return stuck_text(c["stuck"])
    t = "%s pages/s, %s s" % (c["rate"], c["time"])
    if c["stopped"] == c["n"] and e is not None:
        # the seed's "inf": no round ended by itself
        t = "%s pages/s until stopped, inf (stopped by SIGTERM after %s s in %d of %d rounds," \
            " %s MiB reclaimed of %s asked)" % (
                c["rate"], e.setup.get("root32_s", "?"), c["stopped"], c["n"],
                stat([mib(num(f, "reclaimed")) if num(f, "reclaimed") is not None else None
                      for f in c["rs"]], "%.0f"),
                stat([mib(num(f, "asked")) if num(f, "asked") is not None else None
                      for f in c["rs"]], "%.0f"))
    if c["over"] is not None:
        t += ", %s MiB over" % c["over"]
    notes = []
    if c["stopped"] and c["stopped"] < c["n"]:
        notes.append("stopped by SIGTERM in %d of %d rounds" % (c["stopped"], c["n"]))
    if planned and c["n"] < planned:
        notes.append("**%d of %d rounds**" % (c["n"], planned))
    ends = [r for r in c["results"] if r not in ("ok", "interrupted")]
    if ends:
        notes.append("ended " + ", ".join(ends))
    if c["stuck"]:
        notes.append(stuck_text(c["stuck"]))
    return t + ("; " + "; ".join(notes) if notes else "")


def table(e, out, cols):
    for lru, lname in LRUS:
        if not any(k[0] == lru for k in e.cases):
            continue
        out("%s, %s:\n" % (e.release, lname))
        out("| workload | " + " | ".join(dict(COLS)[c] for c in cols) + " |")
        out("|---|" + "---|" * len(cols))
        for row, _ in ROWS:
            out("| %s | %s |" % (row_name(e, row), " | ".join(
                cell_text(cell(e, lru, row, c), e.planned, e) for c in cols)))
        out("")


def mm(v):
    """' (median, min-max)' after a stat() that shows a range."""
    v = [x for x in v if x is not None]
    return " (median, min-max)" if v and min(v) != max(v) else ""


def vals(rs, k, scale=1.0):
    return [num(f, k) * scale for f in rs if num(f, k) is not None]


def total(rs, k):
    return int(sum(vals(rs, k)))


def post_finding(e, lru, lname, row):
    """What the traced rounds of one row in 32-page writes say, or None."""
    c = cell(e, lru, row, "post")
    if not c:
        return None
    what = "root reclaim" if row == "root" else row_name(e, row)
    if not c["n"]:
        return "* **%s, %s, in 32-page writes** had not ended when its guest was stopped: %s." % (
            lname, what, stuck_text(c["stuck"]).split(": ", 1)[1])
    rs = [f for f in c["rs"] if num(f, "calls") is not None]
    n = c["n"]
    if not rs:
        return None
    nw, calls = total(rs, "writes"), total(rs, "calls")
    zc = vals(rs, "zcalls")
    ok, eagain, other = total(rs, "w_ok"), total(rs, "w_eagain"), total(rs, "w_other")
    trace = ("the kernel made %d internal calls for %d writes (%.2f a write; tracefs"
             " `vmscan:mm_vmscan_memcg_reclaim_end`, over %d traced rounds), %d of them reclaiming"
             " nothing" % (calls, nw, calls / nw if nw else 0, len(rs), int(sum(zc))))
    if total(rs, "lost"):
        trace += " (%d events lost)" % total(rs, "lost")
    if row == "root" and c["stopped"] == n:
        t = ("* **%s, root reclaim in 32-page writes**: the 2024 table's \"inf\" reappears: no"
             " round ended by itself, each was stopped by the SIGTERM sent after %s s (%d of %d"
             " rounds), having made %s writes%s.  Traced: %d of %d writes ended ok, %d with"
             " EAGAIN; %s, at most %d in a round and at most %d in a row, where it takes 17 in one"
             " write to end it with EAGAIN (`if (!reclaimed && !nr_retries--) return -EAGAIN` in"
             " 6.1's `memory_reclaim()`)." % (
                 lname, e.setup.get("root32_s", "?"), c["stopped"], n,
                 stat(vals(c["rs"], "writes"), "%.0f"), mm(vals(c["rs"], "writes")), ok, nw,
                 eagain, trace, max(zc), max(vals(rs, "zrun") or [0])))
        left = vals(rs, "left_mb")
        if left:
            t += ("  The cgroup was left with at most %.1f MiB, and the writes went on against the"
                  " rest of the guest's memory while it was swapped back in: %s pages swapped in"
                  " during a case%s, %s anon refaults, against %s swapped out." % (
                      max(left), stat(vals(rs, "swpin"), "%.0f"), mm(vals(rs, "swpin")),
                      stat(vals(rs, "rfa"), "%.0f"), stat(vals(rs, "swpout"), "%.0f")))
        if eagain == 0 and other == 0 and statistics.median(vals(rs, "swpin") or [0]) > 0:
            t += ("  So every 32-page write found its pages (memory that comes back when it is"
                  " used), the request (MemTotal) is never met, and the kernel's give-up never"
                  " comes: only the stop ends the run.  The same retry rule governs 6.6-6.8's"
                  " 32-page calls inside one write.")
        lat = [num(f, "wall_ms") / 1e3 - float(e.setup.get("root32_s", 0)) for f in rs
               if num(f, "wall_ms") is not None]
        if lat:
            t += ("  wmark ended %s s after the signal (%sthe guest's uptime around wmark less"
                  " the %s s), its last write %s." % (
                      stat(lat, "%.1f"), "median, min-max; " if mm(lat) else "",
                      e.setup.get("root32_s", "?"),
                      ", ".join(sorted(set(f.get("w_last", "?") for f in rs)))))
        return t
    lo, hi = min(vals(rs, "w_pmin") or [0]), max(vals(rs, "w_pmax") or [0])
    t = ("* **%s, %s, in 32-page writes**: %s in %d of %d rounds, after %s writes%s; %s;"
         " memory.stat showed %s%s." % (
             lname, what, "/".join(c["results"]), n, n, stat(vals(c["rs"], "writes"), "%.0f"),
             mm(vals(c["rs"], "writes")), trace,
             "%d pages for every write" % lo if lo == hi else "%d to %d pages a write" % (lo, hi),
             " (it lags small writes: its counters are flushed in batches)" if lo < 32 else ""))
    return t


def findings(e61, others, out):
    out("## What these runs show\n")
    any_line = False
    for lru, lname in LRUS:
        pre, post, q = (cell(e61, lru, "part", c) for c in ("pre", "post", "q"))
        if pre and q and pre.get("over_med") is not None and q.get("over_med") is not None:
            out("* **%s, %s MiB of the cgroup**: one write (6.1's single call) ended %.2f MiB over"
                " (median of %d rounds), wmark's quarters %.2f MiB (%d rounds)." % (
                    lname, e61.setup.get("part_mb"), pre["over_med"], pre["n"], q["over_med"],
                    q["n"]))
            any_line = True
        if pre and post and pre.get("rate_med") and post.get("rate_med") is not None:
            out("* **%s, 32-page writes against one write**: %.0f against %.0f pages/s"
                " (medians), %.2fx." % (lname, post["rate_med"], pre["rate_med"],
                                        post["rate_med"] / pre["rate_med"]))
            any_line = True
        for row in ("root", "part", "full"):
            line = post_finding(e61, lru, lname, row)
            if line:
                out(line)
                any_line = True
    for e in others:
        for lru, lname in LRUS:
            c = cell(e, lru, "part", "pre")
            if c and c.get("over_med") is not None:
                out("* **%s, %s, its own loop** (one write of %s MiB): %.2f MiB over (median of %d"
                    " rounds)." % (e.release, lname, e.setup.get("part_mb"), c["over_med"],
                                   c["n"]))
                any_line = True
    if not any_line:
        out("* Nothing yet: no kept run holds the cases these sentences compare.")
    out("")
    stops = e61.untraced_stops
    if stops:
        out("### Runs stopped inside a case\n")
        traced = [f for k, rs in e61.cases.items() if k[2] == "post" for f in rs
                  if num(f, "read_ms") is not None and num(f, "wall_ms") is not None]
        t = ("* Run%s %s: qemu was stopped while the guest was inside a case in 32-page writes"
             " (%s), before its line was printed.  The guest script of %s read each report of"
             " wmark once for each value it took from it, with a JSON reader whose time grew faster than the square of the"
             " report's length (a report of 32-page writes holds thousands of write rows), and"
             " timed neither wmark nor the reading apart, so these stops do not say that wmark or"
             " the kernel had not ended." % (
                 "s" if len(set(x.run for x, r, k in stops)) > 1 else "",
                 ", ".join("`%s`" % r for r in sorted(set(x.run for x, r, k in stops))),
                 "; ".join("%s, %s" % (dict(ROWS)[k[1]] or row_name(e61, k[1]), dict(LRUS)[k[0]])
                           for x, r, k in stops),
                 "those runs" if len(set(x.run for x, r, k in stops)) > 1 else "that run"))
        if traced:
            t += ("  The runs that time them apart (wall_ms: wmark from start to exit; read_ms:"
                  " the reading) ended every such case: wmark took at most %.1f s, the reading"
                  " at most %.1f s, over %d cases." % (
                      max(num(f, "wall_ms") for f in traced) / 1e3,
                      max(num(f, "read_ms") for f in traced) / 1e3, len(traced)))
        out(t)
        out("")


def main():
    top = sys.argv[1]
    entries = []
    for run in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        d = os.path.join(top, run)
        if not os.path.isdir(d):
            continue
        for ent in sorted(os.listdir(d)):
            text = read(os.path.join(d, ent, "info.txt"))
            if text is not None:
                host = {}
                for k in ("rc", "wall"):
                    v = read(os.path.join(d, ent, k))
                    if v is not None:
                        host[k] = v.strip()
                entries.append(Entry(run, ent, text, read(os.path.join(d, ent, "tap.txt")),
                                     host))
    o = lambda s="": sys.stdout.write(s + "\n")
    o("# `wmark reclaim` on real kernels")
    o()
    o("Generated by `tests/bench/reclaim-report.py` from the raw runs kept in"
      " `docs/reclaim-eval-runs/` (each guest's `info.txt`: one line per case and round, as"
      " `tests/kernel/guest-reclaim-bench.sh` printed it in the guest); every number and every"
      " finding below is computed from them, and `RECLAIM_REPORT_ONLY=1 make bench-reclaim`"
      " writes this page again byte for byte.  `make bench-reclaim` boots Debian's kernels"
      " under qemu, measures, keeps the new run there and writes the page.")
    o()
    o("## The 2024 table (quoted)")
    o()
    o("T.J. Mercier's results on linux-mm, 30 January 2024: an Android device, MGLRU enabled;"
      " `/uid_0` is a per-UID memory cgroup.  \"pre\" is one internal call for the whole"
      " remainder (6.1-era code), \"post\" is 0388536ac291 (calls of 32 pages, 6.6-6.8), the"
      " last column the `/4` rule that became 287d5fedb377 (6.9+).")
    o()
    o("| workload | pre-0388536ac291 | post-0388536ac291 | (reclaim−reclaimed)/4 |")
    o("|---|---|---|---|")
    o("| root full reclaim, pages/s (time) | 68047 (10.46 s) | 13742 (inf) | 67352 (10.51 s) |")
    o("| /uid_0 1G reclaim, pages/s, time, overreclaim | 258822, 1.12 s, 107.8 MiB |"
      " 105174, 2.49 s, 3.5 MiB | 233396, 1.12 s, −7.4 MiB |")
    o("| /uid_0 full reclaim, pages/s (time) | 72334 (7.09 s) | 38105 (14.45 s) |"
      " 72914 (6.96 s) |")
    o()
    o("## How these runs were made")
    o()
    o("* One Debian 6.1 kernel plays all three columns: \"pre\" is one write (6.1 makes one"
      " internal call for the whole remainder); \"post\" is writes of 32 pages (`--batch"
      " fixed:128K`: 6.1 turns each into one internal call of 32 pages, as 6.6-6.8 make them,"
      " plus a system call and wmark's `memory.stat` read per write); `/4` is wmark's"
      " `--batch quarter`, 6.9's loop from user space.  Beside it, a later kernel's own loop"
      " (one write), where a run holds one.")
    o("* Each case starts from a fresh cgroup of clean page cache (a loop device over a sparse"
      " tmpfs file, read with `dd`) and anonymous memory, swap on a loop device over ramfs;"
      " the sizes are on each kernel's line below.  Full reclaim asks for 64 GiB (until the"
      " kernel says `EAGAIN`); root full reclaim asks the root cgroup for MemTotal.  The root"
      " case in 32-page writes is stopped by SIGTERM after the seconds given below.")
    o("* The classic LRU and MGLRU (`/sys/kernel/mm/lru_gen/enabled` `n`, then `y`) alternate"
      " in order by round, as do the cases.  Each cell is the median over the rounds with the"
      " minimum and maximum in brackets: pages/s (wmark's reclaimed pages over the time of the"
      " writes), the time of the writes in seconds (wmark's reads between writes are not"
      " counted), and the over-reclaim in MiB (reclaimed minus asked, for the row that asks"
      " for part of the cgroup; the full rows ask for more than there is).")
    o("* Where a run records them, each case's line also holds what the guest traced around"
      " it: the kernel's internal calls (tracefs `vmscan:mm_vmscan_memcg_reclaim_end`, one"
      " event per call of `try_to_free_mem_cgroup_pages()` with the pages it reclaimed), the"
      " guest's swap-ins, swap-outs and refaults over the case (`/proc/vmstat`), what the"
      " cgroup held at its end, wmark's wall time from start to exit and the time the guest"
      " took to read wmark's report.")
    o("* Under qemu TCG on a shared build machine rates and times move between runs; compare"
      " cells of one run.")
    o()
    kernels = []
    for rel in sorted(set(e.release for e in entries)):
        kernels.append(Kernel([e for e in entries if e.release == rel]))
    e61 = next((k for k in kernels if k.release.startswith("6.1.")), None)
    others = [k for k in kernels if k is not e61]
    o("## The seed's table, measured")
    o()
    if not entries:
        o("No run is kept yet: `make bench-reclaim` measures one.")
        o()
    for e in ([e61] if e61 else []) + others:
        s = e.setup
        o("### %s" % e.release)
        o()
        for x in e.entries:
            xs = x.setup
            o("* Run `%s`, entry `%s`: guest of %d MiB; the cgroup holds %s MiB of page cache and"
              " %s MiB of anon; root case in 32-page writes stopped after %s s; %d of %d rounds"
              " finished%s." % (
                  x.run, x.entry, int(xs.get("mem_kb", 0)) // 1024, xs.get("file_mb", "?"),
                  xs.get("anon_mb", "?"), xs.get("root32_s", "?"), x.rounds_done, x.planned,
                  "; qemu exit %s after %s s" % (x.host["rc"], x.host.get("wall", "?"))
                  if x.host.get("rc") not in (None, "0") else ""))
            if not x.traced and x.unfinished:
                o("  Stopped inside %s, before that case's line; this run's guest script did not"
                  " time its reading of wmark's report apart (see \"Runs stopped inside a case\""
                  " below)." % "; ".join("round %d's %s %s (%s)" % (
                      r, dict(ROWS)[k[1]] or row_name(x, k[1]),
                      {"pre": "in one write", "post": "in 32-page writes",
                       "q": "in quarters"}.get(k[2], k[2]), dict(LRUS)[k[0]])
                      for r, k in x.unfinished))
        o()
        cols = [c for c, _ in COLS if e is e61 or any(k[2] == c for k in e.cases)]
        if not cols:
            o("No case finished in this guest.")
            o()
            continue
        table(e, o, cols)
    if e61:
        findings(e61, others, o)
    o("## The model against the kernel")
    o()
    o("* Call counts and targets are the idealised loop of the 6.12 and 7.2 sources"
      " (`memory_reclaim()` in 6.12's mm/memcontrol.c, `user_proactive_reclaim()` in 7.2's"
      " mm/vmscan.c): `batch = remainder / 4`, `max(batch, 32)` inside"
      " `try_to_free_mem_cgroup_pages()`, and `if (!reclaimed && !nr_retries--) return"
      " -EAGAIN`, which gives up on the 17th call that reclaims nothing.  For 1 GiB of 4 KiB"
      " pages that is 31 calls ending 16 pages over (unit test"
      " `test_one_gib_on_6_9_plus_is_31_calls_16_pages_over`).")
    o("* The kernel suite (`tests/kernel/guest-reclaim.sh`) checks on 6.1, 6.12 and 7.2 that a"
      " 32 MiB reclaim returns what it asked with no more over-reclaim than the model's bound,"
      " that wmark's quarters do too, that asking for more than the cgroup holds ends with"
      " `EAGAIN`, the swappiness key per kernel, per-node reclaim on 7.2, and the exit-3"
      " message on 5.10.")
    o()
    o("## Reproduce")
    o()
    o("    make bench-reclaim                            # boots, keeps the run, writes this page")
    o("    RECLAIM_ENTRIES=k61-2g-never make bench-reclaim")
    o("    RECLAIM_CASES=root_pre,root_q,part_pre,part_post,part_q,full_pre,full_post,full_q \\")
    o("        RECLAIM_ENTRIES=k61-2g-never make bench-reclaim   # 6.1 without root_post")
    o("    RECLAIM_CASES=root_post,part_post,full_post \\")
    o("        RECLAIM_ENTRIES=k61-2g-never make bench-reclaim   # 6.1's 32-page writes only")
    o("    RECLAIM_REPORT_ONLY=1 make bench-reclaim      # this page again from the kept runs")


if __name__ == "__main__":
    main()
