/* SPDX-License-Identifier: MIT */
/*
 * sysctl.h - the vm sysctls wmark may write, and safe access to them
 * under a root tree.
 *
 * Only the watermark knobs are allowed (an allowlist, never a path from
 * the user).  A knob's file must resolve to exactly
 * <realpath(root)>/proc/sys/vm/<name>: a symlink anywhere on the way
 * (a capture tree whose proc/sys/vm points at the host's /proc) is
 * refused.  Writes check write() and close(); every write is read back.
 */
#ifndef WMARK_SYSCTL_H
#define WMARK_SYSCTL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "../calc/wmark.h"

/* The knobs, in the order apply writes them. */
enum sc_key {
	SC_MFK,		/* min_free_kbytes */
	SC_WSF,		/* watermark_scale_factor */
	SC_BOOST,	/* watermark_boost_factor */
	SC_EXTRA,	/* extra_free_kbytes (Android 4.x kernels) */
	SC_LRR,		/* lowmem_reserve_ratio (a list) */
	SC_NKEYS,
};

/* A value: one integer, or the lowmem_reserve_ratio list. */
struct sc_value {
	long v[WM_MAX_ZONES];
	int n;				/* entries used (1 for scalars) */
};

/* "min_free_kbytes" for SC_MFK ... */
const char *sc_key_name(enum sc_key k);

/*
 * Parse a sysctl key as sysctl(8) and sysctl.d(5) write it: "vm.x" or
 * "vm/x" (a leading "/proc/sys/" is not accepted).  Set *out and return
 * 0 if it names an allowed knob; return -1 otherwise.
 */
int sc_key_parse(const char *s, enum sc_key *out);

/*
 * Parse the text of value for knob k ("120", "64 64 16 0 0",
 * "64,64,16,0,0"; surrounding whitespace ignored) into *out.  Integers
 * only.  Return 0, or -1 with a reason in err (size errn).
 */
int sc_value_parse(enum sc_key k, const char *text, struct sc_value *out,
		   char *err, size_t errn);

/*
 * Check *v against what a kernel of profile p accepts for knob k
 * (kernel-notes.md section 5): min_free_kbytes 0..INT_MAX,
 * watermark_scale_factor 1..p->wsf_max, watermark_boost_factor and
 * extra_free_kbytes 0..INT_MAX, lowmem_reserve_ratio entries 0..INT_MAX
 * (1..INT_MAX up to 4.16, which turns 0 into 1) and exactly want_n of them (the count the kernel prints; 0 = any).
 * Return 0, or -1 with a reason in err.
 */
int sc_value_check(enum sc_key k, const struct sc_value *v,
		   const struct wm_profile *p, int want_n, char *err,
		   size_t errn);

/*
 * Format *v as the text to write: "120\n", "64 64 16 0 0\n" (space
 * separated; the kernel prints the list with tabs but reads any blank).
 * Return the length, or -1 if it does not fit in n.
 */
int sc_value_format(const struct sc_value *v, char *buf, size_t n);

/* Same numbers in the same order. */
bool sc_value_equal(const struct sc_value *a, const struct sc_value *b);

/*
 * Resolve knob k under root into out (size n), which becomes
 * "<realpath(root)>/proc/sys/vm/<name>".  Return 0; -ENOENT if the knob
 * (or the root) does not exist; -EXDEV if the file resolves anywhere
 * else (a symlink); -ENAMETOOLONG; or another -errno from realpath.
 */
int sc_path(const char *root, enum sc_key k, char *out, size_t n);

/*
 * Read a knob file (a path from sc_path) into buf (size n), NUL
 * terminated, exactly as the kernel prints it.  Return the length or
 * -errno (-EFBIG if it does not fit).
 */
int sc_read(const char *path, char *buf, size_t n);

/*
 * Read a knob back after writing it: sc_read, plus the test hook below.
 */
int sc_read_back(const char *path, char *buf, size_t n);

/*
 * Write text (length len) to a knob file in one write(), as the kernel
 * wants it (a proc sysctl ignores writes at a non-zero offset), then
 * close; a short write, a write error or a close error all fail.  Does
 * not create files.  Return 0 or -errno.
 */
int sc_write(const char *path, const char *text, size_t len);

/* One assignment of a sysctl.d(5) file. */
struct sc_conf_line {
	int line;			/* 1-based */
	bool ignore_failure;		/* written with a leading '-' */
	char key[128];			/* dotted form: "vm.min_free_kbytes" */
	char value[256];		/* trimmed */
};

/*
 * Read the next assignment of a sysctl.d(5) text buf[0..len) from *pos
 * (start at 0 with *line 0).  Blank lines and lines starting with '#' or
 * ';' are skipped; "key = value", "key=value" and "-key = value" are
 * assignments; a key written with '/' separators is turned into the
 * dotted form the way systemd-sysctl does.  Return 1 with *out filled,
 * 0 at the end, or -1 for a malformed line (out->line says which); the
 * next call goes on after it.
 */
int sc_conf_next(const char *buf, size_t len, size_t *pos, int *line,
		 struct sc_conf_line *out);

/*
 * Test aid: a step boundary that a crash or stop can be injected at
 * (see WMARK_FAULT in sysctl.c).  Called before every sysctl write and
 * by the journal before it renames a new state into place.
 */
void sc_fault_step(void);

#endif /* WMARK_SYSCTL_H */
