// SPDX-License-Identifier: MIT
/*
 * taskstats_decode.c - struct taskstats, every layout from version 8
 * (Linux 4.9) to 17, decoded from the bytes of a netlink attribute.
 *
 * Models include/uapi/linux/taskstats.h and the reply built by
 * kernel/taskstats.c (mk_reply: a nest holding the id, an optional
 * TASKSTATS_TYPE_NULL pad, then the stats).  Field history, in our words:
 *
 *   v8   (4.9)  ... ends with the direct-reclaim pair freepages_*   328 B
 *   v9          thrashing count and total                          344 B
 *   v10         64-bit begin time                                  352 B
 *   v11         direct compaction count and total                  368 B
 *   v12         tgid, thread-group elapsed time, exe dev/inode     400 B
 *   v13         write-protect copy count and total                 416 B
 *   v14         IRQ/softirq count and total                        432 B
 *   v15         a max and a min after each of the 8 count/total
 *               pairs, in place: every later field moved           560 B
 *   v16         the same 16 fields moved to the end, after irq_*   560 B
 *   v17         a timestamp of each maximum appended               688 B
 *
 * The one subtle point: v15 and v16 have the same size, so the layout is
 * chosen by version.  v15's max/min are not reported at all: that layout
 * lived for one release and was withdrawn because it broke every reader.
 */
#include <string.h>

#include "taskstats_decode.h"

#define TS_COMM_LEN 32

/* Our own copy of the newest layout (v17).  The explicit alignments are
 * the kernel's: they make the layout the same on 32-bit ABIs. */
struct ts_wire {
	uint16_t version;
	uint32_t ac_exitcode;
	uint8_t ac_flag;
	uint8_t ac_nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total;
	uint64_t blkio_count;
	uint64_t blkio_delay_total;
	uint64_t swapin_count;
	uint64_t swapin_delay_total;
	uint64_t cpu_run_real_total;
	uint64_t cpu_run_virtual_total;
	char ac_comm[TS_COMM_LEN];
	uint8_t ac_sched __attribute__((aligned(8)));
	uint8_t ac_pad[3];
	uint32_t ac_uid __attribute__((aligned(8)));
	uint32_t ac_gid;
	uint32_t ac_pid;
	uint32_t ac_ppid;
	uint32_t ac_btime;
	uint64_t ac_etime __attribute__((aligned(8)));
	uint64_t ac_utime;
	uint64_t ac_stime;
	uint64_t ac_minflt;
	uint64_t ac_majflt;
	uint64_t coremem;
	uint64_t virtmem;
	uint64_t hiwater_rss;
	uint64_t hiwater_vm;
	uint64_t read_char;
	uint64_t write_char;
	uint64_t read_syscalls;
	uint64_t write_syscalls;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t cancelled_write_bytes;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t ac_utimescaled;
	uint64_t ac_stimescaled;
	uint64_t cpu_scaled_run_real_total;
	uint64_t freepages_count;
	uint64_t freepages_delay_total;		/* v8 ends */
	uint64_t thrashing_count;
	uint64_t thrashing_delay_total;		/* v9 ends */
	uint64_t ac_btime64;			/* v10 ends */
	uint64_t compact_count;
	uint64_t compact_delay_total;		/* v11 ends */
	uint32_t ac_tgid;
	uint64_t ac_tgetime __attribute__((aligned(8)));
	uint64_t ac_exe_dev;
	uint64_t ac_exe_inode;			/* v12 ends */
	uint64_t wpcopy_count;
	uint64_t wpcopy_delay_total;		/* v13 ends */
	uint64_t irq_count;
	uint64_t irq_delay_total;		/* v14 ends */
	struct {
		uint64_t max, min;
	} mm[TS_NKINDS];			/* v16 ends: in enum ts_kind order */
	struct {
		int64_t sec, nsec;
	} max_ts[TS_NKINDS];			/* v17 ends */
};

/* One delay as v15 laid it out, in place. */
struct ts_wire_d4 {
	uint64_t count, total, max, min;
};

/* The v15 layout: the same fields, each delay pair grown to four. */
struct ts_wire_v15 {
	uint16_t version;
	uint32_t ac_exitcode;
	uint8_t ac_flag;
	uint8_t ac_nice;
	struct ts_wire_d4 cpu __attribute__((aligned(8)));
	struct ts_wire_d4 blkio;
	struct ts_wire_d4 swapin;
	uint64_t cpu_run_real_total;
	uint64_t cpu_run_virtual_total;
	char ac_comm[TS_COMM_LEN];
	uint8_t ac_sched __attribute__((aligned(8)));
	uint8_t ac_pad[3];
	uint32_t ac_uid __attribute__((aligned(8)));
	uint32_t ac_gid;
	uint32_t ac_pid;
	uint32_t ac_ppid;
	uint32_t ac_btime;
	uint64_t ac_etime __attribute__((aligned(8)));
	uint64_t ac_utime;
	uint64_t ac_stime;
	uint64_t ac_minflt;
	uint64_t ac_majflt;
	uint64_t coremem;
	uint64_t virtmem;
	uint64_t hiwater_rss;
	uint64_t hiwater_vm;
	uint64_t read_char;
	uint64_t write_char;
	uint64_t read_syscalls;
	uint64_t write_syscalls;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t cancelled_write_bytes;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t ac_utimescaled;
	uint64_t ac_stimescaled;
	uint64_t cpu_scaled_run_real_total;
	struct ts_wire_d4 freepages;
	struct ts_wire_d4 thrashing;
	uint64_t ac_btime64;
	struct ts_wire_d4 compact;
	uint32_t ac_tgid;
	uint64_t ac_tgetime __attribute__((aligned(8)));
	uint64_t ac_exe_dev;
	uint64_t ac_exe_inode;
	struct ts_wire_d4 wpcopy;
	struct ts_wire_d4 irq;
};

/*
 * The offsets below were counted by hand from the kernel headers of each
 * version; the compiler must agree, or the layout above is wrong.
 */
#define TS_AT(s, f, n) _Static_assert(offsetof(struct s, f) == (n), #s "." #f)
TS_AT(ts_wire, cpu_count, 16);
TS_AT(ts_wire, cpu_run_virtual_total, 72);
TS_AT(ts_wire, ac_comm, 80);
TS_AT(ts_wire, ac_uid, 120);
TS_AT(ts_wire, ac_btime, 136);
TS_AT(ts_wire, ac_etime, 144);
TS_AT(ts_wire, nvcsw, 272);
TS_AT(ts_wire, freepages_count, 312);
TS_AT(ts_wire, thrashing_count, 328);
TS_AT(ts_wire, ac_btime64, 344);
TS_AT(ts_wire, compact_count, 352);
TS_AT(ts_wire, ac_tgid, 368);
TS_AT(ts_wire, ac_tgetime, 376);
TS_AT(ts_wire, wpcopy_count, 400);
TS_AT(ts_wire, irq_count, 416);
TS_AT(ts_wire, mm, 432);
TS_AT(ts_wire, max_ts, 560);
_Static_assert(sizeof(struct ts_wire) == 688, "v17 is 688 bytes");
TS_AT(ts_wire_v15, blkio, 48);
TS_AT(ts_wire_v15, swapin, 80);
TS_AT(ts_wire_v15, cpu_run_real_total, 112);
TS_AT(ts_wire_v15, ac_comm, 128);
TS_AT(ts_wire_v15, ac_etime, 192);
TS_AT(ts_wire_v15, nvcsw, 320);
TS_AT(ts_wire_v15, freepages, 360);
TS_AT(ts_wire_v15, thrashing, 392);
TS_AT(ts_wire_v15, ac_btime64, 424);
TS_AT(ts_wire_v15, compact, 432);
TS_AT(ts_wire_v15, ac_tgid, 464);
TS_AT(ts_wire_v15, wpcopy, 496);
TS_AT(ts_wire_v15, irq, 528);
_Static_assert(sizeof(struct ts_wire_v15) == 560, "v15 is 560 bytes");

/* Where each field sits in one layout. */
struct ts_layout {
	size_t count[TS_NKINDS], total[TS_NKINDS];
	size_t max[TS_NKINDS], min[TS_NKINDS];	/* 0: not in this layout */
	size_t exitcode, flag, comm, uid, gid, pid, ppid, btime, etime;
	size_t utime, stime, minflt, majflt, nvcsw, nivcsw;
	size_t run_real, run_virtual, btime64, tgid;
};

#define W(f) offsetof(struct ts_wire, f)
#define V(f) offsetof(struct ts_wire_v15, f)
#define COMMON(X) \
	.exitcode = X(ac_exitcode), .flag = X(ac_flag), .comm = X(ac_comm), \
	.uid = X(ac_uid), .gid = X(ac_gid), .pid = X(ac_pid), \
	.ppid = X(ac_ppid), .btime = X(ac_btime), .etime = X(ac_etime), \
	.utime = X(ac_utime), .stime = X(ac_stime), .minflt = X(ac_minflt), \
	.majflt = X(ac_majflt), .nvcsw = X(nvcsw), .nivcsw = X(nivcsw), \
	.run_real = X(cpu_run_real_total), \
	.run_virtual = X(cpu_run_virtual_total), .btime64 = X(ac_btime64), \
	.tgid = X(ac_tgid)

static const struct ts_layout layout_v16 = {
	.count = { W(cpu_count), W(blkio_count), W(swapin_count),
		   W(freepages_count), W(thrashing_count), W(compact_count),
		   W(wpcopy_count), W(irq_count) },
	.total = { W(cpu_delay_total), W(blkio_delay_total),
		   W(swapin_delay_total), W(freepages_delay_total),
		   W(thrashing_delay_total), W(compact_delay_total),
		   W(wpcopy_delay_total), W(irq_delay_total) },
	.max = { W(mm[0].max), W(mm[1].max), W(mm[2].max), W(mm[3].max),
		 W(mm[4].max), W(mm[5].max), W(mm[6].max), W(mm[7].max) },
	.min = { W(mm[0].min), W(mm[1].min), W(mm[2].min), W(mm[3].min),
		 W(mm[4].min), W(mm[5].min), W(mm[6].min), W(mm[7].min) },
	COMMON(W),
};

static const struct ts_layout layout_v15 = {
	.count = { V(cpu.count), V(blkio.count), V(swapin.count),
		   V(freepages.count), V(thrashing.count), V(compact.count),
		   V(wpcopy.count), V(irq.count) },
	.total = { V(cpu.total), V(blkio.total), V(swapin.total),
		   V(freepages.total), V(thrashing.total), V(compact.total),
		   V(wpcopy.total), V(irq.total) },
	/* max/min left at 0: not reported for v15 (see the top). */
	COMMON(V),
};

#undef COMMON
#undef V
#undef W

/* Indexed by enum ts_kind; versions before 8 predate what we model, so
 * direct reclaim is only claimed from 8 on. */
static const unsigned kind_since[TS_NKINDS] = { 1, 1, 1, 8, 9, 11, 13, 14 };

size_t ts_wire_size(unsigned version)
{
	static const size_t size[] = {
		[8] = 328, [9] = 344, [10] = 352, [11] = 368, [12] = 400,
		[13] = 416, [14] = 432, [15] = 560, [16] = 560, [17] = 688,
	};

	if (version > 17)
		return sizeof(struct ts_wire);	/* at least ours: fields only grow */
	return size[version];
}

size_t ts_wire_max(void)
{
	return sizeof(struct ts_wire);
}

unsigned ts_kind_since(enum ts_kind kind)
{
	return (unsigned)kind < TS_NKINDS ? kind_since[kind] : ~0u;
}

static uint64_t get64(const unsigned char *b, size_t off)
{
	uint64_t v;

	memcpy(&v, b + off, sizeof(v));
	return v;
}

static uint32_t get32(const unsigned char *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b + off, sizeof(v));
	return v;
}

int ts_decode_stats(const void *buf, size_t len, struct ts_stats *out, struct wm_diag *diag)
{
	/* Aligned storage of the largest layout, zero past what was sent. */
	union {
		struct ts_wire w;
		unsigned char b[sizeof(struct ts_wire)];
	} u;
	const struct ts_layout *l;
	const unsigned char *b = u.b;
	size_t n, i, need;
	uint16_t version;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(version))
		return wm_fail(diag, WM_EPARSE, 0, "version",
			       "%zu bytes: too few for the version of struct taskstats", len);
	n = len < sizeof(u) ? len : sizeof(u);
	memset(&u, 0, sizeof(u));
	memcpy(&u, buf, n);
	version = u.w.version;
	if (version == 0)
		return wm_fail(diag, WM_EPARSE, 0, "version", "version 0: not a taskstats record");

	out->version = version;
	out->wire_len = len;
	need = ts_wire_size(version);
	out->truncated = need && len < need;
	out->oversized = len > sizeof(u);

	l = version == 15 ? &layout_v15 : &layout_v16;
	for (i = 0; i < TS_NKINDS; i++) {
		if (version < kind_since[i] || l->count[i] + 8 > n ||
		    l->total[i] + 8 > n)
			continue;
		out->have |= 1u << i;
		out->d[i].count = get64(b, l->count[i]);
		out->d[i].total_ns = get64(b, l->total[i]);
	}
	if (version >= 16 && l->min[TS_IRQ] + 8 <= n) {
		out->have_minmax = true;
		for (i = 0; i < TS_NKINDS; i++) {
			out->d[i].max_ns = get64(b, l->max[i]);
			out->d[i].min_ns = get64(b, l->min[i]);
		}
	}

	/* Fields past n read as zero from the zeroed buffer. */
	out->exitcode = get32(b, l->exitcode);
	out->flag = b[l->flag];
	for (i = 0; i < TS_COMM_LEN && b[l->comm + i]; i++) {
		unsigned char c = b[l->comm + i];

		/* Names are set by tasks themselves: keep output printable. */
		out->comm[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out->comm[i] = '\0';
	out->uid = get32(b, l->uid);
	out->gid = get32(b, l->gid);
	out->pid = get32(b, l->pid);
	out->ppid = get32(b, l->ppid);
	out->btime_s = version >= 10 ? get64(b, l->btime64) : get32(b, l->btime);
	out->etime_us = get64(b, l->etime);
	out->utime_us = get64(b, l->utime);
	out->stime_us = get64(b, l->stime);
	out->minflt = get64(b, l->minflt);
	out->majflt = get64(b, l->majflt);
	out->nvcsw = get64(b, l->nvcsw);
	out->nivcsw = get64(b, l->nivcsw);
	out->run_real_ns = get64(b, l->run_real);
	out->run_virtual_ns = get64(b, l->run_virtual);
	out->tgid = version >= 12 ? get32(b, l->tgid) : 0;
	return WM_OK;
}

/* struct nlattr: u16 length (header included), u16 type; 4-byte steps. */
#define TS_NLA_HDR 4u
#define TS_NLA_TYPE_MASK 0x3fffu	/* without NESTED and BYTEORDER flags */

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Walk attributes at p.  nest is 0 at the top level, else the nest type
 * (AGGR_PID or AGGR_TGID) whose members these are.
 */
static int walk(const unsigned char *p, size_t len, int nest,
		struct ts_record *out, int *found, struct wm_diag *diag)
{
	while (len >= TS_NLA_HDR) {
		size_t alen = get16(p), plen, step;
		unsigned type = get16(p + 2) & TS_NLA_TYPE_MASK;
		const unsigned char *pl = p + TS_NLA_HDR;
		int rc;

		if (alen < TS_NLA_HDR || alen > len)
			return wm_fail(diag, WM_EPARSE, 0, "attribute",
				       "an attribute of %zu bytes where %zu are left", alen, len);
		plen = alen - TS_NLA_HDR;

		if (!nest && (type == TS_TYPE_AGGR_PID ||
			      type == TS_TYPE_AGGR_TGID)) {
			rc = walk(pl, plen, (int)type, out, found, diag);
			if (rc < 0)
				return rc;
		} else if (nest && (type == TS_TYPE_PID ||
				    type == TS_TYPE_TGID)) {
			if (plen < 4)
				return wm_fail(diag, WM_EPARSE, 0, "attribute",
					       "a pid or tgid attribute of %zu bytes", plen);
			if (type == TS_TYPE_PID) {
				out->has_pid = true;
				memcpy(&out->pid, pl, 4);
			} else {
				out->has_tgid = true;
				memcpy(&out->tgid, pl, 4);
			}
		} else if (nest && type == TS_TYPE_STATS) {
			rc = ts_decode_stats(pl, plen,
					     nest == TS_TYPE_AGGR_PID ?
					     &out->pid_stats : &out->tgid_stats, diag);
			if (rc < 0)
				return rc;
			(*found)++;
		}
		/* Anything else (TS_TYPE_NULL padding, unknown types) is skipped. */

		step = (alen + 3) & ~(size_t)3;
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return WM_OK;
}

int ts_decode_attrs(const void *buf, size_t len, struct ts_record *out, struct wm_diag *diag)
{
	int found = 0, rc;

	memset(out, 0, sizeof(*out));
	rc = walk(buf, len, 0, out, &found, diag);
	if (rc < 0)
		return rc;
	return found ? WM_OK : wm_fail(diag, WM_ENODATA, 0, NULL, "no stats in the message");
}
