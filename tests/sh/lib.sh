# shellcheck shell=bash
# tests/sh/lib.sh - what every shell suite shares.  Source it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It moves to the top of the tree, sets W (the wmark under test, $WMARK
# or build/wmark), a scratch directory (both $tmp and $T name it, removed
# at exit, after any command given to at_exit), the TAP counter n with
# ok, nok/not_ok, skip and diag, py, and json (a check of $T/out through py).
#
# py runs Python the way python3 does (py -c CODE ARGS..., py - ARGS...
# with the program on stdin, py -m MODULE ARGS..., py FILE ARGS...), with
# the same stdin, stdout, stderr and exit status, but every call of a
# suite goes to one interpreter started at the first call: a suite that
# checks JSON a hundred times starts Python once, not a hundred times.
# It works from subshells and `bash -c` too (exported).  Calls must not
# overlap (no suite runs its checks in parallel; a workload that must be
# its own process, such as a memory hog, stays python3).

cd "$(dirname "${BASH_SOURCE[1]}")/../.." || exit 2
export LC_ALL=C
W=${WMARK:-build/wmark}
n=0
tmp=$(mktemp -d) || exit 2
T=$tmp
export WMARK_PY_DIR=$tmp/.py
lib_exit_cmds=()

at_exit() {	# COMMAND: run it at exit, before the scratch directory goes
	lib_exit_cmds+=("$1")
}

lib_cleanup() {
	local c
	for c in "${lib_exit_cmds[@]}"; do
		eval "$c"
	done
	if [ -f "$WMARK_PY_DIR/pid" ]; then
		kill "$(cat "$WMARK_PY_DIR/pid")" 2>/dev/null
		wait "$(cat "$WMARK_PY_DIR/pid")" 2>/dev/null
	fi
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap lib_cleanup EXIT

ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
not_ok() { nok "$@"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }	# LINES as TAP comments

# json EXPR: succeed when the Python expression EXPR holds of the JSON
# document in $T/out, loaded as d (through py, the suite's interpreter)
json() {
	py - "$T/out" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + "\n)") else 1)
EOF
}

# The interpreter's loop: wait for "go" on req, run the call described in
# the directory, answer its exit status on rep.
lib_py_server='
import os, runpy, sys, traceback
d = sys.argv[1]
os.closerange(3, 65536)     # no FIFO or lock of the suite stays open in here
real_stdin, real_stdout, real_stderr = sys.stdin, sys.stdout, sys.stderr
while True:
    with open(d + "/req") as f:
        msg = f.read()
    if msg.strip() == "quit":
        break
    if msg.strip() != "go":
        continue
    with open(d + "/argv", "rb") as f:
        args = [a.decode("utf-8", "surrogateescape") for a in f.read().split(b"\0")[:-1]]
    pid = args.pop(0)
    cwd = args.pop(0)
    status = 0
    out = open(d + "/out", "w")
    err = open(d + "/err", "w")
    # the caller'"'"'s own stdin, read only if the program reads it
    try:
        sys.stdin = open("/proc/%s/fd/0" % pid, errors="surrogateescape")
    except OSError:
        sys.stdin = open(os.devnull)
    sys.stdout, sys.stderr = out, err
    saved_path = list(sys.path)
    try:
        os.chdir(cwd)
        mode = args[0]
        if mode == "-c":
            sys.argv = ["-c"] + args[2:]
            exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
        elif mode == "-":
            sys.argv = ["-"] + args[1:]
            code = sys.stdin.read()
            sys.stdin = open(os.devnull)
            exec(compile(code, "<stdin>", "exec"), {"__name__": "__main__"})
        elif mode == "-m":
            sys.argv = [args[1]] + args[2:]
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = args
            sys.path.insert(0, os.path.dirname(os.path.abspath(args[0])))
            runpy.run_path(args[0], run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code
        else:
            print(e.code, file=err)
            status = 1
    except BaseException:
        traceback.print_exc(file=err)
        status = 1
    finally:
        sys.path[:] = saved_path
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        sys.stdin, sys.stdout, sys.stderr = real_stdin, real_stdout, real_stderr
        out.close()
        err.close()
    with open(d + "/rep", "w") as f:
        f.write("%d\n" % status)
'
export lib_py_server

py() {
	local d=$WMARK_PY_DIR rc=0
	(
		if [ ! -f "$d/pid" ]; then
			mkdir -p "$d" && mkfifo "$d/req" "$d/rep" || exit 125
			python3 -c "$lib_py_server" "$d" </dev/null >/dev/null 2>&1 &
			echo $! >"$d/pid"
		fi
		# the call: whose stdin, working directory, mode and arguments
		{ printf '%s\0' "$BASHPID" "$PWD"; printf '%s\0' "$@"; } >"$d/argv"
		echo go >"$d/req"
		read -r rc <"$d/rep"
		[ -s "$d/out" ] && cat "$d/out"
		[ -s "$d/err" ] && cat "$d/err" >&2
		exit "${rc:-125}"
	)
}
export -f py
