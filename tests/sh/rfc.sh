#!/bin/bash
# The captures of the kernel built by tests/kernel/rfc (6.12 with the
# wmark_rfc= patch), data/machines/qemu-k612rfc-*: each one's
# proc/cmdline names its arm.  Checks, per capture:
#   - the kernel's own numbers against the rule, computed here in awk from
#     the printed min, low and managed alone (no wmark): high = low + the
#     rule's distance, promo = high + (low - min), after every wsf write;
#   - wmark verify --formula of the arm: exact after a write, and stale or
#     exact at boot; the stock formula: mismatch;
#   - whatif --formula from the boot capture predicts each later capture;
#   - docs/rfc-gaps.md is tests/kernel/rfc/gap-table.sh's output;
#   - docs/rfc-eval.md is what tests/bench/rfc-effect.sh writes from the
#     kept runs of docs/rfc-eval-runs/ (RFC_REPORT_ONLY=1), byte for byte.
# Prints TAP.
. "$(dirname "$0")/lib.sh"

caps=$(ls -d data/machines/qemu-k612rfc-* 2>/dev/null)
if [ -z "$caps" ]; then
	skip "RFC kernel captures" "none in data/machines (tests/kernel/rfc/capture.sh --keep)"
	echo "1..$n"
	exit 0
fi

# rule_check ZONEINFO ARM: "" when every populated zone's high and promo
# follow arm ARM's rule, else the zones that do not.
rule_check() {
	awk -v arm="$2" '
		function isqrt(x,  r) { r = int(sqrt(x)); while (r * r > x) r--; while ((r + 1) * (r + 1) <= x) r++; return r }
		$1 == "Node" { zone = $2 $4; next }
		NF == 2 && ($1 == "min" || $1 == "low" || $1 == "high" || $1 == "promo" || $1 == "managed") { v[$1] = $2 }
		NF == 2 && $1 == "managed" && $2 > 0 {
			gap = v["low"] - v["min"]
			if (arm == 0) want = gap
			else if (arm == 2) want = int(gap / 4)
			else {
				want = int(gap * isqrt(4 * v["managed"]) / 10000)
				if (want < int(v["min"] / 4)) want = int(v["min"] / 4)
				if (want > gap) want = gap
			}
			if (v["high"] - v["low"] != want || v["promo"] - v["high"] != gap)
				printf "%s: high %d promo %d, rule %d %d; ", zone, v["high"], v["promo"], v["low"] + want, v["low"] + want + gap
		}' "$1"
}

for c in $caps; do
	name=${c#data/machines/}
	arm=$(sed -n 's/.*wmark_rfc=\([0-9]\).*/\1/p' "$c/proc/cmdline")
	case $arm in
	1) f=sqrt ;;
	2) f=quarter ;;
	0) f=stock ;;
	*) nok "$name: proc/cmdline names wmark_rfc= ($(cat "$c/proc/cmdline"))"; continue ;;
	esac
	state=${name##*-}
	if [ "$state" != boot ]; then
		bad=$(rule_check "$c/proc/zoneinfo" "$arm")
		[ -z "$bad" ] && ok "$name: the kernel's high and promo follow wmark_rfc=$arm's rule" ||
			nok "$name: the kernel's high and promo follow wmark_rfc=$arm's rule: $bad"
	fi
	"$W" --root "$c" -j verify --formula "$f" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$state" = boot ]; then
		json "d['verdict'] in ('exact', 'stale')" &&
			ok "$name: verify --formula $f: $(py -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$T/out")" ||
			{ nok "$name: verify --formula $f: exact or stale (exit $rc)"; diag "$(head -c 600 "$T/out")"; }
	else
		[ $rc -eq 0 ] && json "d['verdict'] == 'exact' and d['high_formula'] == '$f'" &&
			ok "$name: verify --formula $f is exact" ||
			{ nok "$name: verify --formula $f is exact (exit $rc)"; diag "$(head -c 600 "$T/out")"; }
	fi
	if [ "$arm" != 0 ]; then
		"$W" --root "$c" -j verify >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 1 ] && json "d['verdict'] == 'mismatch' and 'high_formula' not in d" &&
			ok "$name: verify under the stock rule is a mismatch" ||
			{ nok "$name: verify under the stock rule is a mismatch (exit $rc)"; diag "$(head -c 600 "$T/out")"; }
	fi
done

# whatif from each boot capture predicts the zoneinfo after each write.
for b in $(echo "$caps" | grep -- '-boot$'); do
	base=${b%-boot}
	arm=$(sed -n 's/.*wmark_rfc=\([0-9]\).*/\1/p' "$b/proc/cmdline")
	f=$([ "$arm" = 1 ] && echo sqrt || { [ "$arm" = 2 ] && echo quarter || echo stock; })
	for wsf in 10 120 1000; do
		after=$base-wsf$wsf
		[ -d "$after" ] || continue
		"$W" --root "$b" -j whatif --wsf "$wsf" --formula "$f" >"$T/out" 2>"$T/err"
		py - "$T/out" "$after/proc/zoneinfo" >"$T/cmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = {}
node = zone = None
for line in open(sys.argv[2]):
    t = line.split()
    if t[:1] == ["Node"]:
        node, zone = int(t[1].rstrip(",")), t[3]
    elif len(t) == 2 and t[0] in ("min", "low", "high", "promo"):
        want.setdefault((node, zone), {})[t[0]] = int(t[1])
for z in d["zones"]:
    if "high" not in z:	# --formula sqrt shows the RFC's column
        z["high"] = z.get("high_sqrt")
bad = [f"{z['node']}/{z['zone']} {k} {z.get(k)} != {want[(z['node'], z['zone'])][k]}"
       for z in d["zones"] for k in ("min", "low", "high", "promo")
       if (z["node"], z["zone"]) in want and z.get(k) != want[(z["node"], z["zone"])][k]]
print("; ".join(bad) if bad else "same")
PY
		[ "$(cat "$T/cmp")" = same ] &&
			ok "${b#data/machines/} whatif --wsf $wsf --formula $f predicts ${after#data/machines/}" ||
			nok "${b#data/machines/} whatif --wsf $wsf --formula $f predicts ${after#data/machines/}: $(cat "$T/cmp")"
	done
done

if tests/kernel/rfc/gap-table.sh >"$T/gaps.md" 2>"$T/err" && cmp -s "$T/gaps.md" docs/rfc-gaps.md; then
	ok "docs/rfc-gaps.md is gap-table.sh's output"
else
	nok "docs/rfc-gaps.md is gap-table.sh's output"
	diag "$(diff docs/rfc-gaps.md "$T/gaps.md" 2>&1 | head -20)" "$(cat "$T/err")"
fi

# The effect report: python3 writes it (gnuplot only draws its plots, which
# this does not compare).
if ! command -v python3 >/dev/null; then
	skip "docs/rfc-eval.md regenerates from docs/rfc-eval-runs" "no python3"
elif [ ! -d docs/rfc-eval-runs ] || [ ! -f docs/rfc-eval.md ]; then
	skip "docs/rfc-eval.md regenerates from docs/rfc-eval-runs" "no kept runs (make bench-rfc-effect)"
elif RFC_REPORT_ONLY=1 RFC_DOC="$T/eval/rfc-eval.md" tests/bench/rfc-effect.sh 2>"$T/err" &&
	cmp -s "$T/eval/rfc-eval.md" docs/rfc-eval.md; then
	ok "docs/rfc-eval.md regenerates byte for byte from docs/rfc-eval-runs"
else
	nok "docs/rfc-eval.md regenerates byte for byte from docs/rfc-eval-runs"
	diag "$(diff docs/rfc-eval.md "$T/eval/rfc-eval.md" 2>&1 | head -20)" "$(cat "$T/err")"
fi
echo "1..$n"
