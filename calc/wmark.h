/* SPDX-License-Identifier: MIT */
/*
 * wmark.h - the pure watermark model of the Linux kernel (libwmark).
 *
 * Everything here is arithmetic on structs: no file is opened, nothing is
 * printed, no environment or clock is read.  Functions return WM_OK or a
 * negative WM_E* code and, where useful, fill a struct wm_diag that says
 * which input (key, line) was wrong.
 *
 * Page counts are in pages of the machine's page size; sizes in KiB are
 * named *_kb.  The kernel functions modelled are named in each .c file.
 */
#ifndef WMARK_H
#define WMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WM_MAX_ZONES 6		/* MAX_NR_ZONES never exceeds this */
#define WM_SWAP_CLUSTER_MAX 32	/* lower clamp of a HighMem/Movable min */

enum wm_err {
	WM_OK = 0,
	WM_EINVAL = -1,		/* a value outside what the kernel accepts */
	WM_ERANGE = -2,		/* a number too large */
	WM_EPARSE = -3,		/* malformed text (diag has the line) */
	WM_ENOMEM = -4,
	WM_ENOZONE = -5,	/* no usable zone in the input */
	WM_ENODATA = -6,	/* an input the answer needs is not there */
};

/* Where an error came from: filled by the core, printed by the CLI. */
struct wm_diag {
	int line;		/* 1-based line in the parsed buffer, 0 if none */
	char key[48];		/* the option, key or field involved */
	char msg[256];		/* what is wrong, without trailing newline */
};

/* Set diag (if non-NULL) and return code. */
int wm_fail(struct wm_diag *diag, int code, int line, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- kernel versions ------------------------------------------------- */

struct wm_kver {
	unsigned major, minor, sub;	/* 6.1.192 */
	bool android;			/* "-android" in the release string */
};

/*
 * Parse a release string such as "4.9.337", "5.10.186-android12-9",
 * "6.1.0-18-amd64", "6.12.117+deb12-amd64" or "6.18.44-fc-v595" into *out.
 * Only the leading MAJOR.MINOR[.SUB] and an "android" marker matter.
 * Return WM_OK, or WM_EPARSE with diag set.
 */
int wm_kver_parse(const char *s, struct wm_kver *out, struct wm_diag *diag);

/*
 * Debian's release string hides the stable sublevel ("6.1.0-18-amd64")
 * that /proc/version carries ("... Debian 6.1.76-1 ...").  If k has no
 * sublevel and version (the text of /proc/version, or NULL) names one for
 * the same MAJOR.MINOR, set k->sub to it.  Return true if it did.
 */
bool wm_kver_debian_sublevel(const char *version, struct wm_kver *k);

/* Negative, zero or positive as a is older, equal or newer than b. */
int wm_kver_cmp(const struct wm_kver *a, unsigned major, unsigned minor,
		unsigned sub);

/* How the kernel computes protection (docs/model.md §4). */
enum wm_lrr_rule {
	WM_LRR_A,	/* <= 4.16: ratio < 1 forced to 1, all sums */
	WM_LRR_B,	/* 4.17 - 5.7: ratio < 1 gives 0 */
	WM_LRR_C,	/* 5.8 - 5.10.49: empty/ratio-0 zones skipped in sums */
	WM_LRR_D,	/* 5.10.50+, 5.11 - 6.9, 6.14+ (6.12.19+, 6.13.7+) */
	WM_LRR_E,	/* 6.10 - 6.13 before the revert: empty upper zone 0 */
};

/*
 * How __setup_per_zone_wmarks() spaces the high watermark above low.  Every
 * released kernel is WM_HIGH_STOCK; the other two are the kernels built by
 * tests/kernel/rfc (boot parameter wmark_rfc=1 and 2).
 */
enum wm_high_rule {
	WM_HIGH_STOCK,		/* high = low + gap */
	WM_HIGH_SQRT,		/* the 2018 RFC: low + clamp(gap * isqrt(4 managed) / 10000, min/4, gap) */
	WM_HIGH_QUARTER,	/* high = low + (gap >> 2) */
};

/* What a kernel version does; derived from a wm_kver only. */
struct wm_profile {
	struct wm_kver kver;
	bool wsf;		/* 4.6+: gap from watermark_scale_factor */
	int64_t wsf_max;		/* 1000, or 3000 from 5.17 / 5.15.58 / 5.10.186 */
	int64_t mfk_clamp_max;	/* sqrt rule upper clamp: 65536, 262144 from 5.7 */
	bool thp;		/* 2.6.38+: transparent hugepages (mainline; no
				 * vendor backport is modelled) */
	bool thp_lowmem_zones;	/* 4.17+: THP counts zones <= Normal only */
	bool boost;		/* 5.0+: watermark_boost exists */
	bool boost_reset_late;	/* 5.0 - 5.7 (and 5.4.y): reset after LOW/HIGH */
	bool boost_small_zone;	/* 5.7+, 5.4.y: no boost if managed < 4 pageblocks */
	bool boost_printed;	/* 5.16+: zoneinfo has a boost line */
	bool promo;		/* 5.18+: WMARK_PROMO exists */
	bool promo_printed;	/* 6.12+: zoneinfo has a promo line */
	bool movable_capped;	/* 6.6+: Movable treated like HighMem (before: only
				 * where is_highmem() counts it) */
	bool movable_highmem_by_index;	/* before 5.14: a one-node kernel with HighMem
					 * counts Movable as highmem, HighMem empty or not */
	bool thp_off_recompute;	/* 5.16+: THP off re-runs the sqrt rule */
	bool empty_zones_printed; /* 4.12+: zoneinfo lists unpopulated zones */
	bool extra_free;	/* Android common kernels up to 5.4: extra_free_kbytes */
	enum wm_lrr_rule lrr_rule;
	enum wm_high_rule high_rule; /* stock unless set for a patched kernel */
};

/* Fill *p with what kernel k does.  Never fails. */
void wm_profile_for(const struct wm_kver *k, struct wm_profile *p);

/* The profile used when no version is known: the newest modelled kernel. */
void wm_profile_default(struct wm_profile *p);

/* ---- zones and sysctls ----------------------------------------------- */

enum wm_zone_type {
	WM_ZONE_DMA,
	WM_ZONE_DMA32,
	WM_ZONE_NORMAL,
	WM_ZONE_HIGHMEM,
	WM_ZONE_MOVABLE,
	WM_ZONE_DEVICE,
	WM_ZONE_OTHER,		/* a name we do not know; treated as lowmem */
};

/* "DMA" -> WM_ZONE_DMA ...; unknown names give WM_ZONE_OTHER. */
enum wm_zone_type wm_zone_type_of(const char *name);
const char *wm_zone_type_name(enum wm_zone_type t);

/* One zone as the model sees it. */
struct wm_zone {
	int node;
	int idx;			/* zone index within its node (0 = first) */
	enum wm_zone_type type;
	uint64_t managed;		/* pages */
	uint64_t present;		/* pages; decides "populated" */
	uint64_t boost;		/* pages; current watermark_boost */
	uint64_t boost_at_setup;	/* pages; boost when last recomputed (5.0-5.7 quirk) */
};

/* Which fields of a struct wm_sysctl hold a value. */
enum wm_have {
	WM_HAVE_MFK = 1u << 0,
	WM_HAVE_WSF = 1u << 1,
	WM_HAVE_BOOST = 1u << 2,
	WM_HAVE_EXTRA = 1u << 3,
	WM_HAVE_LRR = 1u << 4,
};

/*
 * The watermark sysctls.  `have` says which fields hold a value: a knob
 * the machine does not have, or whose file was not captured, has its bit
 * clear (its field is then -1, never read).  Every value a kernel accepts
 * is representable, negative ratios included.
 */
struct wm_sysctl {
	int64_t min_free_kbytes;		/* KiB */
	int64_t wsf;			/* watermark_scale_factor, 1/10000 */
	int64_t boost_factor;		/* watermark_boost_factor */
	int64_t extra_free_kbytes;		/* KiB, Android only */
	int64_t lrr[WM_MAX_ZONES];		/* lowmem_reserve_ratio */
	int nlrr;			/* entries in lrr (0 without WM_HAVE_LRR) */
	unsigned have;			/* WM_HAVE_* bits */
};

/* An empty set: no field has a value. */
void wm_sysctl_none(struct wm_sysctl *s);

/*
 * Fill *s with the defaults of kernel profile p, for every knob the
 * kernel has (extra_free_kbytes 0 on Android kernels that have it);
 * min_free_kbytes, computed at boot (wm_boot_min_free_kbytes), is left
 * without a value.
 */
void wm_sysctl_defaults(const struct wm_profile *p, int nzones_per_node,
			const enum wm_zone_type *types, struct wm_sysctl *s);

/* Everything a computation needs about the machine besides the sysctls. */
struct wm_machine {
	struct wm_zone *zones;		/* node-major, idx-ascending */
	size_t nzones;
	unsigned page_size;		/* bytes, 4096 unless known otherwise */
	uint64_t pageblock_pages;	/* 512 on x86-64 with 4 KiB pages */
	uint64_t vm_total_pages;	/* Android extra_free divisor; 0 = sum of managed */
	bool movable_highmem;		/* Movable counts as highmem whatever the zones
					 * listed say (a stand-in machine that lists none
					 * of its HighMem); false: the zones decide */
};

/* ---- results --------------------------------------------------------- */

struct wm_zone_wm {
	uint64_t prop;	/* pages; proportional share of pages_min */
	uint64_t min;	/* pages; raw _watermark[] (boost not included) */
	uint64_t low;
	uint64_t high;
	uint64_t promo;	/* 0 where the kernel has no promo */
	uint64_t gap;	/* pages; the min->low step */
	uint64_t extra;	/* pages; Android extra_free share (0 if none) */
	uint64_t high_sqrt;/* pages; high under the 2018 RFC formula */
	uint64_t gap_sqrt;	/* pages; low->high step under the RFC */
	int64_t protection[WM_MAX_ZONES];	/* pages; lowmem_reserve[] */
	int64_t wsf_floor;		/* smallest wsf whose term beats prop/4; -1 never */
	int64_t wsf_effective;	/* the largest wsf whose term is <= the gap; -1 never */
};

/*
 * Compute every zone's watermarks the way __setup_per_zone_wmarks() of
 * profile p does, with min_free_kbytes s->min_free_kbytes (must be >= 0),
 * plus the RFC high and the wsf floor.  out has m->nzones entries.
 * Protection is left alone (see wm_protection).
 * Return WM_OK, WM_EINVAL (mfk < 0, wsf out of range, m's page size
 * unknown) or WM_ENOZONE.
 */
int wm_setup_wmarks(const struct wm_profile *p, const struct wm_machine *m,
		    const struct wm_sysctl *s, struct wm_zone_wm *out,
		    struct wm_diag *diag);

/*
 * Fill out[i].protection for every zone the way
 * setup_per_zone_lowmem_reserve() of profile p does with ratios s->lrr.
 * Zones of a node must be listed with consecutive idx from 0.
 */
int wm_protection(const struct wm_profile *p, const struct wm_machine *m,
		  const struct wm_sysctl *s, struct wm_zone_wm *out,
		  struct wm_diag *diag);

/* Which rule produced min_free_kbytes. */
enum wm_mfk_rule {
	WM_MFK_SQRT,		/* the boot sqrt rule */
	WM_MFK_SQRT_RERUN,	/* the sqrt rule re-run with THP off (5.16+) */
	WM_MFK_THP,		/* khugepaged's recommendation */
	WM_MFK_USER,		/* a value written by the user */
};
const char *wm_mfk_rule_name(enum wm_mfk_rule r);

enum wm_thp { WM_THP_UNSUPPORTED, WM_THP_NEVER, WM_THP_MADVISE, WM_THP_ALWAYS };

/* One transparent_hugepage/hugepages-<N>kB/enabled control (6.8+). */
enum wm_thp_size { WM_THP_SIZE_ABSENT, WM_THP_SIZE_NEVER, WM_THP_SIZE_INHERIT,
		   WM_THP_SIZE_MADVISE, WM_THP_SIZE_ALWAYS };

/* The THP controls khugepaged reads before it raises min_free_kbytes. */
struct wm_thp_controls {
	enum wm_thp global;		/* transparent_hugepage/enabled */
	enum wm_thp_size pmd;		/* the PMD size's control (2 MiB on 4K pages) */
	unsigned other_on;		/* other anon sizes at always or madvise */
};

/*
 * The THP mode the min_free_kbytes rule sees on a kernel of profile p:
 * THP on (c->global, or WM_THP_MADVISE when only a per-size control is
 * on) when khugepaged runs, WM_THP_NEVER when it does not.  Before 6.11
 * the global control alone decides; 6.11 to 6.x, the PMD size's (6.12
 * hugepage_pmd_enabled(): always or madvise, or inherit with the global
 * one on); from 7.0 any anon size's (7.2 hugepage_enabled(): the global
 * control on, or any size at always or madvise).  Shmem's PMD control,
 * which 7.2 also counts, is not read (Debian's default: never).
 */
enum wm_thp wm_thp_for_mfk(const struct wm_profile *p, const struct wm_thp_controls *c);

/*
 * Whether another per-size control could still change wm_thp_for_mfk()'s
 * answer, once c->global is known and, with pmd_read, the PMD size's
 * control is in c->pmd (c->other_on counting those read after it): none
 * matters before 6.11, only the PMD size's before 7.0, the others only
 * while the global control and the PMD size's are both off.
 */
bool wm_thp_sizes_matter(const struct wm_profile *p, const struct wm_thp_controls *c,
			 bool pmd_read);

/* The boot value of min_free_kbytes and how it came about. */
struct wm_mfk {
	int64_t value;		/* KiB: what the kernel ends up with */
	enum wm_mfk_rule rule;
	int64_t sqrt_kb;		/* KiB: first sqrt pass, clamped */
	int64_t sqrt_raw_kb;	/* KiB: int_sqrt(lowmem_kb * 16) before the clamp */
	int64_t rerun_kb;		/* KiB: second sqrt pass (THP off, 5.16+), or -1 */
	int64_t thp_kb;		/* KiB: THP recommendation after its 5% cap, or -1 */
	int64_t thp_uncapped_kb;	/* KiB: pageblock * zones * 11, or -1 */
	int thp_zones;		/* zones counted by the recommendation */
	uint64_t lowmem_pages;	/* nr_free_buffer_pages() at boot */
};

/*
 * The min_free_kbytes a kernel of profile p computes at boot for machine m
 * with THP mode thp (docs/model.md §2.3).  s supplies wsf and ratios for
 * the intermediate watermarks.  Return WM_OK, WM_ENOZONE, or WM_EINVAL
 * when m's page size is unknown, or its pageblock where THP's rule needs
 * it.
 */
int wm_boot_min_free_kbytes(const struct wm_profile *p,
			    const struct wm_machine *m,
			    const struct wm_sysctl *s, enum wm_thp thp,
			    struct wm_mfk *out, struct wm_diag *diag);

/* ---- arithmetic primitives (exported for tests) ---------------------- */

/* floor(sqrt(x)), exact for every 64-bit x. */
uint64_t wm_int_sqrt(uint64_t x);

/* The kernel's mult_frac(): floor(x * n / d) without overflowing x * n. */
uint64_t wm_mult_frac(uint64_t x, uint64_t n, uint64_t d);

/*
 * floor(a * b / d) for d > 0, with the product a * b taken exactly in 128
 * bits, and (a * b) mod d in *rem unless rem is NULL.  A quotient of 2^64 or
 * more (possible only when a * b >= d * 2^64) comes back as its low 64 bits,
 * as a cast of a 128-bit quotient to uint64_t would give.  Portable C: no
 * __int128, so the same result on 32-bit targets.  Never fails.
 */
uint64_t wm_mul_div(uint64_t a, uint64_t b, uint64_t d, uint64_t *rem);

/*
 * The difference of two readings of an event counter (vmstat, memory.stat,
 * PSI totals): such a counter only grows while the kernel runs, so one
 * that is lower in the later reading was reset (a cgroup removed and made
 * again, a reboot), or the readings are swapped.  Return true and set
 * *delta = after - before when after >= before; return false and set
 * *delta = 0 when the counter went backwards, a difference that means
 * nothing and must not be taken modulo 2^64.  The one rule every caller
 * that subtracts two readings uses (recommend's analysis, its replay and
 * two-file modes, reclaim's per-write measurements).
 */
bool wm_ctr_delta(uint64_t before, uint64_t after, uint64_t *delta);

/* ---- sizes ----------------------------------------------------------- */

/*
 * Parse "8G", "512M", "4096k", "1.5G" or plain bytes ("1073741824") into
 * *bytes.  Suffixes K/M/G/T are powers of 1024, case-insensitive, with an
 * optional trailing "iB"/"B" (no P or E: no zone is that large); blanks
 * before and after are skipped, as wm_parse_long() does.  Return WM_OK or
 * WM_EPARSE/WM_ERANGE.
 */
int wm_parse_size(const char *s, uint64_t *bytes, struct wm_diag *diag);

/* Parse a whole decimal long in [lo, hi]; WM_EPARSE or WM_ERANGE. */
int wm_parse_long(const char *s, int64_t lo, int64_t hi, int64_t *out,
		  struct wm_diag *diag);

#endif /* WMARK_H */
