#!/bin/bash
# The page geometry comes from the machine's architecture, never from the
# one wmark was built for: a capture without pagetypeinfo gets the
# pageblock its kernel's architecture has (kernel/arch, else the
# architecture its Debian release names), and calc takes --arch or the
# release given to --kernel.  The pageblocks expected are those the
# captured kernels printed in their pagetypeinfo (s390x 256, riscv64 and
# i386 PAE 512), and i386 without PAE's 1024 from its two-level page
# tables (HPAGE_SHIFT 22, the largest buddy order).  Prints TAP.
. "$(dirname "$0")/lib.sh"
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }

# pb ROOT: the pageblock -j verify reports for ROOT
pb() {
	"$W" --root "$1" -j verify 2>/dev/null |
		sed -n 's/.*"pageblock_pages":[[:space:]]*\([0-9]*\).*/\1/p' | head -1
}

# bare NAME MACHINE: a copy of data/machines/MACHINE without pagetypeinfo
bare() {
	rm -rf "$tmp/$1"
	cp -r "data/machines/$2" "$tmp/$1"
	rm -f "$tmp/$1/proc/pagetypeinfo"
	echo "$tmp/$1"
}

check_pb() {	# ROOT WANT WHAT
	local got
	got=$(pb "$1")
	if [ "$got" = "$2" ]; then
		ok "$3: pageblock $got pages"
	else
		not_ok "$3: pageblock ${got:-none}, expected $2"
	fi
}

for m in s390x:256 riscv64:512 i386-k61-3g:512; do
	name=${m%%:*} want=${m#*:}
	case $name in i386*) dir=qemu-$name-after ;; *) dir=qemu-$name-k612-4g-after ;; esac
	check_pb "data/machines/$dir" "$want" "$dir with its pagetypeinfo"
	check_pb "$(bare "$name" "$dir")" "$want" "$dir without pagetypeinfo, by its release $(cat "data/machines/$dir/proc/sys/kernel/osrelease")"
done

# kernel/arch (uname -m) wins over a release that names no architecture
r=$(bare s390x-arch qemu-s390x-k612-4g-after)
echo 6.12.107 >"$r/proc/sys/kernel/osrelease"
check_pb "$r" 512 "s390x capture whose release names no architecture (the PMD rule)"
echo s390x >"$r/proc/sys/kernel/arch"
check_pb "$r" 256 "the same with kernel/arch s390x"
r=$(bare i386-nopae qemu-i386-k61-3g-after)
echo 6.1.0-57-686 >"$r/proc/sys/kernel/osrelease"
check_pb "$r" 1024 "i386 capture of a 686 (no PAE) release"

# khugepaged's min_free_kbytes on an s390x with THP on: 256 x 2 zones x 11
# pages (mm/khugepaged.c set_recommended_min_free_kbytes), 22528 KiB
r=$(bare s390x-thp qemu-s390x-k612-4g-after)
mkdir -p "$r/sys/kernel/mm/transparent_hugepage"
echo "[always] madvise never" >"$r/sys/kernel/mm/transparent_hugepage/enabled"
out=$("$W" --root "$r" apply -n --min-free-kbytes 1024 2>&1)
case $out in
*"back to 22528 KiB"*) ok "s390x with THP always: khugepaged raises min_free_kbytes back to 22528 KiB" ;;
*) not_ok "s390x with THP always: khugepaged's min_free_kbytes is 22528 KiB"; diag "$(echo "$out" | head -5)" ;;
esac

# calc: --arch, or the architecture --kernel's release names
mfk() { "$W" "$@" 2>&1 | sed -n 's/.*"thp":[[:space:]]*\([0-9]*\).*/\1/p' | head -1; }
for args in "--kernel 6.12.107+deb13-s390x -j calc --mem 4G --thp always" \
	"--kernel 6.12 -j calc --arch s390x --mem 4G --thp always"; do
	# shellcheck disable=SC2086
	got=$(mfk $args)
	[ "$got" = 11264 ]
	check $? "wmark $args: THP's min_free_kbytes 256 x 11 pages = 11264 KiB (got ${got:-none})"
done
# shellcheck disable=SC2086
got=$(mfk --kernel 6.12 -j calc --mem 4G --thp always)
[ "$got" = 22528 ]
check $? "calc with no architecture: 512 x 11 pages = 22528 KiB (got ${got:-none})"
"$W" --kernel 6.12 calc --arch s390x --page-size 16K --mem 4G >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "s390x has 4096-byte pages only" "$tmp/err"
check $? "calc --arch s390x --page-size 16K is refused (exit $rc: $(head -1 "$tmp/err"))"
"$W" calc --arch sparc --mem 4G >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ]
check $? "calc --arch sparc is a usage error (exit $rc: $(head -1 "$tmp/err"))"
echo "1..$n"
