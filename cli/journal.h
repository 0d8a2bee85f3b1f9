/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the state journal of apply and rollback, and atomic file
 * replacement.
 *
 * apply records every knob's previous text (exactly as the kernel printed
 * it) and the text it is about to write, and commits that record to disk
 * before the first write.  A crash at any point therefore leaves each
 * knob at either its previous or its written value, and the journal says
 * which two values those are: rollback needs nothing else.
 */
#ifndef WMARK_JOURNAL_H
#define WMARK_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysctl.h"

#define JR_DEFAULT_PATH "var/lib/wmark/state.json"	/* under --root */
#define JR_TEXT_MAX 128		/* a knob's text: "256\t256\t32\t0\t0\n" */

enum jr_state {
	JR_PENDING,	/* committed before the writes; they may be partial */
	JR_APPLIED,	/* every write done and read back */
	JR_RESTORED,	/* a write failed and the previous values are back */
	JR_ROLLED_BACK,	/* rollback restored the previous values */
};

struct jr_entry {
	enum wm_knob key;
	char previous[JR_TEXT_MAX];	/* as read before the first apply */
	char written[JR_TEXT_MAX];	/* as written */
	/*
	 * As read just before the last apply, when that was not previous
	 * (an earlier apply's written text), else "".  Until the last apply
	 * has written this knob, the knob may still hold it: it is ours too.
	 */
	char before[JR_TEXT_MAX];
};

#define JR_MAX_FILES 4		/* --persist and --initrc targets per session */
#define JR_FILE_MAX 16384	/* the most of a replaced file the journal keeps */

/* A file --persist or --initrc wrote, and what it held before. */
struct jr_file {
	char path[PATH_MAX];		/* as written: "<root>/etc/sysctl.d/90-wmark.conf" */
	bool existed;			/* false: rollback removes it */
	char previous[JR_FILE_MAX];	/* its text before the first apply, if existed */
};

struct journal {
	enum jr_state state;
	char root[PATH_MAX];		/* realpath of the root it was for */
	char kernel[128];		/* osrelease, "" if unknown */
	char boot_id[64];		/* proc/sys/kernel/random/boot_id, or "" */
	long long time;			/* seconds since the epoch, of the apply */
	char command[512];		/* the command line, for people */
	int n;
	struct jr_entry e[WM_NKNOBS];
	int nfiles;
	struct jr_file f[JR_MAX_FILES];
};

const char *jr_state_name(enum jr_state s);

/* "<root>/var/lib/wmark/state.json" into out (size n); 0 or -ENAMETOOLONG. */
int jr_default_path(const char *root, char *out, size_t n);

/*
 * Replace path with data[0..len) atomically: a temporary file in the
 * same directory, written, fsync'ed and given mode, then renamed over
 * path, then the directory fsync'ed, so a crash leaves the old file or
 * the new one.  Temporary files of path that a killed process left
 * ("<path>.tmpXXXXXX") are removed after the rename.  before_rename (may be NULL) runs between fsync and
 * rename.  Return 0 or -errno; *failed (may be NULL) names the call.
 */
int jr_write_atomic(const char *path, const char *data, size_t len,
		    mode_t mode, void (*before_rename)(void),
		    const char **failed);

/*
 * Remove path (gone already is fine), and its temporary files as
 * jr_write_atomic does, and fsync its directory, so that the removal is
 * durable.  Return 0 or -errno; *failed names the call.
 */
int jr_remove(const char *path, const char **failed);

/*
 * Remove the temporary files of path ("<path>.tmpXXXXXX") that a killed
 * jr_write_atomic left, without replacing path: for the files a command
 * finds already as it wants them.
 */
void jr_remove_stale(const char *path);

/*
 * Create path's directory (and its parents, mode 0755) if missing and
 * check that this process may create files in it.  Return 0 or -errno
 * (-EACCES, -EROFS, ...); *failed names the call.
 */
int jr_prepare_dir(const char *path, const char **failed);

/*
 * Commit *j to path (jr_write_atomic; sc_fault_step runs before the
 * rename).  Return 0 or -errno with *failed naming the call.
 */
int jr_save(const char *path, const struct journal *j, const char **failed);

/*
 * Load path into *j.  Return 0; -ENOENT if there is no journal; -EINVAL
 * if it is not one of ours or a text in it is not a value of its knob
 * (diag->msg says why, control characters escaped); -ELOOP if path is a
 * symbolic link (never followed); or another -errno (diag->msg names it).
 */
int jr_load(const char *path, struct journal *j, struct wm_diag *diag);

#endif /* WMARK_JOURNAL_H */
