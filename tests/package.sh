#!/bin/bash
# The installed wmark: `make install` under DESTDIR and PREFIX (and
# uninstall), bash-completion finding the completion where it was
# installed, and the Debian packages `make deb` built in build/deb:
# their contents, their dependencies, hardening, lintian, and the
# unpacked program running.  Prints TAP.
#
# usage: tests/package.sh [BUILD_DIR]   (BUILD_DIR holds wmark; default build)
cd "$(dirname "$0")/.." || exit 2
B=${1:-build}
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
is() {	# description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then ok "$what"; else nok "$what"; sed 's/^/# /' "$tmp/e" 2>/dev/null | head -20; fi
}
M=data/machines/qemu-k61-4g-before

# ---- make install / uninstall
d=$tmp/dest
make --no-print-directory -s B="$B" install DESTDIR="$d" PREFIX=/opt/wm >"$tmp/e" 2>&1
is "make install DESTDIR=... PREFIX=/opt/wm succeeds" test $? = 0
(cd "$d" && find . -type f | sort) >"$tmp/files"
cat >"$tmp/want" <<'EOF'
./opt/wm/bin/wmark
./opt/wm/lib/libwmark.a
./opt/wm/lib/systemd/system/wmark-textfile.service
./opt/wm/lib/systemd/system/wmark-textfile.timer
./opt/wm/lib/systemd/system/wmark-tune.service
./opt/wm/libexec/wmark/wmark-textfile
./opt/wm/share/bash-completion/completions/wmark
./opt/wm/share/man/man1/wmark.1
./opt/wm/share/wmark/android/wmark-tune.rc
./opt/wm/share/wmark/prometheus/wmark.rules.test.yml
./opt/wm/share/wmark/prometheus/wmark.rules.yml
./opt/wm/share/zsh/site-functions/_wmark
EOF
is "everything lands under DESTDIR/PREFIX: program, man page, completions, units, rules" \
	bash -c "grep -v '/include/' '$tmp/files' | diff '$tmp/want' - >'$tmp/e'"
is "and the public headers under include/wmark (wmark.h among them)" test -f "$d/opt/wm/include/wmark/wmark.h"
is "the installed service runs wmark-textfile from PREFIX/libexec" \
	grep -qx 'ExecStart=/opt/wm/libexec/wmark/wmark-textfile /var/lib/prometheus/node-exporter' \
	"$d/opt/wm/lib/systemd/system/wmark-textfile.service"
is "the installed tune service runs PREFIX/bin/wmark tune" \
	grep -q '^ExecStart=/opt/wm/bin/wmark tune ' "$d/opt/wm/lib/systemd/system/wmark-tune.service"
is "the installed wmark runs" test "$("$d/opt/wm/bin/wmark" -V)" = "$("$B/wmark" -V)"
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
	is "bash-completion loads the installed completion on demand (complete -p wmark)" bash -c \
		"XDG_DATA_DIRS='$d/opt/wm/share' bash --norc -c 'source $bc; __load_completion wmark; complete -p wmark' 2>'$tmp/e' | grep -qx 'complete -F _wmark wmark'"
else
	n=$((n + 1)); echo "ok $n - bash-completion loads the completion # SKIP bash-completion not installed"
fi
make --no-print-directory -s B="$B" uninstall DESTDIR="$d" PREFIX=/opt/wm >"$tmp/e" 2>&1
is "make uninstall removes every file it installed" test -z "$(find "$d" -type f)"

# ---- the Debian packages
deb=$(ls build/deb/wmark_*.deb 2>/dev/null | head -1)
dev=$(ls build/deb/libwmark-dev_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ] || [ -z "$dev" ]; then
	nok "make deb built wmark_*.deb and libwmark-dev_*.deb in build/deb"
	echo "1..$n"
	exit 1
fi
ok "make deb built ${deb##*/} and ${dev##*/}"
dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | sort >"$tmp/c"
for f in ./usr/bin/wmark ./usr/share/man/man1/wmark.1.gz \
	./usr/share/bash-completion/completions/wmark ./usr/share/zsh/vendor-completions/_wmark \
	./usr/libexec/wmark/wmark-textfile ./lib/systemd/system/wmark-textfile.service \
	./lib/systemd/system/wmark-textfile.timer ./lib/systemd/system/wmark-tune.service \
	./usr/share/wmark/android/wmark-tune.rc ./usr/share/wmark/prometheus/wmark.rules.yml \
	./usr/share/doc/wmark/copyright; do
	grep -qx "$f" "$tmp/c" || echo "missing $f"
done >"$tmp/e"
is "wmark.deb has the program, man page, completions, units, rules and copyright" test ! -s "$tmp/e"
dpkg-deb -c "$dev" | awk '{print $6}' >"$tmp/c"
is "libwmark-dev.deb has the multiarch libwmark.a and <wmark/wmark.h>" bash -c \
	"grep -qE '^\./usr/lib/[a-z0-9_]+-linux-[a-z0-9_]+/libwmark\.a$' '$tmp/c' && grep -qx './usr/include/wmark/wmark.h' '$tmp/c'"
dpkg-deb -f "$deb" Depends >"$tmp/e"
is "wmark depends on libcjson and libnl-genl (from shlibs)" bash -c "grep -q libcjson '$tmp/e' && grep -q libnl-genl '$tmp/e'"
dpkg-deb -x "$deb" "$tmp/root"
is "the unpacked program runs: show of a capture" bash -c \
	"'$tmp/root/usr/bin/wmark' --root $M show >'$tmp/e' 2>&1 && grep -q Normal '$tmp/e'"
if command -v readelf >/dev/null; then
	is "the packaged binary is PIE with full RELRO and fortified (dpkg-buildflags)" bash -c \
		"readelf -h '$tmp/root/usr/bin/wmark' | grep -q 'DYN' && readelf -d '$tmp/root/usr/bin/wmark' | grep -q 'BIND_NOW' && readelf -lW '$tmp/root/usr/bin/wmark' | grep -q GNU_RELRO && readelf -sW '$tmp/root/usr/bin/wmark' | grep -q '_chk@'"
else
	n=$((n + 1)); echo "ok $n - the packaged binary is PIE with full RELRO and fortified # SKIP readelf not installed (Debian binutils)"
fi
if command -v lintian >/dev/null; then
	changes=$(ls build/deb/wmark_*.changes | head -1)
	lintian "$changes" >"$tmp/e" 2>&1
	grep -E '^[EW]: ' "$tmp/e" >"$tmp/lint"
	mv "$tmp/lint" "$tmp/e"
	is "lintian ($(lintian --version | cut -d' ' -f2)) finds no error or warning" test ! -s "$tmp/e"
else
	n=$((n + 1)); echo "ok $n - lintian # SKIP lintian not installed"
fi
echo "1..$n"
