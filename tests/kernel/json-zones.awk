# Turn flattened JSON (json-flat.awk) of a wmark document with a "zones"
# array into one line per zone field, the same lines zoneinfo-norm.awk
# makes from /proc/zoneinfo:
#   NODE ZONE FIELD VALUE
# FIELD is managed, min, low, high, promo, boost or protection; protection
# is a comma-separated list; a null value (promo before 6.1) is left out.

$1 ~ /^zones\.[0-9]+\./ {
	split($1, p, ".")
	z = p[2]
	f = p[3]
	if (z + 1 > nz)
		nz = z + 1
	if (f == "protection") {
		prot[z] = (p[4] == 0 ? "" : prot[z] ",") $2
		hasprot[z] = 1
	} else if (p[4] == "") {
		val[z, f] = $2
	}
}

END {
	split("managed min low high promo boost", fields, " ")
	for (z = 0; z < nz; z++) {
		id = val[z, "node"] " " val[z, "zone"]
		for (k = 1; k <= 6; k++) {
			v = val[z, fields[k]]
			if (v != "" && v != "null")
				print id, fields[k], v
		}
		if (hasprot[z])
			print id, "protection", prot[z]
	}
}
