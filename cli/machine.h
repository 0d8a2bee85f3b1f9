/* SPDX-License-Identifier: MIT */
/*
 * machine.h - read a machine (the live one, or a root tree given with
 * --root) into one consistent snapshot, and run the model over it.
 */
#ifndef WMARK_MACHINE_H
#define WMARK_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../calc/wmark.h"
#include "../calc/zoneinfo.h"
#include "cli.h"

/* Paths inside a root tree. */
#define P_ZONEINFO "proc/zoneinfo"
#define P_VM "proc/sys/vm/"
#define P_MFK P_VM "min_free_kbytes"
#define P_WSF P_VM "watermark_scale_factor"
#define P_BOOST P_VM "watermark_boost_factor"
#define P_LRR P_VM "lowmem_reserve_ratio"
#define P_EXTRA P_VM "extra_free_kbytes"
#define P_OSRELEASE "proc/sys/kernel/osrelease"
#define P_KVERSION "proc/sys/kernel/version"
#define P_THP "sys/kernel/mm/transparent_hugepage/enabled"
#define P_MEMINFO "proc/meminfo"
#define P_VMSTAT "proc/vmstat"
#define P_PSI "proc/pressure/memory"

/*
 * Join root and a relative path into out (size n).  Return 0, or -1 if
 * it does not fit.
 */
int root_path(const char *root, const char *rel, char *out, size_t n);

/*
 * Read the whole file root/rel with few large reads into a NUL-terminated
 * malloc'd buffer.  Return 0, or -errno (with *buf NULL).
 */
int read_rooted(const char *root, const char *rel, char **buf, size_t *len);

/* A machine as read from a root. */
struct snapshot {
	const char *root;
	bool live;			/* root is "/" */
	char *zoneinfo;			/* raw text, NUL-terminated */
	size_t zoneinfo_len;
	bool zoneinfo_mapped;		/* mapped from a capture, not malloc'd */
	struct zi_info zi;
	struct wm_sysctl sysctl;	/* fields -1 where the file is absent */
	char osrelease[128];		/* "" if unknown */
	struct wm_profile prof;		/* from --kernel, osrelease, or default */
	bool kernel_known;		/* prof comes from a real version */
	enum wm_thp thp;		/* WM_THP_UNSUPPORTED if no THP file */
	struct wm_zone *zones;		/* model input: every configured zone */
	long *zone_map;			/* per model zone: index in zi.zones, -1 if not printed */
	struct wm_machine m;
	bool used_present;		/* no managed lines: present used instead */
	int rereads;			/* times zoneinfo changed while reading */
};

/*
 * Read ctx->root into *s: zoneinfo first (reading lowmem_reserve_ratio
 * recomputes protection on some kernels), then the sysctls, then zoneinfo
 * again, repeating while it changed (live memory can grow meanwhile).
 * On error print one line naming the path and return an exit code
 * (EXIT_USAGE for malformed input, EXIT_SYSTEM for I/O); else EXIT_OK.
 */
int snapshot_read(const struct cli_ctx *ctx, struct snapshot *s);

void snapshot_free(struct snapshot *s);

/*
 * Run the model over s's zones with sysctls sc (sc->min_free_kbytes must
 * be >= 0): watermarks and protection into out[s->m.nzones].  Return an
 * exit code, printing the reason on error.
 */
int snapshot_model(const struct snapshot *s, const struct wm_sysctl *sc,
		   struct wm_zone_wm *out);

#endif /* WMARK_MACHINE_H */
