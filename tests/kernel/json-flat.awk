# Flatten one JSON document into lines "PATH VALUE", one per scalar:
#   {"zones":[{"node":0,"protection":[0,12]}]}
# gives
#   zones.0.node 0
#   zones.0.protection.0 0
#   zones.0.protection.1 12
# Strings lose their quotes (escapes keep the escaped character), null,
# true and false stay words.  Layout and key order do not matter, which is
# the point: the tests compare numbers, not how cJSON indents them.
# POSIX awk (busybox, mawk and gawk alike); no recursion.

{ buf = buf $0 "\n" }

function join(a, b) { return a == "" ? b : a "." b }

function valpath() {
	if (d == 0)
		return "."
	return join(pth[d], typ[d] == "[" ? ix[d] : key[d])
}

END {
	n = length(buf)
	i = 1
	d = 0
	while (i <= n) {
		c = substr(buf, i, 1)
		if (index(" \t\r\n:", c)) {
			i++
		} else if (c == "{" || c == "[") {
			p = d ? valpath() : ""
			d++
			typ[d] = c
			pth[d] = p
			ix[d] = 0
			wantkey[d] = (c == "{")
			i++
		} else if (c == "}" || c == "]") {
			d--
			i++
		} else if (c == ",") {
			if (typ[d] == "[")
				ix[d]++
			else
				wantkey[d] = 1
			i++
		} else if (c == "\"") {
			s = ""
			for (j = i + 1; j <= n; j++) {
				ch = substr(buf, j, 1)
				if (ch == "\\") {
					j++
					s = s substr(buf, j, 1)
				} else if (ch == "\"") {
					break
				} else {
					s = s ch
				}
			}
			i = j + 1
			if (typ[d] == "{" && wantkey[d]) {
				key[d] = s
				wantkey[d] = 0
			} else {
				print valpath(), s
			}
		} else {
			for (j = i; j <= n; j++)
				if (index(",}] \t\r\n", substr(buf, j, 1)))
					break
			print valpath(), substr(buf, i, j - i)
			i = j
		}
	}
}
