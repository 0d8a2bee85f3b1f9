#!/usr/bin/env python3
"""A fake kernel behind a regular memory.reclaim file, for tests/sh/reclaim.sh.

usage: fake_reclaim.py CG PIDFILE STEP...

wmark refuses a memory.reclaim that is not a regular file, so the fake
kernel holds a read lease (fcntl F_SETLEASE) on it: wmark's open() for
writing waits until the lease is given up (the kernel's lease break), and
the fake moves memory.stat and memory.current as the step says before it
gives it up.  So the readings before and after each write are
deterministic, as with a real kernel, whose write returns once reclaim is
done.  Before giving up a lease it renames a fresh leased file into
memory.reclaim, so the next write waits for the next step; the request a
write left in its file is read once wmark has moved on, and appended to
CG/.requests.

A step "R" reclaims R file pages (memory.current drops by as much); "R:C"
lets memory.current drop by C pages instead; "hang" never answers (wmark's
open waits until a signal interrupts it).  A "!" after a step puts a
directory in memory.reclaim's place once it is answered (the next write
fails with EISDIR), a "?" removes memory.current.  Writes after the last
step are answered with no change.  CG/.state holds "CURRENT ANON FILE STEAL
REFAULTS"; CG/.stat.fmt the memory.stat text with {current} {anon} {file}
{steal} {refaults}.  CG/.ready appears once the first lease is held,
CG/.waiting.N when write N waits.  The fake ends when the process in
PIDFILE has ended.
"""
import fcntl
import os
import signal
import sys
import time

F_SETLEASE = 1024
cg, pidfile, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
path = os.path.join(cg, "memory.reclaim")
breaks = 0
signal.signal(signal.SIGIO, lambda s, f: globals().__setitem__("breaks", breaks + 1))


def alive():
    try:
        pid = int(open(pidfile).read())
    except (OSError, ValueError):
        return True         # not started yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return open("/proc/%d/stat" % pid).read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def leased_file():
    """A fresh empty file under a read lease, renamed into memory.reclaim."""
    tmp = os.path.join(cg, ".reclaim.new")
    open(tmp, "w").close()
    fd = os.open(tmp, os.O_RDONLY)
    fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK)
    os.rename(tmp, path)
    return fd


def put(name, text):
    tmp = os.path.join(cg, "." + name + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, os.path.join(cg, name))


def step_state(step):
    r, _, c = step.partition(":")
    r = int(r)
    c = int(c) if c else r
    cur, anon, file, steal, ref = map(int, open(os.path.join(cg, ".state")).read().split())
    cur, file, steal, ref = cur - c * 4096, file - r * 4096, steal + r, ref + 1
    fmt = open(os.path.join(cg, ".stat.fmt")).read()
    put("memory.stat", fmt.format(current=cur, anon=anon, file=file, steal=steal, refaults=ref))
    put("memory.current", "%d\n" % cur)
    put(".state", "%d %d %d %d %d\n" % (cur, anon, file, steal, ref))


def record(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 4096).decode()
    os.close(fd)
    with open(os.path.join(cg, ".requests"), "a") as f:
        f.write(text.strip() + "\n")


cur_fd = leased_file()
open(os.path.join(cg, ".ready"), "w").close()
done_fd = None              # the file of the write before: read once it is done
n = 0
while True:
    while breaks <= n:          # one lease break per write, counted as it comes
        if not alive():
            if done_fd is not None:
                record(done_fd)
            sys.exit(0)
        time.sleep(0.005)
    n += 1
    open(os.path.join(cg, ".waiting.%d" % n), "w").close()
    if done_fd is not None:     # wmark opens the next file only after closing this one
        record(done_fd)
        done_fd = None
    step = steps[n - 1] if n <= len(steps) else "0:0"
    if step == "hang":
        while alive():
            time.sleep(0.005)
        sys.exit(0)
    step_state(step.rstrip("!?"))
    if step.endswith("?"):
        os.unlink(os.path.join(cg, "memory.current"))
    if step.endswith("!"):
        os.rename(path, os.path.join(cg, ".answering"))
        os.mkdir(path)
        next_fd = None
    else:
        next_fd = leased_file()
    fcntl.fcntl(cur_fd, F_SETLEASE, fcntl.F_UNLCK)
    done_fd, cur_fd = cur_fd, next_fd
    if cur_fd is None:          # nothing more to answer
        while alive():
            time.sleep(0.005)
        record(done_fd)
        sys.exit(0)
