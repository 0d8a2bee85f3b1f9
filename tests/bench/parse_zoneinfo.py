#!/usr/bin/env python3
"""A plain Python zoneinfo parser, as a monitoring script would have it:
the baseline tests/bench/run.sh sets zi_parse() against.

usage: parse_zoneinfo.py FILE [SECONDS]

Reads FILE once, then parses the text repeatedly for SECONDS (default 1,
at least once) and prints, in bench_parse's format:
  python bytes=B iters=N median_ns=T bytes_per_s=R
  python zones=Z
Each line is split into words; a zone header starts a dict, the zone's
"key value" lines are kept as ints, the protection tuple as a list, the
pageset lines are passed over.
"""
import sys
import time

KEYS = {"min", "low", "high", "promo", "boost", "spanned", "present",
        "managed", "cma"}


def parse(text):
    zones = []
    zone = None
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        key = words[0]
        if key == "Node":
            zone = {"node": int(words[1].rstrip(",")), "zone": words[3]}
            zones.append(zone)
        elif zone is None:
            continue
        elif key in KEYS and len(words) == 2:
            zone[key] = int(words[1])
        elif key == "pages" and len(words) == 3 and words[1] == "free":
            zone["free"] = int(words[2])
        elif key == "protection:":
            inner = line.split("(", 1)[1].rsplit(")", 1)[0]
            zone["protection"] = [int(v) for v in inner.split(",")]
    return zones


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: parse_zoneinfo.py FILE [SECONDS]\n")
        return 2
    secs = float(argv[2]) if len(argv) == 3 else 1.0
    with open(argv[1], "rb") as f:
        raw = f.read()
    times = []
    start = time.monotonic()
    while not times or time.monotonic() - start < secs:
        t0 = time.perf_counter_ns()
        zones = parse(raw.decode("ascii"))
        times.append(time.perf_counter_ns() - t0)
    times.sort()
    n = len(times)
    med = times[n // 2] if n % 2 else (times[n // 2 - 1] + times[n // 2]) / 2
    print("python bytes=%d iters=%d median_ns=%.0f bytes_per_s=%.0f"
          % (len(raw), n, med, len(raw) / (med / 1e9)))
    print("python zones=%d" % len(zones))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
