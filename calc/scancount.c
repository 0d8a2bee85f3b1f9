// SPDX-License-Identifier: MIT
/*
 * scancount.c - get_scan_count() of mm/vmscan.c, per era, for one lruvec
 * at one priority.  Read from: 3.14.1 (per-LRU force scan), 3.16 (the two
 * passes of 6f04f48dc9c0, merged for 3.15), 4.14/4.19 (no force scan; the
 * 4.13 inactive-anon guard on the file-tiny rule), and 6.1.158, 6.12.117
 * and 7.2.13 (prepare_scan_control(), calculate_pressure_balance(),
 * apply_proportional_protection()); see docs/model.md §13.
 *
 * The one subtle point is where 3.15's force scan looks: it tests whether
 * anything is scanned *after* the anon/file fraction, so a list whose
 * size >> priority is non-zero but whose share rounds to 0 still lets the
 * second pass force the lists that were 0 before the fraction.
 *
 * What the kernel keeps and does not export (recent_scanned/rotated
 * before 5.8, anon_cost/file_cost after, refaults) is an input; zero is
 * a reclaimer that has just started.
 */
#include <stdint.h>
#include <string.h>

#include "scancount.h"

#define SWAP_CLUSTER_MAX 32u
#define DEF_PRIORITY 12
#define MAX_SWAPPINESS 200
#define SWAPPINESS_ANON_ONLY 201	/* 6.16+: memory.reclaim swappiness=max */

static const char *const rule_names[WM_NR_RULES] = {
	[WM_RULE_314] = "3.14", [WM_RULE_315] = "3.15", [WM_RULE_412] = "4.12",
	[WM_RULE_413] = "4.13", [WM_RULE_58] = "5.8", [WM_RULE_CURRENT] = "current",
};

const char *wm_scan_rule_name(enum wm_scan_rule rule)
{
	return (unsigned)rule < WM_NR_RULES ? rule_names[rule] : NULL;
}

int wm_scan_rule_parse(const char *s, enum wm_scan_rule *rule)
{
	int i;

	for (i = 0; i < WM_NR_RULES; i++)
		if (strcmp(s, rule_names[i]) == 0) {
			*rule = (enum wm_scan_rule)i;
			return WM_OK;
		}
	return WM_EINVAL;
}

enum wm_scan_rule wm_scan_rule_for(int major, int minor)
{
	int v = major * 1000 + minor;

	if (v <= 3014)
		return WM_RULE_314;
	if (v <= 4011)
		return WM_RULE_315;
	if (v == 4012)
		return WM_RULE_412;
	if (v <= 5007)
		return WM_RULE_413;
	if (v < 5010)
		return WM_RULE_58;
	return WM_RULE_CURRENT;
}

const char *wm_scan_balance_name(enum wm_scan_balance b)
{
	switch (b) {
	case WM_SCAN_EQUAL: return "SCAN_EQUAL";
	case WM_SCAN_FRACT: return "SCAN_FRACT";
	case WM_SCAN_ANON: return "SCAN_ANON";
	case WM_SCAN_FILE: return "SCAN_FILE";
	}
	return "?";
}

int64_t wm_anon_only_margin(uint64_t node_file, uint64_t free, uint64_t high_sum)
{
	return (int64_t)(node_file + free) - (int64_t)high_sum;
}

bool wm_scan_node(const struct zi_info *zi, int node, const uint64_t *high,
		  struct wm_scan_in *in)
{
	bool any = false, lru = false;
	size_t j;
	int l;

	memset(in->lru, 0, sizeof(in->lru));
	in->free = in->high_sum = 0;
	for (j = 0; j < zi->nzones; j++) {
		const struct zi_zone *z = &zi->zones[j];

		if (z->node != node)
			continue;
		any = true;
		lru |= z->has_lru;
		for (l = 0; l < WM_NR_LRU; l++)
			in->lru[l] += z->lru[l];
		in->free += z->free;
		/* managed zones only; kernels before 3.8 print no managed line */
		if (z->managed || !(z->flags & ZI_HAS_MANAGED))
			in->high_sum += high ? high[j] : z->high;
	}
	in->node_file = in->lru[WM_LRU_INACTIVE_FILE] + in->lru[WM_LRU_ACTIVE_FILE];
	in->node_inactive_anon = in->lru[WM_LRU_INACTIVE_ANON];
	return any && lru;
}

static uint64_t isqrt(uint64_t x)
{
	uint64_t r = 0, bit = (uint64_t)1 << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

static unsigned page_shift(unsigned page_size)
{
	unsigned s = 0;

	while (page_size > 1) {
		page_size >>= 1;
		s++;
	}
	return s ? s : 12;
}

/*
 * inactive_is_low() (4.9+ inactive_list_is_low, 5.8+ inactive_is_low):
 * the inactive list should hold 1/sqrt(10 * GiB) of the pair.
 */
static bool inactive_is_low(uint64_t inactive, uint64_t active, unsigned page_size)
{
	uint64_t gb = (inactive + active) >> (30 - page_shift(page_size));
	uint64_t ratio = gb ? isqrt(10 * gb) : 1;

	return (uint64_t)inactive * ratio < active;
}

/* Before 5.8: reclaim_stat's fraction, with its decay (den = ap + fp + 1). */
static void fraction_history(const struct wm_scan_in *in, struct wm_scan_out *out)
{
	uint64_t scanned[2], rotated[2], ap, fp;
	uint64_t total[2] = {
		in->lru[WM_LRU_INACTIVE_ANON] + in->lru[WM_LRU_ACTIVE_ANON],
		in->lru[WM_LRU_INACTIVE_FILE] + in->lru[WM_LRU_ACTIVE_FILE],
	};
	int i;

	for (i = 0; i < 2; i++) {
		scanned[i] = in->recent_scanned[i];
		rotated[i] = in->recent_rotated[i];
		/* the kernel halves the history once it passes a quarter of the lists */
		if (scanned[i] > total[i] / 4) {
			scanned[i] /= 2;
			rotated[i] /= 2;
		}
	}
	ap = (uint64_t)in->swappiness * (scanned[0] + 1) / (rotated[0] + 1);
	fp = (uint64_t)(MAX_SWAPPINESS - in->swappiness) * (scanned[1] + 1) / (rotated[1] + 1);
	out->fraction[0] = (uint64_t)ap;
	out->fraction[1] = (uint64_t)fp;
	out->denominator = (uint64_t)(ap + fp + 1);
}

/* 5.8+: calculate_pressure_balance() (den = ap + fp, no +1). */
static void fraction_cost(const struct wm_scan_in *in, struct wm_scan_out *out)
{
	uint64_t total = (uint64_t)in->anon_cost + in->file_cost;
	uint64_t a = total + in->anon_cost, f = total + in->file_cost;
	uint64_t ap, fp;

	total = a + f;
	ap = (uint64_t)in->swappiness * (total + 1) / (a + 1);
	fp = (uint64_t)(MAX_SWAPPINESS - in->swappiness) * (total + 1) / (f + 1);
	out->fraction[0] = (uint64_t)ap;
	out->fraction[1] = (uint64_t)fp;
	out->denominator = (uint64_t)(ap + fp);
}

/* The balance decision, in the kernel's order for the era. */
static void decide(enum wm_scan_rule rule, const struct wm_scan_in *in, int prio,
		   struct wm_scan_out *out)
{
	const uint64_t *lru = in->have_target ? in->target_lru : in->lru;
	bool cost = rule >= WM_RULE_58;
	bool tiny_line = !in->memcg && in->node_file + in->free <= in->high_sum;

	out->balance = WM_SCAN_FILE;
	if (!in->swap) {
		out->why = WM_WHY_NO_SWAP;
		return;
	}
	if (in->memcg && in->swappiness == 0) {
		out->why = WM_WHY_MEMCG_SWAPPINESS0;
		return;
	}
	if (in->swappiness == SWAPPINESS_ANON_ONLY) {
		out->balance = WM_SCAN_ANON;
		out->why = WM_WHY_ANON_ONLY_ARG;
		return;
	}
	if (prio == 0 && in->swappiness) {
		out->balance = WM_SCAN_EQUAL;
		out->why = WM_WHY_PRIORITY0;
		return;
	}
	if (tiny_line) {
		bool fires;

		if (rule <= WM_RULE_412) {
			fires = true;
		} else if (!cost) {
			/* 4.13 (Rientjes): only while inactive anon is not low and scans */
			fires = !inactive_is_low(lru[WM_LRU_INACTIVE_ANON], lru[WM_LRU_ACTIVE_ANON],
						 in->page_size) &&
				(lru[WM_LRU_INACTIVE_ANON] >> prio) != 0;
		} else {
			/* 5.8+ prepare_scan_control(): file_is_tiny */
			bool deact_anon = in->refault_anon ||
					  inactive_is_low(lru[WM_LRU_INACTIVE_ANON],
							  lru[WM_LRU_ACTIVE_ANON], in->page_size);

			fires = !deact_anon && (in->node_inactive_anon >> prio) != 0;
		}
		if (fires) {
			out->balance = WM_SCAN_ANON;
			out->why = WM_WHY_FILE_TINY;
			return;
		}
		out->tiny_guarded = true;
	}
	if (rule <= WM_RULE_315) {
		/* inactive_file_is_low(): active > inactive */
		if (!(lru[WM_LRU_ACTIVE_FILE] > lru[WM_LRU_INACTIVE_FILE])) {
			out->why = WM_WHY_INACTIVE_FILE_OK;
			return;
		}
	} else {
		/* 4.12-5.7 "!inactive_list_is_low(file) && inactive >> p";
		 * 5.8+ cache_trim_mode, where refaults also deactivate */
		bool low = inactive_is_low(lru[WM_LRU_INACTIVE_FILE], lru[WM_LRU_ACTIVE_FILE],
					   in->page_size) || (cost && in->refault_file);

		if (!low && (lru[WM_LRU_INACTIVE_FILE] >> prio) != 0) {
			out->why = WM_WHY_INACTIVE_FILE_OK;
			return;
		}
	}
	out->balance = WM_SCAN_FRACT;
	out->why = WM_WHY_FRACTION;
	if (cost)
		fraction_cost(in, out);
	else
		fraction_history(in, out);
}

/* 5.8+ apply_proportional_protection(): a protected cgroup below the target. */
static uint64_t protect(enum wm_scan_rule rule, const struct wm_scan_in *in, uint64_t size)
{
	uint64_t protection, usage;

	if (rule < WM_RULE_58 || (!in->prot_min && !in->prot_low))
		return size;
	if (!in->memcg_low_reclaim && in->prot_low > in->prot_min)
		protection = in->prot_low;
	else
		protection = in->prot_min;
	usage = in->usage > protection ? in->usage : protection;
	/* 5.8.18 divides by the cgroup size; 5.10.89 to 7.2.13 by usage + 1 */
	if (rule == WM_RULE_58)
		size -= usage ? size * protection / usage : 0;
	else
		size -= size * protection / (usage + 1);
	return size > SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
}

/* One pass of the per-LRU loop; returns whether any list scans. */
static bool lru_pass(enum wm_scan_rule rule, const struct wm_scan_in *in, int prio,
		     bool force, struct wm_scan_out *out)
{
	bool some = false;
	int l;

	for (l = 0; l < WM_NR_LRU; l++) {
		bool file = l >= WM_LRU_INACTIVE_FILE;
		uint64_t size = in->lru[l];
		uint64_t scan = protect(rule, in, size) >> prio;
		uint64_t small = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
		bool ceil = false;

		if (scan == 0 && force) {
			scan = small;
			out->forced = true;
		}
		if (rule >= WM_RULE_412 && scan == 0 && in->offline)
			scan = small;
		switch (out->balance) {
		case WM_SCAN_EQUAL:
			break;
		case WM_SCAN_FRACT:
			/* 4.13 row: later 4.x/5.x online floor, offline ceiling */
			ceil = rule >= WM_RULE_413 && in->offline;
			scan = scan * out->fraction[file];
			scan = ceil ? (scan + out->denominator - 1) / out->denominator
				    : scan / out->denominator;
			break;
		case WM_SCAN_FILE:
		case WM_SCAN_ANON:
			if ((out->balance == WM_SCAN_FILE) != file)
				scan = 0;
			break;
		}
		out->nr[l] = (uint64_t)scan;
		some |= scan != 0;
	}
	return some;
}

int wm_scan_count(enum wm_scan_rule rule, const struct wm_scan_in *in, int priority,
		  struct wm_scan_out *out, struct wm_diag *diag)
{
	const uint64_t *dl;

	memset(out, 0, sizeof(*out));
	if ((unsigned)rule >= WM_NR_RULES)
		return wm_fail(diag, WM_EINVAL, 0, "rule", "no such rule");
	if (priority < 0 || priority > DEF_PRIORITY)
		return wm_fail(diag, WM_EINVAL, 0, "priority",
			       "priority %d is outside 0..12", priority);
	if (in->swappiness < 0 || in->swappiness > SWAPPINESS_ANON_ONLY ||
	    (in->swappiness == SWAPPINESS_ANON_ONLY && rule != WM_RULE_CURRENT))
		return wm_fail(diag, WM_EINVAL, 0, "swappiness",
			       "swappiness %d is outside 0..200%s", in->swappiness,
			       rule == WM_RULE_CURRENT ? " (or 201, 'max')" : "");
	decide(rule, in, priority, out);
	dl = in->have_target ? in->target_lru : in->lru;
	if (rule <= WM_RULE_315) {
		/* 3.x: file by active > inactive; anon by the sqrt ratio (of the zone
		 * there, of the lists here) and only with swap */
		out->deactivate[1] = dl[WM_LRU_ACTIVE_FILE] > dl[WM_LRU_INACTIVE_FILE];
	} else {
		out->deactivate[1] = inactive_is_low(dl[WM_LRU_INACTIVE_FILE],
						     dl[WM_LRU_ACTIVE_FILE], in->page_size) ||
				     (rule >= WM_RULE_58 && in->refault_file);
	}
	out->deactivate[0] = in->swap &&
			     (inactive_is_low(dl[WM_LRU_INACTIVE_ANON],
					      dl[WM_LRU_ACTIVE_ANON], in->page_size) ||
			      (rule >= WM_RULE_58 && in->refault_anon));
	/*
	 * 5.8+ (mem_cgroup_protected(), 6.x mem_cgroup_below_min/low() in
	 * shrink_node_memcgs()): a protected cgroup at or below its protection
	 * is passed over before get_scan_count() is asked at all
	 */
	if (rule >= WM_RULE_58 && (in->prot_min || in->prot_low)) {
		bool low = !in->memcg_low_reclaim && in->prot_low >= in->usage;

		if (in->prot_min >= in->usage || low) {
			out->why = in->prot_min >= in->usage ? WM_WHY_BELOW_MIN : WM_WHY_BELOW_LOW;
			return WM_OK;
		}
	}
	switch (rule) {
	case WM_RULE_314:
		/* memcg reclaim always forces (kswapd on an unreclaimable zone too) */
		lru_pass(rule, in, priority, in->memcg || in->offline, out);
		break;
	case WM_RULE_315:
		if (!lru_pass(rule, in, priority, false, out) && (in->memcg || in->offline)) {
			out->forced = false;
			lru_pass(rule, in, priority, true, out);
		}
		break;
	default:
		lru_pass(rule, in, priority, false, out);
		break;
	}
	return WM_OK;
}
