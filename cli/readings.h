/* SPDX-License-Identifier: MIT */
/*
 * readings.h - the file `wmark recommend --record` writes, read one
 * reading at a time for `recommend --replay` and `tune --replay`.
 *
 * The text itself is parsed in calc/replay.c; this is the part with a
 * file in it: opening, the header against the machine replayed, comment
 * and blank lines, and the rules that make a file one recording of one
 * boot (time moves forward, no counter goes backwards).  Each fault is
 * printed once, in one wording for both commands, naming FILE:LINE.
 * And the live reading both commands take each period: vmstat and PSI.
 */
#ifndef WMARK_READINGS_H
#define WMARK_READINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../calc/boost.h"
#include "../calc/recommend.h"

struct readings {
	const char *cmd;		/* the command, for messages */
	const char *path;		/* as given: "-" is standard input */
	FILE *f;
	char *line;
	size_t cap;
	size_t lineno;			/* of the line last read */
	size_t nzones;
	struct wm_rec_sample prev;	/* the reading before, when have_prev */
	bool have_prev;
};

/*
 * Open path ("-": standard input) for cmd and read its header: the file
 * must be a recording of nzones zones, the number root (the machine or
 * capture replayed against) has.  Return EXIT_OK, or EXIT_USAGE after a
 * message naming the file (it cannot be opened, is empty, is not a
 * recording, or has another number of zones).  readings_close() either
 * way.
 */
int readings_open(struct readings *rd, const char *cmd, const char *path, size_t nzones,
		  const char *root);

/*
 * The next reading into *s and obs[0..nzones), skipping comment and
 * blank lines; *done (and nothing read) at the end of the file.  Return
 * EXIT_OK; EXIT_USAGE after a message naming FILE:LINE for a line that
 * does not parse, a time not later than the reading before, or a counter
 * (or the pressure totals) that went backwards; EXIT_SYSTEM for a read
 * error.
 */
int readings_next(struct readings *rd, struct wm_rec_sample *s, struct wm_boost_obs *obs,
		  bool *done);

/* Close the file (not standard input) and free the line buffer. */
void readings_close(struct readings *rd);

/*
 * One live reading of root: proc/vmstat's counters into smp, and
 * proc/pressure/memory's totals (smp->psi) where the kernel has them
 * (4.20+, psi=1; a file that is absent or not allowed is no PSI, one that
 * is there but unreadable or wrong is an error).  EXIT_OK, or an exit
 * code after a message naming the path, with cmd.
 */
int readings_live(const char *cmd, const char *root, struct wm_rec_sample *smp);

/* vmstat text buf[len] (named what in messages) into smp; EXIT_OK or an exit code. */
int readings_parse_vmstat(const char *cmd, const char *what, const char *buf, size_t len,
			  struct wm_rec_sample *smp);

/* memory PSI text buf[len] into smp's totals; EXIT_OK or an exit code. */
int readings_parse_psi(const char *what, const char *buf, size_t len, struct wm_rec_sample *smp);

#endif /* WMARK_READINGS_H */
