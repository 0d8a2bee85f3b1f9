// SPDX-License-Identifier: MIT
/*
 * recommend.c - watermark_scale_factor values with their reasons.
 *
 * Every answer is a search over wsf with wm_setup_wmarks(), i.e. the
 * kernel's own integer arithmetic of __setup_per_zone_wmarks() (4.6+,
 * docs/model.md §3), so floors and truncations come out exactly
 * as the kernel has them.  The gap max(prop/4, managed*wsf/10000) only
 * grows with wsf, which is what makes a bisection valid.
 *
 * The subtle point of the extra_free_kbytes mode: Android's patch (4.x
 * common kernels up to android11-5.4) added extra = K_pages * managed /
 * vm_total_pages to LOW and HIGH, while AOSP's init/extra_free_kbytes.sh,
 * which replaces it on later kernels, converts K into a wsf with a
 * closed form, shell integer division, and a `grep "min"` that on 6.13+
 * also catches the per-cpu "high_min:" lines of /proc/zoneinfo.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "recommend.h"
#include "zoneinfo.h"

/* ---- zones an allocation can use -------------------------------------- */

int wm_rec_class_idx(const struct wm_machine *m)
{
	int top = -1, movable = -1;
	size_t i;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];

		if (z->type == WM_ZONE_MOVABLE && z->idx > movable)
			movable = z->idx;
		if (z->type != WM_ZONE_DEVICE && z->idx > top)
			top = z->idx;
	}
	return movable >= 0 ? movable : top;
}

size_t wm_rec_usable(const struct wm_machine *m, const struct wm_zone_wm *wm,
		     int class_idx, bool *usable)
{
	size_t i, n = 0;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];
		int64_t prot = class_idx >= 0 && class_idx < WM_MAX_ZONES ?
			    wm[i].protection[class_idx] : 0;

		/*
		 * A zone whose lowmem_reserve for this allocation exceeds
		 * its size never serves it (DMA on most x86-64 machines).
		 */
		usable[i] = z->managed > 0 && z->idx <= class_idx &&
			    (prot < 0 || (uint64_t)prot < z->managed);
		n += usable[i];
	}
	return n;
}

/* ---- a wsf for a gap -------------------------------------------------- */

/* The model at wsf under profile p (whose wsf_max may be raised). */
static int model_at(const struct wm_rec_input *in, const struct wm_profile *p,
		    int64_t wsf, int64_t extra_kb, struct wm_zone_wm *w,
		    struct wm_diag *diag)
{
	struct wm_sysctl s = *in->now;

	s.wsf = wsf;
	s.extra_free_kbytes = extra_kb;
	return wm_setup_wmarks(p, in->m, &s, w, diag);
}

static uint64_t gap_sum(const struct wm_machine *m,
			     const struct wm_zone_wm *w, const bool *usable)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->nzones; i++)
		if (!usable || usable[i])
			sum += w[i].gap;
	return sum;
}

/* A profile like in->prof that lets the search look past the kernel's cap. */
static void search_profile(const struct wm_rec_input *in, struct wm_profile *p)
{
	*p = *in->prof;
	if (p->wsf_max < WM_REC_WSF_CEILING)
		p->wsf_max = WM_REC_WSF_CEILING;
}

static int check_input(const struct wm_rec_input *in, struct wm_diag *diag)
{
	if (!in->m->nzones)
		return wm_fail(diag, WM_ENOZONE, 0, NULL, "no zones to compute");
	if (!in->prof->wsf)
		return wm_fail(diag, WM_EINVAL, 0, "watermark_scale_factor",
			       "kernel %u.%u has no watermark_scale_factor (4.6+)",
			       in->prof->kver.major, in->prof->kver.minor);
	if (in->now->min_free_kbytes < 0)
		return wm_fail(diag, WM_EINVAL, 0, "min_free_kbytes", "not known");
	return WM_OK;
}

/* Fill the gap and floor fields of ans for the answer ans->wsf. */
static int finish_answer(const struct wm_rec_input *in, const struct wm_profile *p,
			 const bool *usable, int64_t extra_kb, struct wm_zone_wm *w,
			 struct wm_rec_answer *ans, struct wm_diag *diag)
{
	size_t i;
	int rc;

	if ((rc = model_at(in, p, in->now->wsf >= 1 ? in->now->wsf : 10, extra_kb, w, diag)))
		return rc;
	ans->gap_now = gap_sum(in->m, w, usable);
	if ((rc = model_at(in, p, 1, extra_kb, w, diag)))
		return rc;
	ans->gap_floor = gap_sum(in->m, w, usable);
	ans->floor_first = -1;
	ans->floor_all = -1;
	for (i = 0; i < in->m->nzones; i++) {
		int64_t f = w[i].wsf_floor;

		if ((usable && !usable[i]) || !in->m->zones[i].managed || f < 0)
			continue;
		if (ans->floor_first < 0 || f < ans->floor_first)
			ans->floor_first = f;
		if (f > ans->floor_all)
			ans->floor_all = f;
	}
	if ((rc = model_at(in, p, ans->wsf, extra_kb, w, diag)))
		return rc;
	ans->gap_after = gap_sum(in->m, w, usable);
	return WM_OK;
}

/* Place wanted (-1: unreachable) within the kernel's range. */
static void cap_answer(const struct wm_rec_input *in, int64_t wanted,
		       struct wm_rec_answer *ans)
{
	ans->wanted = wanted;
	ans->capped = wanted < 0 || wanted > in->prof->wsf_max;
	ans->wsf = ans->capped ? in->prof->wsf_max : wanted;
}

int wm_rec_for_gap(const struct wm_rec_input *in, const bool *usable,
		   uint64_t need, struct wm_rec_answer *ans,
		   struct wm_diag *diag)
{
	struct wm_profile p;
	struct wm_zone_wm *w;
	int64_t lo = 1, hi = WM_REC_WSF_CEILING, wanted = -1;
	int rc;

	memset(ans, 0, sizeof(*ans));
	if ((rc = check_input(in, diag)))
		return rc;
	search_profile(in, &p);
	w = calloc(in->m->nzones, sizeof(*w));
	if (!w)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");

	/* The smallest wsf in [lo, hi] whose summed gap reaches need. */
	while (lo <= hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if ((rc = model_at(in, &p, mid, in->now->extra_free_kbytes, w, diag)))
			goto out;
		if (gap_sum(in->m, w, usable) >= need) {
			wanted = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	cap_answer(in, wanted, ans);
	ans->gap_needed = need;
	rc = finish_answer(in, &p, usable, in->now->extra_free_kbytes, w, ans, diag);
out:
	free(w);
	return rc;
}

/* ---- Android extra_free_kbytes ---------------------------------------- */

/*
 * __setup_per_zone_wmarks() gives a zone watermarks from its own counts
 * and two sums over the others: lowmem_pages (every zone but HighMem and,
 * from 6.6 or where is_highmem() counts it, Movable: mhm, from
 * wm_movable_highmem(p, m)) and, for the extra_free share,
 * vm_total_pages.  So the machine {zone i, one Normal zone holding the
 * rest of lowmem} with m's vm_total_pages and mhm gives zone i what m
 * gives it.  On that pair a step
 * of zone i's search costs two zones, not all of them: the search over
 * every zone is linear in zones, not quadratic.  False when the rest
 * does not fit an unsigned long (a 32-bit build): then m itself is used.
 */
static bool stand_in(const struct wm_profile *p, const struct wm_machine *m,
		     bool mhm, size_t i, uint64_t lowmem, uint64_t total,
		     struct wm_zone pair[2], struct wm_machine *out)
{
	const struct wm_zone *z = &m->zones[i];
	uint64_t rest = lowmem - (wm_zone_capped(p, mhm, z->type) ? 0 : z->managed);

	if (rest > UINT64_MAX || total > UINT64_MAX)
		return false;
	pair[0] = *z;
	memset(&pair[1], 0, sizeof(pair[1]));
	pair[1].node = z->node;
	pair[1].idx = z->idx + 1;
	pair[1].type = WM_ZONE_NORMAL;
	pair[1].managed = pair[1].present = (uint64_t)rest;
	*out = *m;
	out->zones = pair;
	out->nzones = 2;
	out->vm_total_pages = (uint64_t)total;
	out->movable_highmem = mhm;	/* the pair lists no HighMem zone */
	return true;
}

int wm_rec_extra_free(const struct wm_rec_input *in, int64_t extra_kb,
		      struct wm_rec_efk_zone *zones, struct wm_rec_answer *ans,
		      struct wm_diag *diag)
{
	struct wm_profile p;
	struct wm_zone_wm *w;
	size_t i, n = in->m->nzones;
	uint64_t lowmem = 0, total = in->m->vm_total_pages;
	bool mhm;
	int64_t wanted = 1;
	int rc;

	memset(ans, 0, sizeof(*ans));
	if ((rc = check_input(in, diag)))
		return rc;
	if (extra_kb < 0)
		return wm_fail(diag, WM_EINVAL, 0, "extra_free_kbytes",
			       "%" PRId64 " is outside 0..2147483647", extra_kb);
	search_profile(in, &p);
	mhm = wm_movable_highmem(&p, in->m);
	w = calloc(n > 2 ? n : 2, sizeof(*w));	/* the pair needs two */
	if (!w)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");

	/* The target: today's wsf plus the patch's share of K. */
	if ((rc = model_at(in, &p, in->now->wsf, extra_kb, w, diag)))
		goto out;
	for (i = 0; i < n; i++) {
		zones[i].extra = w[i].extra;
		zones[i].target_low = w[i].low;
		zones[i].need_wsf = -1;
		ans->gap_needed += w[i].low - w[i].min;
		if (!wm_zone_capped(&p, mhm, in->m->zones[i].type))
			lowmem += in->m->zones[i].managed;
		if (!in->m->vm_total_pages)
			total += in->m->zones[i].managed;
	}

	/* Per zone, the smallest wsf reaching its target (no extra share). */
	for (i = 0; i < n; i++) {
		struct wm_zone pair[2];
		struct wm_machine one;
		struct wm_rec_input in1 = *in;
		size_t k = i;
		int64_t lo = 1, hi = WM_REC_WSF_CEILING;

		if (stand_in(&p, in->m, mhm, i, lowmem, total, pair, &one)) {
			in1.m = &one;
			k = 0;
		}
		while (lo <= hi) {
			int64_t mid = lo + (hi - lo) / 2;

			if ((rc = model_at(&in1, &p, mid, 0, w, diag)))
				goto out;
			if (w[k].low >= zones[i].target_low) {
				zones[i].need_wsf = mid;
				hi = mid - 1;
			} else {
				lo = mid + 1;
			}
		}
		if (zones[i].need_wsf < 0)
			wanted = -1;
		else if (wanted >= 0 && zones[i].need_wsf > wanted)
			wanted = zones[i].need_wsf;
	}
	cap_answer(in, wanted, ans);
	if ((rc = finish_answer(in, &p, NULL, 0, w, ans, diag)))
		goto out;
	/* finish_answer left the model at ans->wsf in w */
	for (i = 0; i < n; i++)
		zones[i].low_at = w[i].low;
out:
	free(w);
	return rc;
}

/* ---- the AOSP script -------------------------------------------------- */

/*
 * awk '{print $2}' of one line: the second blank-separated word, copied
 * into out; false when the line has fewer than two words (awk prints an
 * empty line, which the shell's word splitting then drops).
 */
static bool second_word(const char *line, size_t len, char *out, size_t n)
{
	size_t i = 0, start, k;
	int word;

	for (word = 1; word <= 2; word++) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i >= len)
			return false;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (word == 2) {
			k = i - start < n - 1 ? i - start : n - 1;
			memcpy(out, line + start, k);
			out[k] = '\0';
		}
	}
	return true;
}

static bool has_substr(const char *s, size_t len, const char *pat)
{
	size_t m = strlen(pat), i;

	for (i = 0; i + m <= len; i++)
		if (!memcmp(s + i, pat, m))
			return true;
	return false;
}

/*
 * The shell's view of a word in $(( )): a decimal number is its value;
 * anything else here names an unset variable, which is 0.
 */
static int64_t shell_num(const char *w)
{
	char *end;
	int64_t v = strtoll(w, &end, 10);

	return (end != w && !*end) ? v : 0;
}

/* The script's per-zone step; -1 where bc divides by zero. */
static int64_t script_zone(int64_t managed, int64_t min, int64_t base_wsf, int64_t delta,
			struct wm_rec_script_zone *z)
{
	int64_t base = min / 4;
	int64_t calc = (int64_t)wm_mult_frac((uint64_t)managed, (uint64_t)base_wsf, 10000);

	if (z) {
		z->base_margin = base;
		z->calc_margin = calc;
		z->branch = calc > base ? 'A' : 'B';
		z->div_zero = false;
	}
	if (calc > base)
		return base_wsf + delta;
	/* bc, scale 0: managed/10000 is truncated before it divides */
	if (managed / 10000 == 0) {
		if (z)
			z->div_zero = true;
		return -1;
	}
	return base / (managed / 10000) + delta;
}

int wm_rec_script(const char *zoneinfo, size_t len, const int64_t *true_min,
		  size_t ntrue, int64_t base_wsf, int64_t extra_kb, unsigned page_size,
		  struct wm_rec_script *out, struct wm_diag *diag)
{
	const int64_t cap = (int64_t)(ZI_MAX_PAGES < INT64_MAX ? ZI_MAX_PAGES : INT64_MAX);
	int64_t managed[WM_REC_SCRIPT_MAX], mins[WM_REC_SCRIPT_MAX];
	size_t nm = 0, nmin = 0, i;
	const char *p = zoneinfo, *end = zoneinfo + len;
	char word[32];

	memset(out, 0, sizeof(*out));
	if (page_size < 1024)
		return wm_fail(diag, WM_EINVAL, 0, NULL, "page size %u is under 1 KiB", page_size);

	/* grep managed | awk '{print $2}'; grep "min" | awk '{print $2}' */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (has_substr(p, l, "managed") && second_word(p, l, word, sizeof(word))) {
			if (nm < WM_REC_SCRIPT_MAX)
				managed[nm] = shell_num(word);
			nm++;
		}
		if (has_substr(p, l, "min") && second_word(p, l, word, sizeof(word))) {
			if (nmin < WM_REC_SCRIPT_MAX)
				mins[nmin] = shell_num(word);
			nmin++;
		}
		p += l + 1;
	}
	if (!nm)
		return wm_fail(diag, WM_EINVAL, 0, "managed", "zoneinfo has no managed line");
	if (nm > WM_REC_SCRIPT_MAX)
		return wm_fail(diag, WM_ERANGE, 0, "managed", "more than %d zones",
			       WM_REC_SCRIPT_MAX);

	out->base_wsf = base_wsf;
	out->extra_pages = extra_kb / (int64_t)(page_size / 1024);
	out->nzones = nm;
	out->nmin = nmin;
	for (i = 0; i < nm; i++) {
		/* 64 words of at most 2^52 each: on 64 bits the sum always fits */
		if (managed[i] > cap || managed[i] < -cap ||
		    (managed[i] > 0 && out->vm_total > INT64_MAX - managed[i]) ||
		    (managed[i] < 0 && out->vm_total < INT64_MIN - managed[i]))
			return wm_fail(diag, WM_ERANGE, 0, "managed",
				       "managed %" PRId64 " is not a page count (more than 2^52)",
				       managed[i]);
		out->vm_total += managed[i];
	}
	if (out->vm_total <= 0)
		return wm_fail(diag, WM_EINVAL, 0, "managed", "the managed pages sum to 0");
	/* bc -l: x = extra / (total / 10000) + 0.5, truncated: round half up */
	out->delta = (int64_t)(((uint64_t)out->extra_pages * 20000 + (uint64_t)out->vm_total) /
			    (2 * (uint64_t)out->vm_total));

	for (i = 0; i < nm; i++) {
		struct wm_rec_script_zone *z = &out->z[i];
		/* an element past the end of min[] is unset: 0 in $(( )) */
		int64_t mr = i < nmin && i < WM_REC_SCRIPT_MAX ? mins[i] : 0;
		int64_t mt = i < ntrue && true_min ? true_min[i] : mr;

		z->managed = managed[i];
		z->min_read = i < nmin ? mr : -1;
		z->min_true = i < ntrue && true_min ? true_min[i] : -1;
		z->result = z->result_true = -1;
		if (z->min_true >= 0 && z->min_read != z->min_true)
			out->misread = true;
		if (managed[i] == 0) {
			z->branch = '-';
			continue;
		}
		z->result = script_zone(managed[i], mr, base_wsf, out->delta, z);
		z->result_true = script_zone(managed[i], mt, base_wsf, out->delta, NULL);
		/* `[ $max -lt $new ]` fails on bc's empty output: zone left out */
		if (z->result > out->result)
			out->result = z->result;
		if (z->result_true > out->result_true)
			out->result_true = z->result_true;
	}
	return WM_OK;
}

/* ---- measured reclaim activity ---------------------------------------- */

#define ZONE_SUFFIXES "dma dma32 normal high movable device"

const struct wm_rec_ctr_desc wm_rec_ctrs[WM_REC_NCTR] = {
	[WM_REC_PGALLOC] = { "pgalloc", "*", "pgalloc", "pages allocated", false },
	[WM_REC_PGFREE] = { "pgfree", NULL, "pgfree", "pages freed", false },
	[WM_REC_ALLOCSTALL] = { "allocstall", ZONE_SUFFIXES, "allocstall",
				"allocation stalls (direct reclaim entries)", false },
	[WM_REC_PGSCAN_DIRECT] = { "pgscan_direct", ZONE_SUFFIXES, "pgscan_direct",
				   "pages scanned by direct reclaim", false },
	[WM_REC_PGSTEAL_DIRECT] = { "pgsteal_direct", ZONE_SUFFIXES, "pgsteal_direct",
				    "pages reclaimed by direct reclaim", false },
	[WM_REC_PGSCAN_KSWAPD] = { "pgscan_kswapd", ZONE_SUFFIXES, "pgscan_kswapd",
				   "pages scanned by kswapd", false },
	[WM_REC_PGSTEAL_KSWAPD] = { "pgsteal_kswapd", ZONE_SUFFIXES, "pgsteal_kswapd",
				    "pages reclaimed by kswapd", false },
	[WM_REC_KSWAPD_LOW_HQ] = { "kswapd_low_wmark_hit_quickly", NULL,
				   "kswapd_low_wmark_hit_quickly",
				   "kswapd found low met when it went to sleep", false },
	[WM_REC_KSWAPD_HIGH_HQ] = { "kswapd_high_wmark_hit_quickly", NULL,
				    "kswapd_high_wmark_hit_quickly",
				    "kswapd found high met when it went to sleep", false },
	[WM_REC_PAGEOUTRUN] = { "pageoutrun", NULL, "pageoutrun",
				"kswapd balancing passes", false },
	[WM_REC_REFAULT] = { "workingset_refault", "anon file", "workingset_refault",
			     "refaults of recently evicted pages", false },
	[WM_REC_ACTIVATE] = { "workingset_activate", "anon file", "workingset_activate",
			      "refaults of working-set pages", false },
	[WM_REC_COMPACT_STALL] = { "compact_stall", NULL, "compact_stall",
				   "direct compaction stalls", false },
	[WM_REC_FALLBACK] = { NULL, NULL, "pageblock_fallbacks",
			      "allocations that fell back to another migratetype", false },
	[WM_REC_NR_FREE] = { "nr_free_pages", NULL, "nr_free_pages_lowest",
			     "lowest free pages seen", true },
};

/* Does key belong to counter d: the key itself or key_<suffix>? */
static bool ctr_match(const struct wm_rec_ctr_desc *d, const char *key)
{
	size_t kl;
	const char *suf, *s;

	if (!d->key)
		return false;
	kl = strlen(d->key);
	if (strncmp(key, d->key, kl))
		return false;
	if (!key[kl])
		return true;
	if (key[kl] != '_' || !d->suffixes)
		return false;
	suf = key + kl + 1;
	if (!strcmp(d->suffixes, "*"))
		return *suf != '\0';
	for (s = d->suffixes; *s;) {
		size_t n = strcspn(s, " ");

		if (strlen(suf) == n && !strncmp(suf, s, n))
			return true;
		s += n;
		s += strspn(s, " ");
	}
	return false;
}

void wm_rec_sample_vmstat(const struct pf_kv *vmstat, struct wm_rec_sample *s)
{
	size_t i;
	int c;

	memset(s->c, 0, sizeof(s->c));
	s->have = 0;
	for (i = 0; i < vmstat->n; i++)
		for (c = 0; c < WM_REC_NCTR; c++)
			if (ctr_match(&wm_rec_ctrs[c], vmstat->items[i].key)) {
				s->c[c] += vmstat->items[i].value;
				s->have |= 1u << c;
			}
}

static uint64_t delta(const struct wm_rec_sample *a, const struct wm_rec_sample *b, int c)
{
	uint64_t d;

	/* wm_rec_analyze() refused counters that went backwards */
	wm_ctr_delta(a->c[c], b->c[c], &d);
	return d;
}

int wm_rec_backwards(const struct wm_rec_sample *a, const struct wm_rec_sample *b)
{
	uint64_t d;
	int c;

	for (c = 0; c < WM_REC_NCTR; c++)
		if (!wm_rec_ctrs[c].level && (a->have & b->have & (1u << c)) &&
		    !wm_ctr_delta(a->c[c], b->c[c], &d))
			return c;
	if (a->psi && b->psi && (!wm_ctr_delta(a->psi_some, b->psi_some, &d) ||
				 !wm_ctr_delta(a->psi_full, b->psi_full, &d)))
		return WM_REC_NCTR;
	return -1;
}

static bool direct_in(const struct wm_rec_sample *a, const struct wm_rec_sample *b)
{
	return delta(a, b, WM_REC_ALLOCSTALL) > 0 || delta(a, b, WM_REC_PGSCAN_DIRECT) > 0;
}

/* Largest sum of pgalloc - pgsteal_kswapd over consecutive intervals in [i0, i1]. */
static uint64_t drawdown(const struct wm_rec_sample *s, size_t i0, size_t i1)
{
	int64_t run = 0, best = 0;
	size_t i;

	for (i = i0; i <= i1; i++) {
		int64_t x = (int64_t)delta(&s[i - 1], &s[i], WM_REC_PGALLOC) -
			    (int64_t)delta(&s[i - 1], &s[i], WM_REC_PGSTEAL_KSWAPD);

		run = run + x > 0 ? run + x : 0;
		if (run > best)
			best = run;
	}
	return (uint64_t)best;
}

/* Fill b from intervals i0..i1 (interval i runs from s[i-1] to s[i]). */
static void burst_of(const struct wm_rec_sample *s, size_t i0, size_t i1,
		     struct wm_rec_burst *b)
{
	size_t i;
	double dt;

	memset(b, 0, sizeof(*b));
	b->start = s[i0 - 1].t - s[0].t;
	b->seconds = s[i1].t - s[i0 - 1].t;
	for (i = i0; i <= i1; i++) {
		const struct wm_rec_sample *a = &s[i - 1], *c = &s[i];

		b->alloc += delta(a, c, WM_REC_PGALLOC);
		b->kswapd_steal += delta(a, c, WM_REC_PGSTEAL_KSWAPD);
		b->direct_steal += delta(a, c, WM_REC_PGSTEAL_DIRECT);
		b->direct_scan += delta(a, c, WM_REC_PGSCAN_DIRECT);
		b->stalls += delta(a, c, WM_REC_ALLOCSTALL);
		dt = c->t - a->t;
		if ((double)delta(a, c, WM_REC_PGALLOC) / dt > b->peak_alloc_rate)
			b->peak_alloc_rate = (double)delta(a, c, WM_REC_PGALLOC) / dt;
	}
	b->kswapd_rate = b->seconds > 0 ? (double)b->kswapd_steal / b->seconds : 0;
	b->deficit = b->direct_steal;
	b->drawdown = drawdown(s, i0, i1);
}

int wm_rec_analyze(const struct wm_rec_sample *s, size_t n,
		   struct wm_rec_measure *out, struct wm_diag *diag)
{
	const struct wm_rec_sample *first = &s[0], *last = &s[n - 1];
	size_t i, run0 = 0, prev = 0, k0 = 0;
	int c;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return wm_fail(diag, WM_EINVAL, 0, NULL, "need two samples or more");
	for (i = 1; i < n; i++)
		if (!(s[i].t > s[i - 1].t))
			return wm_fail(diag, WM_EINVAL, 0, NULL,
				       "sample %zu is not later than the one before", i);
	for (i = 1; i < n; i++) {
		int k = wm_rec_backwards(&s[i - 1], &s[i]);

		if (k >= 0)
			return wm_fail(diag, WM_ERANGE, 0,
				       k < WM_REC_NCTR ? wm_rec_ctrs[k].json : "psi",
				       "sample %zu: the counter went backwards since the one before", i);
	}
	out->nsamples = n;
	out->seconds = last->t - first->t;
	out->have = first->have & last->have;
	out->time_resolved = n > 2;
	for (c = 0; c < WM_REC_NCTR; c++) {
		if (!wm_rec_ctrs[c].level) {
			out->d[c] = delta(first, last, c);
			continue;
		}
		out->d[c] = first->c[c];
		for (i = 1; i < n; i++)
			if (s[i].c[c] < out->d[c])
				out->d[c] = s[i].c[c];
	}
	if (first->psi && last->psi) {
		out->psi = true;
		wm_ctr_delta(first->psi_some, last->psi_some, &out->psi_some_us);
		wm_ctr_delta(first->psi_full, last->psi_full, &out->psi_full_us);
	}

	for (i = 1; i < n; i++) {
		double dt = s[i].t - s[i - 1].t;
		double rate = (double)delta(&s[i - 1], &s[i], WM_REC_PGALLOC) / dt;
		bool direct = direct_in(&s[i - 1], &s[i]);
		bool kswapd = delta(&s[i - 1], &s[i], WM_REC_PGSTEAL_KSWAPD) > 0;

		if (rate > out->peak_alloc_rate)
			out->peak_alloc_rate = rate;
		if (dt > out->interval)
			out->interval = dt;

		/* runs of direct reclaim, bridging one quiet interval */
		if (direct) {
			if (!run0 || i - prev > 2) {
				if (run0) {
					struct wm_rec_burst b;

					burst_of(s, run0, prev, &b);
					if (!out->nbursts++ || b.deficit > out->worst.deficit)
						out->worst = b;
				}
				run0 = i;
			}
			prev = i;
		}

		/* runs where kswapd reclaimed and nothing stalled */
		if (kswapd && !direct) {
			uint64_t d;

			if (!k0)
				k0 = i;
			d = drawdown(s, k0, i);
			if (d > out->kswapd_deficit)
				out->kswapd_deficit = d;
		} else {
			k0 = 0;
		}
	}
	if (run0) {
		struct wm_rec_burst b;

		burst_of(s, run0, prev, &b);
		if (!out->nbursts++ || b.deficit > out->worst.deficit)
			out->worst = b;
	}
	if (!out->time_resolved) {
		/* one interval cannot tell a drawdown from steady allocation */
		out->worst.drawdown = 0;
		out->kswapd_deficit = 0;
	}
	return WM_OK;
}

const char *wm_rec_verdict_name(enum wm_rec_verdict v)
{
	switch (v) {
	case WM_REC_KEEP: return "keep";
	case WM_REC_RAISE: return "raise";
	case WM_REC_LOWER: return "lower";
	}
	return "?";
}

void wm_rec_decide(const struct wm_rec_measure *ms, uint64_t gap_now,
		   struct wm_rec_decision *out)
{
	uint64_t steal = ms->d[WM_REC_PGSTEAL_KSWAPD];
	/* 4.x before workingset_activate: plain refaults are all there is */
	uint64_t back = (ms->have & (1u << WM_REC_ACTIVATE)) ? ms->d[WM_REC_ACTIVATE] :
			ms->d[WM_REC_REFAULT];

	memset(out, 0, sizeof(*out));
	out->verdict = WM_REC_KEEP;
	out->refault_pct = steal ? 100.0 * (double)back / (double)steal : -1;
	out->direct = ms->d[WM_REC_ALLOCSTALL] > 0 || ms->d[WM_REC_PGSCAN_DIRECT] > 0;
	if (out->direct) {
		out->deficit = ms->worst.deficit;
		if (out->deficit) {
			out->verdict = WM_REC_RAISE;
			out->need = gap_now + (uint64_t)out->deficit;
		}
		return;
	}
	if (steal && out->refault_pct >= WM_REC_REFAULT_PCT) {
		double keep = out->refault_pct >= 100 ? 0 : 1 - out->refault_pct / 100;
		uint64_t need = (uint64_t)((double)gap_now * keep);

		if (ms->kswapd_deficit > need)
			need = (uint64_t)ms->kswapd_deficit;
		if (need < gap_now) {
			out->verdict = WM_REC_LOWER;
			out->need = need;
		}
	}
}

/* ---- policy ---------------------------------------------------------- */

void wm_rec_keep(struct wm_rec_answer *ans, int64_t now_wsf)
{
	ans->wsf = now_wsf;
	ans->wanted = now_wsf;
	ans->capped = false;
	ans->gap_after = ans->gap_now;
}

int64_t wm_rec_keep_below_floor(struct wm_rec_answer *ans, int64_t now_wsf)
{
	int64_t would;

	if (ans->wsf >= now_wsf || ans->gap_after != ans->gap_now)
		return -1;
	would = ans->wsf;
	ans->wsf = now_wsf;
	return would;
}

enum wm_rec_verdict wm_rec_final_verdict(bool measured, enum wm_rec_verdict decided,
					 const struct wm_rec_answer *ans, int64_t now_wsf)
{
	if (measured && decided != WM_REC_LOWER)
		return decided;
	if (ans->wsf > now_wsf)
		return WM_REC_RAISE;
	if (ans->wsf < now_wsf)
		return WM_REC_LOWER;
	return WM_REC_KEEP;
}
