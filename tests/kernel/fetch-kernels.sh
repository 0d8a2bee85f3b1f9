#!/bin/bash
# Fetch Debian kernel images for the qemu tests, without touching /boot.
#
# usage: tests/kernel/fetch-kernels.sh FLAVOUR...
#   FLAVOUR is [ARCH:]SERIES[-KIND]: ARCH amd64 (the default), arm64,
#   ppc64el, s390x, riscv64 or i386; SERIES 5.10, 6.1, 6.12 or 7.2; KIND
#   cloud or rt (amd64, arm64), 16k (arm64 with 16 KiB pages), 64k
#   (ppc64el with 64 KiB pages) or pae (i386's 686-pae, with HighMem).
#   E.g. 6.1, 6.12-rt, 5.10, 7.2, arm64:5.10, arm64:7.2-16k, ppc64el:6.12-64k,
#   s390x:6.12, riscv64:6.12, i386:6.1-pae.
#   "all" means the six amd64 6.1 and 6.12 flavours.
#   busybox:ARCH fetches Debian's busybox-static for ARCH instead (the
#   guests of a foreign architecture need their own): its line names
#   the busybox binary.
#
# For each FLAVOUR prints one line on stdout:
#   FLAVOUR RELEASE PATH        the kernel image (vmlinuz) to boot
#   FLAVOUR - REASON            none could be had (REASON is one word-ish line)
# and exits 0 when every FLAVOUR was found, 1 otherwise.  Progress goes to
# stderr.
#
# The newest release of each flavour that apt knows is downloaded with
# `apt-get download` (the -unsigned package when there is one: the same
# image without the Secure Boot signature; from 7.x the image is in
# linux-binary-RELEASE and its config in linux-base-RELEASE).  amd64 6.1
# and 6.12 come from the machine's own apt sources; every other flavour
# from Debian's bullseye, bullseye-security, trixie and sid through a
# private apt configuration under the cache ($cache/apt: its own sources
# list, lists and archives, -o APT::Architectures), never the machine's
# sources or dpkg architectures; s390x, riscv64 and i386 from bookworm and
# trixie through a second one ($cache/apt-more).  If the newest release does not
# download, the next older one is tried.  Only boot/vmlinuz-* (vmlinux-*
# on ppc64el),
# boot/config-* and the few modules the guests load (MODULES below,
# uncompressed; ZRAM_MODULES in modules-zram/ with the file "order",
# the insmod order of those the release has) are kept, in $WMARK_KERNEL_CACHE/RELEASE/ (default
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
# zram swap for tests/bench's Android-like workload, in insmod order (what
# zram needs first; which of them are modules differs between releases).
ZRAM_MODULES="lib/lz4/lz4_compress lib/lz4/lz4hc_compress lib/zstd/zstd_compress
	crypto/lzo crypto/lzo-rle mm/zsmalloc drivers/block/zram/zram"

mkdir -p "$cache" || { say "cannot create $cache"; exit 2; }
cache=$(cd "$cache" && pwd)

# Concurrent runs in one tree share the cache: one fetcher at a time.
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then
	flock -w 900 9 || say "waited 15 min for $cache/.lock; going on"
fi
# Downloads an interrupted run left behind.
rm -rf "$cache"/.dl.*

# The release-name pattern of a flavour, as an extended regex, and its
# Debian architecture (flavour_arch).  5.10 and 6.1 releases look like
# 6.1.0-57-amd64, later ones like 6.12.117+deb12-amd64 or
# 7.2.13+deb14-arm64-16k.
flavour_arch() {
	case $1 in
	*:*) echo "${1%%:*}" ;;
	*) echo amd64 ;;
	esac
}

flavour_regex() {
	local arch series kind= suffix
	arch=$(flavour_arch "$1")
	series=${1#*:}
	case $series in
	*-*) kind=${series#*-} series=${series%%-*} ;;
	esac
	case $arch/$kind in
	amd64/|arm64/) suffix=$arch ;;
	amd64/cloud|amd64/rt|arm64/cloud|arm64/rt) suffix=$kind-$arch ;;
	arm64/16k) suffix=arm64-16k ;;
	ppc64el/64k) suffix=powerpc64le-64k ;;
	ppc64el/) suffix=powerpc64le ;;
	s390x/|riscv64/) suffix=$arch ;;
	i386/pae) suffix=686-pae ;;
	i386/) suffix=686 ;;
	*) return 1 ;;
	esac
	case $series in
	5.10|6.1) echo "^${series//./\.}\.0-[0-9]+-$suffix\$" ;;
	6.12|7.2) echo "^${series//./\.}\.[0-9]+\+deb[0-9]+-$suffix\$" ;;
	*) return 1 ;;
	esac
}

# The machine's apt serves amd64 6.1 and 6.12; the private one the rest.
flavour_apt() {
	case $1 in
	6.1|6.1-*|6.12|6.12-*|amd64:6.1|amd64:6.1-*|amd64:6.12|amd64:6.12-*) echo sys ;;
	s390x:*|riscv64:*|i386:*) echo more ;;
	*) echo priv ;;
	esac
}

# The private apt configuration: options for apt-get and apt-cache.
papt=$cache/apt
priv_opts=(-o "Dir::Etc::SourceList=$papt/sources.list" -o "Dir::Etc::SourceParts=$papt/none"
	-o "Dir::State::Lists=$papt/lists" -o "Dir::Cache=$papt/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
	-o APT::Architectures::=amd64 -o APT::Architectures::=arm64
	-o APT::Architectures::=ppc64el -o Acquire::Languages=none
	-o APT::Sandbox::User=root)
priv_tried=0
priv_list=
# Fill $priv_list from the private configuration, updating its lists
# when they are missing or a day old.
priv_kernels() {
	[ "$priv_tried" -eq 1 ] && return
	priv_tried=1
	[ "$offline" = 1 ] && return
	command -v apt-get >/dev/null 2>&1 || return
	mkdir -p "$papt/lists/partial" "$papt/cache/archives/partial" "$papt/none"
	local k=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb [arch=amd64,arm64,ppc64el signed-by=$k] http://deb.debian.org/debian bullseye main"
		echo "deb [arch=amd64,arm64,ppc64el signed-by=$k] http://deb.debian.org/debian-security bullseye-security main"
		echo "deb [arch=amd64,arm64,ppc64el signed-by=$k] http://deb.debian.org/debian trixie main"
		echo "deb [arch=amd64,arm64,ppc64el signed-by=$k] http://deb.debian.org/debian sid main"
	} >"$papt/sources.list"
	if [ -z "$(find "$papt/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		say "updating the private apt lists (bullseye, trixie, sid; amd64, arm64, ppc64el)"
		apt-get -q "${priv_opts[@]}" update >&2 || say "private apt-get update failed"
	fi
	priv_list=$(apt-cache "${priv_opts[@]}" search --names-only '^linux-image-[0-9]' 2>/dev/null |
		awk '{print $1}' | kernel_names)
}

# "RELEASE PACKAGE" lines from linux-image package names, -unsigned preferred.
kernel_names() {
	awk '
		/-dbg$/ { next }
		{
			rel = $1; sub(/^linux-image-/, "", rel)
			unsigned = sub(/-unsigned$/, "", rel)
			if (!(rel in pkg) || unsigned)
				pkg[rel] = $1
		}
		END { for (r in pkg) print r, pkg[r] }' | sort -V
}

# The second private configuration: bookworm and trixie for s390x,
# riscv64 (official from trixie) and i386 (686-pae kernels up to bookworm).
mapt=$cache/apt-more
more_opts=(-o "Dir::Etc::SourceList=$mapt/sources.list" -o "Dir::Etc::SourceParts=$mapt/none"
	-o "Dir::State::Lists=$mapt/lists" -o "Dir::Cache=$mapt/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
	-o APT::Architectures::=s390x -o APT::Architectures::=riscv64
	-o APT::Architectures::=i386 -o Acquire::Languages=none
	-o APT::Sandbox::User=root)
more_tried=0
more_list=
more_kernels() {
	[ "$more_tried" -eq 1 ] && return
	more_tried=1
	[ "$offline" = 1 ] && return
	command -v apt-get >/dev/null 2>&1 || return
	mkdir -p "$mapt/lists/partial" "$mapt/cache/archives/partial" "$mapt/none"
	local k=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb [arch=s390x,i386 signed-by=$k] http://deb.debian.org/debian bookworm main"
		echo "deb [arch=s390x,i386 signed-by=$k] http://deb.debian.org/debian-security bookworm-security main"
		echo "deb [arch=s390x,riscv64 signed-by=$k] http://deb.debian.org/debian trixie main"
	} >"$mapt/sources.list"
	if [ -z "$(find "$mapt/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		say "updating the private apt lists (bookworm, trixie; s390x, riscv64, i386)"
		apt-get -q "${more_opts[@]}" update >&2 || say "private apt-get update failed"
	fi
	more_list=$(apt-cache "${more_opts[@]}" search --names-only '^linux-image-[0-9]' 2>/dev/null |
		awk '{print $1}' | kernel_names)
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
	apt_list=$(echo "$names" | kernel_names)
}

# Download PACKAGE (from apt set SET, sys or priv, for ARCH) and keep its
# kernel image as $cache/RELEASE/vmlinuz, its config, the MODULES it has
# (uncompressed) and the architecture.
download() {	# release package set arch
	local rel=$1 pkg=$2 set=$3 arch=$4 tmp deb opts=() pkgs=() img
	tmp=$(mktemp -d "$cache/.dl.XXXXXX") || return 1
	dl_tmp=$tmp
	trap 'rm -rf "${dl_tmp:-}"' EXIT
	[ "$set" = priv ] && opts=("${priv_opts[@]}")
	[ "$set" = more ] && opts=("${more_opts[@]}")
	# 7.x splits the image: linux-binary-REL (the image, under
	# usr/lib/modules), linux-base-REL (config) and linux-modules-REL.
	if apt-cache "${opts[@]}" show "linux-binary-$rel:$arch" >/dev/null 2>&1; then
		pkgs=("linux-binary-$rel:$arch" "linux-base-$rel:$arch" "linux-modules-$rel:$arch")
	else
		pkgs=("$pkg:$arch")
	fi
	say "downloading ${pkgs[*]}"
	if ! (cd "$tmp" && apt-get -q "${opts[@]}" download "${pkgs[@]}" >&2); then
		rm -rf "$tmp"
		return 1
	fi
	mkdir -p "$tmp/x" "$tmp/modules" "$tmp/modules-zram"
	# Only the image, its config and a few modules: all the modules
	# would be ~400 MiB per release.  Bookworm's packages keep them under
	# lib/, later ones under usr/lib/.
	local m want=()
	for m in $MODULES $ZRAM_MODULES; do
		want+=("./lib/modules/$rel/kernel/$m.ko*" "./usr/lib/modules/$rel/kernel/$m.ko*")
	done
	for deb in "$tmp"/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$tmp/x" --wildcards --no-wildcards-match-slash \
				'./boot/vmlinu[xz]-*' './boot/config-*' \
				"./usr/lib/modules/$rel/vmlinu[xz]" "./usr/lib/modules/$rel/config" \
				"${want[@]}" 2>/dev/null
	done
	img=
	for m in "$tmp/x/boot/vmlinuz-$rel" "$tmp/x/boot/vmlinux-$rel" \
		"$tmp/x/usr/lib/modules/$rel/vmlinuz" "$tmp/x/usr/lib/modules/$rel/vmlinux"; do
		[ -s "$m" ] && img=$m && break
	done
	if [ -z "$img" ]; then
		say "${pkgs[*]} hold no kernel image for $rel"
		rm -rf "$tmp"
		return 1
	fi
	# busybox insmod hands the file to init_module(2) as it is: the
	# compressed modules of 6.12 must be unpacked.
	local dest name k
	for m in $(find "$tmp/x/lib/modules" "$tmp/x/usr/lib/modules" -name '*.ko*' 2>/dev/null); do
		dest=$tmp/modules-zram
		for k in $MODULES; do
			case $m in */$k.ko*) dest=$tmp/modules ;; esac
		done
		case $m in
		*.ko.xz) xz -dc "$m" >"$dest/$(basename "$m" .xz)" ;;
		*.ko.zst) zstd -qdc "$m" >"$dest/$(basename "$m" .zst)" ;;
		*.ko) cp "$m" "$dest/" ;;
		esac || { say "cannot unpack $m"; rm -rf "$tmp"; return 1; }
	done
	for m in $ZRAM_MODULES; do
		name=${m##*/}
		[ -f "$tmp/modules-zram/$name.ko" ] && echo "$name"
	done >"$tmp/modules-zram/order"
	# Renames only: a run that already picked this release up keeps
	# working; the module folder, last, marks the release complete.
	mkdir -p "$cache/$rel"
	mv -f "$img" "$cache/$rel/vmlinuz"
	mv -f "$tmp/x/boot/config-$rel" "$cache/$rel/config" 2>/dev/null ||
		mv -f "$tmp/x/usr/lib/modules/$rel/config" "$cache/$rel/config" 2>/dev/null
	echo "$arch" >"$cache/$rel/arch"
	(cd "$tmp" && ls -1 ./*.deb | sed 's|^\./||') >"$cache/$rel/package"
	rm -rf "${cache:?}/$rel/modules" "${cache:?}/$rel/modules-zram"
	mv "$tmp/modules-zram" "$cache/$rel/modules-zram"
	mv "$tmp/modules" "$cache/$rel/modules"
	rm -rf "$tmp"
}

# A release in the cache is complete with its image and module folders
# (caches from before modules were kept get them on the next download).
cached() {
	[ -s "$cache/$1/vmlinuz" ] && [ -d "$cache/$1/modules" ] &&
		[ -f "$cache/$1/modules-zram/order" ]
}

[ $# -eq 0 ] && set -- 6.1 6.12
flavours=
for f in "$@"; do
	[ "$f" = all ] && f="6.1 6.1-cloud 6.1-rt 6.12 6.12-cloud 6.12-rt"
	flavours="$flavours $f"
done

# busybox-static for ARCH, kept as $cache/busybox-ARCH/busybox.
fetch_busybox() {	# arch
	local arch=$1 dir=$cache/busybox-$1 tmp opts=("${priv_opts[@]}")
	if [ ! -s "$dir/busybox" ] && [ "$offline" != 1 ]; then
		case $arch in
		s390x|riscv64|i386) more_kernels; opts=("${more_opts[@]}") ;;
		*) priv_kernels ;;
		esac
		tmp=$(mktemp -d "$cache/.dl.XXXXXX") || return 1
		if (cd "$tmp" && apt-get -q "${opts[@]}" download "busybox-static:$arch" >&2) &&
			dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/x"; then
			mkdir -p "$dir"
			mv -f "$tmp/x/usr/bin/busybox" "$dir/busybox" 2>/dev/null ||
				mv -f "$tmp/x/bin/busybox" "$dir/busybox"
			ls "$tmp" | grep '\.deb$' >"$dir/package"
		fi
		rm -rf "$tmp"
	fi
	[ -s "$dir/busybox" ] || return 1
	echo "busybox:$arch $(sed 's/_[^_]*$//' "$dir/package" 2>/dev/null) $dir/busybox"
}

status=0
for f in $flavours; do
	case $f in
	busybox:*)
		fetch_busybox "${f#busybox:}" || { echo "$f - busybox-static:${f#busybox:} cannot be had"; status=1; }
		continue
		;;
	esac
	if ! re=$(flavour_regex "$f"); then
		echo "$f - unknown flavour"
		status=1
		continue
	fi
	arch=$(flavour_arch "$f")
	set=$(flavour_apt "$f")
	if [ "$set" = sys ]; then
		apt_kernels
		cands=$(echo "$apt_list" | awk -v re="$re" '$1 ~ re')
	elif [ "$set" = more ]; then
		more_kernels
		cands=$(echo "$more_list" | awk -v re="$re" '$1 ~ re')
	else
		priv_kernels
		cands=$(echo "$priv_list" | awk -v re="$re" '$1 ~ re')
	fi
	newest=$(echo "$cands" | tail -1)
	# The archive keeps listing some releases it no longer serves: ask for
	# every candidate's address once, and try only those that answer.
	served=
	if [ -n "$cands" ] && [ "$set" != sys ] && command -v curl >/dev/null 2>&1; then
		opts=("${priv_opts[@]}")
		[ "$set" = more ] && opts=("${more_opts[@]}")
		# shellcheck disable=SC2046
		served=$(apt-get -q "${opts[@]}" --print-uris download \
			$(echo "$cands" | tail -20 | awk -v a="$arch" '{ print $2 ":" a }') 2>/dev/null |
			tr -d "'" | while read -r uri file _; do
				curl -sfI --max-time 20 "$uri" >/dev/null && echo "${file%%_*}"
			done)
		[ -n "$served" ] && cands=$(echo "$cands" | awk -v s="$served" '
			BEGIN { n = split(s, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
			$2 in ok')
	fi
	rel=
	# Newest first; a release the archive lists but no longer serves
	# (arm64 5.10.0-46 back to 5.10.0-30) falls back to older ones, at most twenty.
	while read -r crel cpkg; do
		[ -n "$crel" ] || continue
		if cached "$crel" || download "$crel" "$cpkg" "$set" "$arch"; then
			rel=$crel
			break
		fi
		say "could not download $cpkg"
	done < <(echo "$cands" | tail -20 | tac)
	if [ -z "$rel" ]; then
		# apt unavailable or refused: the newest cached one will do.
		rel=$(ls "$cache" | grep -E "$re" | sort -V | tail -1)
		if [ -n "$rel" ] && [ -s "$cache/$rel/vmlinuz" ]; then
			[ -n "$newest" ] && say "$f: using cached $rel"
		else
			if [ -n "$newest" ]; then
				echo "$f - download of ${newest#* } failed and none is cached"
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
