// SPDX-License-Identifier: MIT
/*
 * taskstats.c - the TASKSTATS generic netlink family through libnl-genl.
 *
 * The kernel side is kernel/taskstats.c.  Three things shape this file:
 *
 * - libnl asks for an ACK on every request (auto-ACK), and the kernel
 *   sends it as a separate message after the reply.  A query that
 *   returned on the reply would leave its ACK for the next query to
 *   read.  So every request waits for the ACK carrying its own sequence
 *   number, and replies or ACKs of any other sequence (a request that
 *   timed out) are skipped.
 * - Exit records come unsolicited with port id 0 and a per-CPU sequence
 *   of the kernel's, which can equal ours: the port id, not the
 *   sequence, tells them apart from replies.
 * - When the receive buffer is full the kernel drops records and the
 *   next recvmsg fails with ENOBUFS (libnl calls it NLE_NOMEM).  That is
 *   reported as TS_ENOBUFS and the socket stays in use.
 *
 * Waiting is done with poll() on a non-blocking socket, so timeouts and
 * signals behave the same whichever libnl version is installed.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include "taskstats.h"

const char *ts_strerror(int code)
{
	switch (code) {
	case TS_OK:
		return "success";
	case TS_ENOTBUILT:
		return "not built in (this wmark was built without libnl)";
	case TS_EPERM:
		return "permission denied: taskstats needs CAP_NET_ADMIN";
	case TS_ENOFAMILY:
		return "no TASKSTATS generic netlink family";
	case TS_ESRCH:
		return "no such task";
	case TS_ETIMEDOUT:
		return "no answer from the kernel in time";
	case TS_ENOBUFS:
		return "receive buffer overflow (ENOBUFS): records were lost";
	case TS_EPROTO:
		return "a reply that could not be decoded";
	case TS_EINTR:
		return "interrupted";
	default:
		return "system error";
	}
}

static int fail(struct ts_error *err, int code, int errno_val,
		const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct ts_error *err, int code, int errno_val,
		const char *detail, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		err->errno_val = errno_val;
		err->detail = detail;
		va_start(ap, fmt);
		vsnprintf(err->call, sizeof(err->call), fmt, ap);
		va_end(ap);
	}
	return code;
}

#ifdef WM_NO_LIBNL

int ts_open(struct ts_sock **out, int timeout_ms, struct ts_error *err)
{
	*out = NULL;
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

void ts_close(struct ts_sock *ts)
{
	(void)ts;
}

int ts_query_pid(struct ts_sock *ts, uint32_t pid, struct ts_stats *out,
		 struct ts_error *err)
{
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

int ts_query_tgid(struct ts_sock *ts, uint32_t tgid, struct ts_stats *out,
		  struct ts_error *err)
{
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

int ts_listen(struct ts_sock *ts, const char *cpumask, int rcvbuf_bytes,
	      struct ts_error *err)
{
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

int ts_next_exit(struct ts_sock *ts, int timeout_ms, struct ts_record *out,
		 struct ts_error *err)
{
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

int ts_drain_exits(struct ts_sock *ts, int timeout_ms, ts_exit_cb *cb, void *arg,
		   uint64_t *overruns, uint64_t *undecodable, struct ts_error *err)
{
	return fail(err, TS_ENOTBUILT, 0, NULL, "taskstats");
}

#else /* libnl */

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#define TS_QUEUE 32		/* exit records held between two calls */
#define TS_MSG_BUF 65536	/* one recvmsg: a record is under 1 KiB */

struct ts_sock {
	struct nl_sock *sk;
	struct nl_cb *cb;
	int family;
	int timeout_ms;
	uint32_t port;		/* our netlink port id */
	char *cpumask;		/* registered, for deregistration */
	bool listening;

	/* the request in flight */
	uint32_t seq;
	bool done, got;
	int kerr;		/* errno from the kernel's NLMSG_ERROR, > 0 */
	int decode_rc;
	struct ts_record reply;

	/* exit records received, not yet handed out */
	struct ts_record q[TS_QUEUE];
	int qhead, qlen;
	uint64_t qdropped, undecodable;
};

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Our own sequence matching replaces libnl's strict ordering check. */
static int on_seq_check(struct nl_msg *msg, void *arg)
{
	return NL_OK;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct ts_sock *ts = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh;
	struct ts_record rec;
	int rc;

	if (nlh->nlmsg_type != ts->family || !genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	gh = nlmsg_data(nlh);
	rc = ts_decode_attrs(genlmsg_attrdata(gh, 0),
			     (size_t)genlmsg_attrlen(gh, 0), &rec, NULL);

	if (nlh->nlmsg_pid == 0) {	/* an exit record */
		if (!ts->listening)
			return NL_SKIP;
		if (rc < 0) {
			ts->undecodable++;
			return NL_OK;
		}
		if (ts->qlen == TS_QUEUE) {
			ts->qdropped++;
			return NL_OK;
		}
		ts->q[(ts->qhead + ts->qlen) % TS_QUEUE] = rec;
		ts->qlen++;
		return NL_OK;
	}
	if (nlh->nlmsg_seq != ts->seq)
		return NL_SKIP;		/* the reply to a request we gave up on */
	ts->got = true;
	ts->decode_rc = rc;
	ts->reply = rec;
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct ts_sock *ts = arg;

	if (nlmsg_hdr(msg)->nlmsg_seq != ts->seq)
		return NL_OK;		/* a stale ACK: keep reading */
	ts->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct ts_sock *ts = arg;

	if (e->msg.nlmsg_seq != ts->seq)
		return NL_SKIP;
	ts->kerr = -e->error;
	ts->done = true;
	return NL_STOP;
}

int ts_open(struct ts_sock **out, int timeout_ms, struct ts_error *err)
{
	struct ts_sock *ts;
	int rc;

	*out = NULL;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return fail(err, TS_ESYS, ENOMEM, NULL, "calloc");
	ts->timeout_ms = timeout_ms > 0 ? timeout_ms : 2000;
	ts->sk = nl_socket_alloc();
	ts->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!ts->sk || !ts->cb) {
		rc = fail(err, TS_ESYS, ENOMEM, NULL, "nl_socket_alloc");
		goto out;
	}
	rc = genl_connect(ts->sk);
	if (rc < 0) {
		rc = fail(err, TS_ESYS, errno, nl_geterror(rc), "genl_connect");
		goto out;
	}
	rc = genl_ctrl_resolve(ts->sk, "TASKSTATS");
	if (rc < 0) {
		rc = fail(err, rc == -NLE_OBJ_NOTFOUND ? TS_ENOFAMILY : TS_ESYS,
			  0, nl_geterror(rc), "genl_ctrl_resolve TASKSTATS");
		goto out;
	}
	ts->family = rc;
	ts->port = nl_socket_get_local_port(ts->sk);

	nl_socket_disable_msg_peek(ts->sk);
	nl_socket_set_msg_buf_size(ts->sk, TS_MSG_BUF);
	rc = nl_socket_set_nonblocking(ts->sk);
	if (rc < 0) {
		rc = fail(err, TS_ESYS, errno, nl_geterror(rc), "O_NONBLOCK");
		goto out;
	}
	nl_cb_set(ts->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_check, ts);
	nl_cb_set(ts->cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, ts);
	nl_cb_set(ts->cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, ts);
	nl_cb_err(ts->cb, NL_CB_CUSTOM, on_error, ts);
	*out = ts;
	return TS_OK;
out:
	ts_close(ts);
	return rc;
}

/*
 * Read whatever is waiting, for at most until deadline (ms, monotonic).
 * Return TS_OK once something was read, TS_ETIMEDOUT, TS_EINTR,
 * TS_ENOBUFS or TS_ESYS.
 */
static int receive(struct ts_sock *ts, long long deadline, struct ts_error *err)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(ts->sk), .events = POLLIN };
	long long left = deadline - now_ms();
	int rc;

	if (left < 0)
		left = 0;
	rc = poll(&pfd, 1, (int)(left > 60000 ? 60000 : left));
	if (rc < 0)
		return errno == EINTR ? fail(err, TS_EINTR, EINTR, NULL, "poll")
				      : fail(err, TS_ESYS, errno, NULL, "poll");
	if (rc == 0)
		return now_ms() >= deadline ?
		       fail(err, TS_ETIMEDOUT, ETIMEDOUT, NULL, "recvmsg") :
		       TS_OK;
	errno = 0;
	rc = nl_recvmsgs(ts->sk, ts->cb);
	if (rc == -NLE_NOMEM)	/* ENOBUFS maps to this code in libnl */
		return fail(err, TS_ENOBUFS, ENOBUFS, nl_geterror(rc), "recvmsg");
	if (rc < 0 && rc != -NLE_AGAIN)
		return fail(err, TS_ESYS, errno, nl_geterror(rc), "nl_recvmsgs");
	return TS_OK;
}

/*
 * Send a TASKSTATS_CMD_GET with one attribute (a u32, or a string when s
 * is set) and wait for its ACK.  The reply, if any, is in ts->reply.
 */
static int request(struct ts_sock *ts, int attr, uint32_t id, const char *s,
		   const char *what, struct ts_error *err)
{
	struct nl_msg *msg;
	long long deadline;
	int rc;

	msg = nlmsg_alloc();
	if (!msg)
		return fail(err, TS_ESYS, ENOMEM, NULL, "nlmsg_alloc");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ts->family, 0, 0,
			 TS_CMD_GET, 1) ||
	    (s ? nla_put_string(msg, attr, s) : nla_put_u32(msg, attr, id)) < 0) {
		nlmsg_free(msg);
		return fail(err, TS_ESYS, EMSGSIZE, NULL, "%s: build", what);
	}
	rc = nl_send_auto(ts->sk, msg);
	ts->seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (rc < 0)
		return fail(err, TS_ESYS, errno, nl_geterror(rc), "%s: send", what);

	ts->done = ts->got = false;
	ts->kerr = 0;
	ts->decode_rc = 0;
	deadline = now_ms() + ts->timeout_ms;
	while (!ts->done) {
		rc = receive(ts, deadline, err);
		/* libnl turns the kernel's error into its own return code,
		 * which on_error has already recorded. */
		if (ts->done)
			break;
		/* An overflow here only cost exit records; the reply may follow. */
		if (rc < 0 && rc != TS_ENOBUFS) {
			if (err)
				snprintf(err->call, sizeof(err->call), "%s", what);
			return rc;
		}
	}
	switch (ts->kerr) {
	case 0:
		return TS_OK;
	case EPERM:
	case EACCES:
		return fail(err, TS_EPERM, ts->kerr, NULL, "%s", what);
	case ESRCH:
		return fail(err, TS_ESRCH, ts->kerr, NULL, "%s", what);
	default:
		return fail(err, TS_ESYS, ts->kerr, NULL, "%s", what);
	}
}

static int query(struct ts_sock *ts, int attr, uint32_t id, bool tgid,
		 struct ts_stats *out, struct ts_error *err)
{
	char what[48];
	int rc;

	snprintf(what, sizeof(what), "query %s %u", tgid ? "tgid" : "pid", id);
	rc = request(ts, attr, id, NULL, what, err);
	if (rc < 0)
		return rc;
	if (!ts->got || ts->decode_rc < 0 ||
	    (tgid ? !ts->reply.has_tgid : !ts->reply.has_pid))
		return fail(err, TS_EPROTO, 0, NULL, "%s", what);
	*out = tgid ? ts->reply.tgid_stats : ts->reply.pid_stats;
	return TS_OK;
}

int ts_query_pid(struct ts_sock *ts, uint32_t pid, struct ts_stats *out,
		 struct ts_error *err)
{
	return query(ts, TS_CMD_ATTR_PID, pid, false, out, err);
}

int ts_query_tgid(struct ts_sock *ts, uint32_t tgid, struct ts_stats *out,
		  struct ts_error *err)
{
	return query(ts, TS_CMD_ATTR_TGID, tgid, true, out, err);
}

int ts_listen(struct ts_sock *ts, const char *cpumask, int rcvbuf_bytes,
	      struct ts_error *err)
{
	int fd = nl_socket_get_fd(ts->sk), rc;

	if (rcvbuf_bytes > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf_bytes,
		       sizeof(rcvbuf_bytes)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf_bytes,
		       sizeof(rcvbuf_bytes)) < 0)
		return fail(err, TS_ESYS, errno, NULL, "setsockopt SO_RCVBUF");
	free(ts->cpumask);
	ts->cpumask = strdup(cpumask);
	if (!ts->cpumask)
		return fail(err, TS_ESYS, ENOMEM, NULL, "strdup");
	/* Records may arrive before the ACK: queue them from now on. */
	ts->listening = true;
	rc = request(ts, TS_CMD_ATTR_REGISTER_CPUMASK, 0, cpumask,
		     "register cpumask", err);
	if (rc < 0)
		ts->listening = false;
	return rc;
}

int ts_next_exit(struct ts_sock *ts, int timeout_ms, struct ts_record *out,
		 struct ts_error *err)
{
	long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	int rc;

	for (;;) {
		if (ts->qlen) {
			*out = ts->q[ts->qhead];
			ts->qhead = (ts->qhead + 1) % TS_QUEUE;
			ts->qlen--;
			return TS_OK;
		}
		rc = receive(ts, deadline, err);
		if (rc < 0)
			return rc;
		if (!ts->qlen && now_ms() >= deadline)
			return fail(err, TS_ETIMEDOUT, ETIMEDOUT, NULL, "recvmsg");
	}
}

#define TS_DRAIN_BATCH 64	/* datagrams per recvmmsg */
#define TS_DRAIN_MAX 2048	/* datagrams per drain (4 MiB), then decode */
#define TS_DGRAM 2048		/* bytes: an exit record is about 500 */

/* One exit record datagram, as the kernel sent it: decode it for cb. */
static int decode_exit(const struct ts_sock *ts, const char *buf, size_t len,
		       ts_exit_cb *cb, void *arg, uint64_t *undecodable)
{
	const struct nlmsghdr *nlh = (const void *)buf;
	struct ts_record rec;
	int n = 0;

	for (; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		const struct genlmsghdr *gh;
		size_t alen;

		/* exit records come with port id 0; anything else is no record */
		if (nlh->nlmsg_type != ts->family || nlh->nlmsg_pid != 0 ||
		    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			continue;
		gh = NLMSG_DATA(nlh);
		alen = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		if (ts_decode_attrs((const char *)gh + GENL_HDRLEN, alen, &rec, NULL) < 0) {
			(*undecodable)++;
			continue;
		}
		cb(&rec, arg);
		n++;
	}
	return n;
}

int ts_drain_exits(struct ts_sock *ts, int timeout_ms, ts_exit_cb *cb, void *arg,
		   uint64_t *overruns, uint64_t *undecodable, struct ts_error *err)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(ts->sk), .events = POLLIN };
	static char bufs[TS_DRAIN_MAX][TS_DGRAM];
	static unsigned lens[TS_DRAIN_MAX];
	struct mmsghdr mm[TS_DRAIN_BATCH];
	struct iovec iov[TS_DRAIN_BATCH];
	int got = 0, rc, i, records = 0;

	/* records taken by ts_next_exit() and not yet handed out come first */
	while (ts->qlen) {
		cb(&ts->q[ts->qhead], arg);
		ts->qhead = (ts->qhead + 1) % TS_QUEUE;
		ts->qlen--;
		records++;
	}
	rc = poll(&pfd, 1, timeout_ms < 0 ? 0 : timeout_ms);
	if (rc < 0)
		return errno == EINTR ? fail(err, TS_EINTR, EINTR, NULL, "poll")
				      : fail(err, TS_ESYS, errno, NULL, "poll");
	if (rc == 0)
		return records;
	/* take everything waiting first: the kernel drops what does not fit */
	while (got < TS_DRAIN_MAX) {
		int want = TS_DRAIN_MAX - got < TS_DRAIN_BATCH ? TS_DRAIN_MAX - got : TS_DRAIN_BATCH;

		for (i = 0; i < want; i++) {
			iov[i] = (struct iovec){ bufs[got + i], TS_DGRAM };
			mm[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1 } };
		}
		rc = recvmmsg(pfd.fd, mm, (unsigned)want, MSG_DONTWAIT, NULL);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {	/* records were dropped; the socket goes on */
				(*overruns)++;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return fail(err, TS_ESYS, errno, NULL, "recvmmsg");
		}
		for (i = 0; i < rc; i++)
			lens[got + i] = (mm[i].msg_hdr.msg_flags & MSG_TRUNC) ? 0 : mm[i].msg_len;
		got += rc;
		if (rc < want)
			break;
	}
	/* and only then decode */
	for (i = 0; i < got; i++) {
		if (!lens[i]) {
			(*undecodable)++;	/* larger than any exit record */
			continue;
		}
		records += decode_exit(ts, bufs[i], lens[i], cb, arg, undecodable);
	}
	return records;
}

void ts_close(struct ts_sock *ts)
{
	struct nl_msg *msg;

	if (!ts)
		return;
	if (ts->listening && ts->cpumask) {
		/* Best effort: the kernel also drops a listener whose socket
		 * is gone, at its next exit record. */
		msg = nlmsg_alloc();
		if (msg && genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				       ts->family, 0, 0, TS_CMD_GET, 1) &&
		    nla_put_string(msg, TS_CMD_ATTR_DEREGISTER_CPUMASK,
				   ts->cpumask) == 0)
			nl_send_auto(ts->sk, msg);
		nlmsg_free(msg);
	}
	if (ts->sk)
		nl_socket_free(ts->sk);
	if (ts->cb)
		nl_cb_put(ts->cb);
	free(ts->cpumask);
	free(ts);
}

#endif /* WM_NO_LIBNL */
