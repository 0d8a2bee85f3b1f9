// SPDX-License-Identifier: MIT
/*
 * cmd_apply.c - `wmark apply` and `wmark rollback`: change the watermark
 * sysctls so that a mistake can always be undone.
 *
 * apply, in order:
 *   1. read the machine, resolve every knob under <root>/proc/sys/vm,
 *      validate the values against the running kernel's ranges, run the
 *      model with the new values (what `whatif` shows) and refuse values
 *      whose summed min watermarks exceed a safe share of memory or what
 *      is free now (--force overrides);
 *   2. check permissions for every file it will touch: nothing has been
 *      written if that fails;
 *   3. commit the journal (previous and new text of every knob) to disk;
 *   4. write each knob and read it back; on the first failure write the
 *      previous text back to those already written, last first;
 *   5. on a live kernel, re-read zoneinfo and compare it with the model.
 * rollback writes the journal's previous texts back, refusing (without
 * --force) when a knob holds neither the previous nor the written value,
 * i.e. someone else changed it since.  Successive applies share one
 * journal entry per knob that keeps the text from before the first of
 * them, so one rollback undoes them all: the question people ask after a
 * tuning session is "how was it before I started?".
 *
 * Between steps 3 and 4 a crash leaves each knob at its previous or its
 * new value (a proc sysctl write takes effect whole or not at all), and
 * the journal names both, so rollback can always finish the job.
 */
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "journal.h"
#include "jsonw.h"
#include "snapshot.h"
#include "persist.h"
#include "report.h"
#include "sysctl.h"
#include "txn.h"

/*
 * Refuse a change whose summed min watermarks exceed this share of
 * managed memory: twice the 5% that khugepaged allows its own
 * recommendation (docs/model.md §2.2), well past any default.
 */
#define SAFE_MIN_SHARE_PCT 10

#define MAX_WARN 16

struct change {
	bool set;
	bool ignore_failure;		/* "-vm.x = v" in a --from file */
	const char *origin;		/* "--wsf", "FILE:LINE" */
	char origin_buf[64];
	struct sc_value val;		/* new */
	char text[JR_TEXT_MAX];		/* new, as written */
	char path[PATH_MAX];
	struct sc_value prev;
	char prev_text[JR_TEXT_MAX];	/* as the kernel printed it */
	bool dropped;			/* ignore_failure and the knob is missing */
	bool write_failed;		/* ignore_failure and the write failed */
};

/* A --persist or --initrc file, as found before anything is written. */
struct target {
	const char *file;		/* as given: "/etc/sysctl.d/90-wmark.conf" */
	char path[PATH_MAX];		/* inside the root */
	enum ps_kind kind;
	char text[JR_FILE_MAX];		/* what it holds now, if it exists */
};

struct apply {
	const struct cli_ctx *ctx;
	struct change ch[WM_NKNOBS];
	bool dry_run, force, refresh;
	const char *state_opt, *persist, *initrc;
	char state_path[PATH_MAX];
	char command[512];
	struct journal old;		/* the journal of earlier applies */
	bool have_old;			/* old holds values not rolled back */
	struct snapshot s;
	bool have_snapshot;
	struct wm_sysctl sc_new;
	struct wm_predicted *cur, *pred;	/* model: current sysctls; after the writes */
	bool modelled;
	bool wrote;			/* the knobs hold the new values */
	char *warn[MAX_WARN];
	int nwarn;
	int nwarn_shown;		/* text mode: printed so far */
	int lock_fd;			/* the journal lock, -1 if not held */
	struct target tgt[2];		/* --persist, --initrc (file NULL if not given) */
	cJSON *doc;			/* -j output being built */
};

static void warn(struct apply *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct apply *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->nwarn == MAX_WARN)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		a->warn[a->nwarn++] = s;
}

/* Text mode: warnings go to stderr as soon as they are known. */
static void flush_warnings(struct apply *a, const char *cmd)
{
	if (a->ctx->format == FMT_JSON)
		return;
	for (; a->nwarn_shown < a->nwarn; a->nwarn_shown++)
		cli_err(0, cmd, "warning: %s", a->warn[a->nwarn_shown]);
}

static void join_argv(char *out, size_t n, int argc, char **argv)
{
	size_t off;
	int i;

	off = (size_t)snprintf(out, n, "wmark");
	for (i = 0; i < argc && off < n; i++) {
		const char *q = strpbrk(argv[i], " \t\"'") ? "\"" : "";

		off += (size_t)snprintf(out + off, n - off, " %s%s%s", q, argv[i], q);
	}
}

/* Number or array, as the JSON "written"/"previous" objects hold them. */
static void json_value(cJSON *o, const char *name, const struct sc_value *v,
		       enum wm_knob k)
{
	cJSON *arr;
	int i;

	if (k != WM_KNOB_LRR) {
		cJSON_AddNumberToObject(o, name, (double)v->v[0]);
		return;
	}
	arr = cJSON_AddArrayToObject(o, name);
	for (i = 0; arr && i < v->n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)v->v[i]));
}

/*
 * The zoneinfo entry of model zone i, or NULL for a zone the kernel does
 * not print (before 4.12, unpopulated zones are left out).
 */
static const struct zi_zone *zi_of(const struct snapshot *s, size_t i)
{
	return wm_layout_zone(&s->layout, &s->zi, i);
}

/* ---- reading the knobs ------------------------------------------------ */

/*
 * Resolve and read knob k.  Return EXIT_OK, or an exit code after one
 * line on stderr.  A missing knob with ignore_failure is dropped.
 */
static int read_knob(struct apply *a, const char *cmd, enum wm_knob k,
		     struct change *c)
{
	char shown[PATH_MAX], esc[200];
	struct wm_diag d;
	int r;

	r = sc_path(a->ctx->root, k, c->path, sizeof(c->path));
	/* "ROOT/proc/sys/vm/": messages name the file as the user knows it. */
	if (root_path(a->ctx->root, P_VM, shown, sizeof(shown)) < 0)
		snprintf(shown, sizeof(shown), "%s", P_VM);
	if (r == -ENOENT && c->ignore_failure) {
		c->dropped = true;
		warn(a, "%s%s does not exist: skipped (\"-\" in %s)", shown, wm_knob_name(k), c->origin);
		return EXIT_OK;
	}
	if (r == -ENOENT && k == WM_KNOB_EXTRA)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: no such file: this kernel has no extra_free_kbytes (only Android kernels before 5.10 carry it; use --wsf, see 'wmark recommend')",
			       shown, wm_knob_name(k));
	if (r == -ENOENT)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: no such file: this kernel has no %s",
			       shown, wm_knob_name(k), wm_knob_name(k));
	if (r == -EXDEV)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: resolves outside %s: refusing to follow a symlink",
			       shown, wm_knob_name(k), shown);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: %s", shown, wm_knob_name(k), strerror(-r));
	r = sc_read(c->path, c->prev_text, sizeof(c->prev_text));
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: read: %s", c->path, strerror(-r));
	if (sc_value_parse(k, c->prev_text, &c->prev, &d) < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: unexpected content: %s", c->path,
			       sc_escape(d.msg, esc, sizeof(esc)));
	return EXIT_OK;
}

/*
 * Did stdout take everything printed so far?  If not, say so on stderr
 * with what was done anyway (done), point stdout at /dev/null so that
 * main's check at exit does not say it again, and return EXIT_SYSTEM
 * unless rc is already an error; else return rc.
 */
static int stdout_check(const char *cmd, int rc, const char *done)
{
	int e, fd;

	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	e = errno;
	cli_err(0, cmd, "standard output: %s: the report is lost; %s", strerror(e), done);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	clearerr(stdout);
	return rc ? rc : EXIT_SYSTEM;
}

/* The hint after a refused write: none for root, whom it would not help. */
static const char *needs_root(int err)
{
	if ((err != -EACCES && err != -EPERM) || geteuid() == 0)
		return "";
	return " (writing sysctls needs root)";
}

/* ---- the live check ---------------------------------------------------- */

struct diffs {
	cJSON *arr;			/* JSON diff entries, or NULL */
	int n;
};

static void diff_add(struct diffs *d, FILE *f, const struct zi_zone *z,
		     const char *field, int64_t want, int64_t got)
{
	d->n++;
	if (f)
		fprintf(f, "  Node %d, zone %-8s %-12s predicted %" PRId64 ", kernel %" PRId64 "\n",
			z->node, z->name, field, want, got);
	if (d->arr) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "node", z->node);
		cJSON_AddStringToObject(o, "zone", z->name);
		cJSON_AddStringToObject(o, "field", field);
		cJSON_AddItemToObject(o, "predicted", json_long((int64_t)want));
		cJSON_AddItemToObject(o, "kernel", json_long((int64_t)got));
		cJSON_AddItemToArray(d->arr, o);
	}
}

/*
 * Compare the zoneinfo of s2 (re-read after the writes) with the
 * prediction (wm_compare): printed watermarks minus the printed boost
 * when wmarks says the writes recomputed them; protection always.
 */
static void compare_zones(const struct snapshot *s2, const struct wm_predicted *pred,
			  size_t npred, bool wmarks, FILE *f, struct diffs *d)
{
	struct wm_diff diff[64];
	size_t n = wm_compare(&s2->zi, &s2->layout, pred, npred, wmarks, diff, 64), i;

	for (i = 0; i < n && i < 64; i++) {
		const struct zi_zone *z = zi_of(s2, diff[i].zone);

		if (strcmp(diff[i].field, "zones") == 0) {
			d->n++;
			if (f)
				fprintf(f, "  the kernel now has %" PRId64 " zones, the prediction %" PRId64 "\n",
					diff[i].kernel, diff[i].predicted);
			continue;
		}
		diff_add(d, f, z, diff[i].field, diff[i].predicted, diff[i].kernel);
	}
	if (n > 64)
		d->n += (int)(n - 64);
}

/*
 * On a live kernel: re-read the machine and compare with the model of
 * sysctls sc.  Fills the "check" member of doc when given.  Return
 * EXIT_OK, EXIT_CHECK on a difference, or snapshot_read's code.
 */
static int live_check(const struct cli_ctx *ctx, const char *cmd,
		      const struct snapshot *before, const struct wm_predicted *pred,
		      const struct wm_sysctl *sc, bool wmarks, cJSON *doc)
{
	struct snapshot s2;
	struct diffs d = { 0 };
	cJSON *chk = NULL;
	FILE *f = doc ? NULL : stdout;
	int rc;

	if (doc)
		chk = cJSON_AddObjectToObject(doc, "check");
	if (!before->live) {
		if (f)
			printf("watermarks not re-checked: not a live kernel\n");
		if (chk) {
			cJSON_AddBoolToObject(chk, "done", false);
			cJSON_AddStringToObject(chk, "note", "watermarks not re-checked: not a live kernel");
		}
		return EXIT_OK;
	}
	memset(&s2, 0, sizeof(s2));
	rc = snapshot_read(ctx, &s2);
	if (rc != EXIT_OK)
		return rc;
	if (chk)
		d.arr = cJSON_AddArrayToObject(chk, "diff");
	if (f)
		printf("kernel's watermarks after the write:\n");
	compare_zones(&s2, pred, before->m.nzones, wmarks, f, &d);
	/* Memory came or went meanwhile: judge by the machine as it is now. */
	if (d.n && s2.m.nzones == before->m.nzones) {
		struct wm_predicted *p2 = calloc(s2.m.nzones, sizeof(*p2));
		size_t i;
		bool moved = false;

		for (i = 0; i < s2.m.nzones; i++)
			moved |= s2.zones[i].managed != before->zones[i].managed;
		if (p2 && moved && (sc->have & WM_HAVE_MFK) &&
		    wm_predict(&s2.prof, &s2.m, &s2.zi, &s2.layout, sc, WM_RECOMPUTE_WMARKS,
			       p2, NULL) == WM_OK) {
			struct diffs d2 = { 0 };

			compare_zones(&s2, p2, s2.m.nzones, wmarks, NULL, &d2);
			if (d2.n == 0) {
				if (f)
					printf("  (managed pages changed while applying; the kernel matches the model of the memory it has now)\n");
				d.n = 0;
				if (d.arr) {
					cJSON_DeleteItemFromObject(chk, "diff");
					d.arr = NULL;
				}
			}
		}
		free(p2);
	}
	if (chk) {
		cJSON_AddBoolToObject(chk, "done", true);
		cJSON_AddBoolToObject(chk, "match", d.n == 0);
	}
	if (f && d.n == 0)
		printf("  every zone matches the prediction (%zu zones)\n", s2.zi.nzones);
	snapshot_free(&s2);
	if (d.n) {
		cli_err(0, cmd, "the kernel's watermarks differ from the prediction in %d field%s",
			d.n, d.n == 1 ? "" : "s");
		return EXIT_CHECK;
	}
	return EXIT_OK;
}

/* ---- apply ----------------------------------------------------------- */

static void apply_usage(FILE *f)
{
	fputs("Usage: wmark [--root DIR] [-j] apply [OPTIONS]\n"
	      "\n"
	      "Write watermark sysctls safely: validate against the running kernel,\n"
	      "show the predicted watermarks, journal the old values, write and read\n"
	      "back each one (all or nothing), then check the kernel's recomputed\n"
	      "watermarks against the prediction.\n"
	      "\n"
	      "Values:\n"
	      "      --wsf N, --watermark-scale-factor N\n"
	      "                                 vm.watermark_scale_factor\n"
	      "      --min-free-kbytes N        vm.min_free_kbytes\n"
	      "      --boost-factor N           vm.watermark_boost_factor\n"
	      "      --lowmem-reserve-ratio L   vm.lowmem_reserve_ratio (\"256 256 32 0 0\"\n"
	      "                                 or 256,256,32,0,0)\n"
	      "      --extra-free-kbytes N      vm.extra_free_kbytes (Android 4.x kernels)\n"
	      "      --from FILE                values in sysctl.d syntax\n"
	      "      --refresh                  rewrite min_free_kbytes unchanged, so the\n"
	      "                                 kernel recomputes stale watermarks\n"
	      "Options:\n"
	      "  -n, --dry-run                  validate and predict, write nothing\n"
	      "  -f, --force                    write values that fail the safety check;\n"
	      "                                 replace a --persist/--initrc file that\n"
	      "                                 wmark did not write\n"
	      "      --state FILE               journal (default ROOT/var/lib/wmark/state.json)\n"
	      "      --persist FILE             also write a sysctl.d file (an absolute\n"
	      "                                 path, taken inside --root)\n"
	      "      --initrc FILE              also write an Android init .rc fragment\n"
	      "                                 (the same)\n"
	      "  -h, --help                     show this help\n"
	      "\n"
	      "Exit status: 0 done, 1 a read-back or the kernel's watermarks differed,\n"
	      "2 bad usage or a refused value, 3 no permission, missing knob or I/O.\n", f);
}

static int set_value(struct apply *a, const char *cmd, enum wm_knob k,
		     const char *text, const char *origin, bool ignore)
{
	struct change *c = &a->ch[k];
	struct wm_diag d;
	char esc[200];

	if (sc_value_parse(k, text, &c->val, &d) < 0)
		return cli_usage(cmd, "%s: %s", origin, sc_escape(d.msg, esc, sizeof(esc)));
	c->set = true;
	c->ignore_failure = ignore;
	snprintf(c->origin_buf, sizeof(c->origin_buf), "%s", origin);
	c->origin = c->origin_buf;
	return EXIT_OK;
}

static int read_from(struct apply *a, const char *cmd, const char *file)
{
	struct sc_conf_line l;
	char origin[64];
	size_t len, pos = 0;
	char *buf;
	int line = 0, r, rc;
	enum wm_knob k;

	/* all of it or nothing: a value cut at a buffer's end is a wrong value */
	if ((r = read_path(file, READ_MAX, &buf, &len)))
		return read_error(cmd, file, READ_MAX, r);
	while ((r = sc_conf_next(buf, len, &pos, &line, &l)) != 0) {
		snprintf(origin, sizeof(origin), "%.40s:%d", file, l.line);
		if (r < 0) {
			free(buf);
			return cli_usage(cmd, "%s: not a \"key = value\" line", origin);
		}
		if (sc_key_parse(l.key, &k) != 0) {
			free(buf);
			return cli_usage(cmd, "%s: %s is not a watermark sysctl (vm.min_free_kbytes, vm.watermark_scale_factor, vm.watermark_boost_factor, vm.lowmem_reserve_ratio, vm.extra_free_kbytes)",
					 origin, l.key);
		}
		rc = set_value(a, cmd, k, l.value, origin, l.ignore_failure);
		if (rc != EXIT_OK) {
			free(buf);
			return rc;
		}
	}
	free(buf);
	return EXIT_OK;
}

enum { O_WSF = 256, O_MFK, O_BOOST, O_LRR, O_EXTRA, O_FROM, O_REFRESH,
       O_STATE, O_PERSIST, O_INITRC };
const struct option cmd_apply_opts[] = {
	{ "wsf", required_argument, NULL, O_WSF },
	{ "watermark-scale-factor", required_argument, NULL, O_WSF },
	{ "min-free-kbytes", required_argument, NULL, O_MFK },
	{ "boost-factor", required_argument, NULL, O_BOOST },
	{ "lowmem-reserve-ratio", required_argument, NULL, O_LRR },
	{ "extra-free-kbytes", required_argument, NULL, O_EXTRA },
	{ "from", required_argument, NULL, O_FROM },
	{ "refresh", no_argument, NULL, O_REFRESH },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "state", required_argument, NULL, O_STATE },
	{ "persist", required_argument, NULL, O_PERSIST },
	{ "initrc", required_argument, NULL, O_INITRC },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_apply(struct apply *a, const char *cmd, int argc, char **argv)
{
	int c, rc = EXIT_OK, i;
	bool any = false;

	optind = 0;
	opterr = 0;
	while (rc == EXIT_OK && (c = getopt_long(argc, argv, ":nfh", cmd_apply_opts, NULL)) != -1) {
		switch (c) {
		case O_WSF:
			rc = set_value(a, cmd, WM_KNOB_WSF, optarg, "--wsf", false);
			break;
		case O_MFK:
			rc = set_value(a, cmd, WM_KNOB_MFK, optarg, "--min-free-kbytes", false);
			break;
		case O_BOOST:
			rc = set_value(a, cmd, WM_KNOB_BOOST, optarg, "--boost-factor", false);
			break;
		case O_LRR:
			rc = set_value(a, cmd, WM_KNOB_LRR, optarg, "--lowmem-reserve-ratio", false);
			break;
		case O_EXTRA:
			rc = set_value(a, cmd, WM_KNOB_EXTRA, optarg, "--extra-free-kbytes", false);
			break;
		case O_FROM:
			rc = read_from(a, cmd, optarg);
			break;
		case O_REFRESH:
			a->refresh = true;
			break;
		case 'n':
			a->dry_run = true;
			break;
		case 'f':
			a->force = true;
			break;
		case O_STATE:
			a->state_opt = optarg;
			break;
		case O_PERSIST:
			a->persist = a->tgt[0].file = optarg;
			break;
		case O_INITRC:
			a->initrc = a->tgt[1].file = optarg;
			break;
		case 'h':
			apply_usage(stdout);
			return -1;
		case ':':
			return cli_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (rc != EXIT_OK)
		return rc;
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	for (i = 0; i < WM_NKNOBS; i++)
		any |= a->ch[i].set;
	if (!any && !a->refresh)
		return cli_usage(cmd, "nothing to apply: give --wsf, --min-free-kbytes, --boost-factor, --lowmem-reserve-ratio, --extra-free-kbytes, --from or --refresh");
	return EXIT_OK;
}

/* The knobs apply writes, as WM_HAVE_* bits. */
static unsigned written_set(const struct apply *a)
{
	unsigned set = 0;
	int k;

	for (k = 0; k < WM_NKNOBS; k++)
		if (a->ch[k].set && !a->ch[k].dropped)
			set |= wm_knob_have((enum wm_knob)k);
	return set;
}

/* Does one of the writes make the kernel recompute the watermarks? */
static bool recomputes(const struct apply *a)
{
	return (wm_change_recomputes(written_set(a)) & WM_RECOMPUTE_WMARKS) != 0;
}

/*
 * Fill a->sc_new and predict the zones (wm_predict: what whatif shows)
 * with today's sysctls and after the writes; EXIT_OK or an exit code.
 */
static int predict(struct apply *a)
{
	struct wm_change ch = { 0 };
	const struct change *c = a->ch;
	size_t nz = a->s.m.nzones;
	unsigned rec;
	struct wm_diag d = { 0 };
	int i, k, rc;

	static const size_t off[WM_NKNOBS] = {
		[WM_KNOB_MFK] = offsetof(struct wm_sysctl, min_free_kbytes),
		[WM_KNOB_WSF] = offsetof(struct wm_sysctl, wsf),
		[WM_KNOB_BOOST] = offsetof(struct wm_sysctl, boost_factor),
		[WM_KNOB_EXTRA] = offsetof(struct wm_sysctl, extra_free_kbytes),
	};

	ch.set = written_set(a);
	for (k = 0; k < WM_NKNOBS; k++) {
		if (!(ch.set & wm_knob_have((enum wm_knob)k)))
			continue;
		if (k == WM_KNOB_LRR) {
			for (i = 0; i < c[k].val.n; i++)
				ch.to.lrr[i] = c[k].val.v[i];
			ch.to.nlrr = c[k].val.n;
		} else {
			*(int64_t *)((char *)&ch.to + off[k]) = c[k].val.v[0];
		}
	}
	if (wm_change_apply(&a->s.prof, &a->s.sysctl, &ch, &a->sc_new, &rec, &d))
		return cli_usage("apply", "%s", d.msg);
	if (!(a->sc_new.have & WM_HAVE_MFK) || !(a->s.sysctl.have & WM_HAVE_MFK) || nz == 0)
		return EXIT_OK;	/* nothing to model from: no prediction */
	a->cur = calloc(nz, sizeof(*a->cur));
	a->pred = calloc(nz, sizeof(*a->pred));
	if (!a->cur || !a->pred)
		return cli_err(EXIT_SYSTEM, "apply", "out of memory");
	rc = snapshot_predict(&a->s, &a->s.sysctl, WM_RECOMPUTE_WMARKS, a->cur);
	if (rc == EXIT_OK)
		rc = snapshot_predict(&a->s, &a->sc_new, rec, a->pred);
	a->modelled = rc == EXIT_OK;
	return rc;
}

/* Refuse an instant direct-reclaim storm (see SAFE_MIN_SHARE_PCT). */
static int safety_check(struct apply *a, const char *cmd)
{
	uint64_t sum_cur = 0, sum_new = 0, managed = 0, free_pages = 0;
	bool have_free = false;
	size_t i;

	if (!a->modelled)
		return EXIT_OK;
	for (i = 0; i < a->s.m.nzones; i++) {
		sum_cur += a->cur[i].wm.min;
		sum_new += a->pred[i].wm.min;
		managed += a->s.zones[i].managed;
	}
	for (i = 0; i < a->s.zi.nzones; i++) {
		if (a->s.zi.zones[i].flags & ZI_HAS_FREE) {
			free_pages += a->s.zi.zones[i].free;
			have_free = true;
		}
	}
	if (sum_new <= sum_cur)
		return EXIT_OK;
	if (sum_new * 100 > managed * SAFE_MIN_SHARE_PCT) {
		if (a->force) {
			warn(a, "the summed min watermarks (%" PRIu64 " pages) exceed %d%% of managed memory (%" PRIu64 " pages): written anyway (--force)",
			     sum_new, SAFE_MIN_SHARE_PCT, managed);
			return EXIT_OK;
		}
		return cli_err(EXIT_USAGE, cmd, "refused: the summed min watermarks would be %" PRIu64 " pages, over %d%% of the %" PRIu64 " managed pages (the machine would reclaim or OOM constantly); --force writes it anyway",
			       sum_new, SAFE_MIN_SHARE_PCT, managed);
	}
	if (have_free && sum_new > free_pages) {
		if (a->force) {
			warn(a, "the summed min watermarks (%" PRIu64 " pages) exceed the %" PRIu64 " pages free now: written anyway (--force)",
			     sum_new, free_pages);
			return EXIT_OK;
		}
		return cli_err(EXIT_USAGE, cmd, "refused: the summed min watermarks would be %" PRIu64 " pages, above the %" PRIu64 " pages free now (every allocation would enter direct reclaim); --force writes it anyway",
			       sum_new, free_pages);
	}
	return EXIT_OK;
}

static bool file_exists(const char *root, const char *rel)
{
	char p[PATH_MAX];

	return root_path(root, rel, p, sizeof(p)) == 0 && access(p, F_OK) == 0;
}

/* Things that will undo or void the change. */
static void collect_warnings(struct apply *a)
{
	const struct change *c = a->ch;
	struct wm_mfk boot;
	struct wm_diag diag;
	size_t i;

	if (!a->modelled)
		return;
	if (c[WM_KNOB_MFK].set && !a->refresh &&
	    wm_boot_min_free_kbytes(&a->s.prof, &a->s.m, &a->sc_new, a->s.thp, &boot,
				    &diag) == WM_OK) {
		int64_t v = c[WM_KNOB_MFK].val.v[0];

		if ((a->s.thp == WM_THP_MADVISE || a->s.thp == WM_THP_ALWAYS) &&
		    boot.thp_kb > v)
			warn(a, "THP is enabled: khugepaged raises min_free_kbytes back to %" PRId64 " KiB at the next write to transparent_hugepage/enabled%s",
			     boot.thp_kb, a->s.prof.kver.major > 5 || (a->s.prof.kver.major == 5 && a->s.prof.kver.minor >= 9) ?
			     " or memory hotplug event" : "");
		if (boot.sqrt_kb > v)
			warn(a, "memory hotplug%s recomputes min_free_kbytes (about %" PRId64 " KiB for this memory) and keeps a written value only when it is at least that",
			     a->s.prof.thp_off_recompute && a->s.thp == WM_THP_NEVER ?
			     " and THP mode changes" : "", boot.sqrt_kb);
	}
	if (c[WM_KNOB_WSF].set && (a->s.prof.kver.android ||
			      file_exists(a->ctx->root, "system/bin/extra_free_kbytes.sh") ||
			      file_exists(a->ctx->root, "vendor/bin/extra_free_kbytes.sh")))
		warn(a, "Android: when the property sys.sysctl.extra_free_kbytes is set, init runs extra_free_kbytes.sh, which rewrites watermark_scale_factor");
	if (c[WM_KNOB_WSF].set && c[WM_KNOB_WSF].val.v[0] != a->s.sysctl.wsf) {
		/* The same sysctls with the old wsf: do any gaps move? */
		struct wm_sysctl alt = a->sc_new;
		struct wm_predicted *w = calloc(a->s.m.nzones, sizeof(*w));
		int64_t floor = -1;
		bool moved = false;

		alt.wsf = a->s.sysctl.wsf;
		if (w && alt.wsf > 0 && snapshot_predict(&a->s, &alt, WM_RECOMPUTE_WMARKS, w) == EXIT_OK) {
			for (i = 0; i < a->s.m.nzones; i++) {
				if (a->s.zones[i].managed == 0)
					continue;
				moved |= w[i].wm.gap != a->pred[i].wm.gap;
				if (a->pred[i].wm.wsf_floor > 0 &&
				    (floor < 0 || a->pred[i].wm.wsf_floor < floor))
					floor = a->pred[i].wm.wsf_floor;
			}
			if (!moved && floor > 0)
				warn(a, "watermark_scale_factor %" PRId64 " changes no gap: every zone's gap is floored at a quarter of its min share; the smallest wsf that changes one is %" PRId64 "",
				     c[WM_KNOB_WSF].val.v[0], floor);
			else if (!moved)
				warn(a, "watermark_scale_factor %" PRId64 " changes no gap on this machine",
				     c[WM_KNOB_WSF].val.v[0]);
		}
		free(w);
	}
	if (c[WM_KNOB_BOOST].set && !c[WM_KNOB_MFK].set && !c[WM_KNOB_WSF].set && !c[WM_KNOB_EXTRA].set)
		warn(a, "watermark_boost_factor only scales future boosts: no watermark moves now");
}

/* The text table: printed now -> predicted after the write. */
static void print_prediction(const struct apply *a)
{
	bool promo = a->s.prof.promo;
	size_t i;
	int j;

	printf("predicted watermarks (pages; now -> after):\n");
	printf("  %-14s %-19s %-19s %-19s%s\n", "zone", "min", "low", "high",
	       promo ? " promo" : "");
	for (i = 0; i < a->s.m.nzones; i++) {
		const struct zi_zone *z = zi_of(&a->s, i);
		const struct wm_zone_wm *p = &a->pred[i].wm;
		uint64_t b = a->pred[i].boost;
		char name[32], f[4][40];

		if (!z)
			continue;
		/* as zoneinfo prints them: a boost that stays included */
		snprintf(name, sizeof(name), "%d/%s", z->node, z->name);
		snprintf(f[0], sizeof(f[0]), "%" PRIu64 " -> %" PRIu64 "", z->min, p->min + b);
		snprintf(f[1], sizeof(f[1]), "%" PRIu64 " -> %" PRIu64 "", z->low, p->low + b);
		snprintf(f[2], sizeof(f[2]), "%" PRIu64 " -> %" PRIu64 "", z->high, p->high + b);
		snprintf(f[3], sizeof(f[3]), "%" PRIu64 " -> %" PRIu64 "",
			 z->flags & ZI_HAS_PROMO ? z->promo : a->cur[i].wm.promo, p->promo + b);
		printf("  %-14s %-19s %-19s %-19s%s%s\n", name, f[0], f[1], f[2],
		       promo ? " " : "", promo ? f[3] : "");
	}
	for (i = 0; i < a->s.m.nzones; i++) {
		const struct zi_zone *z = zi_of(&a->s, i);
		bool same = true;

		if (!z)
			continue;
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			same &= z->protection[j] == a->pred[i].wm.protection[j];
		if (same)
			continue;
		printf("  %d/%s protection (", z->node, z->name);
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			printf("%s%" PRId64 "", j ? ", " : "", z->protection[j]);
		printf(") -> (");
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			printf("%s%" PRId64 "", j ? ", " : "", a->pred[i].wm.protection[j]);
		printf(")\n");
	}
}

/*
 * --refresh: which zones the recompute moves, i.e. whose printed
 * watermarks or protection differ from the prediction.  Text: one line;
 * JSON: a "moved" array of "node/zone".
 */
static void report_moved(const struct apply *a, cJSON *doc)
{
	cJSON *arr = doc ? cJSON_AddArrayToObject(doc, "moved") : NULL;
	int moved = 0, j;
	size_t i;

	if (!a->modelled)
		return;
	for (i = 0; i < a->s.m.nzones; i++) {
		const struct zi_zone *z = zi_of(&a->s, i);
		const struct wm_zone_wm *p = &a->pred[i].wm;
		uint64_t b;
		char name[32];
		bool m;

		if (!z)
			continue;
		b = z->flags & ZI_HAS_BOOST ? z->boost : 0;
		m = z->min - b != p->min || z->low - b != p->low || z->high - b != p->high ||
		    ((z->flags & ZI_HAS_PROMO) && z->promo - b != p->promo);
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			m |= z->protection[j] != p->protection[j];
		if (!m)
			continue;
		snprintf(name, sizeof(name), "%d/%s", z->node, z->name);
		if (arr)
			cJSON_AddItemToArray(arr, cJSON_CreateString(name));
		else
			printf("%s%s", moved ? ", " : "refresh moves ", name);
		moved++;
	}
	if (!arr)
		printf(moved ? " (stale since the last recompute)\n" :
		       "refresh moves nothing: the watermarks and protection are current\n");
}

static cJSON *json_prediction(const struct apply *a)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;
	int j;

	for (i = 0; arr && a->modelled && i < a->s.m.nzones; i++) {
		const struct zi_zone *z = zi_of(&a->s, i);
		const struct wm_zone_wm *p = &a->pred[i].wm;
		uint64_t b = a->pred[i].boost;
		cJSON *o, *prot;

		if (!z)
			continue;
		/* as zoneinfo will print them, the same numbers as whatif -j */
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "node", z->node);
		cJSON_AddStringToObject(o, "zone", z->name);
		cJSON_AddItemToObject(o, "managed", json_long((int64_t)a->s.zones[i].managed));
		cJSON_AddItemToObject(o, "min", json_long((int64_t)(p->min + b)));
		cJSON_AddItemToObject(o, "low", json_long((int64_t)(p->low + b)));
		cJSON_AddItemToObject(o, "high", json_long((int64_t)(p->high + b)));
		if (a->pred[i].promo_printed)
			cJSON_AddItemToObject(o, "promo", json_long((int64_t)(p->promo + b)));
		else
			cJSON_AddNullToObject(o, "promo");
		cJSON_AddItemToObject(o, "boost", json_long((int64_t)b));
		prot = cJSON_AddArrayToObject(o, "protection");
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			cJSON_AddItemToArray(prot, json_long(p->protection[j]));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* The header of a persisted file: what wmark computed and why. */
static char *persist_header(const struct apply *a, bool rc_file)
{
	char *h = NULL, v[128], pv[128];
	size_t len = 0, i;
	FILE *f = open_memstream(&h, &len);
	int k;

	if (!f)
		return NULL;
	fprintf(f, "Written by wmark %s: %s\n", WMARK_VERSION, a->command);
	fprintf(f, "Kernel %s.%s\n", a->s.osrelease[0] ? a->s.osrelease : "unknown",
		rc_file ? " Runs once Android has finished booting." : "");
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		txn_value_str(&c->val, v, sizeof(v));
		txn_value_str(&c->prev, pv, sizeof(pv));
		fprintf(f, "vm.%s = %s (was %s)\n", wm_knob_name(k), v, pv);
	}
	if (a->modelled) {
		fprintf(f, "\nWatermarks these values gave when written (pages, min/low/high):\n");
		for (i = 0; i < a->s.m.nzones; i++)
			if (zi_of(&a->s, i))
				fprintf(f, "  Node %d, zone %-8s %" PRIu64 " / %" PRIu64 " / %" PRIu64 "\n",
					zi_of(&a->s, i)->node, zi_of(&a->s, i)->name,
					a->pred[i].wm.min + a->pred[i].boost,
					a->pred[i].wm.low + a->pred[i].boost,
					a->pred[i].wm.high + a->pred[i].boost);
	}
	fprintf(f, "Undo with 'wmark rollback': it restores the runtime values and removes this file\n"
		"(or puts back the one it replaced).");
	if (fclose(f) != 0) {
		free(h);
		return NULL;
	}
	return h;
}

/* Write --persist and --initrc; report what overrides ours. */
static int do_persist(struct apply *a, const char *cmd, cJSON *doc)
{
	struct ps_item items[WM_NKNOBS];
	enum wm_knob keys[WM_NKNOBS];
	const char *failed = NULL;
	int n = 0, k, r, pass;

	for (k = 0; k < WM_NKNOBS; k++) {
		if (!a->ch[k].set || a->ch[k].dropped || a->ch[k].write_failed)
			continue;
		keys[n] = (enum wm_knob)k;
		items[n].key = (enum wm_knob)k;
		items[n++].val = a->ch[k].val;
	}
	for (pass = 0; pass < 2; pass++) {
		const char *file = a->tgt[pass].file, *target = a->tgt[pass].path;
		char *text, *header;

		if (!file)
			continue;
		header = persist_header(a, pass == 1);
		text = pass ? ps_initrc_text(header, items, n) : ps_sysctl_d_text(header, items, n);
		free(header);
		if (!text)
			return cli_err(EXIT_SYSTEM, cmd, "out of memory");
		if (a->dry_run) {
			r = 0;
		} else {
			r = jr_prepare_dir(target, &failed);
			if (r == 0)
				r = jr_write_atomic(target, text, strlen(text), 0644, NULL, &failed);
		}
		free(text);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s (the sysctls were applied; only persisting failed)",
				       target, failed ? failed : "write", strerror(-r));
		if (!doc)
			printf("%s %s\n", a->dry_run ? "would write" : "wrote", target);
		if (doc)
			cJSON_AddStringToObject(doc, pass ? "initrc" : "persisted", target);
		if (pass == 0) {
			struct ps_report rep;
			size_t i;

			if (ps_scan(a->ctx->root, target, keys, n, &rep) < 0)
				return cli_err(EXIT_SYSTEM, cmd, "out of memory");
			if (!rep.read_at_boot)
				warn(a, "%s is not in a directory that sysctl --system or systemd-sysctl reads (/etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d, /lib/sysctl.d; names ending in .conf)",
				     file);
			if (rep.masked_by[0])
				warn(a, "%s is masked by %s, which has the same name in a directory read first",
				     file, rep.masked_by);
			for (i = 0; i < rep.nov; i++)
				warn(a, "at boot %s:%d sets vm.%s = %s after %s, overriding it",
				     rep.ov[i].file, rep.ov[i].line, wm_knob_name(rep.ov[i].key),
				     rep.ov[i].value, file);
			ps_report_free(&rep);
		}
	}
	return EXIT_OK;
}

/*
 * Find the --persist and --initrc files under the root and refuse, before
 * anything is written, one that is not a plain file inside the root or
 * that wmark did not write (unless --force: rollback then puts it back).
 * Return EXIT_OK or an exit code after one line.
 */
static int check_targets(struct apply *a, const char *cmd)
{
	static const char *const opt[2] = { "--persist", "--initrc" };
	int pass, r;

	for (pass = 0; pass < 2; pass++) {
		struct target *t = &a->tgt[pass];

		if (!t->file)
			continue;
		r = ps_target(a->ctx->root, t->file, t->path, sizeof(t->path));
		if (r == -EINVAL)
			return cli_usage(cmd, "%s %s: give an absolute path without '.' or '..' (it is taken inside --root)",
					 opt[pass], t->file);
		if (r == -EISDIR)
			return cli_usage(cmd, "%s %s: names a directory; give the file", opt[pass], t->file);
		if (r < 0)
			return cli_usage(cmd, "%s: path too long", opt[pass]);
		r = ps_inspect(a->ctx->root, t->path, &t->kind, t->text, sizeof(t->text));
		switch (r) {
		case 0:
			break;
		case -EXDEV:
			return cli_err(EXIT_SYSTEM, cmd, "%s: resolves outside %s: refusing to follow a symlink; nothing was written",
				       t->path, a->ctx->root);
		case -ELOOP:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is a symbolic link: refusing; nothing was written",
				       t->path);
		case -EISDIR:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is a directory, not a file; nothing was written",
				       t->path);
		case -ENXIO:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is not a regular file; nothing was written",
				       t->path);
		case -EFBIG:
		case -EILSEQ:
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s, too much to keep for rollback: move it away first; nothing was written",
				       t->path, r == -EFBIG ? "over 16 KiB" : "holds a NUL byte");
		default:
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s; nothing was written", t->path,
				       strerror(-r));
		}
		if (t->kind == PS_FOREIGN && !a->force)
			return cli_err(EXIT_USAGE, cmd, "%s: exists and was not written by wmark (its first line is not \"%s\"): refusing to replace it; --force replaces it and 'wmark rollback' puts it back; nothing was written",
				       t->path, PS_MARK);
		if (t->kind == PS_FOREIGN)
			warn(a, "%s was not written by wmark: replaced (--force); 'wmark rollback' puts it back",
			     t->path);
	}
	return EXIT_OK;
}

/*
 * Add to journal j the files this apply will write, with what they hold
 * now; a file an earlier apply of the session wrote keeps its record
 * from before the first.  Return EXIT_OK or EXIT_USAGE after one line.
 */
static int journal_files(const struct apply *a, const char *cmd, struct journal *j)
{
	int pass, i;

	for (pass = 0; pass < 2; pass++) {
		const struct target *t = &a->tgt[pass];
		struct jr_file *f;

		if (!t->file)
			continue;
		for (i = 0; i < j->nfiles; i++)
			if (strcmp(j->f[i].path, t->path) == 0)
				break;
		if (i < j->nfiles)
			continue;
		if (j->nfiles == JR_MAX_FILES)
			return cli_err(EXIT_USAGE, cmd, "%s: the journal already holds %d persisted files: 'wmark rollback' first; nothing was written",
				       t->path, JR_MAX_FILES);
		f = &j->f[j->nfiles++];
		snprintf(f->path, sizeof(f->path), "%s", t->path);
		f->existed = t->kind != PS_ABSENT;
		snprintf(f->previous, sizeof(f->previous), "%s", f->existed ? t->text : "");
	}
	return EXIT_OK;
}

/* Check every file apply will create or write, before any is written. */
static int check_access(struct apply *a, const char *cmd)
{
	const char *failed = NULL;
	int k, r, pass;

	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		r = sc_writable(c->path);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s%s; nothing was written", c->path,
				       strerror(-r), needs_root(r));
	}
	r = jr_prepare_dir(a->state_path, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
			       a->state_path, failed, strerror(-r));
	for (pass = 0; pass < 2; pass++) {
		const char *target = a->tgt[pass].path;

		if (!a->tgt[pass].file)
			continue;
		r = jr_prepare_dir(target, &failed);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s; nothing was written",
				       target, failed, strerror(-r));
	}
	return EXIT_OK;
}

/*
 * Load the journal of earlier applies.  Values they changed that were not
 * rolled back stay in it, so one rollback returns to the state before
 * the first of them.  A journal we cannot read is never overwritten.
 */
static int load_journal(struct apply *a, const char *cmd)
{
	char err[160], rroot[PATH_MAX];
	int r = jr_load(a->state_path, &a->old, err, sizeof(err));

	if (r == -ENOENT)
		return EXIT_OK;
	/* malformed input (wmark.1): exit 2, but no usage hint */
	if (r == -EINVAL)
		return cli_err(EXIT_USAGE, cmd, "journal %s: %s: refusing to overwrite it (give another --state); nothing was written",
			       a->state_path, err);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s; nothing was written", a->state_path, err);
	if (a->old.state != JR_PENDING && a->old.state != JR_APPLIED)
		return EXIT_OK;
	if (realpath(a->ctx->root, rroot) && strcmp(rroot, a->old.root) != 0)
		return cli_err(EXIT_USAGE, cmd, "journal %s holds values of root %s, not %s: give another --state; nothing was written",
			       a->state_path, a->old.root, rroot);
	if (a->old.state == JR_PENDING)
		warn(a, "journal %s: an earlier apply did not finish; its values stay in the journal, so 'wmark rollback' restores them too",
		     a->state_path);
	a->have_old = true;
	return EXIT_OK;
}

/*
 * The journal entry for knob k: the text before the first apply since the
 * last rollback (when the knob still holds what an earlier apply left:
 * its written text, its previous one, or, after a crash, the one from
 * before that apply), else the text before this one.  Until this apply
 * has written the knob, the text it holds now is ours too ("before").
 */
static void journal_entry(const struct apply *a, enum wm_knob k,
			  const struct change *c, struct jr_entry *e)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->key = k;
	snprintf(e->previous, JR_TEXT_MAX, "%s", c->prev_text);
	snprintf(e->written, JR_TEXT_MAX, "%s", c->text);
	for (i = 0; a->have_old && i < a->old.n; i++) {
		const struct jr_entry *o = &a->old.e[i];

		if (o->key != k)
			continue;
		if (txn_holds(k, o->written, &c->prev) || txn_holds(k, o->previous, &c->prev) ||
		    txn_holds(k, o->before, &c->prev))
			snprintf(e->previous, JR_TEXT_MAX, "%s", o->previous);
	}
	if (!txn_holds(k, e->previous, &c->prev))
		snprintf(e->before, JR_TEXT_MAX, "%s", c->prev_text);
}

static void print_changes(const struct apply *a)
{
	char v[128], pv[128];
	int k;

	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		txn_value_str(&c->val, v, sizeof(v));
		txn_value_str(&c->prev, pv, sizeof(pv));
		printf("  vm.%-24s %s -> %s\n", wm_knob_name(k), pv, v);
	}
}

static int run_apply(struct apply *a, const char *cmd)
{
	struct txn_step st[WM_NKNOBS];
	struct journal j;
	const char *failed = NULL;
	bool undone;
	int k, n = 0, r, rc, i;
	cJSON *written = NULL, *previous = NULL, *warns;

	rc = snapshot_read(a->ctx, &a->s);
	if (rc != EXIT_OK)
		return rc;
	a->have_snapshot = true;
	if (a->refresh && !a->ch[WM_KNOB_MFK].set) {
		a->ch[WM_KNOB_MFK].set = true;
		a->ch[WM_KNOB_MFK].origin = "--refresh";
	}
	for (k = 0; k < WM_NKNOBS; k++) {
		struct change *c = &a->ch[k];
		struct wm_diag d;

		if (!c->set)
			continue;
		rc = read_knob(a, cmd, (enum wm_knob)k, c);
		if (rc != EXIT_OK)
			return rc;
		if (c->dropped)
			continue;
		if (a->refresh && k == WM_KNOB_MFK && strcmp(c->origin, "--refresh") == 0)
			c->val = c->prev;
		if (sc_value_check(&a->s.prof, (enum wm_knob)k, &c->val,
				   k == WM_KNOB_LRR ? c->prev.n : 0, &d) < 0)
			return cli_usage(cmd, "%s: %s", c->origin, d.msg);
		if (sc_value_format(&c->val, c->text, sizeof(c->text)) < 0)
			return cli_usage(cmd, "%s: value too long", c->origin);
	}
	/* no prediction, no safety check: the knobs it needs must be there */
	rc = snapshot_need(&a->s, cmd, &a->s.sysctl,
			   WM_HAVE_MFK | (a->s.prof.wsf ? WM_HAVE_WSF : 0), NULL);
	if (rc != EXIT_OK)
		return rc;
	rc = predict(a);
	if (rc != EXIT_OK)
		return rc;
	rc = safety_check(a, cmd);
	if (rc != EXIT_OK)
		return rc;
	collect_warnings(a);
	if (txn_state_path(a->ctx, a->state_opt, a->state_path, sizeof(a->state_path)) < 0)
		return cli_usage(cmd, "--state: path too long");
	rc = check_targets(a, cmd);
	if (rc != EXIT_OK)
		return rc;
	if (!a->dry_run) {
		rc = check_access(a, cmd);
		if (rc == EXIT_OK)
			rc = txn_lock(cmd, a->state_path, &a->lock_fd);
		if (rc == EXIT_OK)
			rc = load_journal(a, cmd);
		if (rc != EXIT_OK)
			return rc;
	}

	/* What is about to happen. */
	if (a->ctx->format == FMT_JSON) {
		a->doc = cJSON_CreateObject();
		cJSON_AddStringToObject(a->doc, "source", a->s.live ? "live" : "capture");
		cJSON_AddStringToObject(a->doc, "kernel", a->s.osrelease);
		cJSON_AddBoolToObject(a->doc, "dry_run", a->dry_run);
		cJSON_AddBoolToObject(a->doc, "refresh", a->refresh);
		written = cJSON_AddObjectToObject(a->doc, "written");
		previous = cJSON_AddObjectToObject(a->doc, "previous");
		cJSON_AddItemToObject(a->doc, "predicted", json_prediction(a));
		if (a->refresh)
			report_moved(a, a->doc);
	} else {
		printf("kernel %s, root %s\n", a->s.osrelease[0] ? a->s.osrelease : "unknown",
		       a->ctx->root);
		print_changes(a);
		if (a->modelled)
			print_prediction(a);
		if (a->modelled && a->refresh)
			report_moved(a, NULL);
		if (!a->modelled)
			printf("no prediction: min_free_kbytes or zoneinfo is missing under %s\n",
			       a->ctx->root);
		if (!a->dry_run) {
			/* Nobody would see what is about to be written. */
			rc = stdout_check(cmd, EXIT_OK, "nothing was written");
			if (rc != EXIT_OK)
				return rc;
		}
		fflush(stdout);
		flush_warnings(a, cmd);
	}
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		if (written)
			json_value(written, wm_knob_name(k), &c->val, (enum wm_knob)k);
		if (previous)
			json_value(previous, wm_knob_name(k), &c->prev, (enum wm_knob)k);
	}
	if (a->dry_run) {
		rc = do_persist(a, cmd, a->doc);
		if (!a->doc)
			printf("dry run: nothing written\n");
		goto out;
	}

	/* The journal first: from here on, rollback can undo anything. */
	memset(&j, 0, sizeof(j));
	j.state = JR_PENDING;
	if (!realpath(a->ctx->root, j.root))
		snprintf(j.root, sizeof(j.root), "%s", a->ctx->root);
	snprintf(j.kernel, sizeof(j.kernel), "%s", a->s.osrelease);
	txn_boot_id(a->ctx->root, j.boot_id, sizeof(j.boot_id));
	j.time = (long long)time(NULL);
	snprintf(j.command, sizeof(j.command), "%s", a->command);
	for (k = 0; k < WM_NKNOBS; k++) {
		struct change *c = &a->ch[k];

		if (!c->set || c->dropped) {
			/* A knob an earlier apply changed stays journaled. */
			for (i = 0; a->have_old && i < a->old.n; i++)
				if (a->old.e[i].key == (enum wm_knob)k)
					j.e[j.n++] = a->old.e[i];
			continue;
		}
		journal_entry(a, (enum wm_knob)k, c, &j.e[j.n++]);
		st[n] = (struct txn_step){ .key = (enum wm_knob)k, .path = c->path, .to = c->text,
				       .back = c->prev_text, .want = c->val,
				       .ignore_failure = c->ignore_failure };
		n++;
	}
	/* The files of earlier applies, then this one's. */
	for (i = 0; a->have_old && i < a->old.nfiles; i++)
		j.f[j.nfiles++] = a->old.f[i];
	rc = journal_files(a, cmd, &j);
	if (rc != EXIT_OK)
		goto out;
	r = jr_save(a->state_path, &j, &failed);
	if (r < 0) {
		rc = cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
			     a->state_path, failed, strerror(-r));
		goto out;
	}
	rc = txn_write_steps(cmd, st, n, &undone);
	if (rc != EXIT_OK) {
		if (undone) {
			/* Back to the journal as it was before this apply. */
			if (a->have_old)
				j = a->old;
			else
				j.state = JR_RESTORED;
			if (jr_save(a->state_path, &j, &failed) < 0)
				cli_err(0, cmd, "journal %s: could not record the restore", a->state_path);
			cli_err(0, cmd, "every value is as before: nothing changed");
		} else {
			cli_err(0, cmd, "some values could not be put back; 'wmark rollback' retries from %s",
				a->state_path);
		}
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!st[i].failed_ignored)
			continue;
		a->ch[st[i].key].write_failed = true;
		warn(a, "%s: write failed, skipped (\"-\" in %s)", st[i].path,
		     a->ch[st[i].key].origin);
	}
	a->wrote = true;
	for (i = 0; i < n; i++)
		jr_remove_stale(st[i].path);
	/* Written: the text from before this apply is no longer the knob's. */
	for (i = 0; i < j.n; i++) {
		const struct change *c = &a->ch[j.e[i].key];

		if (c->set && !c->dropped && !c->write_failed)
			j.e[i].before[0] = '\0';
	}
	j.state = JR_APPLIED;
	r = jr_save(a->state_path, &j, &failed);
	if (r < 0)
		warn(a, "journal %s: %s: %s: it still reads \"pending\", which rollback handles",
		     a->state_path, failed, strerror(-r));
	if (!a->doc) {
		printf("written and read back; journal %s ('wmark rollback' restores the previous values)\n",
		       a->state_path);
	} else {
		cJSON_AddStringToObject(a->doc, "journal", a->state_path);
	}
	if (a->modelled)
		rc = live_check(a->ctx, cmd, &a->s, a->pred, &a->sc_new, recomputes(a), a->doc);
	if (rc == EXIT_OK && (a->persist || a->initrc))
		rc = do_persist(a, cmd, a->doc);
out:
	if (a->doc) {
		warns = cJSON_AddArrayToObject(a->doc, "warnings");
		for (i = 0; i < a->nwarn; i++)
			cJSON_AddItemToArray(warns, cJSON_CreateString(a->warn[i]));
		cJSON_AddBoolToObject(a->doc, "ok", rc == EXIT_OK);
		jw_print(stdout, a->doc);	/* a write error: stdout_check() */
	}
	flush_warnings(a, cmd);
	if (a->wrote)
		rc = stdout_check(cmd, rc, "the sysctls were written and journaled ('wmark rollback' restores them)");
	return rc;
}

/*
 * `wmark apply`: argv[0] is "apply", then its options (apply_usage).
 * Return the exit code: 0 done, 1 a read-back or the kernel's watermarks
 * differed, 2 bad usage or a refused value, 3 the system refused.
 */
int cmd_apply(struct cli_ctx *ctx, int argc, char **argv)
{
	struct apply a;
	int rc, i;

	memset(&a, 0, sizeof(a));
	a.ctx = ctx;
	a.lock_fd = -1;
	join_argv(a.command, sizeof(a.command), argc, argv);
	rc = parse_apply(&a, "apply", argc, argv);
	if (rc < 0)
		return EXIT_OK;		/* --help */
	if (rc == EXIT_OK)
		rc = run_apply(&a, "apply");
	if (a.have_snapshot)
		snapshot_free(&a.s);
	free(a.cur);
	free(a.pred);
	for (i = 0; i < a.nwarn; i++)
		free(a.warn[i]);
	cJSON_Delete(a.doc);
	if (a.lock_fd >= 0)
		close(a.lock_fd);
	return rc;
}

/* ---- rollback ---------------------------------------------------------- */

static void rollback_usage(FILE *f)
{
	fputs("Usage: wmark [--root DIR] [-j] rollback [OPTIONS]\n"
	      "\n"
	      "Restore the sysctls that apply changed to the values they had before\n"
	      "it, from the journal.  After several applies, the values from before\n"
	      "the first one since the last rollback, also after an apply that was\n"
	      "killed.  Files --persist and --initrc wrote are removed, or the file\n"
	      "they replaced is put back.  Running it again changes nothing.  Values\n"
	      "or files someone else changed since are left alone, and nothing is\n"
	      "written, unless --force.\n"
	      "\n"
	      "Options:\n"
	      "      --state FILE   journal (default ROOT/var/lib/wmark/state.json)\n"
	      "  -f, --force        restore values changed since the apply too\n"
	      "  -n, --dry-run      say what would be restored, write nothing\n"
	      "  -h, --help         show this help\n"
	      "\n"
	      "Exit status: 0 restored or nothing to do, 1 values changed since (and\n"
	      "no --force) or a read-back differed, 2 bad usage, a malformed journal,\n"
	      "one for another root or a value the kernel refuses, 3 no journal, no\n"
	      "permission or I/O.\n", f);
}

enum rb_state { RB_AT_PREVIOUS, RB_AT_WRITTEN, RB_CHANGED };

/* What rollback does with a file --persist or --initrc wrote. */
enum rb_file { RBF_NONE, RBF_REMOVE, RBF_RESTORE };

struct rb_files {
	enum rb_file act[JR_MAX_FILES];
	bool changed[JR_MAX_FILES];	/* not as apply left it: someone else's now */
	const char *why[JR_MAX_FILES];	/* how it changed */
	char text[JR_FILE_MAX];		/* scratch: a file's text now */
};

/*
 * Decide for every file of journal j what rollback does: remove one that
 * did not exist before, put back the text of one that did, nothing when
 * it holds that text already.  A file that lost wmark's header, or that
 * is gone, was changed by someone else since.  Return EXIT_OK, or
 * EXIT_SYSTEM after one line for a file that cannot be touched by the
 * rule of ps_inspect (a symlink, a directory, outside the root).
 */
static int rollback_files(const struct cli_ctx *ctx, const char *cmd,
			  const struct journal *j, struct rb_files *rf)
{
	enum ps_kind kind;
	int i, r;

	for (i = 0; i < j->nfiles; i++) {
		const struct jr_file *f = &j->f[i];

		rf->act[i] = RBF_NONE;
		rf->changed[i] = false;
		rf->why[i] = "";
		r = ps_inspect(ctx->root, f->path, &kind, rf->text, sizeof(rf->text));
		if (r == -EFBIG || r == -EILSEQ) {
			kind = PS_FOREIGN;	/* not what wmark writes */
		} else if (r < 0) {
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s; nothing was restored", f->path,
				       r == -EXDEV ? "resolves outside the root: refusing to follow a symlink" :
				       r == -ELOOP ? "is a symbolic link: refusing" :
				       r == -EISDIR ? "is a directory, not a file" :
				       r == -ENXIO ? "is not a regular file" : strerror(-r));
		}
		if (j->state == JR_ROLLED_BACK || j->state == JR_RESTORED)
			continue;
		if (kind == PS_ABSENT && !f->existed)
			continue;
		if (kind != PS_ABSENT && f->existed && r == 0 && strcmp(rf->text, f->previous) == 0)
			continue;
		rf->act[i] = f->existed ? RBF_RESTORE : RBF_REMOVE;
		if (kind == PS_ABSENT) {
			rf->changed[i] = true;
			rf->why[i] = "was removed";
		} else if (kind == PS_FOREIGN) {
			rf->changed[i] = true;
			rf->why[i] = "no longer starts with wmark's header";
		}
	}
	return EXIT_OK;
}

/* Carry out rf's decisions; EXIT_OK or EXIT_SYSTEM after one line. */
static int rollback_do_files(const char *cmd, const struct journal *j,
			     const struct rb_files *rf)
{
	const char *failed = NULL;
	int i, r = 0;

	for (i = 0; i < j->nfiles; i++) {
		const struct jr_file *f = &j->f[i];

		if (rf->act[i] == RBF_REMOVE) {
			r = jr_remove(f->path, &failed);
		} else if (rf->act[i] == RBF_RESTORE) {
			r = jr_prepare_dir(f->path, &failed);
			if (r == 0)
				r = jr_write_atomic(f->path, f->previous, strlen(f->previous), 0644,
						    NULL, &failed);
		}
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s (the sysctls are restored, this file not: run 'wmark rollback' again)",
				       f->path, failed, strerror(-r));
	}
	return EXIT_OK;
}

/*
 * The kernel rollback writes to, for the range check: the root's kernel
 * identity alone (snapshot_kernel: --kernel, else osrelease with the
 * Debian sublevel of its version line), else the newest rules.  Not
 * snapshot_read, which refuses a knob file that does not parse: rollback
 * -f exists to repair exactly those.
 */
static void rollback_profile(const struct cli_ctx *ctx, struct wm_profile *p)
{
	struct wm_kernel_id id;

	if (snapshot_kernel(ctx, &id) == EXIT_OK)
		*p = id.prof;
	else
		wm_profile_default(p);
}

/*
 * `wmark rollback`: argv[0] is "rollback", then its options
 * (rollback_usage).  Return the exit code: 0 restored or nothing to do,
 * 1 values changed since or a read-back differed, 2 bad usage or a
 * malformed journal, 3 the system refused or there is no journal.
 */
const struct option cmd_rollback_opts[] = {
	{ "state", required_argument, NULL, 'S' },
	{ "force", no_argument, NULL, 'f' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_rollback(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *cmd = "rollback", *state_opt = NULL, *failed = NULL;
	char path[PATH_MAX], err[200], rroot[PATH_MAX], boot_id[64];
	char knob[WM_NKNOBS][PATH_MAX], shown[WM_NKNOBS][JR_TEXT_MAX + 8];
	char raw[WM_NKNOBS][JR_TEXT_MAX];	/* a knob's text, when it does not parse */
	struct sc_value cur[WM_NKNOBS], prev[WM_NKNOBS], wr[WM_NKNOBS], bf;
	bool cur_ok[WM_NKNOBS];
	enum rb_state where[WM_NKNOBS];
	struct txn_step st[WM_NKNOBS];
	struct wm_profile prof;
	struct journal j;
	static struct rb_files rf;
	bool force = false, dry = false, undone;
	int c, i, r, rc = EXIT_OK, n = 0, changed = 0, todo = 0, lock_fd = -1;
	cJSON *doc = NULL, *restored = NULL, *before = NULL, *left = NULL, *files = NULL;
	bool restored_any = false;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":fnh", cmd_rollback_opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			state_opt = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'n':
			dry = true;
			break;
		case 'h':
			rollback_usage(stdout);
			return EXIT_OK;
		case ':':
			return cli_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage(cmd, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (txn_state_path(ctx, state_opt, path, sizeof(path)) < 0)
		return cli_usage(cmd, "--state: path too long");
	r = jr_load(path, &j, err, sizeof(err));
	if (r == -ENOENT)
		return cli_err(EXIT_SYSTEM, cmd, "%s: no journal: nothing was applied with this root and --state",
			       path);
	if (r == 0 && !dry) {
		r = txn_lock(cmd, path, &lock_fd);
		if (r != EXIT_OK)
			return r;
		/* Read it again: it is ours now. */
		r = jr_load(path, &j, err, sizeof(err));
	}
	if (r < 0) {
		/* malformed input (wmark.1): exit 2, but no usage hint */
		rc = cli_err(r == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM, cmd, "%s: %s; nothing was restored",
			     path, err);
		goto out;
	}
	if (!realpath(ctx->root, rroot))
		return cli_err(EXIT_SYSTEM, cmd, "%s: %s", ctx->root, strerror(errno));
	if (strcmp(rroot, j.root) != 0)
		return cli_err(EXIT_USAGE, cmd, "%s was written for root %s, not %s; nothing was restored",
			       path, j.root, rroot);

	for (i = 0; i < j.n; i++) {
		enum wm_knob k = j.e[i].key;
		char text[JR_TEXT_MAX], esc[JR_TEXT_MAX];

		r = sc_path(ctx->root, k, knob[i], sizeof(knob[i]));
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "vm.%s under %s: %s", wm_knob_name(k),
				       ctx->root, r == -EXDEV ? "resolves outside proc/sys/vm" : strerror(-r));
		r = sc_read(knob[i], text, sizeof(text));
		if (r == -EFBIG)
			snprintf(text, sizeof(text), "(over %d bytes)", JR_TEXT_MAX - 1);
		else if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: read: %s", knob[i], strerror(-r));
		/* jr_load checked that the journal's texts parse */
		sc_value_parse(k, j.e[i].previous, &prev[i], NULL);
		sc_value_parse(k, j.e[i].written, &wr[i], NULL);
		/* Whatever a knob holds (empty, garbage: a file, not the kernel), --force restores it. */
		cur_ok[i] = r >= 0 && sc_value_parse(k, text, &cur[i], NULL) == 0;
		snprintf(raw[i], sizeof(raw[i]), "%s", text);
		if (cur_ok[i])
			txn_value_str(&cur[i], shown[i], sizeof(shown[i]));
		else
			snprintf(shown[i], sizeof(shown[i]), "\"%s\"", sc_escape(text, esc, sizeof(esc)));
		if (!cur_ok[i])
			where[i] = RB_CHANGED;
		else if (sc_value_equal(&cur[i], &prev[i]))
			where[i] = RB_AT_PREVIOUS;
		else if (sc_value_equal(&cur[i], &wr[i]))
			where[i] = RB_AT_WRITTEN;
		/* An interrupted apply may not have come to this knob yet. */
		else if (j.e[i].before[0] && sc_value_parse(k, j.e[i].before, &bf, NULL) == 0 &&
			 sc_value_equal(&cur[i], &bf))
			where[i] = RB_AT_WRITTEN;
		else
			where[i] = RB_CHANGED;
		/* After a rollback or a restore, nothing of ours is left. */
		if (j.state == JR_ROLLED_BACK || j.state == JR_RESTORED)
			continue;
		changed += where[i] == RB_CHANGED;
		todo += where[i] != RB_AT_PREVIOUS;
	}
	/* What a kill in an earlier apply or rollback left beside the knobs. */
	for (i = 0; !dry && i < j.n; i++)
		jr_remove_stale(knob[i]);
	rc = rollback_files(ctx, cmd, &j, &rf);
	if (rc != EXIT_OK)
		goto out;
	for (i = 0; i < j.nfiles; i++) {
		changed += rf.changed[i];
		todo += rf.act[i] != RBF_NONE;
	}
	txn_boot_id(ctx->root, boot_id, sizeof(boot_id));
	if (changed && !force) {
		for (i = 0; i < j.n; i++) {
			char b[128];

			if (where[i] != RB_CHANGED)
				continue;
			txn_value_str(&wr[i], b, sizeof(b));
			cli_err(0, cmd, "vm.%s is %s, not the %s apply wrote: changed since",
				wm_knob_name(j.e[i].key), shown[i], b);
		}
		for (i = 0; i < j.nfiles; i++)
			if (rf.changed[i])
				cli_err(0, cmd, "%s %s since apply wrote it: changed since",
					j.f[i].path, rf.why[i]);
		return cli_err(EXIT_CHECK, cmd, "nothing restored%s; --force restores the journal's values anyway",
			       boot_id[0] && j.boot_id[0] && strcmp(boot_id, j.boot_id) ?
			       " (the machine has rebooted since the apply)" : "");
	}
	/* A value the kernel would refuse (a journal of another kernel, or edited). */
	rollback_profile(ctx, &prof);
	for (i = 0; todo && i < j.n; i++) {
		enum wm_knob k = j.e[i].key;
		struct wm_diag d = { 0 };
		char esc[200];

		if (where[i] == RB_AT_PREVIOUS)
			continue;
		if (sc_value_check(&prof, k, &prev[i], k == WM_KNOB_LRR && cur_ok[i] ? cur[i].n : 0,
				   &d) < 0)
			return cli_err(EXIT_USAGE, cmd, "journal %s: vm.%s: the previous value cannot be written back: %s; nothing was restored",
				       path, wm_knob_name(k), sc_escape(d.msg, esc, sizeof(esc)));
	}
	if (ctx->format == FMT_JSON) {
		doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "journal", path);
		cJSON_AddStringToObject(doc, "journal_state", jr_state_name(j.state));
		cJSON_AddBoolToObject(doc, "dry_run", dry);
		restored = cJSON_AddObjectToObject(doc, "restored");
		before = cJSON_AddObjectToObject(doc, "previous");
		left = cJSON_AddObjectToObject(doc, "unchanged");
	}
	for (i = 0; i < j.n; i++) {
		enum wm_knob k = j.e[i].key;
		bool go = todo && where[i] != RB_AT_PREVIOUS;
		const char *a = shown[i];
		char b[128];

		txn_value_str(&prev[i], b, sizeof(b));
		if (doc) {
			cJSON *o = go ? before : left;

			if (go)
				json_value(restored, wm_knob_name(k), &prev[i], k);
			/* what the knob held: its value, or its text if it had none */
			if (cur_ok[i])
				json_value(o, wm_knob_name(k), &cur[i], k);
			else
				cJSON_AddStringToObject(o, wm_knob_name(k), raw[i]);
		} else if (go) {
			printf("%s vm.%s = %s (was %s)\n", dry ? "would restore" : "restore",
			       wm_knob_name(k), b, a);
		} else {
			printf("vm.%s = %s: %s\n", wm_knob_name(k), a,
			       where[i] == RB_AT_PREVIOUS ? "already the previous value" :
			       "not ours to restore (the last apply did not leave it changed)");
		}
		if (go)
			st[n++] = (struct txn_step){ .key = k, .path = knob[i], .to = j.e[i].previous,
						 .back = j.e[i].written, .want = prev[i] };
	}
	/* The files --persist and --initrc wrote: at boot, too, as before. */
	if (doc)
		files = cJSON_AddArrayToObject(doc, "files");
	for (i = 0; i < j.nfiles; i++) {
		static const char *const act[] = {
			[RBF_NONE] = "unchanged", [RBF_REMOVE] = "removed", [RBF_RESTORE] = "restored",
		};

		if (files) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "path", j.f[i].path);
			cJSON_AddStringToObject(o, "action", act[rf.act[i]]);
			cJSON_AddItemToArray(files, o);
		} else if (rf.act[i] == RBF_REMOVE) {
			printf("%s %s (apply wrote it)\n", dry ? "would remove" : "remove", j.f[i].path);
		} else if (rf.act[i] == RBF_RESTORE) {
			printf("%s %s (as before the first apply)\n", dry ? "would restore" : "restore",
			       j.f[i].path);
		} else if (!doc) {
			printf("%s: %s\n", j.f[i].path, j.f[i].existed ? "already as before" :
			       "not there (nothing to remove)");
		}
	}
	if (!todo) {
		if (!doc)
			printf("nothing to roll back: journal %s is %s\n", path, jr_state_name(j.state));
		goto out;
	}
	if (dry)
		goto out;
	if (!doc) {
		/* Nobody would see what is about to be written. */
		rc = stdout_check(cmd, EXIT_OK, "nothing was restored");
		if (rc != EXIT_OK)
			goto out;
	}
	for (i = 0; i < n; i++) {
		r = sc_writable(st[i].path);
		if (r < 0) {
			rc = cli_err(EXIT_SYSTEM, cmd, "%s: %s%s; nothing was restored", st[i].path,
				     strerror(-r), needs_root(r));
			goto out;
		}
	}
	for (i = 0; i < j.nfiles; i++) {
		if (rf.act[i] == RBF_NONE)
			continue;
		r = jr_prepare_dir(j.f[i].path, &failed);
		if (r < 0) {
			rc = cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s; nothing was restored", j.f[i].path,
				     failed, strerror(-r));
			goto out;
		}
	}
	r = jr_prepare_dir(path, &failed);
	if (r < 0) {
		rc = cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
			     path, failed, strerror(-r));
		goto out;
	}
	rc = txn_write_steps(cmd, st, n, &undone);
	if (rc != EXIT_OK) {
		cli_err(0, cmd, undone ? "the values the apply wrote are back: nothing changed" :
			"some values are restored, others not; run 'wmark rollback' again");
		goto out;
	}
	restored_any = true;
	rc = rollback_do_files(cmd, &j, &rf);
	if (rc != EXIT_OK)
		goto out;
	j.state = JR_ROLLED_BACK;
	r = jr_save(path, &j, &failed);
	if (r < 0)
		cli_err(0, cmd, "journal %s: %s: %s (the values are restored)", path, failed,
			strerror(-r));
	if (!doc)
		printf("restored; journal %s marked rolled-back\n", path);
	{
		/* Check the kernel recomputed what the restored values give. */
		struct snapshot s;
		unsigned set = 0;
		bool recomp;

		for (i = 0; i < n; i++)
			set |= wm_knob_have(st[i].key);
		recomp = (wm_change_recomputes(set) & WM_RECOMPUTE_WMARKS) != 0;

		memset(&s, 0, sizeof(s));
		if (snapshot_read(ctx, &s) == EXIT_OK) {
			struct wm_predicted *w = calloc(s.m.nzones ? s.m.nzones : 1, sizeof(*w));

			if (w && (s.sysctl.have & WM_HAVE_MFK) && s.m.nzones &&
			    wm_predict(&s.prof, &s.m, &s.zi, &s.layout, &s.sysctl,
				       WM_RECOMPUTE_WMARKS, w, NULL) == WM_OK)
				rc = live_check(ctx, cmd, &s, w, &s.sysctl, recomp, doc);
			free(w);
			snapshot_free(&s);
		}
	}
out:
	if (doc) {
		cJSON_AddBoolToObject(doc, "ok", rc == EXIT_OK);
		jw_print(stdout, doc);	/* a write error: stdout_check() */
		cJSON_Delete(doc);
	}
	if (restored_any)
		rc = stdout_check(cmd, rc, "the values were restored");
	/* The remaining returns above end the process, which drops the lock. */
	if (lock_fd >= 0)
		close(lock_fd);
	return rc;
}
