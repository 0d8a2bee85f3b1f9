/* SPDX-License-Identifier: MIT */
/*
 * tracecount.h - how often a kernel tracepoint fired, on every CPU,
 * counted with perf_event_open(2) (PERF_TYPE_TRACEPOINT, counting mode:
 * no trace buffer, nothing written to tracefs, nothing left behind when
 * the descriptors close).
 *
 * The tracepoint's id comes from tracefs (/sys/kernel/tracing, or
 * /sys/kernel/debug/tracing where it is mounted there); counting every
 * task on a CPU takes CAP_PERFMON (or CAP_SYS_ADMIN, or
 * kernel.perf_event_paranoid -1).
 */
#ifndef WMARK_TRACECOUNT_H
#define WMARK_TRACECOUNT_H

#include <stddef.h>
#include <stdint.h>

struct tp_counter {
	int *fd;	/* one per online CPU */
	int nfd;
};

/*
 * Start counting EVENT ("kmem/mm_page_alloc_extfrag") on every online
 * CPU.  0 on success; -1 with why (a sentence fragment naming the file or
 * the call and its error) when it cannot be counted, c left empty.
 */
int tp_counter_open(struct tp_counter *c, const char *event, char *why, size_t whylen);

/* The count over all CPUs since tp_counter_open(): 0, or -1 on a read error. */
int tp_counter_read(const struct tp_counter *c, uint64_t *total);

void tp_counter_close(struct tp_counter *c);

#endif /* WMARK_TRACECOUNT_H */
