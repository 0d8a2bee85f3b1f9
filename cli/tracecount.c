// SPDX-License-Identifier: MIT
/*
 * tracecount.c - tracepoint hits counted with perf_event_open(2).
 */
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracecount.h"

static const char *const tracefs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* The tracepoint's id from the first tracefs that has it; -1 and why if none. */
static int64_t event_id(const char *event, char *why, size_t whylen)
{
	char path[256], buf[32];
	int saved = ENOENT;
	size_t i;

	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		ssize_t n;
		int64_t id;
		char *end;
		int fd;

		snprintf(path, sizeof(path), "%s/events/%s/id", tracefs[i], event);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (i == 0 || errno != ENOENT)
				saved = errno;
			continue;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			break;
		buf[n] = '\0';
		errno = 0;
		id = strtoll(buf, &end, 10);
		if (errno || end == buf || id < 0) {
			snprintf(why, whylen, "%s: not a tracepoint id", path);
			return -1;
		}
		return id;
	}
	snprintf(why, whylen, "%s/events/%s/id: %s (is tracefs mounted?)", tracefs[0], event,
		 strerror(saved));
	return -1;
}

int tp_counter_open(struct tp_counter *c, const char *event, char *why, size_t whylen)
{
	int64_t ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu, id;
	struct perf_event_attr attr;
	int err = 0, skipped = ENODEV;

	c->fd = NULL;
	c->nfd = 0;
	if ((id = event_id(event, why, whylen)) < 0)
		return -1;
	if (ncpu < 1)
		ncpu = 1;
	c->fd = calloc((size_t)ncpu, sizeof(*c->fd));
	if (!c->fd) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)id;
	for (cpu = 0; cpu < ncpu; cpu++) {
		int64_t fd = syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);

		if (fd >= 0) {
			c->fd[c->nfd++] = (int)fd;
			continue;
		}
		if (errno == ENODEV || errno == EINVAL) {
			skipped = errno;
			continue;	/* an offline or absent CPU */
		}
		err = errno;
		break;
	}
	if (err || !c->nfd) {
		snprintf(why, whylen, "perf_event_open(%s, every task on CPU %" PRId64 "): %s%s", event,
			 cpu < ncpu ? cpu : 0, strerror(err ? err : skipped),
			 err == EACCES || err == EPERM ?
			 " (counting every task takes CAP_PERFMON or root)" : "");
		tp_counter_close(c);
		return -1;
	}
	return 0;
}

int tp_counter_read(const struct tp_counter *c, uint64_t *total)
{
	int i;

	*total = 0;
	for (i = 0; i < c->nfd; i++) {
		uint64_t v;

		if (read(c->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		*total += v;
	}
	return 0;
}

void tp_counter_close(struct tp_counter *c)
{
	int i;

	for (i = 0; i < c->nfd; i++)
		close(c->fd[i]);
	free(c->fd);
	c->fd = NULL;
	c->nfd = 0;
}
