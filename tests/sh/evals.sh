#!/bin/bash
# The evaluation pages are generated: docs/recommend-eval.md comes back
# byte for byte from the runs kept in docs/recommend-eval-runs/, and its
# generator compares settings per round, marks a setting measured in fewer
# rounds and a cell whose guest did not finish, and lists a cell without a
# run instead of dropping it.  Expected numbers are worked here with awk
# from the runs' RESULT lines.  Prints TAP.
. "$(dirname "$0")/lib.sh"
is() {	# is GOT WANT WHAT
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want '$2')"; fi
}
report() {	# report RUN...: the page from these runs, on stdout
	REC_DOC=- REC_REPORT_ONLY="$*" tests/bench/recommend-eval.sh 2>/dev/null
}

report docs/recommend-eval-runs/run-* >"$T/page.md"
cmp -s "$T/page.md" docs/recommend-eval.md &&
	ok "docs/recommend-eval.md regenerates byte for byte from docs/recommend-eval-runs/" ||
	{ not_ok "docs/recommend-eval.md regenerates byte for byte from docs/recommend-eval-runs/"; diff "$T/page.md" docs/recommend-eval.md | head -20 | sed 's/^/# /'; }
# every kernel release the page names is one of a kept run
rels=$(cat docs/recommend-eval-runs/*/meta | sed -n 's/^release=//p' | sort -u | tr '\n' ' ')
bad=$(grep -oE '[0-9]+\.[0-9]+\.[0-9]+[-+][a-z0-9.+-]*amd64' docs/recommend-eval.md | sort -u |
	while read -r r; do case " $rels" in *" $r "*) ;; *) echo "$r" ;; esac; done)
is "$bad" "" "the page names no kernel without a kept run"
grep -q '^| 6.12-cloud:anon | not measured here: no kept run |' docs/recommend-eval.md &&
	ok "a default cell without a kept run is listed as not measured" ||
	not_ok "a default cell without a kept run is listed as not measured"

# unequal rounds: the 5.10 server run with the recommendation's third round
# gone; compared per round, the removal is (mean default - mean of its two
# rounds) / mean default
S=$T/run-server-5.10-cloud-20261202-000000
cp -r docs/recommend-eval-runs/run-server-5.10-cloud-20261202-132858 "$S"
grep -v '^RESULT round=3 name=recommended ' docs/recommend-eval-runs/run-server-5.10-cloud-20261202-132858/data.txt >"$S/data.txt"
want=$(awk '/^RESULT / { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["name"] == "default") { d += f["allocstall"]; nd++ }
	if (f["name"] == "recommended") { r += f["allocstall"]; nr++ } }
	END { x = (d / nd - r / nr) * 100 / (d / nd); printf "%.0f%%\n", x }' "$S/data.txt")
report "$S" >"$T/u.md"
got=$(grep '^| server on ' "$T/u.md" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
is "$got" "$want" "two rounds against three: removal per round ($want), not of the totals"
grep -q '^| server on 5.10.0-43-cloud-amd64 (rounds unequal) |' "$T/u.md" &&
	ok "the summary marks the cell's unequal rounds" || not_ok "the summary marks the cell's unequal rounds"
grep -q '^| recommended | .*\*\*2 of 3 rounds\*\*' "$T/u.md" &&
	ok "the table marks the setting with 2 of 3 rounds" || not_ok "the table marks the setting with 2 of 3 rounds"
echo "incomplete=1" >>"$S/meta"
report "$S" >"$T/i.md"
grep -q '^| server on 5.10.0-43-cloud-amd64 (incomplete) |' "$T/i.md" &&
	ok "a guest that did not finish: the cell is marked incomplete" ||
	not_ok "a guest that did not finish: the cell is marked incomplete"
# the findings follow the tables: "met in N of the M cells judged" counts
# the summary's rows, in the page and in the page of the changed run
for f in docs/recommend-eval.md "$T/u.md"; do
	nm=$(grep -c '^| .* | met |$' "$f") nj=$(grep -cE '^\| .* \| (met|missed) \|$' "$f")
	grep -q "^\* \*\*The goal is met in $nm of the $nj cells judged" "$f" &&
		ok "${f##*/}: the findings count the cells the summary judges ($nm of $nj)" ||
		not_ok "${f##*/}: the findings count the cells the summary judges ($nm of $nj)"
done
for w in anon apps server; do
	grep -q "^| 5.10-cloud:$w | not measured here" "$T/u.md" && [ $w != server ] ||
		{ [ $w = server ] && ! grep -q "^| 5.10-cloud:server | not measured" "$T/u.md"; }
	check=$?
	[ $check -eq 0 ] && ok "cells given one run: 5.10 $w listed $([ $w = server ] && echo measured || echo 'as not measured')" ||
		not_ok "cells given one run: 5.10 $w listed $([ $w = server ] && echo measured || echo 'as not measured')"
done

echo "1..$n"
