#!/bin/bash
# The static libraries a cross build of wmark links: libnl-3, libnl-genl-3
# and cJSON for a foreign architecture, in a sysroot under build/.
#
# usage: tests/sysroot.sh ARCH DIR
#   ARCH is a Debian architecture (arm64, armhf); DIR receives include/
#   (libnl3/ and cjson/ headers) and lib/ (libnl-3.a, libnl-genl-3.a,
#   libcjson.a).
#
# Debian's libnl-3-dev and libnl-genl-3-dev for ARCH (bookworm, the suite
# whose glibc the cross compiler links) are downloaded and unpacked, never
# installed.  Debian's libcjson-dev ships no static library, so cJSON is
# compiled from its Debian source package with the cross compiler.  The
# packages come through a private apt configuration under DIR/apt (its own
# sources list with deb and deb-src lines, lists and archives), never the
# machine's sources or dpkg architectures.  A finished sysroot is reused.
set -eu
export LC_ALL=C
[ $# -eq 2 ] || { echo "usage: tests/sysroot.sh ARCH DIR" >&2; exit 2; }
arch=$1 dir=$2
case $arch in
arm64) triplet=aarch64-linux-gnu ;;
armhf) triplet=arm-linux-gnueabihf ;;
*) echo "sysroot: no cross build for $arch" >&2; exit 2 ;;
esac
cc=$triplet-gcc
say() { echo "sysroot: $*" >&2; }
command -v "$cc" >/dev/null || { say "no $cc (Debian package gcc-$triplet)"; exit 3; }
[ -s "$dir/lib/libnl-genl-3.a" ] && [ -s "$dir/lib/libcjson.a" ] && exit 0

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/none"
dir=$(cd "$dir" && pwd)
k=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$dir/apt/sources.list" <<EOT
deb [arch=$arch signed-by=$k] http://deb.debian.org/debian bookworm main
deb-src [signed-by=$k] http://deb.debian.org/debian bookworm main
EOT
apt=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=$dir/apt/none"
	-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
	-o "APT::Architectures::=$arch" -o Acquire::Languages=none -o APT::Sandbox::User=root)
tmp=$(mktemp -d "$dir/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "apt lists for bookworm ($arch and sources)"
apt-get -q "${apt[@]}" update >&2
(cd "$tmp" && apt-get -q "${apt[@]}" download "libnl-3-dev:$arch" "libnl-genl-3-dev:$arch" >&2)
(cd "$tmp" && apt-get -q "${apt[@]}" source --download-only cjson >&2)
for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$tmp/x"; done
mkdir -p "$dir/include" "$dir/lib"
cp -r "$tmp/x/usr/include/libnl3" "$dir/include/"
# bookworm keeps them under lib/, later suites under usr/lib/
for l in libnl-3.a libnl-genl-3.a; do
	cp "$tmp/x/lib/$triplet/$l" "$dir/lib/" 2>/dev/null || cp "$tmp/x/usr/lib/$triplet/$l" "$dir/lib/"
done
# cJSON: the upstream tarball of the source package; only cJSON.c is needed.
src=$(ls "$tmp"/cjson_*.orig.tar.* | head -1)
mkdir -p "$tmp/cjson"
tar -xf "$src" -C "$tmp/cjson" --strip-components=1
mkdir -p "$dir/include/cjson"
cp "$tmp/cjson/cJSON.h" "$dir/include/cjson/"
"$cc" -O2 -fno-strict-aliasing -c -o "$tmp/cJSON.o" "$tmp/cjson/cJSON.c"
"$triplet-ar" rcs "$dir/lib/libcjson.a" "$tmp/cJSON.o"
say "$dir: libnl $(ls "$tmp"/libnl-3-dev_*.deb | sed 's/.*_\(.*\)_.*/\1/'), cJSON ${src##*/}"
