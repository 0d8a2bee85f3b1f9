#!/bin/bash
# Build the 6.12 guest kernel with tests/kernel/rfc/wmark-rfc-6.12.patch:
# one bzImage whose high watermark follows the wmark_rfc= boot parameter
# (0 stock, 1 the 2018 RFC's sqrt clamp, 2 a quarter of the gap).
#
# usage: tests/kernel/rfc/build.sh
#
# Debian's linux-source-6.12 is fetched with `apt-get download` through a
# private apt configuration under build/rfc-kernel/apt (its own sources
# list naming bookworm-security, the suite of the amd64 6.12 guest kernels
# tests/kernel/fetch-kernels.sh boots; never the machine's sources), and
# unpacked with dpkg-deb -x.  The tree is patched, configured with
# `make defconfig kvm_guest.config` plus tests/kernel/rfc/guest.config
# (virtio, cgroup v2, PSI, THP, zram, swap, loop; built in, no modules)
# and built with ccache, everything under build/rfc-kernel/, so a rebuild
# after a change of the patch is minutes.  make runs under nice
# (WMARK_RFC_NICE, default 19) with WMARK_RFC_JOBS jobs (default nproc).
#
# On success the kernel goes to the kernel cache the qemu tests use
# ($WMARK_KERNEL_CACHE, default build/kernel-cache) as RELEASE/vmlinuz
# with its config, RELEASE being like 6.12.118-wmark-rfc, and the last
# line on stdout is "RELEASE PATH".  Progress goes to stderr.  A kernel
# the cache already holds from this patch and configuration is taken as it
# is (WMARK_RFC_REBUILD=1: build anyway).
# WMARK_KERNEL_OFFLINE=1 uses a source package already downloaded.
set -u -o pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
work=$top/build/rfc-kernel
cache=${WMARK_KERNEL_CACHE:-$top/build/kernel-cache}
patchfile=$here/wmark-rfc-6.12.patch
fragment=$here/guest.config
pkg=linux-source-6.12
t0=$(date +%s)

say() { echo "rfc-build: [$(($(date +%s) - t0))s] $*" >&2; }
die() { say "$*"; exit 1; }

# lost CONFIG: the lines of the fragment a kernel configuration does not
# have (a symbol left out may also vanish, when what it depends on is left
# out), one a line.
lost() {
	grep -E '^(CONFIG_|# CONFIG_)' "$fragment" | while read -r line; do
		case $line in
		"# "*)
			sym=${line#\# }
			sym=${sym%% *}
			grep -q "^$sym=" "$1" && echo "$line"
			;;
		*) grep -qxF "$line" "$1" || echo "$line" ;;
		esac
	done
}

# --- 0. already built ------------------------------------------------------
# A kernel in the cache built from this patch (its "package" file names the
# patch's checksum) whose configuration holds every line of the fragment is
# this build's result: nothing is fetched or built (WMARK_RFC_REBUILD=1
# builds anyway).
sum=$(sha256sum <"$patchfile" | cut -c1-16)
if [ "${WMARK_RFC_REBUILD:-0}" != 1 ]; then
	for d in $(ls -d "$cache"/*-wmark-rfc 2>/dev/null | sort -V -r); do
		[ -s "$d/vmlinuz" ] && [ -s "$d/config" ] || continue
		grep -q " $(basename "$patchfile") $sum\$" "$d/package" 2>/dev/null || continue
		[ -z "$(lost "$d/config")" ] || continue
		say "cached: ${d##*/} was built from this patch and configuration ($(cat "$d/package")); WMARK_RFC_REBUILD=1 builds again"
		echo "${d##*/} $d/vmlinuz"
		exit 0
	done
fi

"$top/tests/deps.sh" bc bison flex libelf-dev libssl-dev ccache make gcc \
	xz-utils patch >&2 || die "missing build dependencies"
mkdir -p "$work" "$cache" || die "cannot create $work or $cache"

# --- 1. the source package -------------------------------------------
papt=$work/apt
opts=(-o "Dir::Etc::SourceList=$papt/sources.list" -o "Dir::Etc::SourceParts=$papt/none"
	-o "Dir::State::Lists=$papt/lists" -o "Dir::Cache=$papt/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
	-o APT::Architectures::=amd64 -o Acquire::Languages=none
	-o APT::Sandbox::User=root)
debdir=$work/deb
mkdir -p "$debdir"
if [ "${WMARK_KERNEL_OFFLINE:-0}" != 1 ]; then
	mkdir -p "$papt/lists/partial" "$papt/cache/archives/partial" "$papt/none"
	k=/usr/share/keyrings/debian-archive-keyring.gpg
	echo "deb [arch=amd64 signed-by=$k] http://deb.debian.org/debian-security bookworm-security main" \
		>"$papt/sources.list"
	if [ -z "$(find "$papt/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		say "updating the private apt lists (bookworm-security)"
		apt-get -q "${opts[@]}" update >&2 || say "private apt-get update failed"
	fi
	ver=$(apt-cache "${opts[@]}" show "$pkg" 2>/dev/null |
		awk '$1 == "Version:" { print $2 }' | sort -V | tail -1)
	if [ -n "$ver" ] && ! ls "$debdir/${pkg}_${ver//:/%3a}_"*.deb >/dev/null 2>&1; then
		say "downloading $pkg $ver"
		(cd "$debdir" && apt-get -q "${opts[@]}" download "$pkg=$ver" >&2) ||
			say "could not download $pkg $ver"
	fi
fi
deb=$(ls "$debdir/${pkg}"_*.deb 2>/dev/null | sort -V | tail -1)
[ -n "$deb" ] || die "no $pkg package could be had (see above)"
ver=$(dpkg-deb -f "$deb" Version)
say "source: $(basename "$deb")"

# --- 2. unpacked and patched tree --------------------------------------
# Keyed by the package version and the patch's checksum: a new patch
# re-extracts a clean tree (objects stay in obj/, ccache keeps the rest).
src=$work/src
if [ "$(cat "$src/.wmark-stamp" 2>/dev/null)" != "$ver $sum" ]; then
	say "unpacking $pkg $ver"
	rm -rf "$src" "$work/src.tmp"
	mkdir -p "$work/src.tmp/deb"
	dpkg-deb -x "$deb" "$work/src.tmp/deb" || die "dpkg-deb -x $deb failed"
	tarball=$(ls "$work/src.tmp/deb/usr/src/${pkg}".tar.* 2>/dev/null | head -1)
	[ -n "$tarball" ] || die "$deb holds no usr/src/$pkg.tar.*"
	tar -xf "$tarball" -C "$work/src.tmp" || die "cannot unpack $tarball"
	mv "$work/src.tmp/$pkg" "$src" || die "$tarball has no $pkg/ folder"
	rm -rf "$work/src.tmp"
	say "applying $(basename "$patchfile")"
	(cd "$src" && patch -p1 --forward --batch <"$patchfile" >&2) ||
		die "$(basename "$patchfile") does not apply to $pkg $ver"
	echo "$ver $sum" >"$src/.wmark-stamp"
fi

# --- 3. configuration ---------------------------------------------------
obj=$work/obj
mkdir -p "$obj"
export CCACHE_DIR=$work/ccache CCACHE_BASEDIR=$work CCACHE_COMPILERCHECK=content
export KBUILD_BUILD_TIMESTAMP="$ver" KBUILD_BUILD_USER=wmark KBUILD_BUILD_HOST=rfc
jobs=${WMARK_RFC_JOBS:-$(nproc 2>/dev/null || echo 1)}
mk=(nice -n "${WMARK_RFC_NICE:-19}" make -C "$src" O="$obj" CC="ccache gcc" -j"$jobs")
say "configuring: defconfig kvm_guest.config + $(basename "$fragment")"
"${mk[@]}" -s defconfig kvm_guest.config >&2 || die "make defconfig kvm_guest.config failed"
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "$fragment" >/dev/null) ||
	die "merging $fragment failed"
"${mk[@]}" -s olddefconfig >&2 || die "make olddefconfig failed"
# Every line of the fragment must have survived the dependency checks.
bad=$(lost "$obj/.config")
[ -z "$bad" ] || die "the configuration lost: $(echo $bad)"

# --- 4. the build --------------------------------------------------------
log=$work/build.log
say "building bzImage ($jobs jobs, nice ${WMARK_RFC_NICE:-19}, ccache in $CCACHE_DIR); log $log"
"${mk[@]}" bzImage >"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 30
	kill -0 "$pid" 2>/dev/null &&
		say "building: $(grep -c '^  [A-Z]' "$log") steps, last: $(grep '^  [A-Z]' "$log" | tail -1 | sed 's/^ *//')"
done
wait "$pid" || { tail -20 "$log" >&2; die "make bzImage failed (see $log)"; }
rel=$(cat "$obj/include/config/kernel.release") || die "no kernel.release"
img=$obj/arch/x86/boot/bzImage
[ -s "$img" ] || die "no $img"

# --- 5. into the kernel cache, in the layout of fetch-kernels.sh ----------
dest=$cache/$rel
mkdir -p "$dest/modules" "$dest/modules-zram" || die "cannot create $dest"
cp -f "$img" "$dest/vmlinuz.tmp" && mv -f "$dest/vmlinuz.tmp" "$dest/vmlinuz" || die "cannot copy $img"
cp -f "$obj/.config" "$dest/config"
echo amd64 >"$dest/arch"
echo "$(basename "$deb") + $(basename "$patchfile") $sum" >"$dest/package"
: >"$dest/modules-zram/order"
say "built $rel in $(($(date +%s) - t0)) s: $dest/vmlinuz ($(ccache -s 2>/dev/null | grep -iE 'hits|misses' | tr -s ' ' | tr '\n' ';'))"
echo "$rel $dest/vmlinuz"
