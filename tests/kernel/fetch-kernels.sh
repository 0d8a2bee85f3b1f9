#!/bin/bash
# Fetch Debian kernel images for the qemu tests, without touching /boot.
#
# usage: tests/kernel/fetch-kernels.sh FLAVOUR...
#   FLAVOUR is a series and an optional flavour: 6.1, 6.1-cloud, 6.1-rt,
#   6.12, 6.12-cloud, 6.12-rt; "all" means all six.
#
# For each FLAVOUR prints one line on stdout:
#   FLAVOUR RELEASE PATH        the kernel image (vmlinuz) to boot
#   FLAVOUR - REASON            none could be had (REASON is one word-ish line)
# and exits 0 when every FLAVOUR was found, 1 otherwise.  Progress goes to
# stderr.
#
# The newest release of each flavour that apt knows is downloaded with
# `apt-get download` (the -unsigned package when there is one: the same
# image without the Secure Boot signature) and only boot/vmlinuz-*,
# boot/config-* and the few modules the guests load (MODULES below,
# uncompressed) are kept, in $WMARK_KERNEL_CACHE/RELEASE/ (default
# build/kernel-cache under the repository).  A release already in the cache
# is never downloaded again.  When apt cannot download (no network, no apt),
# the newest release of that flavour already in the cache is used.
# WMARK_KERNEL_OFFLINE=1 never asks apt at all.
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cache=${WMARK_KERNEL_CACHE:-$top/build/kernel-cache}
offline=${WMARK_KERNEL_OFFLINE:-0}

say() { echo "fetch-kernels: $*" >&2; }

# Modules the guests insmod, paths under lib/modules/RELEASE/kernel: the
# loop device gives them a block device (block-I/O delay, page cache that
# reclaim can take).  Debian builds it as a module.
MODULES="drivers/block/loop"

mkdir -p "$cache" || { say "cannot create $cache"; exit 2; }
cache=$(cd "$cache" && pwd)

# Concurrent runs in one tree share the cache: one fetcher at a time.
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then
	flock -w 900 9 || say "waited 15 min for $cache/.lock; going on"
fi
# Downloads an interrupted run left behind.
rm -rf "$cache"/.dl.*

# The release-name pattern of a flavour, as an extended regex.
# 6.1 releases look like 6.1.0-57-amd64, 6.12 ones like 6.12.117+deb12-amd64.
flavour_regex() {
	local series=${1%%-*} kind=
	case $1 in
	*-*) kind=${1#*-}- ;;
	esac
	case $kind in
	''|cloud-|rt-) ;;
	*) return 1 ;;
	esac
	case $series in
	6.1) echo "^6\.1\.0-[0-9]+-${kind}amd64\$" ;;
	6.12) echo "^6\.12\.[0-9]+\+deb[0-9]+-${kind}amd64\$" ;;
	*) return 1 ;;
	esac
}

apt_list=
apt_tried=0
# Fill $apt_list with "RELEASE PACKAGE" lines of every linux-image apt can
# download, the -unsigned package preferred.  Runs `apt-get update` once if
# apt knows no kernel at all (a fresh container).
apt_kernels() {
	[ "$apt_tried" -eq 1 ] && return
	apt_tried=1
	[ "$offline" = 1 ] && return
	command -v apt-cache >/dev/null 2>&1 || return
	local names
	names=$(apt-cache search --names-only '^linux-image-[0-9]' 2>/dev/null |
		awk '{print $1}')
	if [ -z "$names" ] && [ "$(id -u)" = 0 ]; then
		say "apt knows no linux-image package: running apt-get update"
		apt-get -o DPkg::Lock::Timeout=120 update >&2 ||
			say "apt-get update failed"
		names=$(apt-cache search --names-only '^linux-image-[0-9]' \
			2>/dev/null | awk '{print $1}')
	fi
	apt_list=$(echo "$names" | awk '
		/-dbg$/ { next }
		{
			rel = $1; sub(/^linux-image-/, "", rel)
			unsigned = sub(/-unsigned$/, "", rel)
			if (!(rel in pkg) || unsigned)
				pkg[rel] = $1
		}
		END { for (r in pkg) print r, pkg[r] }' | sort -V)
}

# Download PACKAGE and keep its vmlinuz and config in $cache/RELEASE.
download() {	# release package
	local rel=$1 pkg=$2 tmp deb
	tmp=$(mktemp -d "$cache/.dl.XXXXXX") || return 1
	dl_tmp=$tmp
	trap 'rm -rf "${dl_tmp:-}"' EXIT
	say "downloading $pkg"
	if ! (cd "$tmp" && apt-get -q download "$pkg" >&2); then
		rm -rf "$tmp"
		return 1
	fi
	deb=$(ls "$tmp"/*.deb 2>/dev/null | head -1)
	mkdir -p "$tmp/x" "$tmp/modules"
	# Only the image, its config and a few modules: all the modules
	# would be ~400 MiB per release.
	local m want=()
	for m in $MODULES; do
		want+=("./lib/modules/$rel/kernel/$m.ko*")
	done
	if ! dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$tmp/x" --wildcards './boot/vmlinuz-*' './boot/config-*' \
			"${want[@]}" ||
		[ ! -s "$tmp/x/boot/vmlinuz-$rel" ]; then
		say "$deb holds no boot/vmlinuz-$rel or not all of: $MODULES"
		rm -rf "$tmp"
		return 1
	fi
	# busybox insmod hands the file to init_module(2) as it is: the
	# compressed modules of 6.12 must be unpacked.
	for m in $(find "$tmp/x/lib/modules" -name '*.ko*' 2>/dev/null); do
		case $m in
		*.ko.xz) xz -dc "$m" >"$tmp/modules/$(basename "$m" .xz)" ;;
		*.ko.zst) zstd -qdc "$m" >"$tmp/modules/$(basename "$m" .zst)" ;;
		*.ko) cp "$m" "$tmp/modules/" ;;
		esac || { say "cannot unpack $m"; rm -rf "$tmp"; return 1; }
	done
	# Renames only: a run that already picked this release up keeps
	# working; the module folder, last, marks the release complete.
	mkdir -p "$cache/$rel"
	mv -f "$tmp/x/boot/vmlinuz-$rel" "$cache/$rel/vmlinuz"
	mv -f "$tmp/x/boot/config-$rel" "$cache/$rel/config" 2>/dev/null
	echo "${deb##*/}" >"$cache/$rel/package"
	rm -rf "${cache:?}/$rel/modules"
	mv "$tmp/modules" "$cache/$rel/modules"
	rm -rf "$tmp"
}

# A release in the cache is complete with its image and module folder
# (caches from before modules were kept get them on the next download).
cached() { [ -s "$cache/$1/vmlinuz" ] && [ -d "$cache/$1/modules" ]; }

[ $# -eq 0 ] && set -- 6.1 6.12
flavours=
for f in "$@"; do
	[ "$f" = all ] && f="6.1 6.1-cloud 6.1-rt 6.12 6.12-cloud 6.12-rt"
	flavours="$flavours $f"
done

status=0
for f in $flavours; do
	if ! re=$(flavour_regex "$f"); then
		echo "$f - unknown flavour"
		status=1
		continue
	fi
	apt_kernels
	want=$(echo "$apt_list" | awk -v re="$re" '$1 ~ re' | tail -1)
	rel=${want%% *} pkg=${want#* }
	if [ -n "$want" ] && ! cached "$rel"; then
		download "$rel" "$pkg" || say "could not download $pkg"
	fi
	if [ -z "$want" ] || [ ! -s "$cache/$rel/vmlinuz" ]; then
		# apt unavailable or refused: the newest cached one will do.
		rel=$(ls "$cache" | grep -E "$re" | sort -V | tail -1)
		if [ -n "$rel" ] && [ -s "$cache/$rel/vmlinuz" ]; then
			[ -n "$want" ] && say "$f: using cached $rel"
		else
			if [ -n "$want" ]; then
				echo "$f - download of ${want#* } failed and none is cached"
			elif [ "$offline" = 1 ]; then
				echo "$f - none is cached and WMARK_KERNEL_OFFLINE=1"
			else
				echo "$f - apt offers no such kernel and none is cached"
			fi
			status=1
			continue
		fi
	fi
	echo "$f $rel $cache/$rel/vmlinuz"
done
exit $status
