/* SPDX-License-Identifier: MIT */
/*
 * taskstats.h - per-task delay accounting from the kernel's TASKSTATS
 * generic netlink family, through libnl-genl.
 *
 * One handle is one netlink socket.  A handle either answers queries (by
 * pid or by tgid, one at a time, each waited for up to its ACK) or, once
 * ts_listen() registered a cpumask on it, delivers the records the kernel
 * sends when tasks exit.  Nothing here prints: results come back as plain
 * structs (calc/taskstats_decode.h) and errors as TS_E* codes with the
 * failing call and errno in a struct ts_error.
 *
 * Built with WM_NO_LIBNL, every function fails with TS_ENOTBUILT.
 */
#ifndef WMARK_TASKSTATS_H
#define WMARK_TASKSTATS_H

#include <stdint.h>

#include "../calc/taskstats_decode.h"

enum ts_err {
	TS_OK = 0,
	TS_ENOTBUILT = -1,	/* built without libnl */
	TS_EPERM = -2,		/* the kernel wants CAP_NET_ADMIN */
	TS_ENOFAMILY = -3,	/* no TASKSTATS family in this network namespace */
	TS_ESRCH = -4,		/* no such pid or tgid */
	TS_ETIMEDOUT = -5,	/* nothing arrived within the timeout */
	TS_ENOBUFS = -6,	/* the socket buffer overflowed: records were lost */
	TS_EPROTO = -7,		/* a reply we could not decode */
	TS_ESYS = -8,		/* any other failure; see errno_val */
	TS_EINTR = -9,		/* a signal arrived while waiting */
};

struct ts_error {
	int code;		/* enum ts_err */
	int errno_val;		/* the system's errno, when there was one */
	char call[48];		/* what failed: "genl_connect", "query pid 42" */
	const char *detail;	/* libnl's own words, or NULL */
};

struct ts_sock;

/*
 * Open a generic netlink socket and resolve the TASKSTATS family.
 * timeout_ms bounds every later wait for a reply.  On success set *out
 * and return TS_OK; else return a TS_E* code with *err filled.
 */
int ts_open(struct ts_sock **out, int timeout_ms, struct ts_error *err);

/* Deregister (if ts_listen succeeded) and close; NULL is fine. */
void ts_close(struct ts_sock *ts);

/*
 * Ask for the delays of one task (pid, a thread id) or of a whole thread
 * group (tgid: the kernel sums its live threads).  Fill *out, return
 * TS_OK, or TS_ESRCH / TS_EPERM / TS_ETIMEDOUT / ... with *err filled.
 * Each call waits for the kernel's ACK of its own request, so the next
 * call never reads a stale one.
 */
int ts_query_pid(struct ts_sock *ts, uint32_t pid, struct ts_stats *out,
		 struct ts_error *err);
int ts_query_tgid(struct ts_sock *ts, uint32_t tgid, struct ts_stats *out,
		  struct ts_error *err);

/*
 * Register this socket for the exit records of tasks on the CPUs in
 * cpumask ("0-7", the kernel's cpulist syntax; it must be a subset of
 * the possible CPUs).  rcvbuf_bytes > 0 asks for that receive buffer (as
 * root past net.core.rmem_max; the sysctl itself is not changed).
 * Return TS_OK or a TS_E* code with *err filled.
 */
int ts_listen(struct ts_sock *ts, const char *cpumask, int rcvbuf_bytes,
	      struct ts_error *err);

/*
 * Wait up to timeout_ms for the next exit record and fill *out.
 * Return TS_OK, TS_ETIMEDOUT, TS_EINTR (a signal: check your flag and
 * call again), or TS_ENOBUFS: the kernel dropped records because the
 * receive buffer was full; the socket stays usable, call again.
 */
int ts_next_exit(struct ts_sock *ts, int timeout_ms, struct ts_record *out,
		 struct ts_error *err);

/*
 * The exit listener's fast path: wait at most timeout_ms for records,
 * then take every datagram waiting on the socket in a tight loop
 * (recvmmsg, never blocking, at most a few thousand), and only then
 * decode them, calling cb(rec, arg) for each exit record.  Add the
 * times the kernel dropped records (ENOBUFS) to *overruns and the
 * records that would not decode to *undecodable.  Return the number of
 * records handed to cb (0 after a quiet timeout), or TS_EINTR or TS_ESYS.
 */
typedef void ts_exit_cb(const struct ts_record *rec, void *arg);
int ts_drain_exits(struct ts_sock *ts, int timeout_ms, ts_exit_cb *cb, void *arg,
		   uint64_t *overruns, uint64_t *undecodable, struct ts_error *err);

/* A short English text for a TS_E* code. */
const char *ts_strerror(int code);

#endif /* WMARK_TASKSTATS_H */
