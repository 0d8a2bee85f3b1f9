#!/usr/bin/env python3
"""For each qemu capture (Debian 6.1 and 6.12 kernels booted with known
sizes) and each recorded write, run `wmark -j whatif` on the state before
the write and check that min/low/high/promo and protection equal what the
kernel printed after it.  A write the kernel rejected must be rejected by
wmark too (exit 2).  Prints TAP."""
import importlib.util, json, os, re, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
corpus = os.path.join(os.path.dirname(repo), "shared", "corpus")
tool = os.path.join(os.path.dirname(repo), "shared", "tools", "case-to-root.py")
wmark = os.environ.get("WMARK", os.path.join(repo, "build", "wmark"))
n = 0


def tap(ok, what, skip=None):
    global n
    n += 1
    if skip:
        print(f"ok {n} - {what} # SKIP {skip}")
    else:
        print(f"{'ok' if ok else 'not ok'} {n} - {what}")


def zoneinfo(path):
    """node/zone -> dict of the watermark lines and protection."""
    zones, cur = {}, None
    for line in open(path):
        m = re.match(r"Node (\d+), zone\s+(\S+)", line)
        if m:
            cur = zones.setdefault(f"{m.group(1)}/{m.group(2)}", {})
            continue
        if cur is None:
            continue
        m = re.match(r"\s+(min|low|high|promo)\s+(\d+)$", line)
        if m:
            cur[m.group(1)] = int(m.group(2))
        m = re.match(r"\s+protection: \((.*)\)", line)
        if m:
            cur["protection"] = [int(x) for x in m.group(1).split(",")]
    return zones


OPT = {"wsf": "--wsf", "mfk": "--min-free-kbytes", "boost": "--boost-factor",
       "lrr": "--lowmem-reserve-ratio"}

if not os.path.isdir(corpus):
    tap(True, "whatif against qemu captures", "../shared/corpus is absent")
    print(f"1..{n}")
    sys.exit(0)

# The corpus's converter, run in this interpreter (not one per state).
spec = importlib.util.spec_from_file_location("case_to_root", tool)
case_to_root = importlib.util.module_from_spec(spec)
spec.loader.exec_module(case_to_root)


def to_root(cdir, state, dest):
    saved = sys.argv
    sys.argv = ["case-to-root.py", cdir, state, dest]
    try:
        case_to_root.main()
    finally:
        sys.argv = saved


tmp = tempfile.mkdtemp(prefix="wmark-whatif-")
for case in sorted(os.listdir(corpus)):
    cdir = os.path.join(corpus, case)
    if not case.startswith("qemu-") or not os.path.isdir(os.path.join(cdir, "steps")):
        continue
    steps = sorted(int(s) for s in os.listdir(os.path.join(cdir, "steps")) if s.isdigit())
    prev = "before"
    for k in steps:
        st = f"steps/{k}"
        wtxt = open(os.path.join(cdir, st, "write.txt")).read()
        m = re.search(r'key=(\w+) .*value="([^"]*)" result=(\w+)', wtxt)
        if not m or not os.path.exists(os.path.join(cdir, st, "sysctl.txt")):
            prev = st
            continue
        key, value, result = m.groups()
        root = os.path.join(tmp, case, prev.replace("/", "-"))
        if not os.path.isdir(root):
            to_root(cdir, prev, root)
        what = f"{case} {st}: {key}={value} ({result})"
        if key not in OPT:
            prev = st
            continue
        r = subprocess.run([wmark, "-j", "--root", root, "whatif", OPT[key], value],
                           capture_output=True, text=True)
        if result != "accepted":
            tap(r.returncode == 2, what + ": wmark refuses it too (exit 2)")
            if r.returncode != 2:
                print(f"# exit {r.returncode}: {r.stderr.strip()}")
            prev = st
            continue
        numeric = re.fullmatch(r"-?\d+( -?\d+)*", value)
        if not numeric or (key == "lrr" and len(value.split()) != 5):
            # The kernel takes "100 abc" or seven values for five zones and
            # keeps what it could parse; wmark asks for what is meant.
            tap(r.returncode == 2, what + ": wmark asks for a clean value (exit 2)")
            prev = st
            continue
        if r.returncode != 0:
            tap(False, what + f": whatif exit {r.returncode}: {r.stderr.strip()}")
            prev = st
            continue
        got = {f"{z['node']}/{z['zone']}": z for z in json.loads(r.stdout)["zones"]}
        want = zoneinfo(os.path.join(cdir, st, "zoneinfo"))
        bad = []
        for zk, wz in want.items():
            gz = got.get(zk)
            if gz is None:
                bad.append(f"{zk} missing")
                continue
            for f in ("min", "low", "high", "promo", "protection"):
                if f in wz and gz.get(f) != wz[f]:
                    bad.append(f"{zk} {f} kernel {wz[f]} whatif {gz.get(f)}")
        tap(not bad, what + ": prediction equals the kernel's zoneinfo")
        for b in bad[:6]:
            print("# " + b)
        prev = st
print(f"1..{n}")
shutil.rmtree(tmp, ignore_errors=True)
