#!/bin/bash
# Build the test initramfs: busybox (static), wmark with the shared
# libraries it needs and their loader, our /init and the guest tests.
#
# usage: tests/kernel/mkinitramfs.sh [--busybox BUSYBOX] WMARK|- OUTPUT.cpio.gz [RELEASE_DIR...]
#
# BUSYBOX is a static busybox for the guest's architecture (default the
# host's own); WMARK "-" builds an image without wmark, whose guests run
# guest-dump.sh.  A foreign busybox cannot run here: /init installs its
# applet links itself (busybox --install -s).
#
# Each RELEASE_DIR is a kernel in the cache (fetch-kernels.sh): its
# modules/*.ko go to /lib/modules/RELEASE/, which /init loads when that
# kernel boots.  One image serves every kernel of the run.
#
# WMARK may be static or dynamic: every library ldd names is copied to the
# same path inside the image, so the dynamic loader finds them as it would
# on the host.  The staging tree is built next to OUTPUT and removed after.
set -eu
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "mkinitramfs: $*" >&2; exit 1; }

busybox=
if [ "${1:-}" = --busybox ]; then
	busybox=$2
	shift 2
fi
[ $# -ge 2 ] || die "usage: mkinitramfs.sh [--busybox BUSYBOX] WMARK|- OUTPUT.cpio.gz [RELEASE_DIR...]"
wmark=$1 out=$2
shift 2
[ "$wmark" = - ] || [ -x "$wmark" ] || die "$wmark is not an executable"

if [ -z "$busybox" ]; then
	for b in /bin/busybox /usr/bin/busybox; do
		if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then
			busybox=$b
			break
		fi
	done
fi
[ -n "$busybox" ] && [ -f "$busybox" ] || die "no static busybox (Debian package busybox-static)"
command -v cpio >/dev/null || die "no cpio"

stage=$(mktemp -d "$out.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,run,tests,etc}

install -m 755 "$busybox" "$stage/bin/busybox"
[ "$wmark" = - ] || install -m 755 "$wmark" "$stage/bin/wmark"
install -m 755 "$here/init.sh" "$stage/init"
install -m 644 "$here"/guest-*.sh "$here"/*.awk "$stage/tests/"

# Libraries and the loader, as ldd resolves them on this host.  A static
# wmark makes ldd fail ("not a dynamic executable"): nothing to copy.
if [ "$wmark" != - ] && ldd "$wmark" >"$stage/ldd.txt" 2>/dev/null; then
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' \
		"$stage/ldd.txt" | sort -u | while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
	if grep -q 'not found' "$stage/ldd.txt"; then
		die "$wmark: $(grep 'not found' "$stage/ldd.txt" | head -1)"
	fi
fi
rm -f "$stage/ldd.txt"

for rdir; do
	[ -d "$rdir/modules" ] || continue
	rel=$(basename "$rdir")
	mkdir -p "$stage/lib/modules/$rel"
	cp "$rdir"/modules/*.ko "$stage/lib/modules/$rel/" 2>/dev/null || true
done

# /dev/console lets the kernel give /init a stdout before devtmpfs is
# mounted; creating it needs root, and without it only early messages are
# lost (the tests write to /dev/ttyS1 after mounting devtmpfs).
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

(cd "$stage" && find . -mindepth 1 | sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
