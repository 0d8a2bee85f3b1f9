# Compare predicted zone fields with the kernel's.
# usage: awk -f wm-compare.awk PREDICTED ACTUAL
# Both files hold "NODE ZONE FIELD VALUE" lines (json-zones.awk,
# zoneinfo-norm.awk).  Every min/low/high/promo/protection the prediction
# has must equal the kernel's; every zone the kernel has with managed
# pages must be predicted.  A promo the kernel does not print (5.18 to
# 6.11) cannot be checked and is skipped.  Prints one line per difference
# and exits 1 when there is any.
# With -v fields="min low high" only those fields are compared.

BEGIN {
	if (fields == "")
		fields = "min low high promo protection"
	nf = split(fields, fl, " ")
	for (k = 1; k <= nf; k++)
		want[fl[k]] = 1
}
FNR == 1 { file++ }
file == 1 {
	if ($3 in want)
		pred[$1 " " $2 " " $3] = $4
	zpred[$1 " " $2] = 1
	next
}
{
	act[$1 " " $2 " " $3] = $4
	if ($3 == "managed" && $4 > 0 && !(($1 " " $2) in zpred))
		missing[++nmiss] = "node " $1 " zone " $2 " (managed " $4 ") not predicted"
}
END {
	bad = 0
	for (k in pred) {
		split(k, p, " ")
		if (!(k in act)) {
			# 5.18 to 6.11 have a promo watermark but do not print it.
			if (p[3] == "promo")
				continue
			print "node " p[1] " zone " p[2] " " p[3] ": predicted " pred[k] ", kernel has none"
			bad++
		} else if (act[k] != pred[k]) {
			print "node " p[1] " zone " p[2] " " p[3] ": predicted " pred[k] ", kernel " act[k]
			bad++
		}
	}
	for (k = 1; k <= nmiss; k++) {
		print missing[k]
		bad++
	}
	if (file < 1 || length(pred) == 0) {
		print "nothing predicted to compare"
		bad++
	}
	exit bad > 0
}
