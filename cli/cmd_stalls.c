// SPDX-License-Identifier: MIT
/*
 * cmd_stalls.c - `wmark stalls`: who stalled in direct reclaim (and in
 * the kernel's other accounted delays), per task, from taskstats.
 *
 * Two ways to look:
 *  - --pid/--tgid: one query each; lifetime totals, shares of the task's
 *    own elapsed time.
 *  - --all --duration S: exit records of every task for S seconds, plus a
 *    query of every live thread at the start, every --interval and at
 *    the end.  A task seen at the start is reported as the difference
 *    since then; one born inside the window with all it has.  The
 *    periodic queries also bound what an exit record lost to a full
 *    receive buffer would have said.
 *
 * Since 5.14 delay accounting is off unless kernel.task_delayacct is 1;
 * then only the CPU delay (from the scheduler's own statistics) is
 * counted.  --enable-delayacct turns it on for the run and puts the old
 * value back on every way out, Ctrl-C included.
 *
 * What is shown of each task is stalls_report.c's.
 */
#include <inttypes.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>


#include "beneath.h"
#include "cli.h"
#include "commands.h"
#include "explain.h"
#include "fmt.h"
#include "jsonw.h"
#include "sig.h"
#include "snapshot.h"
#include "stalls.h"
#include "taskstats.h"

/* ---- the tasks seen ---------------------------------------------------- */


struct tasks {
	struct task *v;
	size_t n, cap;
	size_t *slot;		/* open addressing: index + 1, 0 = empty */
	size_t nslot;
};

static size_t *tasks_find(struct tasks *t, uint32_t id)
{
	size_t i = (id * 2654435761u) & (t->nslot - 1);

	while (t->slot[i] && t->v[t->slot[i] - 1].id != id)
		i = (i + 1) & (t->nslot - 1);
	return &t->slot[i];
}

static int tasks_grow(struct tasks *t)
{
	size_t i, *old = t->slot, oldn = t->nslot;
	struct task *v;

	if (t->n == t->cap) {
		v = realloc(t->v, (t->cap ? t->cap * 2 : 256) * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = t->cap ? t->cap * 2 : 256;
	}
	if ((t->n + 1) * 2 <= t->nslot)
		return 0;
	t->nslot = oldn ? oldn * 2 : 1024;
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	if (!t->slot) {
		t->slot = old;
		t->nslot = oldn;
		return -1;
	}
	/* Later entries for a reused pid take the slot, as they should. */
	for (i = 0; i < t->n; i++)
		*tasks_find(t, t->v[i].id) = i + 1;
	free(old);
	return 0;
}

/* A new entry for id, the one its slot names from now on. */
static struct task *tasks_add(struct tasks *t, uint32_t id)
{
	struct task *e;

	if (tasks_grow(t) < 0)
		return NULL;
	e = &t->v[t->n++];
	memset(e, 0, sizeof(*e));
	e->id = id;
	*tasks_find(t, id) = t->n;
	return e;
}

static struct task *tasks_get(struct tasks *t, uint32_t id)
{
	size_t s;

	if (!t->nslot)
		return NULL;
	s = *tasks_find(t, id);
	return s ? &t->v[s - 1] : NULL;
}

/*
 * Record what is known of pid now: a live query or an exit record.  A
 * pid that exited, or whose start time changed, is a new task.
 */
static int tasks_note(struct tasks *t, const struct ts_stats *s, bool exited,
		      bool at_start)
{
	struct task *e = tasks_get(t, s->pid);

	/* The kernel derives btime from the clock minus the elapsed time, so
	 * it wobbles by a second between queries of the same task. */
	bool same_start = e && s->btime_s <= e->last.btime_s + 1 && s->btime_s + 1 >= e->last.btime_s;

	/*
	 * A live query answered before the task exited can be read after its
	 * exit record: it is older news of the same task, not a new one.
	 */
	if (e && e->exited && !exited && same_start && s->etime_us <= e->last.etime_us)
		return 0;
	if (e && (e->exited || s->etime_us < e->last.etime_us ||
		  s->btime_s > e->last.btime_s + 1 ||
		  s->btime_s + 1 < e->last.btime_s))
		e = NULL;
	if (!e) {
		e = tasks_add(t, s->pid);
		if (!e)
			return -1;
		if (at_start) {
			e->have_first = true;
			e->first = *s;
		}
	}
	e->last = *s;
	e->exited = exited;
	return 0;
}

/* ---- sorting ----------------------------------------------------------- */

static int sort_kind = TS_FREEPAGES;

static uint64_t sum_total(const struct view *w)
{
	uint64_t s = 0;
	int k;

	for (k = 0; k < TS_NKINDS; k++)
		s += w->d[k].total_ns;
	return s;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a;
	const struct task *y = *(const struct task *const *)b;
	struct view vx, vy;
	uint64_t sx, sy;

	stalls_view(x, &vx);
	stalls_view(y, &vy);
	sx = sort_kind < 0 ? sum_total(&vx) : vx.d[sort_kind].total_ns;
	sy = sort_kind < 0 ? sum_total(&vy) : vy.d[sort_kind].total_ns;
	if (sx != sy)
		return sx < sy ? 1 : -1;
	sx = sum_total(&vx);
	sy = sum_total(&vy);
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* ---- delay accounting switch ------------------------------------------ */

/* Read <root>/proc/sys/kernel/task_delayacct: 1, 0, or -1 if absent or
 * not a file (read_path() never waits on a FIFO). */
static int delayacct_read(const char *path)
{
	char *buf;
	size_t len;
	int v;

	if (read_path(path, READ_MAX, &buf, &len))
		return -1;
	v = atoi(buf) ? 1 : 0;
	free(buf);
	return v;
}

/* Write v to root's task_delayacct (bn_open: no link, inside root); 0 or an errno. */
static int delayacct_write(const char *root, int v)
{
	char buf[4];
	int fd, n, e = 0;

	e = -bn_open(root, "proc/sys/kernel/task_delayacct", O_WRONLY | O_TRUNC, 0, &fd);
	if (e)
		return e;
	n = snprintf(buf, sizeof(buf), "%d\n", v);
	if (write(fd, buf, (size_t)n) != n)
		e = errno ? errno : EIO;
	if (close(fd) < 0 && !e)
		e = errno;
	return e;
}

/* ---- live counters (for the lost-record estimate) ----------------------- */

/* Tasks created since boot ("processes" in /proc/stat) and alive now
 * (the total in /proc/loadavg).  false if either is unreadable. */
static bool read_task_counters(unsigned long long *forks, unsigned long long *threads)
{
	char line[256];
	bool got = false;
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long r;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "processes %llu", forks) == 1)
			got = true;
	fclose(f);
	f = fopen("/proc/loadavg", "re");
	if (!f)
		return false;
	if (fscanf(f, "%*s %*s %*s %llu/%llu", &r, threads) != 2)
		got = false;
	fclose(f);
	return got;
}

/* The kernel's possible CPUs, as a cpulist for the registration. */
static void possible_cpus(char *buf, size_t n)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)n, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	if (!buf[0])
		snprintf(buf, n, "0-%d", get_nprocs_conf() - 1);
}

/* ---- modes ----------------------------------------------------------------- */

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A taskstats failure as a one-line message and an exit code. */
static int ts_fail(const struct ts_error *e)
{
	switch (e->code) {
	case TS_ENOFAMILY:
		return cli_err(EXIT_SYSTEM, "stalls",
			       "%s: no TASKSTATS generic netlink family: the kernel lacks CONFIG_TASKSTATS, or this is a container's network namespace on a kernel that answers only in the initial one",
			       e->call);
	case TS_EPERM:
		return cli_err(EXIT_SYSTEM, "stalls",
			       "netlink TASKSTATS %s: permission denied: needs CAP_NET_ADMIN (run as root)",
			       e->call);
	case TS_ESRCH:
		return cli_err(EXIT_USAGE, "stalls", "%s: no such task", e->call);
	case TS_ENOTBUILT:
		return cli_err(EXIT_SYSTEM, "stalls", "%s", ts_strerror(e->code));
	default:
		if (e->errno_val)
			return cli_err(EXIT_SYSTEM, "stalls", "netlink TASKSTATS %s: %s",
				       e->call, strerror(e->errno_val));
		return cli_err(EXIT_SYSTEM, "stalls", "netlink TASKSTATS %s: %s%s%s",
			       e->call, ts_strerror(e->code),
			       e->detail ? ": " : "", e->detail ? e->detail : "");
	}
}

/*
 * Query every live thread under /proc and note it.  ESRCH (it exited
 * meanwhile) is fine; other failures end the run.
 */
static int scan_live(struct ts_sock *q, struct tasks *t, bool at_start,
		     struct report *r, struct ts_error *err)
{
	DIR *proc = opendir("/proc"), *td;
	struct dirent *p, *d;
	char path[64];
	int rc = TS_OK;

	if (!proc) {
		err->code = TS_ESYS;
		err->errno_val = errno;
		snprintf(err->call, sizeof(err->call), "opendir /proc");
		return TS_ESYS;
	}
	while (rc == TS_OK && !sig_stopped() && (p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/task", p->d_name);
		td = opendir(path);
		if (!td)
			continue;
		while ((d = readdir(td))) {
			struct ts_stats s;
			char *end;
			uint64_t tid = strtoull(d->d_name, &end, 10);

			if (d->d_name[0] < '1' || d->d_name[0] > '9' || *end)
				continue;
			rc = ts_query_pid(q, (uint32_t)tid, &s, err);
			if (rc == TS_ESRCH) {
				rc = TS_OK;
				continue;
			}
			if (rc != TS_OK)
				break;
			r->version = s.version;
			r->win.queried++;
			if (tasks_note(t, &s, false, at_start) < 0) {
				rc = TS_ESYS;
				err->code = TS_ESYS;
				err->errno_val = ENOMEM;
				snprintf(err->call, sizeof(err->call), "task table");
				break;
			}
		}
		closedir(td);
	}
	closedir(proc);
	r->win.scans++;
	return rc;
}

struct opts {
	uint32_t *ids;
	bool *is_tgid;
	size_t nids;
	bool all;
	double duration, interval;
	int64_t top;
	int rcvbuf;
	bool enable;
};

/* What the exit listener's callback adds each record to. */
struct exits {
	struct tasks *t;
	struct report *r;
	int rc;		/* TS_ESYS once the task table could not grow */
};

static void on_exit_record(const struct ts_record *rec, void *arg)
{
	struct exits *x = arg;

	x->r->win.exits++;
	if (!rec->has_pid)
		return;
	x->r->version = rec->pid_stats.version;
	if (tasks_note(x->t, &rec->pid_stats, true, false) < 0)
		x->rc = TS_ESYS;
}

static int run_all(const struct opts *o, struct ts_sock *q, struct tasks *t,
		   struct report *r)
{
	struct exits x = { t, r, TS_OK };
	uint64_t undecodable = 0;
	struct ts_sock *l = NULL;
	struct ts_error err = { 0 };
	char mask[256];
	unsigned long long forks0 = 0, thr0 = 0, forks1 = 0, thr1 = 0;
	bool counters;
	double start, end, next_scan, drain_end;
	int rc;

	rc = ts_open(&l, 2000, &err);
	if (rc == TS_OK) {
		possible_cpus(mask, sizeof(mask));
		rc = ts_listen(l, mask, o->rcvbuf, &err);
	}
	if (rc != TS_OK) {
		ts_close(l);
		return ts_fail(&err);
	}
	r->win.on = true;
	counters = read_task_counters(&forks0, &thr0);
	start = mono_s();
	end = start + o->duration;
	rc = scan_live(q, t, true, r, &err);
	next_scan = mono_s() + o->interval;

	while (rc == TS_OK && !sig_stopped()) {
		double now = mono_s(), until = next_scan < end ? next_scan : end;

		if (now >= end)
			break;
		if (now >= next_scan) {
			rc = scan_live(q, t, false, r, &err);
			next_scan = mono_s() + o->interval;
			continue;
		}
		/* take every waiting record at once, decode after (no loss at 25k/s) */
		rc = ts_drain_exits(l, (int)((until - now) * 1000) + 1, on_exit_record, &x,
				    &r->win.overruns, &undecodable, &err);
		if (rc >= 0)
			rc = TS_OK;
		else if (rc == TS_EINTR)
			rc = TS_OK;
		if (rc == TS_OK && x.rc != TS_OK) {
			err.code = rc = TS_ESYS;
			err.errno_val = ENOMEM;
			snprintf(err.call, sizeof(err.call), "task table");
		}
	}
	/*
	 * A signal closes the window like the clock does: the closing scan
	 * and the queued records still belong to it.  A second signal cuts
	 * that short.
	 */
	sig_clear_stop();
	if (rc == TS_OK) {
		if (counters)
			counters = read_task_counters(&forks1, &thr1);
		rc = scan_live(q, t, false, r, &err);
	}
	/*
	 * Records of exits before the counters were read are still queued:
	 * drain them, but a busy machine never goes quiet, so not for long.
	 */
	drain_end = mono_s() + 0.3;
	while (rc == TS_OK && !sig_stopped() && mono_s() < drain_end) {
		if (ts_drain_exits(l, 50, on_exit_record, &x, &r->win.overruns, &undecodable,
				   &err) <= 0)
			break;
	}
	r->win.seconds = mono_s() - start;
	r->win.lost = -1;
	if (counters) {
		long long expect = (long long)(thr0 + (forks1 - forks0)) - (long long)thr1;

		/* Zombies not yet reaped still count as alive: a low estimate. */
		r->win.lost = expect > (long long)r->win.exits ?
			      (int64_t)(expect - (long long)r->win.exits) : 0;
	}
	ts_close(l);
	if (rc != TS_OK)
		return ts_fail(&err);
	return EXIT_OK;
}

static int run_query(const struct opts *o, struct ts_sock *q, struct tasks *t,
		     struct report *r)
{
	struct ts_error err = { 0 };
	struct ts_stats s;
	struct task *e;
	size_t i;
	int rc;

	for (i = 0; i < o->nids; i++) {
		rc = o->is_tgid[i] ? ts_query_tgid(q, o->ids[i], &s, &err)
				   : ts_query_pid(q, o->ids[i], &s, &err);
		if (rc != TS_OK)
			return ts_fail(&err);
		r->version = s.version;
		e = tasks_add(t, o->ids[i]);
		if (!e)
			return cli_err(EXIT_SYSTEM, "stalls", "out of memory");
		e->group = o->is_tgid[i];
		e->last = s;
	}
	return EXIT_OK;
}

static void stalls_usage(void)
{
	fputs("Usage: wmark [-j] [--root DIR] stalls (--pid P | --tgid T)... [OPTIONS]\n"
	      "       wmark [-j] [--root DIR] stalls --all [--duration S] [OPTIONS]\n"
	      "\n"
	      "Per-task delays from the kernel's taskstats (generic netlink): direct\n"
	      "reclaim, thrashing, compaction, swap-in, block I/O, CPU, write-protect\n"
	      "copy and IRQ, with counts, averages and the share of wall time.\n"
	      "\n"
	      "  --pid P              a task (thread) id; repeat for more\n"
	      "  --tgid T             a process, summed over its live threads; repeatable\n"
	      "  --all                every task over a window: exit records plus\n"
	      "                       queries of the live ones\n"
	      "  --duration S         the window in seconds (default 5)\n"
	      "  --interval S         seconds between queries of live tasks (default 1)\n"
	      "  --top N              the N tasks that stalled most (--all default 20)\n"
	      "  --sort KIND          order by reclaim (default), thrashing, compact,\n"
	      "                       swapin, blkio, cpu, wpcopy, irq or total\n"
	      "  --rcvbuf SIZE        exit listener receive buffer (default 32M, about a\n"
	      "                       second of records at 20,000 exits/s)\n"
	      "  --enable-delayacct   set kernel.task_delayacct to 1 for the run and\n"
	      "                       restore it on exit (also on Ctrl-C)\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "Needs CAP_NET_ADMIN.  With delay accounting off only CPU delay is\n"
	      "counted.  --root only moves where task_delayacct is read and written:\n"
	      "the running kernel's own is left as it is.\n",
	      stdout);
}

static int parse_kind(const char *s)
{
	int k;

	if (strcmp(s, "total") == 0)
		return -1;
	for (k = 0; k < TS_NKINDS; k++)
		if (strcmp(s, stalls_kinds[k].label) == 0 || strcmp(s, stalls_kinds[k].key) == 0)
			return k;
	return -2;
}

static int parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400 * 365)
		return cli_usage("stalls", "%s '%s': expected seconds > 0", opt, s);
	*out = v;
	return 0;
}

static int add_id(struct opts *o, const char *opt, const char *s, bool tgid)
{
	struct wm_diag d = { 0 };
	int64_t v;
	void *p;

	if (wm_parse_long(s, 1, 4194304, &v, &d) != WM_OK)
		return cli_usage("stalls", "%s '%s': expected a process id", opt, s);
	p = realloc(o->ids, (o->nids + 1) * sizeof(*o->ids));
	if (!p)
		return cli_err(EXIT_SYSTEM, "stalls", "out of memory");
	o->ids = p;
	p = realloc(o->is_tgid, (o->nids + 1) * sizeof(*o->is_tgid));
	if (!p)
		return cli_err(EXIT_SYSTEM, "stalls", "out of memory");
	o->is_tgid = p;
	o->ids[o->nids] = (uint32_t)v;
	o->is_tgid[o->nids++] = tgid;
	return 0;
}

enum { O_PID = 256, O_TGID, O_ALL, O_DUR, O_INT, O_TOP, O_SORT,
       O_RCVBUF, O_ENABLE };
const struct option cmd_stalls_opts[] = {
	{ "pid", required_argument, NULL, O_PID },
	{ "tgid", required_argument, NULL, O_TGID },
	{ "all", no_argument, NULL, O_ALL },
	{ "duration", required_argument, NULL, O_DUR },
	{ "interval", required_argument, NULL, O_INT },
	{ "top", required_argument, NULL, O_TOP },
	{ "sort", required_argument, NULL, O_SORT },
	{ "rcvbuf", required_argument, NULL, O_RCVBUF },
	{ "enable-delayacct", no_argument, NULL, O_ENABLE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_opts(const struct cli_args *args, struct opts *o, bool *help)
{
	struct wm_diag d = { 0 };
	bool dur_given = false, int_given = false;
	uint64_t bytes;
	int c, oi, rc;

	for (oi = 0; oi < args->nopt; oi++) {
		const char *arg = args->opt[oi].arg;

		c = args->opt[oi].code;
		switch (c) {
		case O_PID:
		case O_TGID:
			rc = add_id(o, c == O_PID ? "--pid" : "--tgid", arg,
				    c == O_TGID);
			if (rc)
				return rc;
			break;
		case O_ALL:
			o->all = true;
			break;
		case O_DUR:
			if ((rc = parse_seconds("--duration", arg, &o->duration)))
				return rc;
			dur_given = true;
			break;
		case O_INT:
			if ((rc = parse_seconds("--interval", arg, &o->interval)))
				return rc;
			int_given = true;
			break;
		case O_TOP:
			if (wm_parse_long(arg, 1, 1000000, &o->top, &d) != WM_OK)
				return cli_usage("stalls", "--top '%s': expected a count", arg);
			break;
		case O_SORT:
			sort_kind = parse_kind(arg);
			if (sort_kind == -2)
				return cli_usage("stalls", "--sort '%s': unknown kind", arg);
			break;
		case O_RCVBUF:
			if (wm_parse_size(arg, &bytes, &d) != WM_OK ||
			    bytes < 4096 || bytes > (1u << 30))
				return cli_usage("stalls", "--rcvbuf '%s': expected a size from 4K to 1G", arg);
			o->rcvbuf = (int)bytes;
			break;
		case O_ENABLE:
			o->enable = true;
			break;
		case 'h':
			*help = true;
			return 0;
		default:
			return cli_opt_unhandled("stalls", c);
		}
	}
	if (args->noperand)
		return cli_usage("stalls", "unexpected argument '%s'", args->operand[0]);
	if (o->all && o->nids)
		return cli_usage("stalls", "--all does not mix with --pid or --tgid");
	if (!o->all && !o->nids)
		return cli_usage("stalls", "give --pid, --tgid or --all");
	if (!o->all && (dur_given || int_given))
		return cli_usage("stalls", "--duration and --interval go with --all");
	return 0;
}

int cmd_stalls(struct cli_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .duration = 5, .interval = 1, .rcvbuf = 32 << 20 };
	struct report r = { .delayacct = -1 };
	struct tasks t = { 0 };
	struct ts_sock *q = NULL;
	struct ts_error err = { 0 };
	char path[4096];
	bool help = false;
	int old = -1, rc, e;
	size_t i;

	rc = parse_opts(&ctx->args, &o, &help);
	if (rc || help) {
		if (help)
			stalls_usage();
		goto out;
	}
#ifdef WM_NO_LIBNL
	rc = cli_err(EXIT_SYSTEM, "stalls",
		     "not built in: this wmark was built without libnl (make NO_LIBNL=1)");
	goto out;
#endif
	snprintf(path, sizeof(path), "%s%sproc/sys/kernel/task_delayacct",
		 ctx->root, ctx->root[strlen(ctx->root) - 1] == '/' ? "" : "/");

	rc = ts_open(&q, 2000, &err);
	if (rc != TS_OK) {
		rc = ts_fail(&err);
		goto out;
	}
	if (o.all || o.enable)
		sig_catch_stop(true);	/* no SA_RESTART: poll() must return */

	r.delayacct = delayacct_read(path);
	if (o.enable && r.delayacct == 0) {
		e = delayacct_write(ctx->root, 1);
		if (e) {
			rc = cli_err(EXIT_SYSTEM, "stalls", "write %s: %s", path,
				     bn_strerror(-e));
			goto out;
		}
		old = 0;
		if (root_is_live(ctx->root)) {
			r.delayacct = 1;
			r.enabled_by_us = true;
			fprintf(stderr, "wmark: stalls: delay accounting on for this run "
				"(kernel.task_delayacct was 0); only tasks started from now on are fully counted\n");
		} else {
			/* taskstats answers for the running kernel, whose sysctl this is not */
			r.delayacct = delayacct_read("/proc/sys/kernel/task_delayacct");
			fprintf(stderr, "wmark: stalls: kernel.task_delayacct set to 1 in %s only; "
				"the running kernel's is unchanged\n", path);
		}
	}

	rc = o.all ? run_all(&o, q, &t, &r) : run_query(&o, q, &t, &r);
	if (rc != EXIT_OK)
		goto out;
	if (r.delayacct == 0)
		fprintf(stderr,
			"wmark: stalls: note: delay accounting is off (kernel.task_delayacct = 0, the default since 5.14): only CPU delay is counted\n"
			"wmark: stalls: note: --enable-delayacct (or sysctl kernel.task_delayacct=1) turns it on; only tasks started after enabling are counted\n");

	r.rows = malloc((t.n ? t.n : 1) * sizeof(*r.rows));
	if (!r.rows) {
		rc = cli_err(EXIT_SYSTEM, "stalls", "out of memory");
		goto out;
	}
	for (i = 0; i < t.n; i++)
		r.rows[i] = &t.v[i];
	r.nrows = t.n;
	if (o.all) {
		qsort(r.rows, r.nrows, sizeof(*r.rows), cmp_rows);
		if (!o.top)
			o.top = 20;
	} else if (o.top) {
		qsort(r.rows, r.nrows, sizeof(*r.rows), cmp_rows);
	}
	if (o.top && (size_t)o.top < r.nrows)
		r.nrows = (size_t)o.top;
	rc = stalls_print(&r, ctx->format);
out:
	/* Every way out passes here, a signal included: put the sysctl back. */
	if (old >= 0) {
		e = delayacct_write(ctx->root, old);
		if (e)
			rc = cli_err(EXIT_SYSTEM, "stalls",
				     "could not restore %s to %d: %s", path, old,
				     bn_strerror(-e));
	}
	ts_close(q);
	free(r.rows);
	free(t.v);
	free(t.slot);
	free(o.ids);
	free(o.is_tgid);
	return rc;
}
