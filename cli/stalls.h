/* SPDX-License-Identifier: MIT */
/*
 * stalls.h - the parts of `wmark stalls`: cmd_stalls.c (taskstats
 * queries and exit records, the tasks seen, sorting, options) and
 * stalls_report.c (what is shown of each task, as text and JSON).  Both
 * read the same two tables: stalls_kinds[] (which delays) and the fields
 * of each (stalls_report.c), so a new column is one row.
 */
#ifndef WMARK_STALLS_H
#define WMARK_STALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "taskstats.h"

struct kind_desc {
	const char *label;	/* text table */
	const char *key;	/* JSON key: the kernel's own field prefix */
};

extern const struct kind_desc stalls_kinds[TS_NKINDS];

/* One task as reported: a lifetime total or a window's difference. */
struct view {
	unsigned have;			/* kinds the kernel carries */
	bool minmax;
	struct ts_delay d[TS_NKINDS];
	uint64_t wall_ns;		/* the task's time the totals cover */
	uint64_t run_ns;		/* of which it ran (sum_exec_runtime) */
};

struct task {
	uint32_t id;		/* pid, or tgid for a group row */
	bool group;		/* a --tgid row: the kernel's sum over threads */
	bool exited;
	bool have_first;	/* seen alive at the window's start */
	struct ts_stats first, last;
};

struct window {
	bool on;
	double seconds;		/* as measured */
	uint64_t exits;	/* exit records received */
	uint64_t overruns;	/* ENOBUFS: the kernel dropped records */
	int64_t lost;		/* exits the counters saw but no record told, or -1 */
	uint64_t queried;	/* live-task queries answered */
	unsigned scans;
};

struct report {
	unsigned version;	/* taskstats struct version seen */
	int delayacct;		/* 1 on, 0 off, -1 not known */
	bool enabled_by_us;
	struct window win;
	const struct task **rows;
	size_t nrows;
};

/* e's delays as reported: a lifetime total, or the window's difference. */
void stalls_view(const struct task *e, struct view *w);

/* The report on standard output as text or one JSON document; an exit code. */
int stalls_print(const struct report *r, enum cli_format format);

#endif /* WMARK_STALLS_H */
