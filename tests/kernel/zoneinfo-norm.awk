# Reduce /proc/zoneinfo to one line per zone field:
#   NODE ZONE FIELD VALUE
# with FIELD managed, min, low, high, promo (6.1+ kernels that print it),
# boost or protection (a comma-separated list).  Only the zone's own block
# counts: the per-cpu "high:" lines under "pagesets" are something else.

/^Node / {
	node = $2
	sub(/,$/, "", node)
	zone = $4
	inzone = 1
	next
}
/^ *pagesets/ { inzone = 0 }
!inzone { next }
NF == 2 && $1 ~ /^(managed|min|low|high|promo|boost)$/ {
	print node, zone, $1, $2
}
$1 == "protection:" {
	s = $0
	sub(/.*\(/, "", s)
	sub(/\).*/, "", s)
	gsub(/[ \t]/, "", s)
	print node, zone, "protection", s
}
