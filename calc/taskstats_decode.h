/* SPDX-License-Identifier: MIT */
/*
 * taskstats_decode.h - decode the kernel's taskstats replies from bytes.
 *
 * The TASKSTATS generic netlink family answers a query, or reports a task
 * exit, with a message whose payload is a stream of netlink attributes:
 * a nest (AGGR_PID or AGGR_TGID) holding the id and a struct taskstats.
 * This module turns those bytes into a plain struct ts_stats.  It does no
 * I/O and knows nothing of sockets or libnl, so it can be fuzzed alone.
 *
 * struct taskstats only grows at its end, except once: version 15 (one
 * release) inserted max/min fields after every delay pair, which moved
 * every later field; version 16 put them back at the end.  Both are 560
 * bytes long, so the version field, not the length, chooses the layout.
 * The record is copied into a zeroed buffer of our own layout (never the
 * installed <linux/taskstats.h>, which lags behind running kernels), at
 * most as many bytes as either side has, and a field is reported only
 * when the version carries it and the bytes received cover it.
 */
#ifndef WMARK_TASKSTATS_DECODE_H
#define WMARK_TASKSTATS_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wmark.h"

/* Netlink attribute types of the family (stable kernel ABI). */
enum {
	TS_TYPE_PID = 1,	/* u32 */
	TS_TYPE_TGID = 2,	/* u32 */
	TS_TYPE_STATS = 3,	/* struct taskstats */
	TS_TYPE_AGGR_PID = 4,	/* nest: PID + STATS */
	TS_TYPE_AGGR_TGID = 5,	/* nest: TGID + STATS */
	TS_TYPE_NULL = 6,	/* padding so STATS lands 8-byte aligned */
};

/* Attributes of a request (TASKSTATS_CMD_ATTR_*). */
enum {
	TS_CMD_ATTR_PID = 1,
	TS_CMD_ATTR_TGID = 2,
	TS_CMD_ATTR_REGISTER_CPUMASK = 3,
	TS_CMD_ATTR_DEREGISTER_CPUMASK = 4,
};

enum { TS_CMD_GET = 1, TS_CMD_NEW = 2 };

/* The kinds of delay the kernel accounts, in the order of its struct. */
enum ts_kind {
	TS_CPU,		/* runnable, waiting for a CPU */
	TS_BLKIO,	/* synchronous block I/O */
	TS_SWAPIN,	/* swapping a page in */
	TS_FREEPAGES,	/* direct reclaim */
	TS_THRASHING,	/* waiting on a refaulting (thrashing) page */
	TS_COMPACT,	/* direct compaction */
	TS_WPCOPY,	/* write-protect copy (copy on write fault) */
	TS_IRQ,		/* time stolen by IRQ/softirq while running */
	TS_NKINDS
};

struct ts_delay {
	uint64_t count;		/* delays recorded */
	uint64_t total_ns;	/* their sum; the kernel resets it to 0 on overflow */
	uint64_t max_ns;	/* longest single delay (valid if have_minmax) */
	uint64_t min_ns;	/* shortest single delay (valid if have_minmax) */
};

/* One struct taskstats, normalised across versions. */
struct ts_stats {
	unsigned version;	/* the record's struct version */
	size_t wire_len;	/* bytes the kernel sent */
	bool truncated;		/* fewer bytes than the version defines */
	bool oversized;		/* more bytes than we know: newer kernel */

	uint32_t pid, ppid, tgid, uid, gid;
	uint32_t exitcode;
	uint8_t flag;		/* AFORK, ASU, ... from <linux/acct.h> */
	char comm[33];		/* NUL-terminated */
	uint64_t btime_s;	/* start, seconds since 1970 */
	uint64_t etime_us;	/* elapsed since start; for a tgid, summed over threads */
	uint64_t utime_us, stime_us;
	uint64_t run_real_ns, run_virtual_ns;
	uint64_t nvcsw, nivcsw;
	uint64_t minflt, majflt;

	unsigned have;		/* bit (1u << kind) set where count/total are valid */
	bool have_minmax;	/* max_ns/min_ns are valid */
	struct ts_delay d[TS_NKINDS];
};

/* A whole reply or exit message: what its attributes carried. */
struct ts_record {
	bool has_pid, has_tgid;
	uint32_t pid, tgid;	/* from the PID / TGID attributes */
	struct ts_stats pid_stats, tgid_stats;
};

/* Bytes of struct taskstats at a version: 0 if unknown (below 8). */
size_t ts_wire_size(unsigned version);

/* Bytes of the largest layout this module knows. */
size_t ts_wire_max(void);

/* Lowest struct version that carries a kind's count and total. */
unsigned ts_kind_since(enum ts_kind kind);

/*
 * Decode one TASKSTATS_TYPE_STATS payload of len bytes into *out (zeroed
 * first).  Return WM_OK, or WM_EPARSE with diag (may be NULL): key
 * "version" for too few bytes for the version header or a version of 0
 * (not a taskstats record).  A record shorter than its version defines is
 * decoded as far as it goes and marked truncated; a longer one is marked
 * oversized.
 */
int ts_decode_stats(const void *buf, size_t len, struct ts_stats *out, struct wm_diag *diag);

/*
 * Decode the attribute stream of a TASKSTATS message (the bytes after the
 * generic netlink header) into *out (zeroed first).  Unknown attributes
 * and padding are skipped wherever they sit.  Return WM_OK when at least
 * one stats record was found; WM_ENODATA when the stream is well formed
 * but holds none; WM_EPARSE with diag (key "attribute": a length that is
 * impossible) or an error of ts_decode_stats.
 */
int ts_decode_attrs(const void *buf, size_t len, struct ts_record *out, struct wm_diag *diag);

#endif /* WMARK_TASKSTATS_DECODE_H */
