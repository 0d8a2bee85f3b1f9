/* SPDX-License-Identifier: MIT */
/*
 * sysctl_text.h - the text of the watermark sysctls, from strings and
 * buffers (no I/O): the vm.* allowlist, keys as sysctl(8) and sysctl.d(5)
 * write them, values as the kernel prints and reads them, the ranges a
 * kernel accepts, and the lines of a sysctl.d file.
 *
 * Errors are WM_E* codes with a struct wm_diag (may be NULL) saying what
 * is wrong; the CLI (cli/sysctl.h) reads and writes the files.
 */
#ifndef WMARK_SYSCTL_TEXT_H
#define WMARK_SYSCTL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "wmark.h"

/* The knobs, in the order apply writes them. */
enum wm_knob {
	WM_KNOB_MFK,		/* min_free_kbytes */
	WM_KNOB_WSF,		/* watermark_scale_factor */
	WM_KNOB_BOOST,	/* watermark_boost_factor */
	WM_KNOB_EXTRA,	/* extra_free_kbytes (Android 4.x kernels) */
	WM_KNOB_LRR,		/* lowmem_reserve_ratio (a list) */
	WM_NKNOBS,
};

/* A value: one integer, or the lowmem_reserve_ratio list. */
struct sc_value {
	int64_t v[WM_MAX_ZONES];		/* each within the range of int */
	int n;				/* entries used (1 for scalars) */
};

/*
 * The file name of knob k under /proc/sys/vm: "min_free_kbytes" for
 * WM_KNOB_MFK ...; "?" for a k outside the enum.  Never fails.
 */
const char *wm_knob_name(enum wm_knob k);

/*
 * Parse a sysctl key as sysctl(8) and sysctl.d(5) write it: "vm.x" or
 * "vm/x", exactly (no blanks, no leading "/proc/sys/", no path
 * components after x).  Set *out and return WM_OK if x is one of the
 * allowed knobs; return WM_EINVAL, leaving *out alone, for anything else.
 */
int sc_key_parse(const char *s, enum wm_knob *out);

/*
 * Parse the NUL-terminated text of a value for knob k into *out, as the
 * kernel's proc_dointvec reads it: decimal integers, optionally negative,
 * separated by blanks (space, tab, newline; for lowmem_reserve_ratio
 * also commas: "64 64 16 0 0", "64\t64\t16\t0\t0\n", "64,64,16,0,0"),
 * blanks around the whole ignored.  A scalar knob takes exactly one
 * integer, lowmem_reserve_ratio 1..WM_MAX_ZONES.  Ranges are not checked
 * here (see sc_value_check).  Return WM_OK; WM_EPARSE for an empty value,
 * a non-integer ("1.5", "64M", "0x10") or too many integers; WM_ERANGE
 * for an integer outside the range of int.  On error diag->key is the
 * knob's name and diag->msg quotes the text.
 */
int sc_value_parse(enum wm_knob k, const char *text, struct sc_value *out,
		   struct wm_diag *diag);

/*
 * Check value *v of knob k for a write: every entry in what a kernel of
 * profile p accepts and prints back as written (wm_knob_check_clean(),
 * calc/change.h; p NULL: the newest rules with wsf up to 1000), and, for
 * lowmem_reserve_ratio, exactly want_n entries (the count the kernel
 * prints; 0 = any).  Return WM_OK, or WM_EINVAL with
 * diag->key the knob's name and diag->msg such as
 * "watermark_scale_factor 2000 is out of range: kernel 4.9 accepts 1..1000".
 */
int sc_value_check(const struct wm_profile *p, enum wm_knob k,
		   const struct sc_value *v, int want_n, struct wm_diag *diag);

/*
 * Format *v into buf (size n) as the text to write: "120\n",
 * "64 64 16 0 0\n" (space separated; the kernel prints the list with
 * tabs but reads any blank).  Return the length without the NUL, or
 * WM_ERANGE if it does not fit (buf is then unspecified).
 */
int sc_value_format(const struct sc_value *v, char *buf, size_t n);

/* True if a and b hold the same numbers in the same order. */
bool sc_value_equal(const struct sc_value *a, const struct sc_value *b);

/* One assignment of a sysctl.d(5) file. */
struct sc_conf_line {
	int line;			/* 1-based */
	bool ignore_failure;		/* written with a leading '-' */
	char key[128];			/* dotted form: "vm.min_free_kbytes" */
	char value[256];		/* trimmed */
};

/*
 * Read the next assignment of a sysctl.d(5) text buf[0..len) (need not
 * be NUL-terminated or end in a newline) from *pos; start with *pos 0
 * and *line 0, both advance past the line read.  Blank lines and lines
 * whose first non-blank is '#' or ';' are skipped; "key = value",
 * "key=value" and "-key = value" (a failure to set it is ignored) are
 * assignments, with blanks around key and value trimmed; a key whose
 * first separator is '/' is turned into the dotted form the way
 * systemd-sysctl does (its literal dots become '/').  The key is not
 * checked against the allowlist (see sc_key_parse).  Return 1 with *out
 * filled; 0 at the end of buf; or WM_EPARSE for a malformed line (no
 * '=', an empty key, a NUL byte, a key of 128 or a value of 256 bytes or
 * more), with out->line saying which; the next call goes on after it.
 */
int sc_conf_next(const char *buf, size_t len, size_t *pos, int *line,
		 struct sc_conf_line *out);

#endif /* WMARK_SYSCTL_TEXT_H */
