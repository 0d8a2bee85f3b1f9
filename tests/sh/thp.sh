#!/bin/bash
# Which THP controls make khugepaged raise min_free_kbytes, as apply's
# warning sees them: transparent_hugepage=never with one anon mTHP size
# at always starts khugepaged on 7.x (7.2 hugepage_enabled()), not on
# 6.12 (hugepage_pmd_enabled(): the PMD size only).  Prints TAP.
. "$(dirname "$0")/lib.sh"

# root RELEASE GLOBAL PMD SMALL: the 6.18 VM as kernel RELEASE with the THP
# controls given (the active word of each file)
root() {
	local r=$tmp/$1-$2-$3-$4 t=sys/kernel/mm/transparent_hugepage
	rm -rf "$r"
	cp -r data/machines/vm-6.18-firecracker-A "$r"
	echo "$1" >"$r/proc/sys/kernel/osrelease"
	rm -f "$r/proc/sys/kernel/version"
	mkdir -p "$r/$t/hugepages-2048kB" "$r/$t/hugepages-64kB"
	echo "always madvise never" | sed "s/$2/[$2]/" >"$r/$t/enabled"
	echo "always inherit madvise never" | sed "s/$3/[$3]/" >"$r/$t/hugepages-2048kB/enabled"
	echo "always inherit madvise never" | sed "s/$4/[$4]/" >"$r/$t/hugepages-64kB/enabled"
	echo "$r"
}

# warns RELEASE GLOBAL PMD SMALL WANT: apply -n --min-free-kbytes 8192 says
# "THP is enabled" (WANT yes) or not (no)
warns() {
	local r out got
	r=$(root "$1" "$2" "$3" "$4")
	out=$("$W" --root "$r" apply -n --min-free-kbytes 8192 2>&1)
	got=no
	case $out in *"THP is enabled"*) got=yes ;; esac
	if [ "$got" = "$5" ]; then
		ok "$1, THP $2, 2 MiB $3, 64 KiB $4: khugepaged's min_free_kbytes warning: $5"
	else
		not_ok "$1, THP $2, 2 MiB $3, 64 KiB $4: khugepaged's min_free_kbytes warning: $got, expected $5"
		echo "$out" | head -5 | sed 's/^/# /'
	fi
}

warns 7.2.13+deb14-amd64 never inherit always yes
warns 7.2.13+deb14-amd64 never inherit never no
warns 7.2.13+deb14-amd64 never never madvise yes
warns 6.12.117+deb13-amd64 never inherit always no
warns 6.12.117+deb13-amd64 never always never yes
warns 6.12.117+deb13-amd64 madvise never never no
warns 6.12.117+deb13-amd64 madvise inherit never yes
warns 6.1.0-57-amd64 never always always no
warns 6.1.0-57-amd64 madvise never never yes
# Mainline THP is 2.6.38: before it, hugepage_init() does not exist and
# min_free_kbytes is the sqrt rule alone.  8 GiB: int_sqrt(8388608 * 16)
# = 11585 KiB; from 2.6.38, THP's pageblock rule gives 22528 KiB.
mfk() {	# KERNEL: calc --mem 8G's min_free_kbytes
	"$W" --kernel "$1" -j calc --mem 8G | py -c 'import json,sys; print(json.load(sys.stdin)["sysctl"]["min_free_kbytes"])' 2>/dev/null
}
for k in 2.6.0 2.6.16 2.6.32 2.6.37; do
	got=$(mfk "$k")
	[ "$got" = 11585 ] && ok "--kernel $k calc --mem 8G: the sqrt rule, no THP before 2.6.38 (11585)" ||
		nok "--kernel $k calc --mem 8G: the sqrt rule, no THP before 2.6.38 (got $got, want 11585)"
done
got=$(mfk 2.6.38)
[ "$got" = 22528 ] && ok "--kernel 2.6.38 calc --mem 8G: THP's recommendation (22528)" ||
	nok "--kernel 2.6.38 calc --mem 8G: THP's recommendation (got $got, want 22528)"
out=$("$W" --kernel 2.6.32 calc --mem 8G --thp always 2>&1)
rc=$?
[ "$rc" -eq 2 ] && case $out in *2.6.38*) true ;; *) false ;; esac &&
	ok "--kernel 2.6.32 calc --thp always: exit 2 naming 2.6.38 ($out)" ||
	nok "--kernel 2.6.32 calc --thp always: exit 2 naming 2.6.38 (rc $rc: $out)"
echo "1..$n"
