/* SPDX-License-Identifier: MIT */
/*
 * persist.h - make applied values survive a reboot: a sysctl.d(5) file,
 * or an Android init .rc fragment, and the other sysctl.d files that
 * would override ours.
 */
#ifndef WMARK_PERSIST_H
#define WMARK_PERSIST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "sysctl.h"

/* One knob to persist. */
struct ps_item {
	enum wm_knob key;
	struct sc_value val;
};

/*
 * The text of a sysctl.d file: each line of header (may be NULL; lines
 * separated by '\n') as a "# " comment, a blank line, then one
 * "vm.NAME = VALUE" line per item.  Return a malloc'd string or NULL.
 */
char *ps_sysctl_d_text(const char *header, const struct ps_item *it, int n);

/*
 * The text of an Android init fragment: header comments, then
 * "on property:sys.boot_completed=1" and one "write /proc/sys/vm/NAME V"
 * line per item (a list value quoted).  Return a malloc'd string or NULL.
 */
char *ps_initrc_text(const char *header, const struct ps_item *it, int n);

/* The first line of every file wmark writes begins so. */
#define PS_MARK "# Written by wmark"

/*
 * Where FILE goes for a machine at root: FILE must be absolute, and lies
 * inside the root ("<root>/etc/sysctl.d/90-wmark.conf").  Return 0;
 * -EINVAL for a relative FILE or one with a "." or ".." component;
 * -EISDIR for one that ends in "/"; -ENAMETOOLONG.
 */
int ps_target(const char *root, const char *file, char *out, size_t n);

enum ps_kind {
	PS_ABSENT,	/* no such file yet */
	PS_OURS,	/* its first line begins with PS_MARK */
	PS_FOREIGN,	/* anything else: someone else's file */
};

/*
 * Look at target (from ps_target) before writing or removing it, by the
 * rule that guards the knobs: the directories on the way that exist must
 * resolve inside realpath(root), and target must be absent or a regular
 * file.  Set *kind, and for a file read its text into buf (size n, NUL
 * terminated).  Return 0; -EXDEV if a symlink on the way leads out of the
 * root; -ELOOP if target is a symlink; -EISDIR; -ENOTDIR; -ENXIO for a
 * file that is not regular; -EFBIG if the text does not fit in buf;
 * -EILSEQ if it holds a NUL byte; or another -errno.
 */
int ps_inspect(const char *root, const char *target, enum ps_kind *kind,
	       char *buf, size_t n);

/* One later assignment of a knob we persist: it wins over ours. */
struct ps_override {
	char file[PATH_MAX];	/* as the machine names it: "/etc/sysctl.conf" */
	int line;
	enum wm_knob key;
	char value[256];
};

struct ps_report {
	bool read_at_boot;	/* ours is in a directory sysctl --system reads */
	char masked_by[PATH_MAX];	/* a same-name file that hides ours */
	struct ps_override *ov;	/* malloc'd, in the order they apply */
	size_t nov;
};

/*
 * Scan the sysctl.d directories under root in procps/systemd order
 * (/etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d,
 * /lib/sysctl.d: a name in an earlier directory masks the same name in a
 * later one; the files that remain apply in name order, later names
 * winning; /etc/sysctl.conf applies last) as if target (from ps_target)
 * held settings for the given knobs, and fill *rep with whether target is
 * read at all, what masks it, and every assignment applied after it that
 * sets one of the knobs.  Return 0 or -ENOMEM.  Free with ps_report_free.
 */
int ps_scan(const char *root, const char *target, const enum wm_knob *keys,
	    int nkeys, struct ps_report *rep);

void ps_report_free(struct ps_report *rep);

#endif /* WMARK_PERSIST_H */
