// SPDX-License-Identifier: MIT
/*
 * cmd_reclaim.c - `wmark reclaim`: proactive reclaim of a cgroup v2
 * through its memory.reclaim file (or of a NUMA node, 6.17+), measured
 * write by write, beside what the kernel's own loop does with such a
 * request (calc/reclaim.c).
 *
 * A write's result is read from the cgroup's memory.stat before and after
 * it: the reclaimed pages are the difference of pgsteal_proactive where
 * the kernel has it (6.19+), else of pgsteal_direct, which is where
 * earlier kernels count proactive reclaim (docs/model.md §12.0, §12.4).
 * Δmemory.current is shown beside it: it also moves with whatever the
 * cgroup's tasks allocate or free meanwhile, and with slab.
 *
 * Signals (cli/sig.c): SIGINT and SIGTERM interrupt the write in progress
 * (the kernel's loop ends with EINTR; what it reclaimed stays reclaimed
 * and is measured) and stop the run, with the totals so far; --timeout
 * interrupts a write the same way.  The file is opened through bn_open():
 * inside the root, no symbolic link, a regular file, so nothing can send
 * the write elsewhere or make it wait on a FIFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>


#include "../calc/cgroup.h"
#include "../calc/reclaim.h"
#include "beneath.h"
#include "cli.h"
#include "commands.h"
#include "fmt.h"
#include "reclaim_run.h"
#include "sig.h"
#include "snapshot.h"

#define CMD "reclaim"

static void reclaim_usage(void)
{
	fputs("Usage: wmark [--root DIR] [--kernel VERSION] [-j] reclaim CGROUP --bytes SIZE [OPTIONS]\n"
	      "       wmark ... reclaim CGROUP --to SIZE [OPTIONS]\n"
	      "       wmark ... reclaim --node N --bytes SIZE [OPTIONS]        (6.17+)\n"
	      "\n"
	      "Reclaim memory of a cgroup v2 by writing to its memory.reclaim file, and\n"
	      "report per write and in total: pages asked for, reclaimed (memory.stat's\n"
	      "pgsteal_proactive, or pgsteal_direct before 6.19) and Δmemory.current,\n"
	      "over- or under-reclaim, time, pages/s, the anon/file split, working-set\n"
	      "refaults, and the kernel's answer.  Beside it, what this kernel's own\n"
	      "loop does with the request: 5.19-6.5 one call for all of it, 6.6-6.8\n"
	      "calls of 32 pages, 6.9+ calls of a quarter of what is left; every call\n"
	      "aims at 32 pages at least; 17 calls that reclaim nothing, then EAGAIN.\n"
	      "\n"
	      "CGROUP is a path under the cgroup v2 mount (\"/\" is the root cgroup) or\n"
	      "an absolute path inside the mount.\n"
	      "\n"
	      "  --bytes SIZE           reclaim SIZE (K/M/G/T, powers of 1024)\n"
	      "  --to SIZE              reclaim until memory.current is at most SIZE\n"
	      "  --batch MODE           kernel: one write of all that is left (default);\n"
	      "                         quarter: writes of a quarter of what is left, at\n"
	      "                         least 32 pages (6.9+'s rule, from user space);\n"
	      "                         fixed:SIZE: writes of SIZE\n"
	      "  --swappiness N|max     pass swappiness=N (0-200, 6.11+) or max (anon only,\n"
	      "                         6.16+) with each write\n"
	      "  --node N               reclaim from node N instead of a cgroup (6.17+)\n"
	      "  --timeout S            interrupt a write after S seconds, at most 86400\n"
	      "                         (reported as inf)\n"
	      "  -n, --dry-run          print the plan and the model, write nothing (the\n"
	      "                         cgroup need not exist given --kernel and --bytes)\n"
	      "  -h, --help             this help\n"
	      "\n"
	      "SIGINT or SIGTERM interrupts the write in progress and stops the run; the\n"
	      "report of the writes so far is printed.  memory.reclaim must be a regular\n"
	      "file inside the root, reached without a symbolic link.\n"
	      "\n"
	      "Exit 0 when the request was met, 1 when the kernel gave up (EAGAIN), a\n"
	      "write timed out or the run was stopped, 2 bad usage, 3 the system refused\n"
	      "(no cgroup v2, no memory.reclaim on this kernel, not permitted, a write\n"
	      "failed: the writes before it are reported first).\n", stdout);
}

/* ---- options ------------------------------------------------------- */


static int size_opt(const char *opt, const char *arg, uint64_t *out)
{
	struct wm_diag d = { 0 };

	if (wm_parse_size(arg, out, &d))
		return cli_usage(CMD, "%s '%s': expected a size (K/M/G/T or bytes)", opt, arg);
	return EXIT_OK;
}

/* Does the path have a ".." component? */
static bool has_dotdot(const char *p)
{
	const char *s = p;

	while ((s = strstr(s, "..")) != NULL) {
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return true;
		s += 2;
	}
	return false;
}

const struct option cmd_reclaim_opts[] = {
	{ "bytes", required_argument, NULL, 'b' },
	{ "to", required_argument, NULL, 't' },
	{ "batch", required_argument, NULL, 'B' },
	{ "swappiness", required_argument, NULL, 's' },
	{ "node", required_argument, NULL, 'N' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_opts(const struct cli_args *args, struct rc_opts *o)
{
	char *end;
	int64_t v;
	int c, oi, rc;

	memset(o, 0, sizeof(*o));
	o->swappiness = -2;
	o->node = -1;
	for (oi = 0; oi < args->nopt; oi++) {
		const char *arg = args->opt[oi].arg;

		c = args->opt[oi].code;
		switch (c) {
		case 'b':
			if ((rc = size_opt("--bytes", arg, &o->bytes)))
				return rc;
			o->have_bytes = true;
			break;
		case 't':
			if ((rc = size_opt("--to", arg, &o->to)))
				return rc;
			o->have_to = true;
			break;
		case 'B':
			if (strcmp(arg, "kernel") == 0) {
				o->batch = WM_BATCH_KERNEL;
			} else if (strcmp(arg, "quarter") == 0) {
				o->batch = WM_BATCH_QUARTER;
			} else if (strncmp(arg, "fixed:", 6) == 0) {
				if ((rc = size_opt("--batch fixed", arg + 6, &o->fixed)))
					return rc;
				if (!o->fixed)
					return cli_usage(CMD, "--batch '%s': a fixed step must not be 0", arg);
				o->batch = WM_BATCH_FIXED;
			} else {
				return cli_usage(CMD, "--batch '%s': expected kernel, quarter or fixed:SIZE",
						 arg);
			}
			break;
		case 's':
			if (strcmp(arg, "max") == 0) {
				o->swappiness = -1;
				break;
			}
			errno = 0;
			v = strtoll(arg, &end, 10);
			if (errno || end == arg || *end || v < 0 || v > 200)
				return cli_usage(CMD, "--swappiness '%s': expected 0 to 200 or max", arg);
			o->swappiness = (int)v;
			break;
		case 'N':
			errno = 0;
			v = strtoll(arg, &end, 10);
			if (errno || end == arg || *end || v < 0 || v > 1 << 20)
				return cli_usage(CMD, "--node '%s': expected a node number", arg);
			o->node = v;
			break;
		case 'T':
			errno = 0;
			o->timeout = strtod(arg, &end);
			if (errno || end == arg || *end || !(o->timeout > 0) || o->timeout > 86400)
				return cli_usage(CMD, "--timeout '%s': expected seconds, more than 0 "
						 "and at most 86400 (a day)", arg);
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'h':
			reclaim_usage();
			return -1;
		default:
			return cli_opt_unhandled(CMD, c);
		}
	}
	if (args->noperand > 0)
		o->cgroup = args->operand[0];
	if (args->noperand > 1)
		return cli_usage(CMD, "unexpected argument '%s'", args->operand[1]);
	if (o->node >= 0 && o->cgroup)
		return cli_usage(CMD, "--node reclaims a node, not a cgroup: give one of them");
	if (o->node < 0 && !o->cgroup)
		return cli_usage(CMD, "no cgroup given (a path under the cgroup v2 mount, or / for the root)");
	if (o->have_bytes == o->have_to)
		return cli_usage(CMD, o->have_bytes ? "--bytes and --to: give one of them"
						    : "--bytes SIZE or --to SIZE is needed");
	if (o->have_to && o->node >= 0)
		return cli_usage(CMD, "--to needs a cgroup's memory.current, not a node");
	/* before anything else, --dry-run too: the path is the user's */
	if (o->cgroup && has_dotdot(o->cgroup))
		return cli_usage(CMD, "cgroup '%s': '..' is not allowed", o->cgroup);
	return EXIT_OK;
}

/* ---- the kernel and the files ---------------------------------------- */


/* Read a small text file of the target; 0 or -errno. */
static int read_small(const char *path, char **buf)
{
	size_t len;

	return read_path(path, READ_MAX, buf, &len);
}

/*
 * Find the cgroup v2 mount in root's /proc/mounts: fill mnt (without
 * root) and return EXIT_OK, or print why there is none (a v1 memory
 * hierarchy is named) and return EXIT_SYSTEM.
 */
static int find_cgroup2(const char *root, char *mnt, size_t n)
{
	char path[4096], *buf = NULL, *line, *save = NULL, dev[256], dir[2048], type[64], opt[1024];
	char v1[2048] = "";
	int err;

	if (root_path(root, "proc/mounts", path, sizeof(path)))
		return cli_err(EXIT_SYSTEM, CMD, "%s: path too long", root);
	err = read_small(path, &buf);
	if (err)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s (no list of mounts)", path, strerror(-err));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%255s %2047s %63s %1023s", dev, dir, type, opt) != 4)
			continue;
		if (strcmp(type, "cgroup2") == 0) {
			free(buf);
			/* under --root, a mount point that climbs out would take the writes with it */
			if (dir[0] != '/' || has_dotdot(dir))
				return cli_err(EXIT_SYSTEM, CMD, "%s: cgroup2 mount point '%s' is not an "
					       "absolute path without '..': refusing it", path, dir);
			snprintf(mnt, n, "%s", dir);
			return EXIT_OK;
		}
		if (strcmp(type, "cgroup") == 0 && strstr(opt, "memory") && !v1[0])
			snprintf(v1, sizeof(v1), "%s", dir);
	}
	free(buf);
	if (v1[0])
		return cli_err(EXIT_SYSTEM, CMD,
			       "%s is a cgroup v1 memory hierarchy: memory.reclaim exists in cgroup v2 only (no cgroup2 mount in %s)",
			       v1, path);
	return cli_err(EXIT_SYSTEM, CMD, "no cgroup v2 mount in %s", path);
}

/*
 * Check the target's reclaim file the way do_write() will open it
 * (bn_open: inside the root, no link, a regular file); an exit code.
 */
static int check_file(const struct cli_ctx *ctx, const struct rc_target *t,
		      const char *kernel_label, bool has_file)
{
	int err = bn_open(ctx->root, t->rel, O_WRONLY, 0, NULL);

	if (err == -ENOENT && !has_file)
		return cli_err(EXIT_SYSTEM, CMD, "%s: kernel %s has no memory.reclaim (5.19+)",
			       t->file, kernel_label);
	if (err == -ENOENT && t->dir[0])
		return cli_err(EXIT_SYSTEM, CMD,
			       "%s: %s (is the memory controller enabled in the parent's cgroup.subtree_control?)",
			       t->file, strerror(-err));
	if (err)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s (kernel %s)", t->file, bn_strerror(err),
			       kernel_label);
	return EXIT_OK;
}

/* The node's reclaim file as the user is told it (without --root). */
static void node_file_of(const struct rc_opts *o, struct rc_target *t)
{
	snprintf(t->shown, sizeof(t->shown), "/sys/devices/system/node/node%" PRId64 "/reclaim", o->node);
}

/* Resolve the cgroup (or node) to its files; an exit code. */
static int resolve_target(const struct cli_ctx *ctx, const struct rc_opts *o,
			  const char *kernel_label, bool has_file, struct rc_target *t)
{
	char mnt[2048], rel[4096];
	const char *cg;
	struct stat st;
	size_t ml;
	int rc;

	memset(t, 0, sizeof(*t));
	if (o->node >= 0) {
		node_file_of(o, t);
		snprintf(t->rel, sizeof(t->rel), "%s", t->shown + 1);
		root_path(ctx->root, t->rel, t->file, sizeof(t->file));
		return check_file(ctx, t, kernel_label, true);
	}
	cg = o->cgroup;
	rc = find_cgroup2(ctx->root, mnt, sizeof(mnt));
	if (rc)
		return rc;
	ml = strlen(mnt);
	while (ml > 1 && mnt[ml - 1] == '/')
		ml--;
	/* an absolute path inside the mount, or one relative to it */
	if (ml > 1 && strncmp(cg, mnt, ml) == 0 && (cg[ml] == '/' || cg[ml] == '\0'))
		cg += ml;
	while (*cg == '/')
		cg++;
	snprintf(rel, sizeof(rel), "%.*s%s%s", (int)ml, mnt, ml > 1 && *cg ? "/" : "", cg);
	while (strlen(rel) > 1 && rel[strlen(rel) - 1] == '/')
		rel[strlen(rel) - 1] = '\0';
	t->is_root_cgroup = *cg == '\0';
	snprintf(t->shown, sizeof(t->shown), "%s", rel);
	if (root_path(ctx->root, rel + 1, t->dir, sizeof(t->dir)))
		return cli_err(EXIT_SYSTEM, CMD, "%s: path too long", rel);
	if (stat(t->dir, &st))
		return cli_err(EXIT_SYSTEM, CMD, "%s: no such cgroup (%s)", t->dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_err(EXIT_SYSTEM, CMD, "%s: not a directory, so not a cgroup", t->dir);
	snprintf(t->file, sizeof(t->file), "%s/memory.reclaim", t->dir);
	snprintf(t->rel, sizeof(t->rel), "%s%smemory.reclaim", rel + 1, rel[1] ? "/" : "");
	return check_file(ctx, t, kernel_label, has_file);
}

/* ---- one reading of the cgroup --------------------------------------- */

struct rc_stat {
	bool have_steal;
	uint64_t steal;		/* pages: the counter named by steal_key */
	const char *steal_key;
	long long current;	/* bytes, -1 unknown */
	long long anon, file;	/* bytes, -1 unknown */
	bool have_refault;
	uint64_t refault;	/* workingset_refault_anon + _file */
};

/* The value of "key N" lines (memory.stat, vmstat, meminfo) in buf, by keyword. */
static bool stat_key(const char *buf, const char *key, uint64_t *out)
{
	/* digits only: a negative or too long count is no value, never a wrapped one */
	return wm_cg_stat_get(buf, strlen(buf), key, out);
}

/* Read the target's counters now; a file that is missing leaves its fields unknown. */
static void stat_read(const struct cli_ctx *ctx, const struct rc_target *t, struct rc_stat *s)
{
	char path[4300], *buf = NULL;
	uint64_t v, a, f;

	memset(s, 0, sizeof(*s));
	s->current = s->anon = s->file = -1;
	if (t->dir[0])
		snprintf(path, sizeof(path), "%s/memory.stat", t->dir);
	else
		root_path(ctx->root, "proc/vmstat", path, sizeof(path));
	if (read_small(path, &buf) == 0) {
		if (stat_key(buf, "pgsteal_proactive", &v)) {
			s->steal_key = "pgsteal_proactive";
			s->have_steal = true;
			s->steal = v;
		} else if (stat_key(buf, "pgsteal_direct", &v)) {
			s->steal_key = "pgsteal_direct";
			s->have_steal = true;
			s->steal = v;
		}
		if (stat_key(buf, "anon", &v))
			s->anon = (long long)v;
		if (stat_key(buf, "file", &v))
			s->file = (long long)v;
		if (stat_key(buf, "workingset_refault_anon", &a) &&
		    stat_key(buf, "workingset_refault_file", &f)) {
			s->have_refault = true;
			s->refault = a + f;
		}
		free(buf);
		buf = NULL;
	}
	if (t->dir[0] && !t->is_root_cgroup) {
		snprintf(path, sizeof(path), "%s/memory.current", t->dir);
		if (read_small(path, &buf) == 0 && sscanf(buf, "%" SCNu64, &v) == 1)
			s->current = (long long)v;
		free(buf);
		return;
	}
	/* The root cgroup has no memory.current: the machine's used memory. */
	root_path(ctx->root, "proc/meminfo", path, sizeof(path));
	if (read_small(path, &buf) == 0 && stat_key(buf, "MemTotal:", &a) &&
	    stat_key(buf, "MemFree:", &f) && a >= f)
		s->current = (long long)(a - f) * 1024;
	free(buf);
}

/* ---- the writes ------------------------------------------------------- */


static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Write "BYTES[ swappiness=N]" to the target's reclaim file under root,
 * interrupted by SIGINT, SIGTERM or the --timeout deadline (sig.h).
 * Return 0 or the errno; *timed_out tells an EINTR of the deadline.
 */
static int do_write(const char *root, const struct rc_target *t, const struct rc_opts *o,
		    uint64_t bytes, bool *timed_out)
{
	char buf[96];
	int fd, len, err = 0;
	ssize_t w;

	if (o->swappiness == -1)
		len = snprintf(buf, sizeof(buf), "%" PRIu64 " swappiness=max", bytes);
	else if (o->swappiness >= 0)
		len = snprintf(buf, sizeof(buf), "%" PRIu64 " swappiness=%d", bytes, o->swappiness);
	else
		len = snprintf(buf, sizeof(buf), "%" PRIu64, bytes);
	if (!sig_wait_begin(o->timeout)) {
		err = EINTR;	/* the deadline or a stop signal came first: no write */
	} else if ((err = -bn_open(root, t->rel, O_WRONLY, 0, &fd)) == 0) {
		w = write(fd, buf, (size_t)len);
		if (w < 0)
			err = errno;
		else if (w != len)
			err = EIO;
		if (close(fd) && !err && errno != EINTR)
			err = errno;
	}
	*timed_out = sig_wait_end() && err == EINTR;
	return err;
}

/* Fill w from the readings around a write of asked pages. */
static void measure(struct rc_write *w, const struct rc_stat *a, const struct rc_stat *b,
		    unsigned ps)
{
	uint64_t d;

	/* wm_ctr_delta(): a counter that went backwards is no measurement */
	w->got = a->have_steal && b->have_steal && wm_ctr_delta(a->steal, b->steal, &d)
			 ? (double)d : NAN;
	w->dcur = a->current >= 0 && b->current >= 0
			  ? (double)(a->current - b->current) / ps : NAN;
	w->anon = a->anon >= 0 && b->anon >= 0 ? (double)(a->anon - b->anon) / ps : NAN;
	w->file = a->file >= 0 && b->file >= 0 ? (double)(a->file - b->file) / ps : NAN;
	w->refault = a->have_refault && b->have_refault && wm_ctr_delta(a->refault, b->refault, &d)
			     ? (double)d : NAN;
	w->over = !isnan(w->got) ? w->got - w->asked : NAN;
	w->rate = !isnan(w->got) && w->ns > 0 ? w->got / (w->ns / 1e9) : NAN;
}

/* ---- output ----------------------------------------------------------- */


static void progress(const struct rc_run *r, double t0, double *last)
{
	double now = now_ns();
	char a[32], b[32];

	if (now - t0 < 1e9 || now - *last < 1e9)
		return;
	*last = now;
	fprintf(stderr, "wmark: reclaim: %s of %s MiB in %zu writes, %.1fs\n",
		fmt_mib(a, sizeof(a), or0(r->total.got) < 9.2e18 ? (int64_t)or0(r->total.got) :
			INT64_MAX, r->ps),
		fmt_mib(b, sizeof(b), (int64_t)r->request, r->ps), r->nw, (now - t0) / 1e9);
}

static int add_write(struct rc_run *r, const struct rc_write *w)
{
	struct rc_write *v;

	if (r->nw == r->cap) {
		v = realloc(r->w, (r->cap ? r->cap * 2 : 16) * sizeof(*v));
		if (!v)
			return -1;
		r->w = v;
		r->cap = r->cap ? r->cap * 2 : 16;
	}
	r->w[r->nw++] = *w;
	return 0;
}

/*
 * A write failed in a way that is no answer of the kernel's loop (EIO,
 * EINVAL, EBUSY, a file gone): the run stops with result "error", the
 * writes before it are reported, then this message, and the exit is 3.
 */
static void fail(struct rc_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct rc_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->fail, sizeof(r->fail), fmt, ap);
	va_end(ap);
	r->result = "error";
}

static int run_writes(struct rc_run *r)
{
	const struct rc_opts *o = r->o;
	struct rc_stat a, b, first;
	struct rc_write w;
	uint64_t left, pages, fixed = o->fixed / r->ps;
	double t0 = now_ns(), last = t0, credited, sum_got = 0, sum_asked = 0;
	int err;

	if (o->batch == WM_BATCH_FIXED && !fixed)
		fixed = 1;
	if ((err = sig_catch_stop(false)))
		return cli_err(EXIT_SYSTEM, CMD, "timer_create: %s", strerror(-err));
	stat_read(r->ctx, &r->t, &first);
	r->steal_key = first.steal_key;
	a = first;
	left = r->request;
	r->result = "ok";
	while (left > 0) {
		if (sig_stopped()) {	/* between two writes: no write to report */
			r->result = "interrupted";
			break;
		}
		pages = wm_batch_next(o->batch, left, fixed);
		memset(&w, 0, sizeof(w));
		w.n = (double)(r->nw + 1);
		w.asked = (double)pages;
		w.ns = now_ns();
		err = do_write(r->ctx->root, &r->t, o, pages * r->ps, &w.timed_out);
		w.ns = now_ns() - w.ns;
		w.err = err;
		stat_read(r->ctx, &r->t, &b);
		measure(&w, &a, &b, r->ps);
		if (add_write(r, &w))
			return cli_err(EXIT_SYSTEM, CMD, "out of memory");
		reclaim_total(r);
		a = b;
		if (err) {
			if (w.timed_out)
				r->result = "timeout";
			else if (err == EAGAIN)
				r->result = "EAGAIN";
			else if (err == EINTR)
				r->result = "interrupted";
			else
				fail(r, "%s: write of %" PRIu64 " bytes: %s", r->t.file,
				     pages * r->ps, bn_strerror(-err));
			break;
		}
		if (o->have_to) {
			if (b.current < 0) {
				fail(r, "%s/memory.current: cannot be read", r->t.dir);
				break;
			}
			left = (uint64_t)b.current > o->to
				       ? ((uint64_t)b.current - o->to + r->ps - 1) / r->ps : 0;
			/* memory.current is exact: a write that moved nothing, no point in another */
			if (left && or0(w.got) <= 0 && or0(w.dcur) <= 0) {
				r->result = "stalled";
				break;
			}
		} else {
			/*
			 * A write that succeeded reclaimed at least what it asked
			 * (the kernel's loop runs until it has), even where
			 * memory.stat does not show it yet: its counters are
			 * flushed in batches, and a 32-page write can leave them
			 * unchanged.  The pages it did not show are shown by a
			 * later write's reading, so the two are compared as sums
			 * since the start, not write by write (that counted such
			 * pages twice and stopped short of the request).
			 */
			sum_got += or0(w.got);
			sum_asked += w.asked;
			credited = sum_got > sum_asked ? sum_got : sum_asked;
			left = credited >= (double)r->request ? 0 : r->request - (uint64_t)credited;
		}
		progress(r, t0, &last);
		if (sig_stopped()) {
			r->result = "interrupted";
			break;
		}
	}
	reclaim_total(r);
	if (!r->nw)
		r->result = "ok";
	return EXIT_OK;
}

/* Point stdout at /dev/null, so that main's check at exit does not say it again. */
static void stdout_drop(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	clearerr(stdout);
}

/*
 * The kernel and the page size, as every command reads a root
 * (snapshot_read_need, zones not needed): --kernel, else the root's
 * osrelease with its Debian sublevel, else the newest modelled kernel
 * (wm_profile_default), said to be assumed; the live page size, a
 * capture's recorded or MemTotal's, else SNAPSHOT_ASSUMED_PAGE_SIZE, said
 * to be assumed.  Fill *k and return EXIT_OK, or an exit code after one
 * line.
 */
static int machine_of(const struct cli_ctx *ctx, struct rc_run *r, struct wm_kver *k)
{
	static char release[128];
	struct snapshot s;
	struct wm_profile newest;
	int rc;

	if (ctx->kernel && wm_kver_parse(ctx->kernel, k, NULL))
		return cli_usage(CMD, "--kernel '%s': not a kernel release", ctx->kernel);
	if ((rc = snapshot_read_need(ctx, &s, 0)))
		return rc;
	*k = s.st.kernel.kver;
	r->kernel_known = s.st.kernel.known;
	if (ctx->kernel) {
		r->kernel = ctx->kernel;
	} else if (s.st.kernel.known) {
		snprintf(release, sizeof(release), "%s", s.st.kernel.osrelease);
		r->kernel = release;
	} else {
		/* no release to go by: the newest rules */
		wm_profile_default(&newest);
		snprintf(release, sizeof(release), "%u.%u", newest.kver.major, newest.kver.minor);
		r->kernel = release;
	}
	r->ps = s.st.geo.page_size;
	r->ps_assumed = s.st.geo.page_size_from == WM_GEO_ASSUMED;
	snapshot_free(&s);
	return EXIT_OK;
}

/*
 * `wmark reclaim`: argv[0] is "reclaim", then its options (reclaim_usage).
 * Return the exit code.
 */
int cmd_reclaim(struct cli_ctx *ctx, int argc, char **argv)
{
	struct rc_opts o;
	struct rc_run r;
	struct wm_kver k;
	struct wm_diag d = { 0 };
	int rc;

	rc = parse_opts(&ctx->args, &o);
	if (rc < 0)
		return EXIT_OK;
	if (rc)
		return rc;
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.o = &o;
	if ((rc = machine_of(ctx, &r, &k)))
		return rc;
	wm_reclaim_profile_for(&k, &r.rp);

	if (o.swappiness != -2 &&
	    wm_reclaim_check_swappiness(&r.rp, &k, o.swappiness, &d))
		return cli_usage(CMD, "--swappiness: %s", d.msg);
	if (o.node >= 0 && !r.rp.node_file)
		return cli_usage(CMD, "--node: kernel %s has no per-node reclaim file (6.17+)", r.kernel);

	/* A kernel without memory.reclaim: exit 3, naming the file where there is one to name. */
	if (r.rp.rule == WM_RECLAIM_NONE) {
		if (!(o.dry_run && ctx->kernel)) {
			rc = resolve_target(ctx, &o, r.kernel, false, &r.t);
			if (rc)
				return rc;
		}
		return cli_err(EXIT_SYSTEM, CMD, "%s%skernel %s has no memory.reclaim (5.19+)",
			       r.t.shown, r.t.shown[0] ? ": " : "", r.kernel);
	}
	if (!(o.dry_run && ctx->kernel && o.have_bytes)) {
		rc = resolve_target(ctx, &o, r.kernel, true, &r.t);
		if (rc)
			return rc;
	}
	if (o.have_bytes) {
		r.request = o.bytes / r.ps;	/* the kernel's own bytes / PAGE_SIZE */
	} else {
		struct rc_stat s;

		stat_read(ctx, &r.t, &s);
		if (s.current < 0)
			return cli_err(EXIT_SYSTEM, CMD, "%s/memory.current: cannot be read", r.t.dir);
		r.request = (uint64_t)s.current > o.to
				    ? ((uint64_t)s.current - o.to + r.ps - 1) / r.ps : 0;
	}
	rc = wm_reclaim_model(r.rp.rule, r.request, &r.model, &d);
	if (!rc) {
		r.folio = wm_reclaim_largest_folio(snapshot_pmd_bytes(ctx->root), r.ps);
		r.model.over_bound = wm_reclaim_over_bound_folios(r.rp.rule, r.request, r.folio);
	}
	if (!rc)
		rc = wm_batch_plan(r.rp.rule, o.batch, r.request,
				   o.fixed / r.ps ? o.fixed / r.ps : 1, &r.plan, &d);
	if (rc)
		return cli_diag(CMD, rc, &d);
	if (!o.dry_run) {
		rc = run_writes(&r);
		if (rc) {
			free(r.w);
			return rc;
		}
	}
	/* --dry-run without resolving: a node's file is known; a cgroup's
	 * path stays unresolved (JSON null, the text says what was given) */
	if (!r.t.shown[0] && o.node >= 0)
		node_file_of(&o, &r.t);
	rc = reclaim_print(&r);
	if (!o.dry_run && (fflush(stdout) != 0 || ferror(stdout))) {
		/* the writes are made: say so where it can still be read */
		cli_err(0, CMD, "standard output: %s: the report is lost; %zu write%s made",
			strerror(errno), r.nw, r.nw == 1 ? "" : "s");
		stdout_drop();
		rc = EXIT_SYSTEM;
	}
	if (r.fail[0])
		rc = cli_err(EXIT_SYSTEM, CMD, "%s", r.fail);
	else if (rc == EXIT_OK && !o.dry_run && strcmp(r.result, "ok") != 0)
		rc = EXIT_CHECK;
	free(r.w);
	return rc;
}
