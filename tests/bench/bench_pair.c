// SPDX-License-Identifier: MIT
/*
 * bench_pair.c - wall time of two whole processes, run in turn.
 *
 * usage: bench_pair RUNS CMD_A... -- CMD_B...
 *
 * Runs each command once to warm the page cache (both must exit 0), then
 * A, B, A, B ... RUNS times each, with stdout and stderr on /dev/null, and
 * prints one line:
 *   pair runs=N a_median_ns=.. a_min_ns=.. b_median_ns=.. b_min_ns=..
 * Interleaving makes both see the same load on a shared machine, where it
 * changes from second to second.  posix_spawn() (a vfork underneath)
 * keeps the cost of starting a process from the harness small: a bash
 * loop forks a whole shell each time, which on some virtual machines
 * costs more than reading zoneinfo does.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Run argv with output discarded; its wall time in ns, or -1 on failure. */
static double run(char **argv)
{
	posix_spawn_file_actions_t fa;
	double t0 = now_ns(), t;
	pid_t pid;
	int st, rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	t = now_ns() - t0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	char **a, **b;
	double *ta, *tb, ma, mb;
	int runs, i, sep = 0;

	for (i = 2; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			sep = i;
	runs = argc > 1 ? atoi(argv[1]) : 0;
	if (runs < 1 || sep < 3 || sep + 1 >= argc) {
		fputs("usage: bench_pair RUNS CMD_A... -- CMD_B...\n", stderr);
		return 2;
	}
	argv[sep] = NULL;
	a = argv + 2;
	b = argv + sep + 1;
	ta = malloc((size_t)runs * sizeof(*ta));
	tb = malloc((size_t)runs * sizeof(*tb));
	if (!ta || !tb)
		return 1;
	if (run(a) < 0 || run(b) < 0) {
		fprintf(stderr, "bench_pair: %s or %s failed\n", a[0], b[0]);
		return 1;
	}
	for (i = 0; i < runs; i++) {
		ta[i] = run(a);
		tb[i] = run(b);
		if (ta[i] < 0 || tb[i] < 0) {
			fprintf(stderr, "bench_pair: run %d failed\n", i + 1);
			return 1;
		}
	}
	ma = median(ta, runs);		/* sorts: t[0] is then the least */
	mb = median(tb, runs);
	printf("pair runs=%d a_median_ns=%.0f a_min_ns=%.0f b_median_ns=%.0f b_min_ns=%.0f\n",
	       runs, ma, ta[0], mb, tb[0]);
	free(ta);
	free(tb);
	return 0;
}
