#!/bin/bash
# The static libraries a cross build of wmark links: libnl-3, libnl-genl-3
# and cJSON for a foreign architecture, in a sysroot under build/.
#
# usage: tests/sysroot.sh ARCH DIR
#   ARCH is a Debian architecture (arm64, armhf, s390x, riscv64, i386);
#   DIR receives include/
#   (libnl3/ and cjson/ headers) and lib/ (libnl-3.a, libnl-genl-3.a,
#   libcjson.a).
#
# Debian's libnl-3-dev and libnl-genl-3-dev for ARCH (bookworm, the suite
# whose glibc the cross compiler links) are downloaded and unpacked, never
# installed.  riscv64 is a Debian architecture from trixie on: its libnl
# is built from bookworm's source package with the cross compiler, as a
# trixie archive would want a newer glibc than bookworm's cross one.  Debian's libcjson-dev ships no static library, so cJSON is
# compiled from its Debian source package with the cross compiler.  The
# packages come through a private apt configuration under DIR/apt (its own
# sources list with deb and deb-src lines, lists and archives), never the
# machine's sources or dpkg architectures.  A finished sysroot is reused.
set -eu
export LC_ALL=C
cmocka=0
[ "${1:-}" = --cmocka ] && cmocka=1 && shift
[ $# -eq 2 ] || { echo "usage: tests/sysroot.sh [--cmocka] ARCH DIR" >&2; exit 2; }
arch=$1 dir=$2
case $arch in
arm64) triplet=aarch64-linux-gnu ;;
armhf) triplet=arm-linux-gnueabihf ;;
s390x) triplet=s390x-linux-gnu ;;
riscv64) triplet=riscv64-linux-gnu ;;
i386) triplet=i686-linux-gnu ;;
*) echo "sysroot: no cross build for $arch" >&2; exit 2 ;;
esac
cc=$triplet-gcc
# Debian's multiarch directory: the triplet, but i386-linux-gnu for i686
multiarch=${triplet/#i686/i386}
say() { echo "sysroot: $*" >&2; }
command -v "$cc" >/dev/null || { say "no $cc (Debian package gcc-$triplet)"; exit 3; }
[ -s "$dir/lib/libnl-genl-3.a" ] && [ -s "$dir/lib/libcjson.a" ] &&
	{ [ $cmocka = 0 ] || [ -s "$dir/lib/libcmocka.a" ]; } && exit 0

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
mkdir -p "$dir/include" "$dir/lib"
if [ $cmocka = 1 ] && [ ! -s "$dir/lib/libcmocka.a" ]; then
	(cd "$tmp" && apt-get -q "${apt[@]}" source --download-only cmocka >&2)
	mkdir -p "$tmp/cmocka"
	tar -xf "$(ls "$tmp"/cmocka_*.orig.tar.xz | head -1)" -C "$tmp/cmocka" --strip-components=1
	cp "$tmp/cmocka/include/cmocka.h" "$dir/include/"
	"$cc" -O2 -c -DHAVE_MALLOC_H -DHAVE_INTTYPES_H -DHAVE_SIGNAL_H -DHAVE_STRINGS_H \
		-DHAVE_GCC_THREAD_LOCAL_STORAGE -DHAVE_CLOCK_REALTIME -DHAVE_SIGLONGJMP \
		-DHAVE_STRSIGNAL -DHAVE_STRUCT_TIMESPEC -I"$tmp/cmocka/include" \
		-o "$tmp/cmocka.o" "$tmp/cmocka/src/cmocka.c"
	"$triplet-ar" rcs "$dir/lib/libcmocka.a" "$tmp/cmocka.o"
	say "$dir: cmocka $(ls "$tmp"/cmocka_*.orig.tar.xz | sed 's/.*cmocka_\(.*\)\.orig.*/\1/')"
	[ -s "$dir/lib/libnl-genl-3.a" ] && [ -s "$dir/lib/libcjson.a" ] && exit 0
fi
(cd "$tmp" && apt-get -q "${apt[@]}" source --download-only cjson >&2)
if [ "$arch" = riscv64 ]; then
	# libnl-3 and libnl-genl-3 only, static, from the source package
	(cd "$tmp" && apt-get -q "${apt[@]}" source --download-only libnl3 >&2)
	mkdir -p "$tmp/libnl"
	tar -xf "$(ls "$tmp"/libnl3_*.orig.tar.* | head -1)" -C "$tmp/libnl" --strip-components=1
	(cd "$tmp/libnl" && ./configure -q --host="$triplet" --disable-shared --enable-static \
		--disable-cli --disable-debug --prefix=/usr CFLAGS=-O2 >&2 &&
		make -s -j2 lib/libnl-3.la lib/libnl-genl-3.la >&2)
	mkdir -p "$dir/include/libnl3"
	cp -r "$tmp/libnl/include/netlink" "$dir/include/libnl3/"
	cp "$tmp/libnl/lib/.libs/libnl-3.a" "$tmp/libnl/lib/.libs/libnl-genl-3.a" "$dir/lib/"
	nlver=$(ls "$tmp"/libnl3_*.orig.tar.* | sed 's/.*libnl3_\([^.]*\.[^.]*\.[^.]*\).*/\1/')
else
	(cd "$tmp" && apt-get -q "${apt[@]}" download "libnl-3-dev:$arch" "libnl-genl-3-dev:$arch" >&2)
	for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$tmp/x"; done
	cp -r "$tmp/x/usr/include/libnl3" "$dir/include/"
	# bookworm keeps them under lib/, later suites under usr/lib/
	for l in libnl-3.a libnl-genl-3.a; do
		cp "$tmp/x/lib/$multiarch/$l" "$dir/lib/" 2>/dev/null || cp "$tmp/x/usr/lib/$multiarch/$l" "$dir/lib/"
	done
	nlver=$(ls "$tmp"/libnl-3-dev_*.deb | sed 's/.*_\(.*\)_.*/\1/')
fi
# cJSON: the upstream tarball of the source package; only cJSON.c is needed.
src=$(ls "$tmp"/cjson_*.orig.tar.* | head -1)
mkdir -p "$tmp/cjson"
tar -xf "$src" -C "$tmp/cjson" --strip-components=1
mkdir -p "$dir/include/cjson"
cp "$tmp/cjson/cJSON.h" "$dir/include/cjson/"
"$cc" -O2 -fno-strict-aliasing -c -o "$tmp/cJSON.o" "$tmp/cjson/cJSON.c"
"$triplet-ar" rcs "$dir/lib/libcjson.a" "$tmp/cJSON.o"
say "$dir: libnl $nlver, cJSON ${src##*/}"
