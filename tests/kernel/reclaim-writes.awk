# The write rows of one `wmark -j reclaim` report, summed up in one pass,
# line by line (the report is laid out as cJSON_Print() does: one member a
# line), for guest-reclaim.sh: a run of 32-page writes has thousands of
# rows, too many to flatten in a guest.  Prints one line of KEY:VALUE
# pairs joined by commas:
#   w_ok, w_eagain, w_eintr, w_inf, w_other  writes by result
#   w_pmin, w_pmax   fewest and most pages one write reclaimed (memory.stat)
#   w_short          writes that ended ok below what they asked (memory.stat
#                    can lag: its counters are flushed in batches)
#   w_nsmax          the longest write, ns
#   w_last           the result of the last write (blanks as _)
# and writes everything outside the "writes" array to the file named by
# -v rest=FILE, for json-flat.awk.
# POSIX awk (busybox, mawk and gawk alike).

function val(s) {
	sub(/^[ \t]*"[^"]*":[ \t]*/, "", s)
	sub(/[ \t\r]*,?[ \t\r]*$/, "", s)
	gsub(/"/, "", s)
	return s
}

BEGIN { inw = 0; pmin = ""; pmax = ""; nsmax = ""; last = "none" }

/^\t"writes":\t\[/ {
	if ($0 !~ /\[\],?[ \t\r]*$/)
		inw = 1
	print "\t\"writes\":\t[]," >rest
	next
}

inw {
	if ($0 ~ /^\t\t}\],?[ \t\r]*$/) {
		inw = 0
		next
	}
	if ($0 ~ /^\t\t\t"requested_pages":/) {
		asked = val($0) + 0
	} else if ($0 ~ /^\t\t\t"reclaimed_pages":/) {
		got = val($0)
		if (got != "null") {
			got += 0
			if (pmin == "" || got < pmin)
				pmin = got
			if (pmax == "" || got > pmax)
				pmax = got
		}
	} else if ($0 ~ /^\t\t\t"time_ns":/) {
		ns = val($0)
		if (ns != "null" && (nsmax == "" || ns + 0 > nsmax + 0))
			nsmax = ns + 0
	} else if ($0 ~ /^\t\t\t"result":/) {
		last = val($0)
		gsub(/[ \t]/, "_", last)	# one word in a guest's WMARK-INFO line
		if (last == "ok") {
			ok++
			if (got != "null" && got < asked)
				short++
		} else if (last == "EAGAIN") {
			eagain++
		} else if (last == "EINTR") {
			eintr++
		} else if (last == "inf") {
			inf++
		} else {
			other++
		}
		got = "null"
	}
	next
}

{ print >rest }

END {
	printf "w_ok:%d,w_eagain:%d,w_eintr:%d,w_inf:%d,w_other:%d,w_pmin:%s,w_pmax:%s,w_short:%d,w_nsmax:%s,w_last:%s\n",
		ok, eagain, eintr, inf, other, pmin == "" ? "-" : pmin, pmax == "" ? "-" : pmax,
		short, nsmax == "" ? "-" : sprintf("%.0f", nsmax), last
}
