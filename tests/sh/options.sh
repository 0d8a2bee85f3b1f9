#!/bin/bash
# Options where people type them: global options before or after the
# command, one table per command that --help, wmark.1 and the completion
# scripts all follow, and no command option that shadows a global one.
# The table comes from `wmark completion options`.  Prints TAP.
. "$(dirname "$0")/lib.sh"
D=data/machines

is() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then ok "$what"; else nok "$what"; sed 's/^/# /' "$tmp/e" 2>/dev/null | head -5; fi
}
# same DESCRIPTION "ARGS A" "ARGS B": both runs print the same and exit alike
same() {
	local a b
	eval "\"\$W\" $2" >"$tmp/a" 2>"$tmp/ea"
	a=$?
	eval "\"\$W\" $3" >"$tmp/b" 2>"$tmp/e"
	b=$?
	is "$1" test "$a" = "$b" -a -s "$tmp/a" -a -z "$(diff "$tmp/a" "$tmp/b")"
}

M=$D/qemu-k61-4g-before
# ---- global options after the command mean what they mean before it
same "show -j is -j show" "--root $M -j show" "show -j --root $M"
same "calc --mem 8G -j is -j calc --mem 8G" "-j calc --mem 8G" "calc --mem 8G -j"
same "calc --mem 64G --kernel 6.1 is --kernel 6.1 calc --mem 64G" \
	"--kernel 6.1 calc --mem 64G" "calc --mem 64G --kernel 6.1"
same "verify -o prom --root X is -o prom --root X verify (exit 1, stale)" \
	"-o prom --root $M verify" "verify -o prom --root $M"
same "--format=json and --root=X after the command" "-j --root $M whatif --wsf 100" \
	"whatif --wsf=100 --format=json --root=$M"
same "options between a command's options: whatif --wsf 100 -j --formula sqrt" \
	"-j --root $M whatif --wsf 100 --formula sqrt" "whatif --wsf 100 -j --root $M --formula sqrt"
cp -r "$M" "$tmp/r"
same "apply -nf --wsf=50 -j is -j apply -n -f --wsf 50 (short options apart)" \
	"-j --root $tmp/r apply -n -f --wsf 50 --state $tmp/s.json" \
	"apply -nf --wsf=50 -j --root $tmp/r --state=$tmp/s.json"
"$W" --root "$M" show --version >"$tmp/o" 2>"$tmp/e"
is "show --version prints the version, exit 0" test $? = 0 -a "$(cat "$tmp/o")" = "$("$W" -V)"
"$W" show --root >"$tmp/o" 2>"$tmp/e"
is "show --root without a value: exit 2, 'needs a value'" \
	test $? = 2 -a -n "$(grep -F "wmark: show: option '--root' needs a value" "$tmp/e")" -a ! -s "$tmp/o"
"$W" show -o xml >"$tmp/o" 2>"$tmp/e"
is "show -o xml: exit 2 naming the format" test $? = 2 -a -n "$(grep -F "unknown format 'xml'" "$tmp/e")"
"$W" verify --bogus -j >"$tmp/o" 2>"$tmp/e"
is "verify --bogus -j: the command's own 'unknown option', exit 2" \
	test $? = 2 -a -n "$(grep -F "wmark: verify: unknown option '--bogus'" "$tmp/e")"
"$W" apply -nj -x >"$tmp/o" 2>"$tmp/e"
is "apply -nj -x: -x is unknown (exit 2), -j was taken" \
	test $? = 2 -a -n "$(grep -F "unknown option '-x'" "$tmp/e")"
# One parse of the command's arguments, through the merged table: an
# option that takes no value given one, and an abbreviation of two
# options (one global, one the command's), are refused there; before,
# the command's own table took "--dry-run=1" for -n and "--k" for --keep.
cp -r "$M" "$tmp/r2"
"$W" --root "$tmp/r2" apply --wsf 20 --dry-run=1 --state "$tmp/s2.json" >"$tmp/o" 2>"$tmp/e"
is "apply --dry-run=1: exit 2, 'takes no value', nothing run" \
	test $? = 2 -a -n "$(grep -F "wmark: apply: option '--dry-run' takes no value" "$tmp/e")" -a ! -s "$tmp/o"
"$W" --root "$tmp/r2" tune --k --dry-run --duration 1 >"$tmp/o" 2>"$tmp/e"
is "tune --k: exit 2, ambiguous between the global --kernel and tune's --keep" \
	test $? = 2 -a -n "$(grep -F "wmark: tune: option '--k' is ambiguous: --kernel, --keep" "$tmp/e")"
"$W" --root "$tmp/r2" rollback --forc >"$tmp/o" 2>"$tmp/e"
is "rollback --forc: an abbreviation of one option is that option (--force: no journal, exit 3)" \
	test $? = 3 -a -n "$(grep -F "no journal" "$tmp/e")"
"$W" completion -j -- bash >"$tmp/o" 2>"$tmp/e"
is "completion -j bash: refused, exit 2 (a script has no JSON form)" test $? = 2
"$W" completion -- bash >"$tmp/o" 2>"$tmp/e"
is "operands after -- reach the command (completion -- bash)" test $? = 0 -a -s "$tmp/o"

# ---- the table
"$W" completion bash extra >"$tmp/o" 2>"$tmp/e"
is "completion bash extra: exit 2, the extra argument named" test $? = 2 -a ! -s "$tmp/o" -a \
	"$(head -1 "$tmp/e")" = "wmark: completion: unexpected argument 'extra'"
"$W" completion options >"$tmp/table" 2>"$tmp/e"
is "wmark completion options lists the table" test $? = 0 -a -s "$tmp/table"
awk '$1 != "global"' "$tmp/table" >"$tmp/cmdopts"
awk '$1 == "global" {print $2} $1 == "global" && $3 != "-" {print $3}' "$tmp/table" >"$tmp/globals"
clash=$(awk 'NR == FNR {g[$1] = 1; next} ($2 in g) || ($3 in g) {print $1 " " $2 " " $3}' \
	"$tmp/globals" "$tmp/cmdopts")
is "no command option shares a name or letter with a global option" test -z "$clash"
[ -z "$clash" ] || echo "# $clash"
cmds=$(awk '$1 != "global" {print $1}' "$tmp/table" | uniq)
helpcmds=$("$W" help | awk '/^Commands:/ {on = 1; next} on && /^$/ {on = 0} on {print $1}' | grep -vx help)
is "wmark help lists the commands of the table" test "$(echo "$cmds")" = "$helpcmds"
mancmds=$(awk '/^\.Sh COMMANDS/ {on = 1; next} /^\.Sh/ {on = 0} on && /^\.It Cm / {print $3}' wmark.1 | uniq)
is "wmark.1 COMMANDS has an entry for each command of the table" test "$(echo "$cmds")" = "$mancmds"

for c in $cmds; do
	# the table: long names and short letters
	awk -v c="$c" '$1 == c {print $2} $1 == c && $3 != "-" {print $3}' "$tmp/table" | sort >"$tmp/want"
	# --help: the option column of lines that start with blanks and a dash
	"$W" "$c" --help 2>"$tmp/e" | py -c '
import re, sys
out = set()
for line in sys.stdin:
    if not re.match(r"\s+-", line):
        continue
    col = re.split(r"(?<=\S)\s{2,}", line.strip() + "  ", maxsplit=1)[0]
    out.update(re.findall(r"(?:^|[ ,])(--?[a-zA-Z][a-z0-9-]*)", col))
print("\n".join(sorted(out)))' | sort >"$tmp/help"
	is "$c --help lists exactly the options of the table" bash -c "diff '$tmp/want' '$tmp/help' >'$tmp/e'"
	# wmark.1: its section names every option; its .It lines only table options
	py - "$c" "$tmp/want" "$tmp/globals" >"$tmp/e" <<'EOF'
import re, sys
cmd, want = sys.argv[1], set(open(sys.argv[2]).read().split())
glob = set(open(sys.argv[3]).read().split())
sec, cur, text, items = "", None, [], set()
for line in open("wmark.1"):
    if line.startswith(".Sh"):
        sec, cur = line, None
        continue
    m = re.match(r"\.It Cm (\S+)", line)
    if m and "COMMANDS" in sec:
        cur = m.group(1)
    if cur != cmd:
        continue
    found = set("--" + o for o in re.findall(r"Fl (?:Fl |\\-)([a-z][a-z0-9-]*)", line))
    found |= set("-" + o for o in re.findall(r"Fl ([a-zA-Z])(?=[ ,]|$)", line))
    text.append(found)
    if line.startswith(".It"):
        items |= found
mentioned = set().union(*text) if text else set()
missing = sorted(o for o in want - mentioned if o not in ("--help", "-h"))
extra = sorted(items - want - glob)
if missing or extra:
    print("wmark.1 %s: not documented %s; listed but not options %s" % (cmd, missing, extra))
    sys.exit(1)
EOF
	is "wmark.1 documents every option of $c and lists no other" test $? = 0
done

# ---- bash completion, generated from the table
"$W" completion bash >"$tmp/comp" 2>"$tmp/e"
is "contrib/bash-completion/wmark is what wmark completion bash writes" \
	diff contrib/bash-completion/wmark "$tmp/comp"
mkdir -p "$tmp/tree/dir1" && : >"$tmp/tree/file1"
# complete WORDS...: what _wmark offers for the last word, one per line
cat >"$tmp/run-comp" <<'EOF'
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_wmark
printf '%s\n' "${COMPREPLY[@]}"
EOF
complete_words() { bash --norc "$tmp/run-comp" "$tmp/comp" "$@" 2>"$tmp/e"; }
is "complete -p wmark: _wmark is the completion function" \
	test "$(bash --norc -c "source '$tmp/comp'; complete -p wmark")" = "complete -F _wmark wmark"
is "wmark <tab> offers every command" \
	test "$(complete_words wmark '' | grep -vx help | grep -v '^-' | sort)" = "$(echo "$cmds" | sort)"
is "wmark sh<tab> is show" test "$(complete_words wmark sh)" = show
is "wmark apply --wa<tab> is --watermark-scale-factor" \
	test "$(complete_words wmark apply --wa)" = --watermark-scale-factor
is "wmark show --root <tab> offers directories only" \
	test "$(complete_words wmark show --root "$tmp/tree/")" = "$tmp/tree/dir1"
is "wmark --kernel <tab> offers the running release" test "$(complete_words wmark --kernel '')" = "$(uname -r)"
is "wmark calc -o <tab> offers text, json, prom" \
	test "$(complete_words wmark calc -o '' | sort | tr '\n' ' ')" = "json prom text "
is "wmark --root DIR verify --in<tab>: the command found past a global's value" \
	test "$(complete_words wmark --root "$tmp/tree" verify --in)" = --infer
for c in $cmds; do
	want=$( (awk -v c="$c" '$1 == c {print $2} $1 == c && $3 != "-" {print $3}' "$tmp/table"
		cat "$tmp/globals") | sort -u)
	got=$(complete_words wmark "$c" - | sort -u)
	is "wmark $c -<tab> offers its table's options and the global ones" test "$want" = "$got"
done
if command -v zsh >/dev/null; then
	"$W" completion zsh >"$tmp/_wmark"
	is "the zsh function parses (zsh -n) and is contrib/zsh/_wmark" \
		bash -c "zsh -n '$tmp/_wmark' && diff contrib/zsh/_wmark '$tmp/_wmark'"
else
	n=$((n + 1)); echo "ok $n - zsh -n of the zsh function # SKIP zsh not installed"
fi

echo "1..$n"
