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
#
# Read line by line, the parser's state kept from one line to the next: no
# token of JSON spans a line (a string holds no raw newline), and the time
# stays linear in the document.  Gathering the whole document into one
# string first and walking it with substr() took busybox awk 33 s for the
# 360 KB of a reclaim run of 1024 writes, and grew faster than the square.

function join(a, b) { return a == "" ? b : a "." b }

function valpath() {
	if (d == 0)
		return "."
	return join(pth[d], typ[d] == "[" ? ix[d] : key[d])
}

{
	line = $0
	n = length(line)
	i = 1
	while (i <= n) {
		c = substr(line, i, 1)
		if (index(" \t\r:", c)) {
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
				ch = substr(line, j, 1)
				if (ch == "\\") {
					j++
					s = s substr(line, j, 1)
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
				if (index(",}] \t\r", substr(line, j, 1)))
					break
			print valpath(), substr(line, i, j - i)
			i = j
		}
	}
}
