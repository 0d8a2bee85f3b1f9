// SPDX-License-Identifier: MIT
/*
 * recommend-burst.c - the allocation bursts of the recommend evaluation
 * (tests/bench/recommend-eval.sh), run inside the qemu guest.
 *
 * Each burst maps SIZE MiB of anonymous memory and writes one byte per
 * page, so the kernel must hand out SIZE MiB of pages at once (base pages:
 * the mapping is madvised MADV_NOHUGEPAGE, so THP "always" does not turn
 * the burst into compaction instead of reclaim); the time
 * from the mmap to the last write is the burst's latency.  The memory is
 * unmapped and the program sleeps PAUSE ms before the next burst, so the
 * page cache (kept full by a reader beside it) grows back in between.
 * With READER_PGID the reader's process group is stopped (SIGSTOP) for
 * the length of each burst and continued in the pause: the stalls
 * counted are then the burst's own, against kswapd alone, not the
 * reader's, and its refill cannot eat the pause's share of the CPUs.
 * With PROCS > 1 each burst is PROCS processes allocating SIZE/PROCS MiB
 * each at the same time (a multi-threaded burst: two allocators on a
 * two-CPU guest leave kswapd no idle CPU); its latency runs until the
 * last of them is done.
 * Prints one line: "bursts=N p50_ms=X p99_ms=Y max_ms=Z".
 *
 * usage: recommend-burst SIZE_MIB COUNT PAUSE_MS [READER_PGID [PROCS]]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Map len bytes, write one byte per page, unmap; 0 or -1. */
static int touch(size_t len, long page)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (p == MAP_FAILED) {
		perror("recommend-burst: mmap");
		return -1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (off = 0; off < len; off += (size_t)page)
		p[off] = 1;
	munmap(p, len);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v[0..n). */
static double pct(const double *v, int n, int p)
{
	int k = (p * n + 99) / 100;

	return v[k > 0 ? k - 1 : 0];
}

int main(int argc, char **argv)
{
	long size_mib, count, pause_ms, page = sysconf(_SC_PAGESIZE);
	pid_t reader = 0;
	long procs = 1, k;
	double *lat;
	int i;

	if (argc < 4 || argc > 6) {
		fprintf(stderr, "usage: recommend-burst SIZE_MIB COUNT PAUSE_MS [READER_PGID [PROCS]]\n");
		return 2;
	}
	if (argc >= 5)
		reader = (pid_t)atol(argv[4]);
	if (argc == 6)
		procs = atol(argv[5]);
	size_mib = atol(argv[1]);
	count = atol(argv[2]);
	pause_ms = atol(argv[3]);
	if (size_mib <= 0 || count <= 0 || pause_ms < 0 || procs < 1 || procs > 64) {
		fprintf(stderr, "recommend-burst: bad arguments\n");
		return 2;
	}
	lat = calloc((size_t)count, sizeof(*lat));
	if (!lat)
		return 1;
	for (i = 0; i < count; i++) {
		size_t len = ((size_t)size_mib << 20) / (size_t)procs;
		double t0;
		int st, failed = 0;

		if (reader > 0)
			kill(-reader, SIGSTOP);
		t0 = now_ms();
		for (k = 1; k < procs; k++) {
			pid_t c = fork();

			if (c == 0)
				_exit(touch(len, page) ? 1 : 0);
			if (c < 0)
				failed = 1;
		}
		if (touch(len, page))
			failed = 1;
		while (wait(&st) > 0)
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				failed = 1;
		lat[i] = now_ms() - t0;
		if (failed)
			return 1;
		if (reader > 0)
			kill(-reader, SIGCONT);
		usleep((useconds_t)pause_ms * 1000);
	}
	qsort(lat, (size_t)count, sizeof(*lat), cmp);
	printf("bursts=%ld p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n", count,
	       pct(lat, (int)count, 50), pct(lat, (int)count, 99), lat[count - 1]);
	return 0;
}
