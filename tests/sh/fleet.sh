#!/bin/bash
# verify of many machines in one run: verify --root DIR... and
# --roots-from FILE (or - for stdin) print one JSON line per machine with
# -j, each the same document as verifying that machine alone plus its
# "root"; a machine that cannot be read gets a line with its exit status;
# the exit status is the worst of the machines'.  Prints TAP.
#
# usage: WMARK=/abs/path/to/wmark bash tests/sh/fleet.sh
. "$(dirname "$0")/lib.sh"
D=data/machines
A=$D/qemu-k61-4g-after		# exact
B=$D/qemu-k61-4g-before		# stale
C=$D/vm-6.18-firecracker-A	# exact

"$W" -j verify --root "$A" --root "$B" --root "$C" >"$tmp/fleet" 2>"$tmp/e"
rc=$?
for r in "$A" "$B" "$C"; do
	"$W" -j --root "$r" verify >"$tmp/one-${r##*/}" 2>/dev/null
done
if [ $rc = 1 ] && [ "$(wc -l <"$tmp/fleet")" = 3 ] && [ ! -s "$tmp/e" ]; then
	ok "three machines, one stale: three lines, exit 1"
else
	nok "three machines, one stale: three lines, exit 1 (exit $rc, $(wc -l <"$tmp/fleet") lines)"
	sed 's/^/# /' "$tmp/e" | head -3
fi
if py - "$tmp" "$A" "$B" "$C" <<'EOF'; then
import json, sys
tmp, roots = sys.argv[1], sys.argv[2:]
lines = open(tmp + "/fleet").read().split("\n")
assert lines[-1] == "" and len(lines) == 4, lines
for line, root in zip(lines, roots):
    d = json.loads(line)
    assert list(d)[0] == "root" and d.pop("root") == root
    one = json.load(open(tmp + "/one-" + root.rsplit("/", 1)[-1]))
    assert d == one, (root, d, one)
    assert list(d) == list(one)
EOF
	ok "each line is that machine's own verify -j document, with its root first, in order"
else
	nok "each line is that machine's own verify -j document, with its root first, in order"
fi

printf '%s\n\n%s\n' "$A" "$C" | "$W" -j verify --roots-from - >"$tmp/stdin" 2>"$tmp/e"
rc=$?
if [ $rc = 0 ] && [ "$(wc -l <"$tmp/stdin")" = 2 ] &&
   grep -q "^{\"root\":\"$A\"," "$tmp/stdin" && grep -q "^{\"root\":\"$C\"," "$tmp/stdin"; then
	ok "--roots-from - reads roots from stdin, skips blank lines, exit 0 when all are exact"
else
	nok "--roots-from - reads roots from stdin, skips blank lines, exit 0 when all are exact (exit $rc)"
fi

printf '%s\n' "$A" >"$tmp/list"
"$W" -j verify --root "$C" --roots-from "$tmp/list" --root "$tmp/none" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 3 ] && [ "$(wc -l <"$tmp/o")" = 3 ] &&
   sed -n 2p "$tmp/o" | grep -q "^{\"root\":\"$tmp/none\",\"match\":false,\"verdict\":\"error\",\"exit\":3}$" &&
   grep -q "$tmp/none/proc/zoneinfo" "$tmp/e"; then
	ok "an unreadable machine gets its error line and the path on stderr; the run goes on; exit 3"
else
	nok "an unreadable machine gets its error line and the path on stderr; the run goes on; exit 3 (exit $rc)"
	sed 's/^/# /' "$tmp/o" "$tmp/e" | head -6
fi

"$W" verify --root "$A" --root "$B" >"$tmp/o" 2>&1
rc=$?
if [ $rc = 1 ] && grep -qx "root $A:" "$tmp/o" && grep -qx "root $B:" "$tmp/o" &&
   [ "$(grep -c '^verdict: ' "$tmp/o")" = 2 ]; then
	ok "text: each machine's report under a 'root DIR:' line"
else
	nok "text: each machine's report under a 'root DIR:' line (exit $rc)"
fi

# --root is a global option: before and after the command it names the same machines
"$W" -j --root "$A" verify --root "$B" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$tmp/o")" = 2 ] &&
   sed -n 1p "$tmp/o" | grep -q "^{\"root\":\"$A\"," && sed -n 2p "$tmp/o" | grep -q "^{\"root\":\"$B\","; then
	ok "--root before verify and --root after it: two machines, in order"
else
	nok "--root before verify and --root after it: two machines, in order (exit $rc)"
	sed 's/^/# /' "$tmp/o" "$tmp/e" | head -6
fi

"$W" --root "$A" show --root "$B" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && grep -q "^wmark: show: --root given 2 times" "$tmp/e" &&
   grep -q "^Try 'wmark --help'" "$tmp/e"; then
	ok "two machines for any other command is a usage error"
else
	nok "two machines for any other command is a usage error (exit $rc)"
fi

"$W" -o prom verify --root "$A" --root "$B" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && grep -q "one machine at a time" "$tmp/e"; then
	ok "-o prom of two machines is refused (their series would collide)"
else
	nok "-o prom of two machines is refused (exit $rc)"
fi

"$W" verify --roots-from "$tmp/missing-list" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc = 3 ] && grep -q "$tmp/missing-list" "$tmp/e"; then
	ok "a --roots-from file that is not there: exit 3 naming it"
else
	nok "a --roots-from file that is not there: exit 3 naming it (exit $rc)"
fi
echo "1..$n"
