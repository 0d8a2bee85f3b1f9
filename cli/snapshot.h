/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h - read a machine (the live one, or a root tree given with
 * --root) into one consistent snapshot, and run the model over it.
 */
#ifndef WMARK_SNAPSHOT_H
#define WMARK_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "../calc/change.h"
#include "../calc/machine.h"
#include "../calc/reserve.h"
#include "../calc/state.h"
#include "../calc/wmark.h"
#include "../calc/zoneinfo.h"
#include "cli.h"

#include "rootfs.h"

/*
 * The page size taken when a root does not say it: no page size of the
 * live process, no wmark/geometry, no MemTotal that fits the zones'
 * managed pages (an excerpt, a capture without meminfo).  The output
 * says "assumed" wherever it is used (wm_geometry_assume).
 */
#define SNAPSHOT_ASSUMED_PAGE_SIZE 4096	/* bytes */

/*
 * A machine as read from a root: the parts of its struct wm_state
 * (wm_state_build) under the names the commands use, and the root.
 */
struct snapshot {
	const char *root;
	bool live;			/* root_is_live(root) */
	char *zoneinfo;			/* raw text, NUL-terminated */
	size_t zoneinfo_len;
	bool zoneinfo_mapped;		/* mapped from a capture, not malloc'd */
	int rereads;			/* times zoneinfo changed while reading */
	/*
	 * The machine the texts describe (calc/state.h): the kernel, its
	 * rules, the geometry, THP, the sysctls (fields -1 where a file is
	 * absent), the parsed zoneinfo, the model's zones and the one zone
	 * view.  Owned by the snapshot.
	 */
	struct wm_state st;
};

/*
 * Read ctx->root into *s: zoneinfo first (reading lowmem_reserve_ratio
 * recomputes protection on some kernels), then the sysctls, then zoneinfo
 * again, repeating while it changed (live memory can grow meanwhile).
 * On error print one line naming the path and return an exit code
 * (EXIT_USAGE for malformed input, EXIT_SYSTEM for I/O), *s left empty;
 * else EXIT_OK.
 */
int snapshot_read(const struct cli_ctx *ctx, struct snapshot *s);

/*
 * snapshot_read() needing only what `need` says (WM_NEED_ZONEINFO): with
 * 0, a root without a readable zoneinfo gives a snapshot without zones
 * (have_zones false), its kernel, sysctls and page geometry all the same.
 */
int snapshot_read_need(const struct cli_ctx *ctx, struct snapshot *s, unsigned need);

/*
 * The kernel identity of ctx->root alone: --kernel, else osrelease with
 * the Debian sublevel of its version line, else the newest rules
 * (wm_state_kernel), for commands that must not depend on the rest of
 * the root (rollback repairs knob files that do not parse).  Prints
 * nothing: return EXIT_OK with *id filled, or an exit code.
 */
int snapshot_kernel(const struct cli_ctx *ctx, struct wm_kernel_id *id);

void snapshot_free(struct snapshot *s);

/*
 * The knobs in `need` (WM_HAVE_* bits) must have a value in sc: for the
 * first that has none, print "CMD: ROOT/proc/sys/vm/KNOB: not there, so
 * its value is unknown (give --OPTION<also>)" (without the hint when also
 * is NULL: the command has no such option) and return EXIT_USAGE for a
 * capture (it is incomplete: the option supplies what it lacks), or
 * EXIT_SYSTEM on the live machine; else EXIT_OK.
 */
int snapshot_need(const struct snapshot *s, const char *cmd, const struct wm_sysctl *sc,
		  unsigned need, const char *also);

/*
 * The sysctls after change ch on s's kernel (wm_change_apply) and what
 * the write recomputes; a value the kernel refuses is a usage error, a
 * knob the root lacks (or min_free_kbytes and watermark_scale_factor
 * unknown, which every prediction needs) exit 3 naming its path, with
 * hint as snapshot_need's `also`.
 */
int snapshot_change(const struct snapshot *s, const char *cmd, const struct wm_change *ch,
		    struct wm_sysctl *after, unsigned *recomputes, const char *hint);

/* wm_predict() over s; an exit code.  A zoneinfo with no managed or
 * present line anywhere (zone headers alone) is refused, exit 2 naming
 * it, as verify refuses it: every prediction from it would be 0. */
int snapshot_predict(const struct snapshot *s, const struct wm_sysctl *sc, unsigned recomputes,
		     struct wm_predicted *out);

/* wm_reserve_change() over s, with the root's meminfo where it is there. */
void snapshot_reserve(const struct snapshot *s, const struct wm_predicted *after,
		      struct wm_reserve *out);

#define P_THP_DIR "sys/kernel/mm/transparent_hugepage"

/* A per-size THP control: its size and its enabled file under the root. */
struct thp_size {
	uint64_t kb;
	char rel[320];	/* P_THP_DIR, a directory name (<= 255), "/enabled" */
};

/*
 * Read s->root's zoneinfo again into *zi, for a series of readings
 * (recommend --sample, tune): parsed, with as many zones as the snapshot
 * had.  Return EXIT_OK, or an exit code after one line naming the file,
 * with cmd as its context; *zi is then empty.
 */
int snapshot_reread_zones(const struct snapshot *s, const char *cmd, struct zi_info *zi);

/*
 * The hugepages-<N>kB directories under ROOT's transparent_hugepage
 * directory, at most max into out; return how many (0 on kernels before
 * 6.8 or when the directory cannot be read).
 */
int snapshot_thp_sizes(const char *root, struct thp_size *out, int max);

/* hpage_pmd_size under root: the PMD size in bytes, 0 without THP or a number. */
uint64_t snapshot_pmd_bytes(const char *root);

#endif /* WMARK_SNAPSHOT_H */
