// SPDX-License-Identifier: MIT
/*
 * machine.c - zoneinfo to the model's zones, and the page geometry.
 *
 * The zone list follows build_all_zonelists()'s view of a node: every
 * node has the same configured zones (MAX_NR_ZONES of them), populated or
 * not.  Kernels from 4.12 print them all; before that only the populated
 * ones, so the missing ones are put back where the zone order has them:
 * DMA, DMA32, Normal, HighMem, Movable, Device.
 *
 * The subtle point is the page size.  It enters every conversion
 * (min_free_kbytes to pages, the sqrt rule, THP's recommendation), and
 * the pageblock is not a function of it everywhere: on ppc64 with 64 KiB
 * pages it is a run-time value (32 pages with the radix MMU) that only
 * /proc/pagetypeinfo says (docs/model.md §11.1), and on s390x the huge page is a 1 MiB segment
 * (256 pages), not a PMD of 8-byte entries.  So the pageblock comes from
 * pagetypeinfo, else from the machine's architecture (its `uname -m` or
 * its kernel's release), never from the compiler that built wmark; with
 * neither, the arm64/x86 rule of the page size.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "scan.h"

const char *wm_geo_from_name(enum wm_geo_from f)
{
	switch (f) {
	case WM_GEO_GIVEN:
		return "given";
	case WM_GEO_MEMINFO:
		return "meminfo";
	case WM_GEO_DERIVED:
		return "derived";
	case WM_GEO_SYSFS:
		return "sysfs";
	case WM_GEO_CAPTURE:
		return "capture";
	case WM_GEO_ASSUMED:
		break;
	}
	return "assumed";
}

static int log2_exact(uint64_t v)
{
	int s = 0;

	if (v == 0 || (v & (v - 1)))
		return -1;
	while ((1ull << s) < v)
		s++;
	return s;
}

int wm_pageblock_default(unsigned page_size, uint64_t *pages,
			 unsigned *order, struct wm_diag *diag)
{
	int shift = log2_exact(page_size);

	if (shift < 12 || shift > 16)
		return wm_fail(diag, WM_EINVAL, 0, "page-size",
			       "page size %u: expected a power of two from 4096 to 65536",
			       page_size);
	/* HPAGE_PMD_ORDER = PAGE_SHIFT - 3: a page of 8-byte PMD entries. */
	*order = (unsigned)shift - 3;
	*pages = 1ul << *order;
	return WM_OK;
}

int wm_parse_geometry(const char *buf, size_t len, unsigned *page_size, int *pb_order,
		      struct wm_diag *diag)
{
	const char *p = buf, *end = buf + len;
	int line = 0;

	*page_size = 0;
	*pb_order = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q, *e;
		size_t kl;
		uint64_t v = 0;
		bool ps;

		e = nl ? nl : end;
		line++;
		for (q = p; q < e && *q != ' ' && *q != '\t'; q++)
			;
		kl = (size_t)(q - p);
		ps = kl == 9 && !memcmp(p, "page_size", 9);
		if (ps || (kl == 15 && !memcmp(p, "pageblock_order", 15))) {
			const char *d;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			for (d = q; q < e && *q >= '0' && *q <= '9' && v <= 1u << 20; q++)
				v = v * 10 + (uint64_t)(*q - '0');
			while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++;
			if (q == d || q != e || (ps ? log2_exact(v) < 12 || log2_exact(v) > 16 : v > 30))
				return wm_fail(diag, WM_EPARSE, line, ps ? "page_size" : "pageblock_order",
					       ps ? "expected a power of two from 4096 to 65536"
						  : "expected an order from 0 to 30");
			if (ps)
				*page_size = (unsigned)v;
			else
				*pb_order = (int)v;
		}
		p = nl ? nl + 1 : end;
	}
	return WM_OK;
}

static const struct {
	const char *name;
	enum wm_arch arch;
} arch_names[] = {
	{ "x86_64", WM_ARCH_X86_64 }, { "amd64", WM_ARCH_X86_64 },
	{ "aarch64", WM_ARCH_ARM64 }, { "arm64", WM_ARCH_ARM64 },
	{ "ppc64le", WM_ARCH_PPC64 }, { "ppc64", WM_ARCH_PPC64 },
	{ "ppc64el", WM_ARCH_PPC64 },
	{ "s390x", WM_ARCH_S390X },
	{ "riscv64", WM_ARCH_RISCV64 },
	{ "i686-pae", WM_ARCH_I386_PAE }, { "686-pae", WM_ARCH_I386_PAE },
	{ "i386", WM_ARCH_I386 }, { "i486", WM_ARCH_I386 },
	{ "i586", WM_ARCH_I386 }, { "i686", WM_ARCH_I386 },
};

const char *wm_arch_name(enum wm_arch a)
{
	switch (a) {
	case WM_ARCH_X86_64: return "x86_64";
	case WM_ARCH_ARM64: return "aarch64";
	case WM_ARCH_PPC64: return "ppc64le";
	case WM_ARCH_S390X: return "s390x";
	case WM_ARCH_RISCV64: return "riscv64";
	case WM_ARCH_I386_PAE: return "i686-pae";
	case WM_ARCH_I386: return "i686";
	case WM_ARCH_UNKNOWN: break;
	}
	return "unknown";
}

int wm_arch_parse(const char *name, enum wm_arch *out, struct wm_diag *diag)
{
	size_t i;

	for (i = 0; i < sizeof(arch_names) / sizeof(arch_names[0]); i++) {
		if (strcmp(name, arch_names[i].name) == 0) {
			*out = arch_names[i].arch;
			return WM_OK;
		}
	}
	return wm_fail(diag, WM_EINVAL, 0, "arch",
		       "'%s': expected x86_64, aarch64, ppc64le, s390x, riscv64, i686 or i686-pae",
		       name);
}

/* Whether s ends with "-" suffix. */
static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && s[n - k - 1] == '-' && strcmp(s + n - k, suffix) == 0;
}

bool wm_arch_from_release(const char *release, enum wm_arch *out)
{
	/* Debian's flavours: the architecture ends the name, a kind may follow */
	static const struct {
		const char *suffix;
		enum wm_arch arch;
	} flavours[] = {
		{ "amd64", WM_ARCH_X86_64 }, { "arm64", WM_ARCH_ARM64 },
		{ "arm64-16k", WM_ARCH_ARM64 }, { "powerpc64le", WM_ARCH_PPC64 },
		{ "powerpc64le-64k", WM_ARCH_PPC64 }, { "s390x", WM_ARCH_S390X },
		{ "riscv64", WM_ARCH_RISCV64 }, { "686-pae", WM_ARCH_I386_PAE },
		{ "686", WM_ARCH_I386 },
	};
	size_t i;

	for (i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++) {
		if (ends_with(release, flavours[i].suffix)) {
			*out = flavours[i].arch;
			return true;
		}
	}
	return false;
}

bool wm_arch_pmd_hugepage(enum wm_arch a)
{
	return a == WM_ARCH_X86_64 || a == WM_ARCH_ARM64 || a == WM_ARCH_S390X ||
	       a == WM_ARCH_RISCV64 || a == WM_ARCH_I386_PAE || a == WM_ARCH_I386;
}

int wm_pageblock_of_arch(enum wm_arch a, unsigned page_size, uint64_t *pages,
			 unsigned *order, struct wm_diag *diag)
{
	int rc = wm_pageblock_default(page_size, pages, order, diag);

	if (rc)
		return rc;
	if (a != WM_ARCH_UNKNOWN && a != WM_ARCH_ARM64 && a != WM_ARCH_PPC64 &&
	    page_size != 4096)
		return wm_fail(diag, WM_EINVAL, 0, "page-size",
			       "%s has 4096-byte pages only, not %u", wm_arch_name(a),
			       page_size);
	switch (a) {
	case WM_ARCH_S390X:
		/* HPAGE_SHIFT 20: the 1 MiB segment (arch/s390/include/asm/page.h) */
		*order = 8;
		break;
	case WM_ARCH_I386:
		/*
		 * Two-level tables: HPAGE_SHIFT = PMD_SHIFT = PGDIR_SHIFT = 22,
		 * order 10, which is also the largest buddy order (MAX_ORDER 11
		 * through 6.3; MAX_PAGE_ORDER 10 after).
		 */
		*order = 10;
		break;
	default:
		/* HPAGE_SHIFT = PMD_SHIFT 21 on x86 PAE, x86-64 and riscv64 */
		break;
	}
	*pages = (uint64_t)1 << *order;
	return WM_OK;
}

int wm_page_size_from_meminfo(uint64_t memtotal_kb, uint64_t managed_sum,
			      unsigned *page_size)
{
	unsigned kb;

	if (!managed_sum || !memtotal_kb)
		return WM_ENOZONE;
	for (kb = 4; kb <= 64; kb *= 2) {
		uint64_t want = managed_sum * kb, d;

		if (want / kb != managed_sum)
			break;	/* overflow: larger sizes overflow too */
		d = want > memtotal_kb ? want - memtotal_kb : memtotal_kb - want;
		/* 1%: memory may have moved between reading meminfo and zoneinfo */
		if (d <= memtotal_kb / 100) {
			*page_size = kb * 1024;
			return WM_OK;
		}
	}
	return WM_ENOZONE;
}

static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

/* The number after "prefix" at the start of [p, eol), blanks allowed. */
static int value_after(const char *p, const char *eol, const char *prefix,
		       uint64_t max, uint64_t *out, int *found)
{
	size_t n = strlen(prefix);

	if ((size_t)(eol - p) < n || memcmp(p, prefix, n) != 0)
		return 0;
	*found = 1;
	p += n;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	if (wm_scan_u64(&p, eol, max, out))
		return -1;
	while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p == eol ? 0 : -1;
}

int wm_parse_pagetypeinfo(const char *buf, size_t len, unsigned *order,
			  uint64_t *pages, struct wm_diag *diag)
{
	const char *p = buf ? buf : "", *end = p + (buf ? len : 0), *eol, *nl;
	uint64_t o = 0, n = 0;
	int line = 0, have_o = 0, have_n = 0, line_o = 0, line_n = 0;

	for (; p < end; p = nl) {
		int f = 0;

		line++;
		nl = next_line(p, end);
		eol = nl > p && nl[-1] == '\n' ? nl - 1 : nl;
		if (value_after(p, eol, "Page block order:", 63, &o, &f)) {
			return wm_fail(diag, WM_EPARSE, line, "Page block order",
				       "expected a pageblock order from 0 to 63");
		} else if (f) {
			have_o = 1, line_o = line;
			continue;
		}
		if (value_after(p, eol, "Pages per block:", UINT64_MAX, &n, &f))
			return wm_fail(diag, WM_EPARSE, line, "Pages per block",
				       "expected a number of pages");
		if (f)
			have_n = 1, line_n = line;
		if (have_o && have_n)
			break;
	}
	if (!have_o && !have_n)
		return wm_fail(diag, WM_ENOZONE, 0, NULL,
			       "no 'Page block order' or 'Pages per block' line");
	if (have_o && (o >= sizeof(uint64_t) * CHAR_BIT))
		return wm_fail(diag, WM_EPARSE, line_o, "Page block order",
			       "pageblock order %llu is too large",
			       (unsigned long long)o);
	if (!have_o) {
		int s = log2_exact(n);

		if (s < 0)
			return wm_fail(diag, WM_EPARSE, line_n, "Pages per block",
				       "%llu pages per block is not a power of two",
				       (unsigned long long)n);
		o = (uint64_t)s;
	} else if (!have_n) {
		n = 1ull << o;
	} else if (n != 1ull << o) {
		return wm_fail(diag, WM_EPARSE, line_n, "Pages per block",
			       "%llu pages per block, but the order is %llu",
			       (unsigned long long)n, (unsigned long long)o);
	}
	*order = (unsigned)o;
	*pages = (uint64_t)n;
	return WM_OK;
}

int wm_parse_buddyinfo_orders(const char *buf, size_t len, unsigned *orders,
			      struct wm_diag *diag)
{
	const char *p = buf ? buf : "", *end = p + (buf ? len : 0), *eol, *nl, *q;
	int line = 0;

	for (; p < end; p = nl) {
		unsigned n = 0;
		uint64_t v;

		line++;
		nl = next_line(p, end);
		eol = nl > p && nl[-1] == '\n' ? nl - 1 : nl;
		if ((size_t)(eol - p) < 5 || memcmp(p, "Node ", 5) != 0)
			continue;
		q = memchr(p, ',', (size_t)(eol - p));
		if (!q || (size_t)(eol - q) < 6 || memcmp(q, ", zone", 6) != 0)
			continue;
		/* the zone name, then the counts */
		for (q += 6; q < eol && *q == ' '; q++)
			;
		while (q < eol && *q != ' ' && *q != '\t')
			q++;
		for (;;) {
			while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++;
			if (q == eol)
				break;
			if (wm_scan_u64(&q, eol, UINT64_MAX, &v) || n == 64 ||
			    (q < eol && *q != ' ' && *q != '\t' && *q != '\r'))
				return wm_fail(diag, WM_EPARSE, line, "buddyinfo",
					       "expected up to 64 free block counts");
			n++;
		}
		if (!n)
			return wm_fail(diag, WM_EPARSE, line, "buddyinfo",
				       "no free block count after the zone");
		*orders = n;
		return WM_OK;
	}
	return wm_fail(diag, WM_ENOZONE, 0, NULL, "no 'Node N, zone NAME' line");
}

int wm_pageblock_from_pmd(unsigned page_size, uint64_t pmd_bytes, unsigned orders,
			  unsigned *order, uint64_t *pages, struct wm_diag *diag)
{
	int s;

	if (!page_size || pmd_bytes % page_size ||
	    (s = log2_exact(pmd_bytes / page_size)) < 0 ||
	    s >= (int)(sizeof(uint64_t) * CHAR_BIT))
		return wm_fail(diag, WM_EINVAL, 0, "hpage_pmd_size",
			       "%llu bytes is not %u-byte pages times a power of two",
			       (unsigned long long)pmd_bytes, page_size);
	if (orders < 1 || orders > 64)
		return wm_fail(diag, WM_EINVAL, 0, "buddyinfo",
			       "%u orders: expected 1 to 64", orders);
	/* the largest order the buddy allocator has caps the block */
	if ((unsigned)s > orders - 1)
		s = (int)orders - 1;
	*order = (unsigned)s;
	*pages = 1ul << s;
	return WM_OK;
}

int wm_geometry_settle(unsigned page_size, uint64_t memtotal_kb,
		       uint64_t managed_sum, unsigned pb_order,
		       uint64_t pb_pages, struct wm_geometry *out,
		       struct wm_diag *diag)
{
	return wm_geometry_settle_arch(WM_ARCH_UNKNOWN, page_size, memtotal_kb, managed_sum,
				       pb_order, pb_pages, out, diag);
}

/*
 * The geometry of page_size bytes (from says where it came from) with the
 * pageblock pb_pages of order pb_order, or 0 to derive it: the one rule
 * behind wm_geometry_settle_arch() and wm_geometry_assume().
 */
static int settle(enum wm_arch arch, unsigned page_size, enum wm_geo_from from,
		  bool memtotal_seen, unsigned pb_order, uint64_t pb_pages,
		  struct wm_geometry *out, struct wm_diag *diag)
{
	uint64_t dpages = 0;
	unsigned dorder = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->arch = arch;
	out->memtotal_seen = memtotal_seen;
	out->page_size = page_size;
	out->page_size_from = from;
	rc = wm_pageblock_of_arch(arch, out->page_size, &dpages, &dorder, diag);
	/* a size MemTotal suggests but the arch lacks: the plain rule's block */
	if (rc && out->page_size_from != WM_GEO_GIVEN)
		rc = wm_pageblock_default(out->page_size, &dpages, &dorder, diag);
	if (rc)
		return rc;
	if (pb_pages) {
		if (log2_exact(pb_pages) < 0 || ((uint64_t)1 << pb_order) != pb_pages)
			return wm_fail(diag, WM_EINVAL, 0, "pageblock",
				       "%" PRIu64 " pages per block is not 2^%u", pb_pages, pb_order);
		out->pageblock_pages = pb_pages;
		out->pageblock_order = pb_order;
		out->pageblock_from = WM_GEO_GIVEN;
	} else {
		out->pageblock_pages = dpages;
		out->pageblock_order = dorder;
		out->pageblock_from = WM_GEO_DERIVED;
	}
	return WM_OK;
}

int wm_geometry_settle_arch(enum wm_arch arch, unsigned page_size, uint64_t memtotal_kb,
			    uint64_t managed_sum, unsigned pb_order,
			    uint64_t pb_pages, struct wm_geometry *out,
			    struct wm_diag *diag)
{
	if (page_size)
		return settle(arch, page_size, WM_GEO_GIVEN, memtotal_kb != 0, pb_order, pb_pages,
			      out, diag);
	if (memtotal_kb && wm_page_size_from_meminfo(memtotal_kb, managed_sum, &page_size) == WM_OK)
		return settle(arch, page_size, WM_GEO_MEMINFO, true, pb_order, pb_pages, out,
			      diag);
	memset(out, 0, sizeof(*out));
	return wm_fail(diag, WM_ENODATA, 0, "page_size", memtotal_kb ?
		       "the page size is unknown: MemTotal fits no page size over the managed pages" :
		       "the page size is unknown: no MemTotal to find it from");
}

int wm_geometry_assume(enum wm_arch arch, unsigned page_size, bool memtotal_seen,
		       unsigned pb_order, uint64_t pb_pages, struct wm_geometry *out,
		       struct wm_diag *diag)
{
	if (!page_size)
		return wm_fail(diag, WM_EINVAL, 0, "page_size", "no page size to assume");
	return settle(arch, page_size, WM_GEO_ASSUMED, memtotal_seen, pb_order, pb_pages, out,
		      diag);
}

/* ---- zoneinfo -> model ----------------------------------------------- */

/*
 * The configured zone types, in index order.  Kernels before 4.12 print
 * populated zones only, but every protection array has one entry per
 * configured zone: add the missing types, most likely first.
 */
static int configured_types(const struct zi_info *zi, enum wm_zone_type *types)
{
	static const enum wm_zone_type fill[] = { WM_ZONE_NORMAL, WM_ZONE_MOVABLE,
		WM_ZONE_HIGHMEM, WM_ZONE_DEVICE, WM_ZONE_DMA32, WM_ZONE_DMA };
	bool have[WM_ZONE_OTHER + 1] = { false };
	int want = 0, n = 0, i, t;
	size_t k;

	for (k = 0; k < zi->nzones; k++) {
		have[zi->zones[k].type] = true;
		if (zi->zones[k].nprotection > want)
			want = zi->zones[k].nprotection;
	}
	for (t = 0; t <= WM_ZONE_OTHER; t++)
		n += have[t];
	if (want > WM_MAX_ZONES)
		want = WM_MAX_ZONES;
	for (i = 0; n < want && i < (int)(sizeof(fill) / sizeof(fill[0])); i++) {
		if (have[fill[i]])
			continue;
		/* x86-64 has no HighMem; 32-bit has no DMA32 */
		if (fill[i] == WM_ZONE_HIGHMEM && have[WM_ZONE_DMA32])
			continue;
		have[fill[i]] = true;
		n++;
	}
	for (n = 0, t = 0; t <= WM_ZONE_OTHER; t++)
		if (have[t] && n < WM_MAX_ZONES)
			types[n++] = (enum wm_zone_type)t;
	return n;
}

int wm_layout_from_zoneinfo(const struct zi_info *zi, struct wm_layout *out,
			    struct wm_diag *diag)
{
	enum wm_zone_type types[WM_MAX_ZONES];
	int ntypes = configured_types(zi, types), pos[WM_ZONE_OTHER + 1], t;
	size_t nodes = zi->nnodes > 0 ? (size_t)zi->nnodes : 1, cells, k, n = 0;
	bool any_managed = false, *seen = NULL;
	int64_t *at = NULL;

	memset(out, 0, sizeof(*out));
	cells = nodes * (size_t)ntypes;
	out->zones = calloc(cells + 1, sizeof(*out->zones));
	out->printed = calloc(cells + 1, sizeof(*out->printed));
	at = malloc((cells + 1) * sizeof(*at));
	seen = calloc(nodes, sizeof(*seen));
	if (!out->zones || !out->printed || !at || !seen) {
		free(at);
		free(seen);
		wm_layout_free(out);
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	}
	for (k = 0; k < zi->nzones; k++)
		if (zi->zones[k].flags & ZI_HAS_MANAGED)
			any_managed = true;
	out->used_present = !any_managed;

	/* One pass: which printed zone is each (node, type). */
	for (t = 0; t <= WM_ZONE_OTHER; t++)
		pos[t] = -1;
	for (t = 0; t < ntypes; t++)
		pos[types[t]] = t;
	for (k = 0; k < cells; k++)
		at[k] = -1;
	for (k = 0; k < zi->nzones; k++) {
		const struct zi_zone *q = &zi->zones[k];

		seen[q->node] = true;
		if (pos[q->type] >= 0)
			at[(size_t)q->node * (size_t)ntypes + (size_t)pos[q->type]] = (int64_t)k;
	}
	for (k = 0; k < nodes; k++) {
		if (!seen[k])
			continue;
		for (t = 0; t < ntypes; t++) {
			struct wm_zone *z = &out->zones[n];
			int64_t kk = at[k * (size_t)ntypes + (size_t)t];

			*z = (struct wm_zone){ .node = (int)k, .idx = t, .type = types[t] };
			out->printed[n] = kk;
			if (kk >= 0) {
				const struct zi_zone *q = &zi->zones[kk];

				z->managed = any_managed ? q->managed : q->present;
				z->present = (q->flags & ZI_HAS_PRESENT) ? q->present : z->managed;
				z->boost = q->boost;
			}
			n++;
		}
	}
	out->nzones = n;
	free(at);
	free(seen);
	return WM_OK;
}

void wm_layout_free(struct wm_layout *l)
{
	if (!l)
		return;
	free(l->zones);
	free(l->printed);
	memset(l, 0, sizeof(*l));
}

const struct zi_zone *wm_layout_zone(const struct wm_layout *l,
				     const struct zi_info *zi, size_t i)
{
	if (i >= l->nzones || l->printed[i] < 0)
		return NULL;
	return &zi->zones[l->printed[i]];
}

void wm_printed_from_zoneinfo(const struct zi_info *zi, const struct wm_layout *l,
			      struct wm_printed *out, uint64_t *boost_out)
{
	const unsigned all = ZI_HAS_MIN | ZI_HAS_LOW | ZI_HAS_HIGH;
	size_t i;
	int j;

	for (i = 0; i < l->nzones; i++) {
		const struct zi_zone *z = wm_layout_zone(l, zi, i);
		struct wm_printed *pr = &out[i];
		uint64_t b;

		memset(pr, 0, sizeof(*pr));
		if (boost_out)
			boost_out[i] = 0;
		if (!z)
			continue;
		b = (z->flags & ZI_HAS_BOOST) ? z->boost : 0;
		pr->shown = true;
		/* a boost above min cannot be the kernel's: nothing to compare */
		pr->has_wm = (z->flags & all) == all && z->min >= b;
		if (boost_out)
			boost_out[i] = b;
		pr->has_promo = (z->flags & ZI_HAS_PROMO) != 0;
		pr->min = z->min - b;
		pr->low = z->low - b;
		pr->high = z->high - b;
		pr->promo = pr->has_promo ? z->promo - b : 0;
		pr->has_prot = (z->flags & ZI_HAS_PROTECTION) != 0;
		pr->nprot = z->nprotection < WM_MAX_ZONES ? z->nprotection : WM_MAX_ZONES;
		for (j = 0; j < pr->nprot; j++)
			pr->protection[j] = z->protection[j];
	}
}
