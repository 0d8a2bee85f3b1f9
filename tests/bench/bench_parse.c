// SPDX-License-Identifier: MIT
/*
 * bench_parse.c - throughput of zi_parse() plus the model over one
 * zoneinfo file held in memory, against counting its newlines.
 *
 * usage: bench_parse [--wc | --parse | --read] [--seconds S] FILE
 *
 * The file is read once, with one large read(2), into a buffer; then each
 * iteration parses that buffer, turns the zones into model zones (every
 * zone in file order, idx = its position within its node, as a 4.12+
 * kernel prints them), runs wm_setup_wmarks() and wm_protection(), and
 * frees.  The baseline counts '\n' with memchr() over the same buffer,
 * the in-process equivalent of `wc -l`.  By default both run, so their
 * ratio comes from one process on one buffer.  --read times reading the
 * file itself (open, one large read(2), close) into a buffer kept across
 * reads: for /proc/zoneinfo, the kernel's cost of printing it.
 *
 * Each mode repeats until S seconds (default 1) have passed, at least 3
 * times, and reports the median iteration.  One line per mode:
 *   parse bytes=B iters=N median_ns=T bytes_per_s=R
 * then, for the parse mode, how many zones' computed watermarks and
 * protection agree with the ones the file prints (the generator's files
 * are self-consistent: all of them should), so a parser that skips work
 * cannot look fast.
 *
 * The sysctls are those tests/bench/gen-zoneinfo.py assumes:
 * min_free_kbytes 67584, watermark_scale_factor 10, lowmem_reserve_ratio
 * 256 256 32 0 0, kernel 6.18.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../calc/wmark.h"
#include "../../calc/zoneinfo.h"

struct run {
	const char *path;
	const char *buf;
	size_t len;
	char *scratch;		/* --read: kept across reads, len + 1 MiB */
	struct wm_profile prof;
	struct wm_sysctl sc;
	size_t zones;		/* zones of the last parse */
	size_t agree;		/* of those, matching the file's numbers */
	size_t lines;		/* newlines of the last count */
};

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One large read(2); a regular file's size is known from fstat. */
static int read_file(const char *path, char **out, size_t *len)
{
	struct stat st;
	size_t cap, used = 0;
	ssize_t r;
	char *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < 0) {
		close(fd);
		return -EIO;
	}
	cap = (size_t)st.st_size + 1;
	if (cap < (1u << 20))
		cap = 1u << 20;		/* /proc files report size 0 */
	b = malloc(cap);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (used + 1 == cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				close(fd);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + used, cap - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(b);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	close(fd);
	b[used] = 0;
	*out = b;
	*len = used;
	return 0;
}

/* zi_parse, model zones, watermarks, protection; -1 on any error. */
static int parse_once(struct run *r)
{
	struct zi_info zi;
	struct wm_diag d = { 0 };
	struct wm_zone *mz = NULL;
	struct wm_zone_wm *w = NULL;
	struct wm_machine m;
	size_t i, agree = 0;
	int idx = 0, rc = -1;

	if (zi_parse(r->buf, r->len, &zi, &d)) {
		fprintf(stderr, "bench_parse: line %d: %s\n", d.line, d.msg);
		goto out;
	}
	mz = malloc(zi.nzones * sizeof(*mz));
	w = malloc(zi.nzones * sizeof(*w));
	if (!mz || !w)
		goto out;
	for (i = 0; i < zi.nzones; i++) {
		const struct zi_zone *q = &zi.zones[i];

		idx = i && q->node == zi.zones[i - 1].node ? idx + 1 : 0;
		mz[i] = (struct wm_zone){ .node = q->node, .idx = idx,
					  .type = q->type, .managed = q->managed,
					  .present = q->present, .boost = q->boost };
	}
	m = (struct wm_machine){ .zones = mz, .nzones = zi.nzones,
				 .page_size = 4096, .pageblock_pages = 512 };
	if (wm_setup_wmarks(&r->prof, &m, &r->sc, w, &d) ||
	    wm_protection(&r->prof, &m, &r->sc, w, &d)) {
		fprintf(stderr, "bench_parse: model: %s\n", d.msg);
		goto out;
	}
	for (i = 0; i < zi.nzones; i++) {
		const struct zi_zone *q = &zi.zones[i];

		agree += q->min == w[i].min + q->boost &&
			 q->low == w[i].low + q->boost &&
			 q->high == w[i].high + q->boost &&
			 q->nprotection <= WM_MAX_ZONES &&
			 memcmp(q->protection, w[i].protection,
				(size_t)q->nprotection * sizeof(long)) == 0;
	}
	r->zones = zi.nzones;
	r->agree = agree;
	rc = 0;
out:
	free(mz);
	free(w);
	zi_free(&zi);
	return rc;
}

static int read_once(struct run *r)
{
	size_t cap = r->len + (1u << 20), used = 0;
	ssize_t n;
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, r->scratch + used, cap - used)) > 0)
		used += (size_t)n;
	close(fd);
	return n < 0 ? -1 : 0;
}

static int count_once(struct run *r)
{
	const char *p = r->buf, *end = r->buf + r->len, *nl;
	size_t n = 0;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p = nl + 1;
	}
	r->lines = n;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Repeat fn for at least secs seconds and 3 times; median ns into *med. */
static int measure(const char *name, int (*fn)(struct run *), struct run *r,
		   double secs, double *med)
{
	size_t n = 0, cap = 64;
	double *t = malloc(cap * sizeof(*t)), start = now_ns(), t0;

	if (!t)
		return -1;
	if (fn(r)) {		/* warm-up: caches, page faults of malloc */
		free(t);
		return -1;
	}
	start = now_ns();
	do {
		if (n == cap) {
			double *nt = realloc(t, cap * 2 * sizeof(*t));

			if (!nt) {
				free(t);
				return -1;
			}
			t = nt;
			cap *= 2;
		}
		t0 = now_ns();
		if (fn(r)) {
			free(t);
			return -1;
		}
		t[n++] = now_ns() - t0;
	} while (n < 3 || now_ns() - start < secs * 1e9);
	qsort(t, n, sizeof(*t), cmp_double);
	*med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	printf("%s bytes=%zu iters=%zu median_ns=%.0f bytes_per_s=%.0f\n", name,
	       r->len, n, *med, (double)r->len / (*med / 1e9));
	free(t);
	return 0;
}

static int usage(void)
{
	fputs("usage: bench_parse [--wc | --parse] [--seconds S] FILE\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	static const long lrr[] = { 256, 256, 32, 0, 0 };
	struct run r = { 0 };
	struct wm_kver k;
	bool do_parse = true, do_wc = true, do_read = false;
	double secs = 1, tp = 0, tw = 0;
	const char *path = NULL;
	char *buf = NULL, *end;
	int i, err;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--wc") == 0) {
			do_parse = false;
		} else if (strcmp(argv[i], "--parse") == 0) {
			do_wc = false;
		} else if (strcmp(argv[i], "--read") == 0) {
			do_read = true;
			do_parse = do_wc = false;
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			secs = strtod(argv[++i], &end);
			if (*end || secs < 0)
				return usage();
		} else if (argv[i][0] == '-' || path) {
			return usage();
		} else {
			path = argv[i];
		}
	}
	if (!path || (!do_parse && !do_wc && !do_read))
		return usage();
	err = read_file(path, &buf, &r.len);
	if (err) {
		fprintf(stderr, "bench_parse: %s: %s\n", path, strerror(-err));
		return 1;
	}
	r.buf = buf;
	r.path = path;
	if (wm_kver_parse("6.18.0", &k, NULL))
		return 1;
	wm_profile_for(&k, &r.prof);
	r.sc = (struct wm_sysctl){ .min_free_kbytes = 67584, .wsf = 10,
				   .boost_factor = 15000, .extra_free_kbytes = -1,
				   .nlrr = 5 };
	memcpy(r.sc.lrr, lrr, sizeof(lrr));

	if (do_read) {
		r.scratch = malloc(r.len + (1u << 20));
		if (!r.scratch || measure("read", read_once, &r, secs, &tp))
			return 1;
		free(r.scratch);
	}
	if (do_parse) {
		if (measure("parse", parse_once, &r, secs, &tp))
			return 1;
		printf("parse zones=%zu agree=%zu\n", r.zones, r.agree);
	}
	if (do_wc) {
		if (measure("wc", count_once, &r, secs, &tw))
			return 1;
		printf("wc lines=%zu\n", r.lines);
	}
	if (do_parse && do_wc)
		printf("ratio parse_over_wc=%.2f\n", tp / tw);
	free(buf);
	return 0;
}
