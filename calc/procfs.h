/* SPDX-License-Identifier: MIT */
/*
 * procfs.h - parse the small /proc and /sys files wmark reads, from
 * buffers (no I/O): vm sysctls, osrelease, THP "enabled", /proc/meminfo,
 * /proc/vmstat and /proc/pressure/memory.
 *
 * Every parser takes the whole file as buf[0..len) (it need not be
 * NUL-terminated and may lack its final newline) and returns WM_OK,
 * WM_ENOMEM, or WM_EPARSE with diag->line (1-based; 0 for "the whole
 * file") and diag->msg saying what is wrong.
 */
#ifndef WMARK_PROCFS_H
#define WMARK_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wmark.h"

/* ---- sysctl files ---------------------------------------------------- */

/*
 * A sysctl holding one integer, as the kernel prints it: "67584\n".
 * Blanks around the number are allowed, a sign is allowed, nothing else.
 * Fill *out; WM_EPARSE for no number, a second value or line, or a
 * number outside the range of long.
 */
int pf_parse_long(const char *buf, size_t len, int64_t *out,
		  struct wm_diag *diag);

/*
 * A sysctl holding a list of integers on one line, such as
 * lowmem_reserve_ratio ("256\t256\t32\t0\t0\n"; older kernels and
 * captures separate with spaces).  Values may be negative.  Fill
 * out[0..*n) with at most max values; WM_EPARSE for an empty list, a
 * non-number, more than max values or a second line.
 */
int pf_parse_long_list(const char *buf, size_t len, int64_t *out, int max,
		       int *n, struct wm_diag *diag);

/*
 * The first line of a one-line file such as /proc/sys/kernel/osrelease,
 * without surrounding blanks, copied NUL-terminated into out[size].
 * WM_EPARSE if the line is empty, does not fit, holds a NUL byte, or
 * other non-blank lines follow.
 */
int pf_parse_line(const char *buf, size_t len, char *out, size_t size,
		  struct wm_diag *diag);

/* ---- choice files ---------------------------------------------------- */

/*
 * A sysfs choice file: words separated by blanks, the active one in
 * brackets ("always [madvise] never").  Copy the active word, without
 * brackets, into out[size].  WM_EPARSE when no word or more than one
 * is bracketed, a bracket is unbalanced, or the word does not fit.
 */
int pf_parse_choice(const char *buf, size_t len, char *out, size_t size,
		    struct wm_diag *diag);

/*
 * /sys/kernel/mm/transparent_hugepage/enabled: fill *out with the active
 * mode (WM_THP_ALWAYS, WM_THP_MADVISE or WM_THP_NEVER).  WM_EPARSE as
 * pf_parse_choice, or when the active word is none of those three (the
 * per-size files of 6.8+ also offer "inherit": read those with
 * pf_parse_choice).
 */
int pf_parse_thp(const char *buf, size_t len, enum wm_thp *out,
		 struct wm_diag *diag);

/* ---- key/value files: /proc/meminfo and /proc/vmstat ----------------- */

struct pf_kv_item {
	const char *key;	/* NUL-terminated, points into pf_kv.text */
	uint64_t value;		/* as printed: kB in meminfo, counts in vmstat */
	int line;		/* 1-based line it came from */
	bool kb;		/* meminfo: the value carried the "kB" unit */
};

/* The entries of a file in file order; look up with pf_kv_get(). */
struct pf_kv {
	struct pf_kv_item *items;
	size_t n;
	size_t cap;		/* allocated items */
	char *text;		/* one copy of the file holding every key */
};

/*
 * /proc/meminfo: "Key:   value kB" or "Key:   value" (HugePages_*) per
 * line.  Every key is kept, known or not.  Fill *out (initialised here;
 * free with pf_kv_free, also after an error).  WM_EPARSE for a line with
 * no "Key:", a value that is not an unsigned 64-bit number, a unit other
 * than kB, or a file with no entry at all.
 */
int pf_parse_meminfo(const char *buf, size_t len, struct pf_kv *out,
		     struct wm_diag *diag);

/*
 * /proc/vmstat: "key value" per line, values unsigned 64-bit (the kernel
 * prints unsigned long; a counter that drifted below zero shows as a
 * huge number and is kept as such).  Same contract as pf_parse_meminfo.
 */
int pf_parse_vmstat(const char *buf, size_t len, struct pf_kv *out,
		    struct wm_diag *diag);

/* The first entry named key, or NULL. */
const struct pf_kv_item *pf_kv_find(const struct pf_kv *kv, const char *key);

/* Store the value of key in *out and return true, or return false. */
bool pf_kv_get(const struct pf_kv *kv, const char *key, uint64_t *out);

void pf_kv_free(struct pf_kv *kv);

/* ---- /proc/pressure/memory (4.20+) ----------------------------------- */

struct pf_psi_line {
	bool present;		/* the file had this line */
	double avg10, avg60, avg300;	/* percent of wall time stalled */
	uint64_t total;		/* microseconds stalled since boot */
};

struct pf_psi {
	struct pf_psi_line some;	/* at least one task stalled */
	struct pf_psi_line full;	/* every non-idle task stalled */
};

/*
 * "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" and the same for
 * "full".  Fields come as key=value in any order; unknown fields and
 * lines of another kind are skipped.  Fill *out; WM_EPARSE when a line
 * lacks one of the four fields or has a malformed value, or when the
 * file has neither a "some" nor a "full" line.
 */
int pf_parse_psi(const char *buf, size_t len, struct pf_psi *out,
		 struct wm_diag *diag);

#endif /* WMARK_PROCFS_H */
