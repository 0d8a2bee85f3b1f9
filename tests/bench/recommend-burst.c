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
 * Two other workloads, each printing the same line (a "burst" is then one
 * app switch, or one cycle):
 *
 * apps: an Android-like phone.  LOCK_MIB is mapped and locked first (the
 * rest of the phone: system, graphics buffers), then NAPPS processes
 * ("apps") are started one after the other; each maps ANON_MIB of
 * anonymous memory and fills the first quarter of every page with a
 * pseudo-random stream (zram stores all-zero pages as nothing; this
 * compresses about 3:1, like app heaps), and maps FILE_MIB of FILE at its
 * own offset and reads it (its code and resources: page cache).  The
 * launches print one line ("launched bursts=..."), then for each line N
 * read from stdin, N switches follow and one line: one app after the
 * other comes to the front, touches every page of its heap (what was
 * swapped to zram comes back), reads its file pages again and allocates
 * and writes a BURST_MIB transient buffer (the new activity's frames),
 * then goes back to sleep.  A switch's latency is from the command to the
 * app's answer.  The apps stay from one line to the next; EOF ends them.
 *
 * server: a file server beside allocations of mixed orders.  PIPES pipes
 * of PIPE_KIB each are kept filled (pipe buffers are unmovable pages:
 * GFP_HIGHUSER without __GFP_MOVABLE, like socket buffers), CYCLES times:
 * every other pipe is drained and refilled (fresh unmovable pages, taken
 * wherever the allocator finds them, which fragments pageblocks), then
 * THP_MIB of anonymous memory is mapped with MADV_HUGEPAGE (order-9
 * faults: compaction or reclaim of whole pageblocks) and SMALL_MIB with
 * MADV_NOHUGEPAGE (order 0, in PROCS processes at once, 1 by default),
 * all written, all unmapped; PAUSE_MS apart.
 * The cycle's latency is from the first drain to the last write.  A
 * reader beside it (the evaluation's) keeps the page cache full.
 *
 * build: a parallel compile (the multibuild of tests/bench/rfc-effect.sh).
 * LOCK_MIB is mapped and locked first (what else the machine holds), then
 * JOBS processes share the regular files of DIR whose names start with
 * "u" (the sources, file k to job k mod JOBS), PASSES times over: each is
 * one compile unit, read whole through the page cache with read(2) with
 * HEADERS of the files starting with "h" (the headers every unit includes,
 * a different few per unit: the build's hot file pages), then ANON_MIB of
 * anonymous memory is mapped, written (one word per page, mixed with the
 * files' bytes) and unmapped (the compiler's short-lived heap).  A unit's
 * latency is from its first open to its unmap; the line covers every unit
 * of every pass.
 *
 * idle: a loop at SCHED_IDLE, which runs only when nothing else can: under
 * qemu's -icount with sleep=off an idle vCPU makes guest time jump to the
 * next timer, so a wait for the disk would cost whatever the timers say;
 * with the loop the vCPU never idles and a wait costs the instructions
 * executed meanwhile, in step with the host's time for the I/O.
 *
 * usage: recommend-burst SIZE_MIB COUNT PAUSE_MS [READER_PGID [PROCS]]
 *        recommend-burst apps NAPPS ANON_MIB FILE_MIB BURST_MIB LOCK_MIB FILE
 *        recommend-burst build JOBS ANON_MIB PASSES LOCK_MIB DIR [HEADERS]
 *        recommend-burst idle
 *        recommend-burst server PIPES PIPE_KIB THP_MIB SMALL_MIB CYCLES PAUSE_MS [PROCS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Map len bytes, advise them, write one byte per page, unmap; 0 or -1. */
static int touch_advised(size_t len, long page, int advice)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (p == MAP_FAILED) {
		perror("recommend-burst: mmap");
		return -1;
	}
	madvise(p, len, advice);
	for (off = 0; off < len; off += (size_t)page)
		p[off] = 1;
	munmap(p, len);
	return 0;
}

static int touch(size_t len, long page)
{
	return touch_advised(len, page, MADV_NOHUGEPAGE);
}

/* touch() in procs processes at once (this one among them); 0 or -1. */
static int touch_procs(size_t len, long page, long procs)
{
	int st, failed = 0;
	long k;

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
	return failed ? -1 : 0;
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

/* The one line every mode prints, from n latencies (sorted here). */
static void report(double *lat, int n)
{
	qsort(lat, (size_t)n, sizeof(*lat), cmp);
	printf("bursts=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n", n,
	       pct(lat, n, 50), pct(lat, n, 99), lat[n - 1]);
}

static long arg(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "recommend-burst: bad argument '%s' (%ld to %ld)\n", s, lo, hi);
		exit(2);
	}
	return v;
}

/* ---- apps ---------------------------------------------------------------- */

struct app {
	pid_t pid;
	int cmd, ack;		/* pipes: the driver writes cmd, reads ack */
};

/* Read every page of map[0..len), so its file pages are (again) cached. */
static unsigned long read_pages(const volatile char *map, size_t len, long page)
{
	unsigned long sum = 0;
	size_t off;

	for (off = 0; off < len; off += (size_t)page)
		sum += (unsigned char)map[off];
	return sum;
}

/* One app: launch, then a switch per byte read from cmd, until EOF. */
static void app_run(int cmd, int ack, size_t heap_len, size_t file_len, size_t burst_len,
		    int fd, off_t file_off, long page)
{
	char *heap = mmap(NULL, heap_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *file = file_len ? mmap(NULL, file_len, PROT_READ, MAP_SHARED, fd, file_off) : NULL;
	uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	volatile unsigned long sink = 0;
	size_t off, w;
	char c = 0;

	if (heap == MAP_FAILED || file == MAP_FAILED)
		_exit(1);
	madvise(heap, heap_len, MADV_NOHUGEPAGE);
	/* The heap: a quarter of each page pseudo-random, the rest zero. */
	for (off = 0; off < heap_len; off += (size_t)page)
		for (w = 0; w < (size_t)page / 4; w += sizeof(x)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(heap + off + w, &x, sizeof(x));
		}
	if (file)
		sink += read_pages(file, file_len, page);
	for (;;) {
		if (write(ack, "a", 1) != 1)
			_exit(1);
		if (read(cmd, &c, 1) != 1)
			_exit(0);
		/* In front: the heap comes back from swap, the file pages from disk. */
		for (off = 0; off < heap_len; off += (size_t)page)
			heap[off]++;
		if (file)
			sink += read_pages(file, file_len, page);
		if (touch(burst_len, page))
			_exit(1);
	}
}

static int apps_main(int argc, char **argv)
{
	long napps, anon_mib, file_mib, burst_mib, lock_mib, page = sysconf(_SC_PAGESIZE);
	long i, next = 0, switches;
	struct app *apps;
	double *lat = NULL, t0;
	char line[64], c;
	int fd, st, failed = 0;

	if (argc != 8) {
		fprintf(stderr, "usage: recommend-burst apps NAPPS ANON_MIB FILE_MIB BURST_MIB "
				"LOCK_MIB FILE\n");
		return 2;
	}
	napps = arg(argv[2], 1, 64);
	anon_mib = arg(argv[3], 1, 1 << 20);
	file_mib = arg(argv[4], 0, 1 << 20);
	burst_mib = arg(argv[5], 1, 1 << 20);
	lock_mib = arg(argv[6], 0, 1 << 20);
	fd = open(argv[7], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "recommend-burst: %s: %s\n", argv[7], strerror(errno));
		return 1;
	}
	/* The rest of the phone (system, graphics buffers): locked away. */
	if (lock_mib && mmap(NULL, (size_t)lock_mib << 20, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE, -1, 0) ==
			    MAP_FAILED) {
		perror("recommend-burst: mmap(MAP_LOCKED)");
		return 1;
	}
	apps = calloc((size_t)napps, sizeof(*apps));
	lat = calloc((size_t)napps, sizeof(*lat));
	if (!apps || !lat)
		return 1;
	/* Launches: one app after the other. */
	for (i = 0; i < napps; i++) {
		int cp[2], ap[2];

		if (pipe(cp) || pipe(ap))
			return 1;
		t0 = now_ms();
		apps[i].pid = fork();
		if (apps[i].pid < 0)
			return 1;
		if (apps[i].pid == 0) {
			close(cp[1]);
			close(ap[0]);
			app_run(cp[0], ap[1], (size_t)anon_mib << 20, (size_t)file_mib << 20,
				(size_t)burst_mib << 20, fd, (off_t)(i * file_mib) << 20, page);
		}
		close(cp[0]);
		close(ap[1]);
		apps[i].cmd = cp[1];
		apps[i].ack = ap[0];
		if (read(apps[i].ack, &c, 1) != 1)
			failed = 1;
		lat[i] = now_ms() - t0;
	}
	if (failed) {
		fprintf(stderr, "recommend-burst: an app failed to start (OOM?)\n");
		return 1;
	}
	printf("launched ");
	report(lat, (int)napps);
	fflush(stdout);
	/*
	 * Then, for each line "N" on stdin, N switches, round robin: the app
	 * in front is always the one used longest ago.  The apps stay from
	 * one line to the next, as a phone keeps them.
	 */
	while (fgets(line, sizeof(line), stdin)) {
		switches = arg(strtok(line, " \n") ? line : "0", 1, 100000);
		free(lat);
		lat = calloc((size_t)switches, sizeof(*lat));
		if (!lat)
			return 1;
		for (i = 0; i < switches && !failed; i++) {
			struct app *a = &apps[next++ % napps];

			t0 = now_ms();
			if (write(a->cmd, "s", 1) != 1 || read(a->ack, &c, 1) != 1)
				failed = 1;
			lat[i] = now_ms() - t0;
		}
		if (failed)
			break;
		report(lat, (int)switches);
		fflush(stdout);
	}
	for (i = 0; i < napps; i++)
		close(apps[i].cmd);
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	if (failed) {
		fprintf(stderr, "recommend-burst: an app failed (killed by the OOM killer?)\n");
		return 1;
	}
	return 0;
}

/* ---- server -------------------------------------------------------------- */

/* Write kib KiB into pipe fd (its buffer holds them: set with F_SETPIPE_SZ). */
static int fill(int fd, long kib)
{
	static char buf[65536];
	long left = kib * 1024;

	memset(buf, 0x5a, sizeof(buf));
	while (left > 0) {
		ssize_t w = write(fd, buf, left < (long)sizeof(buf) ? (size_t)left : sizeof(buf));

		if (w <= 0)
			return -1;
		left -= w;
	}
	return 0;
}

static int drain(int fd, long kib)
{
	static char buf[65536];
	long left = kib * 1024;

	while (left > 0) {
		ssize_t r = read(fd, buf, left < (long)sizeof(buf) ? (size_t)left : sizeof(buf));

		if (r <= 0)
			return -1;
		left -= r;
	}
	return 0;
}

static int server_main(int argc, char **argv)
{
	long npipes, kib, thp_mib, small_mib, cycles, pause_ms, procs = 1, page = sysconf(_SC_PAGESIZE);
	struct rlimit rl;
	int (*fds)[2];
	double *lat, t0;
	long i, c;

	if (argc != 8 && argc != 9) {
		fprintf(stderr, "usage: recommend-burst server PIPES PIPE_KIB THP_MIB SMALL_MIB "
				"CYCLES PAUSE_MS [PROCS]\n");
		return 2;
	}
	if (argc == 9)
		procs = arg(argv[8], 1, 64);
	npipes = arg(argv[2], 2, 100000);
	kib = arg(argv[3], 4, 1 << 20);
	thp_mib = arg(argv[4], 0, 1 << 20);
	small_mib = arg(argv[5], 0, 1 << 20);
	cycles = arg(argv[6], 1, 100000);
	pause_ms = arg(argv[7], 0, 3600000);
	rl.rlim_cur = rl.rlim_max = (rlim_t)(2 * npipes + 64);
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("recommend-burst: setrlimit(RLIMIT_NOFILE)");
		return 1;
	}
	fds = calloc((size_t)npipes, sizeof(*fds));
	lat = calloc((size_t)cycles, sizeof(*lat));
	if (!fds || !lat)
		return 1;
	for (i = 0; i < npipes; i++) {
		if (pipe(fds[i]) || fcntl(fds[i][1], F_SETPIPE_SZ, (int)(kib * 1024)) < kib * 1024) {
			perror("recommend-burst: pipe, F_SETPIPE_SZ");
			return 1;
		}
		if (fill(fds[i][1], kib))
			return 1;
	}
	for (c = 0; c < cycles; c++) {
		t0 = now_ms();
		/* every other pipe, alternating halves from cycle to cycle */
		for (i = c % 2; i < npipes; i += 2)
			if (drain(fds[i][0], kib) || fill(fds[i][1], kib))
				return 1;
		if (thp_mib && touch_advised((size_t)thp_mib << 20, page, MADV_HUGEPAGE))
			return 1;
		if (small_mib && touch_procs(((size_t)small_mib << 20) / (size_t)procs, page, procs))
			return 1;
		lat[c] = now_ms() - t0;
		usleep((useconds_t)pause_ms * 1000);
	}
	report(lat, (int)cycles);
	return 0;
}

/* ---- build --------------------------------------------------------------- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read path whole into buf; a byte of it, or -1. */
static long read_whole(const char *path, char *buf, size_t buf_len)
{
	unsigned long mix = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf, buf_len)) > 0)
		mix += (unsigned char)buf[r - 1];
	close(fd);
	return r < 0 ? -1 : (long)(mix & 0xff);
}

/* The heap of one unit: mapped, written, unmapped; 0 or -1. */
static int build_heap(unsigned long mix, size_t heap_len, long page)
{
	char *heap = mmap(NULL, heap_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (heap == MAP_FAILED)
		return -1;
	madvise(heap, heap_len, MADV_NOHUGEPAGE);
	for (off = 0; off < heap_len; off += (size_t)page) {
		mix = mix * 6364136223846793005ul + 1442695040888963407ul;
		memcpy(heap + off, &mix, sizeof(mix));
	}
	munmap(heap, heap_len);
	return 0;
}

static int build_main(int argc, char **argv)
{
	long jobs, anon_mib, passes, lock_mib, headers = 0, page = sysconf(_SC_PAGESIZE);
	size_t nfiles = 0, nsrc, cap = 0, i, units;
	char **files = NULL, path[4096];
	struct dirent *de;
	double *lat;
	DIR *dir;
	long j, p;
	int st, failed = 0;

	if (argc != 7 && argc != 8) {
		fprintf(stderr, "usage: recommend-burst build JOBS ANON_MIB PASSES LOCK_MIB DIR "
				"[HEADERS]\n");
		return 2;
	}
	if (argc == 8)
		headers = arg(argv[7], 0, 1000);
	jobs = arg(argv[2], 1, 64);
	anon_mib = arg(argv[3], 1, 1 << 20);
	passes = arg(argv[4], 1, 1000);
	lock_mib = arg(argv[5], 0, 1 << 20);
	dir = opendir(argv[6]);
	if (!dir) {
		fprintf(stderr, "recommend-burst: %s: %s\n", argv[6], strerror(errno));
		return 1;
	}
	while ((de = readdir(dir))) {
		if ((de->d_name[0] != 'u' && de->d_name[0] != 'h') ||
		    (de->d_type != DT_REG && de->d_type != DT_UNKNOWN))
			continue;
		if (nfiles == cap) {
			cap = cap ? 2 * cap : 1024;
			files = realloc(files, cap * sizeof(*files));
			if (!files)
				return 1;
		}
		files[nfiles] = strdup(de->d_name);
		if (!files[nfiles++])
			return 1;
	}
	closedir(dir);
	/* sorted: the headers ("h...") first, then the sources ("u...") */
	qsort(files, nfiles, sizeof(*files), name_cmp);
	for (i = 0; i < nfiles && files[i][0] == 'h'; i++)
		;
	nsrc = nfiles - i;
	files += i;
	nfiles = i;	/* the headers: files[-nfiles .. -1] */
	if (!nsrc || (headers && !nfiles)) {
		fprintf(stderr, "recommend-burst: %s holds no u* file%s\n", argv[6],
			headers ? " or no h* file" : "");
		return 1;
	}
	if (lock_mib && mmap(NULL, (size_t)lock_mib << 20, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE, -1, 0) ==
			    MAP_FAILED) {
		perror("recommend-burst: mmap(MAP_LOCKED)");
		return 1;
	}
	/* the latencies, written by the jobs into memory shared with us */
	units = nsrc * (size_t)passes;
	lat = mmap(NULL, units * sizeof(*lat), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	if (lat == MAP_FAILED)
		return 1;
	for (j = 0; j < jobs; j++) {
		pid_t c = fork();

		if (c < 0)
			return 1;
		if (c == 0) {
			static char buf[1 << 16];

			for (p = 0; p < passes; p++)
				for (i = (size_t)j; i < nsrc; i += (size_t)jobs) {
					double t0 = now_ms();
					long h, b, mix = 0;

					snprintf(path, sizeof(path), "%s/%s", argv[6], files[i]);
					b = read_whole(path, buf, sizeof(buf));
					for (h = 0; h < headers && b >= 0; h++) {
						/* header k of unit i: spread, the same in every pass */
						size_t k = (i * 7919 + (size_t)h * 104729) % nfiles;

						mix += b;
						snprintf(path, sizeof(path), "%s/%s", argv[6],
							 files[(long)k - (long)nfiles]);
						b = read_whole(path, buf, sizeof(buf));
					}
					if (b < 0 || build_heap((unsigned long)(mix + b),
								(size_t)anon_mib << 20, page))
						_exit(1);
					lat[(size_t)p * nsrc + i] = now_ms() - t0;
				}
			_exit(0);
		}
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	if (failed) {
		fprintf(stderr, "recommend-burst: a build job failed (OOM, or a file unreadable)\n");
		return 1;
	}
	report(lat, (int)units);
	return 0;
}

/* ---- anonymous bursts (the default mode) --------------------------------- */

static int burst_main(int argc, char **argv)
{
	long size_mib, count, pause_ms, page = sysconf(_SC_PAGESIZE);
	pid_t reader = 0;
	long procs = 1;
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
		int failed = 0;

		if (reader > 0)
			kill(-reader, SIGSTOP);
		t0 = now_ms();
		failed = touch_procs(len, page, procs) != 0;
		lat[i] = now_ms() - t0;
		if (failed)
			return 1;
		if (reader > 0)
			kill(-reader, SIGCONT);
		usleep((useconds_t)pause_ms * 1000);
	}
	report(lat, (int)count);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "apps"))
		return apps_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "server"))
		return server_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "build"))
		return build_main(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "idle")) {
		struct sched_param sp = { 0 };
		volatile unsigned long spin = 0;

		if (sched_setscheduler(0, SCHED_IDLE, &sp)) {
			perror("recommend-burst: sched_setscheduler(SCHED_IDLE)");
			return 1;
		}
		for (;;)
			spin++;
	}
	return burst_main(argc, argv);
}
