// SPDX-License-Identifier: MIT
/*
 * fuzz_taskstats.c - libFuzzer target for calc/taskstats_decode.h.
 *
 * The first byte picks what the rest is (its value modulo 3):
 *   0  a TASKSTATS_TYPE_STATS payload for ts_decode_stats
 *   1  a whole attribute stream for ts_decode_attrs
 *   2  a record to be wrapped the way the kernel sends it (a NULL pad, an
 *      AGGR_PID nest with the pid and stats): byte 1 is the version,
 *      bytes 2-3 the stats length, the rest its contents.  Text seeds
 *      reach deep into the layouts this way.
 * Every result is checked against the contract in the header; a broken
 * promise aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/taskstats_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static void check_stats(const struct ts_stats *s, size_t len)
{
	size_t need = ts_wire_size(s->version), i;
	int k;

	check(s->version != 0);
	check(s->wire_len == len);
	check(s->truncated == (need && len < need));
	check(s->oversized == (len > ts_wire_max()));
	check(!s->have_minmax || (s->version >= 16 && len >= 560));
	for (k = 0; k < TS_NKINDS; k++) {
		if (s->have & (1u << k))
			check(s->version >= ts_kind_since(k));
		else
			check(s->d[k].count == 0 && s->d[k].total_ns == 0);
		if (!s->have_minmax)
			check(s->d[k].max_ns == 0 && s->d[k].min_ns == 0);
	}
	check(s->have < (1u << TS_NKINDS));
	check(memchr(s->comm, '\0', sizeof(s->comm)) != NULL);
	for (i = 0; s->comm[i]; i++)
		check(s->comm[i] >= 0x20 && s->comm[i] < 0x7f);
}

static void check_stats_rc(int rc, const struct ts_stats *s, size_t len)
{
	check(rc == WM_OK || rc == WM_EPARSE);
	if (rc == WM_OK)
		check_stats(s, len);
	if (len < 2)
		check(rc == WM_EPARSE);
}

static void run_attrs(const uint8_t *p, size_t n)
{
	struct ts_record r;
	int rc = ts_decode_attrs(p, n, &r, NULL);

	check(rc == WM_OK || rc == WM_ENODATA || rc == WM_EPARSE);
	if (rc != WM_OK)
		return;
	check(r.pid_stats.version || r.tgid_stats.version);
	if (r.pid_stats.version)
		check_stats(&r.pid_stats, r.pid_stats.wire_len);
	if (r.tgid_stats.version)
		check_stats(&r.tgid_stats, r.tgid_stats.wire_len);
}

static void put_attr(uint8_t *buf, size_t *at, unsigned type,
		     const void *data, size_t len)
{
	uint16_t l = (uint16_t)(4 + len), t = (uint16_t)type;

	memcpy(buf + *at, &l, 2);
	memcpy(buf + *at + 2, &t, 2);
	if (len)
		memcpy(buf + *at + 4, data, len);
	*at += (4 + len + 3) & ~(size_t)3;
}

/* Wrap a stats payload the way kernel/taskstats.c builds a reply. */
static void run_wrapped(const uint8_t *p, size_t n)
{
	static uint8_t stats[1024], buf[2048];
	struct ts_record r;
	size_t len, at = 0, nest;
	uint32_t pid = 1;
	uint16_t l;

	if (n < 3)
		return;
	len = ((size_t)p[1] | (size_t)p[2] << 8) % sizeof(stats);
	memset(stats, 0, sizeof(stats));
	memcpy(stats, p + 3, n - 3 < len ? n - 3 : len);
	stats[0] = p[0];	/* version, low byte */
	stats[1] = 0;
	put_attr(buf, &at, TS_TYPE_NULL, NULL, 0);
	nest = at;
	put_attr(buf, &at, TS_TYPE_AGGR_PID, NULL, 0);
	put_attr(buf, &at, TS_TYPE_PID, &pid, 4);
	put_attr(buf, &at, TS_TYPE_NULL, NULL, 0);
	put_attr(buf, &at, TS_TYPE_STATS, stats, len);
	l = (uint16_t)(at - nest);
	memcpy(buf + nest, &l, 2);
	if (ts_decode_attrs(buf, at, &r, NULL) == WM_OK) {
		check(r.has_pid && r.pid == 1);
		check_stats(&r.pid_stats, len);
	} else {
		/* Only a record too short for its version field, or version 0. */
		check(len < 2 || p[0] == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ts_stats s;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		check_stats_rc(ts_decode_stats(data + 1, size - 1, &s, NULL), &s, size - 1);
		break;
	case 1:
		run_attrs(data + 1, size - 1);
		break;
	default:
		run_wrapped(data + 1, size - 1);
		break;
	}
	return 0;
}
