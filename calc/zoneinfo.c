// SPDX-License-Identifier: MIT
/*
 * zoneinfo.c - read /proc/zoneinfo text into zones, by keyword.
 *
 * The text is what zoneinfo_show_print() in mm/vmstat.c prints: a header
 * "Node N, zone NAME" per zone, then indented "key value" lines.  Its
 * keys came and went between 2.6.16 and 6.19 (managed from 3.8, the
 * per-node stats block from 4.8, boost from 5.16, promo from 6.12, pcp
 * high_min/high_max from 6.13, reserved_highatomic in 6.19), vendors add
 * their own (avg_age_*), and excerpts from mailing-list posts keep only
 * some lines and put "..." where others were.  So lines are recognised
 * by their first word alone, never by position or kernel version, and
 * any line whose first word is not one we read is skipped unread.
 *
 * The one subtle point: "high" is two keys.  The zone's high watermark
 * prints as "high  N", a pageset's pcp->high as "high:  N"; the colon is
 * part of the key.
 *
 * One pass over the buffer, memchr() per line, numbers converted by hand;
 * the only allocation is the zone array, grown by doubling.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"
#include "zoneinfo.h"

/* Far above MAX_NUMNODES (1 << 10): bounds what callers size by nnodes. */
#define ZI_MAX_NODE 65535

/* ZI_MAX_PAGES, or less where a long is 32 bits. */
#define PAGES_MAX ((int64_t)(ZI_MAX_PAGES < INT64_MAX ? ZI_MAX_PAGES : INT64_MAX))

/* The page-count fields of a zone, in the order of zi_state.total[]. */
#define ZI_NCOUNTS 10
static const size_t count_off[ZI_NCOUNTS] = {
	offsetof(struct zi_zone, free), offsetof(struct zi_zone, boost),
	offsetof(struct zi_zone, min), offsetof(struct zi_zone, low),
	offsetof(struct zi_zone, high), offsetof(struct zi_zone, promo),
	offsetof(struct zi_zone, spanned), offsetof(struct zi_zone, present),
	offsetof(struct zi_zone, managed), offsetof(struct zi_zone, cma),
};

struct zi_state {
	struct zi_info *zi;
	struct wm_diag *diag;
	struct zi_zone *z;	/* zone being read; NULL before the first header */
	size_t node_first;	/* index of the first zone of z's node */
	int line;		/* 1-based number of the line being read */
	int pcp_lines;		/* 1 while inside the zone's first pageset */
	uint64_t total[ZI_NCOUNTS];	/* pages: each count over all zones so far */
};

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/*
 * Lines are indented by up to 14 spaces.  Eight bytes at a time: XOR
 * with eight blanks leaves zero bytes for the blanks, and the lowest
 * non-zero byte (in memory order) is the first other character.  A tab
 * there, or fewer than eight bytes left, goes the byte-wise way.
 */
static inline const char *skip_indent(const char *p, const char *eol)
{
	while (eol - p >= 8) {
		uint64_t x;

		memcpy(&x, p, 8);
		x ^= 0x2020202020202020ull;
		if (x) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			p += __builtin_ctzll(x) / 8;
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			p += __builtin_clzll(x) / 8;
#else
			while (*p == ' ')
				p++;
#endif
			break;
		}
		p += 8;
	}
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Numbers as the parsers of calc/scan.h read them, in this file's types. */
static inline int scan_ulong(const char **pp, const char *end, uint64_t max,
			     uint64_t *out)
{
	uint64_t v;
	int rc = wm_scan_u64(pp, end, max, &v);

	if (rc == 0)
		*out = (uint64_t)v;
	return rc;
}

static int bad_number(struct zi_state *st, const char *key, int rc)
{
	if (rc == -2)
		return wm_fail(st->diag, WM_EPARSE, st->line, key,
			       "the value of '%s' is too large", key);
	return wm_fail(st->diag, WM_EPARSE, st->line, key,
		       "'%s' is not followed by a number", key);
}

/* Read "KEY  N" where p points after KEY: one number, then only blanks. */
static int read_value(struct zi_state *st, const char *key, const char *p,
		      const char *eol, uint64_t *out)
{
	int rc;

	p = skip_blanks(p, eol);
	/* a page count: no value can pass for "not printed" (UINT64_MAX) */
	rc = scan_ulong(&p, eol, PAGES_MAX, out);
	if (rc)
		return bad_number(st, key, rc);
	if (skip_blanks(p, eol) != eol)
		return wm_fail(st->diag, WM_EPARSE, st->line, key,
			       "unexpected text after the value of '%s'", key);
	return WM_OK;
}

static int no_zone(struct zi_state *st, const char *key)
{
	return wm_fail(st->diag, WM_EPARSE, st->line, key,
		       "'%s' before any 'Node N, zone NAME' line", key);
}

static int bad_header(struct zi_state *st, const char *why)
{
	return wm_fail(st->diag, WM_EPARSE, st->line, "Node",
		       "malformed zone header: %s", why);
}

static int add_zone(struct zi_state *st)
{
	struct zi_info *zi = st->zi;
	struct zi_zone *z;

	if (zi->nzones == zi->cap) {
		size_t cap = zi->cap ? zi->cap * 2 : 8;

		if (cap > SIZE_MAX / sizeof(*z))
			goto nomem;
		z = realloc(zi->zones, cap * sizeof(*z));
		if (!z)
			goto nomem;
		zi->zones = z;
		zi->cap = cap;
	}
	z = &zi->zones[zi->nzones++];
	memset(z, 0, sizeof(*z));
	z->pcp_batch = -1;
	z->pcp_high_min = -1;
	z->pcp_high_max = -1;
	z->line = st->line;
	st->z = z;
	st->pcp_lines = 0;
	return WM_OK;
nomem:
	return wm_fail(st->diag, WM_ENOMEM, st->line, NULL, "out of memory");
}

/*
 * "Node %d, zone %8s" (mm/vmstat.c, unchanged since 2.6.13).  Nodes come
 * in ascending order, each node's zones together, each zone once: the
 * kernel walks nodes, then their zones.
 */
static int parse_header(struct zi_state *st, const char *p, const char *eol)
{
	struct zi_info *zi = st->zi;
	const char *name;
	uint64_t node;
	size_t n, i;
	int rc;

	p = skip_blanks(p + 4, eol);
	rc = scan_ulong(&p, eol, ZI_MAX_NODE, &node);
	if (rc == -2)
		return bad_header(st, "node number out of range");
	if (rc || p >= eol || *p != ',')
		return bad_header(st, "expected 'Node N, zone NAME'");
	p = skip_blanks(p + 1, eol);
	if (eol - p < 4 || memcmp(p, "zone", 4) != 0)
		return bad_header(st, "expected 'zone' after the node number");
	p += 4;
	if (p < eol && !is_blank(*p))
		return bad_header(st, "expected 'Node N, zone NAME'");
	name = p = skip_blanks(p, eol);
	while (p < eol && !is_blank(*p))
		p++;
	n = (size_t)(p - name);
	if (n == 0)
		return bad_header(st, "no zone name");
	for (i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x21 || (unsigned char)name[i] > 0x7e)
			return bad_header(st, "zone name is not printable ASCII");
	if (n >= sizeof(zi->zones[0].name))
		return bad_header(st, "zone name too long");
	if (skip_blanks(p, eol) != eol)
		return bad_header(st, "text after the zone name");

	if (st->z && (int)node < st->z->node)
		return bad_header(st, "node numbers go down");
	if (!st->z || (int)node != st->z->node)
		st->node_first = zi->nzones;
	for (i = st->node_first; i < zi->nzones; i++)
		if (strlen(zi->zones[i].name) == n &&
		    memcmp(zi->zones[i].name, name, n) == 0)
			return wm_fail(st->diag, WM_EPARSE, st->line, "Node",
				       "zone %.*s of node %" PRIu64 " listed twice (first on line %d)",
				       (int)n, name, node, zi->zones[i].line);
	if (zi->nzones - st->node_first >= WM_MAX_ZONES)
		return wm_fail(st->diag, WM_EPARSE, st->line, "Node",
			       "node %" PRIu64 " has more than %d zones", node,
			       WM_MAX_ZONES);

	rc = add_zone(st);
	if (rc)
		return rc;
	st->z->node = (int)node;
	memcpy(st->z->name, name, n);
	st->z->name[n] = '\0';
	st->z->type = wm_zone_type_of(st->z->name);
	if ((int)node + 1 > zi->nnodes)
		zi->nnodes = (int)node + 1;
	return WM_OK;
}

/* "protection: (a, b, c)": lowmem_reserve[], one per zone of the node. */
static int parse_protection(struct zi_state *st, const char *p,
			    const char *eol)
{
	struct zi_zone *z = st->z;
	const char *key = "protection";
	int64_t v;
	int n = 0, rc;

	p = skip_blanks(p, eol);
	if (p >= eol || *p != '(')
		return wm_fail(st->diag, WM_EPARSE, st->line, key,
			       "expected '(' after 'protection:'");
	p = skip_blanks(p + 1, eol);
	if (p < eol && *p == ')') {
		p++;
		goto close;
	}
	for (;;) {
		rc = wm_scan_long(&p, eol, false, &v);
		if (rc == 0 && (v > PAGES_MAX || v < -PAGES_MAX))
			rc = -2;	/* lowmem_reserve is a page count too */
		if (rc)
			return bad_number(st, key, rc);
		/* More entries than WM_MAX_ZONES: checked, not kept. */
		if (n < WM_MAX_ZONES)
			z->protection[n++] = v;
		p = skip_blanks(p, eol);
		if (p < eol && *p == ')') {
			p++;
			break;
		}
		if (p >= eol || *p != ',')
			return wm_fail(st->diag, WM_EPARSE, st->line, key,
				       "expected ',' or ')' in 'protection:'");
		p = skip_blanks(p + 1, eol);
	}
close:
	if (skip_blanks(p, eol) != eol)
		return wm_fail(st->diag, WM_EPARSE, st->line, key,
			       "unexpected text after ')' in 'protection:'");
	z->nprotection = n;
	z->flags |= ZI_HAS_PROTECTION;
	return WM_OK;
}

/*
 * "cpu: N" opens a pageset.  2.6.16 - 2.6.24 print "cpu: N pcp: M" with
 * a hot (0) and a cold (1) list per CPU: only pcp 0 counts as a CPU.
 */
static int parse_cpu(struct zi_state *st, const char *p, const char *eol)
{
	uint64_t cpu, pcp = 0;
	int rc;

	p = skip_blanks(p, eol);
	rc = scan_ulong(&p, eol, INT_MAX, &cpu);
	if (rc)
		return bad_number(st, "cpu", rc);
	p = skip_blanks(p, eol);
	if (eol - p >= 4 && memcmp(p, "pcp:", 4) == 0) {
		p = skip_blanks(p + 4, eol);
		rc = scan_ulong(&p, eol, INT_MAX, &pcp);
		if (rc)
			return bad_number(st, "pcp", rc);
		p = skip_blanks(p, eol);
	}
	if (p != eol)
		return wm_fail(st->diag, WM_EPARSE, st->line, "cpu",
			       "unexpected text after 'cpu: %" PRIu64 "'", cpu);
	if (pcp == 0)
		st->z->ncpus++;
	st->pcp_lines = st->z->ncpus == 1 && pcp == 0;
	return WM_OK;
}

/*
 * A pageset's "batch:", "high_min:" or "high_max:".  Only the first
 * pageset's are read (and checked): the others repeat them per CPU and
 * make up most of a large machine's file.
 */
static int parse_pcp(struct zi_state *st, const char *key, const char *p,
		     const char *eol, int64_t *dst, unsigned flag)
{
	uint64_t v;
	int rc;

	if (!st->pcp_lines)
		return WM_OK;
	p = skip_blanks(p, eol);
	rc = scan_ulong(&p, eol, INT64_MAX, &v);
	if (rc)
		return bad_number(st, key, rc);
	if (skip_blanks(p, eol) != eol)
		return wm_fail(st->diag, WM_EPARSE, st->line, key,
			       "unexpected text after the value of '%s'", key);
	*dst = (int64_t)v;
	st->z->flags |= flag;
	return WM_OK;
}

/* A zone's "KEY  N" line: check it belongs to a zone, store the value. */
static int zone_value(struct zi_state *st, const char *key, const char *p,
		      const char *eol, size_t off, unsigned flag)
{
	uint64_t v = 0;
	int rc;

	uint64_t *dst;
	size_t f;

	if (!st->z)
		return no_zone(st, key);
	rc = read_value(st, key, p, eol, &v);
	if (rc)
		return rc;
	dst = (uint64_t *)((char *)st->z + off);
	for (f = 0; f < ZI_NCOUNTS && count_off[f] != off; f++)
		;
	if (f < ZI_NCOUNTS) {
		/* a key printed twice in one zone: the last one counts */
		st->total[f] += v - (uint64_t)*dst;
		if (st->total[f] > ZI_MAX_PAGES)
			return wm_fail(st->diag, WM_EPARSE, st->line, key,
				       "'%s' of all zones adds up to more than 2^52 pages, "
				       "more than a 64-bit machine can address", key);
	}
	*dst = v;
	st->z->flags |= flag;
	return WM_OK;
}

/* "nr_inactive_anon N" and its three siblings; other nr_i* / nr_a* lines skipped. */
static int parse_lru(struct zi_state *st, const char *k, const char *eol)
{
	static const char *const keys[ZI_NR_LRU] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	};
	const char *ke = k;
	size_t n, i;

	if (!st->z)
		return WM_OK;	/* a counter before any zone: not ours to judge */
	while (ke < eol && !is_blank(*ke))
		ke++;
	n = (size_t)(ke - k);
	for (i = 0; i < ZI_NR_LRU; i++)
		if (strlen(keys[i]) == n && memcmp(k, keys[i], n) == 0) {
			st->z->has_lru = true;
			return zone_value(st, keys[i], ke, eol,
					  offsetof(struct zi_zone, lru) + i * sizeof(uint64_t), 0);
		}
	return WM_OK;
}

#define KEY_IS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp((k), lit, (n)) == 0)
#define ZV(lit, field, flag) \
	zone_value(st, lit, ke, eol, offsetof(struct zi_zone, field), flag)

/* One line without its newline, leading blanks already skipped. */
static int parse_line(struct zi_state *st, const char *k, const char *eol)
{
	const char *ke = k;
	size_t n;

	/*
	 * Most lines are counters ("nr_...", "numa_...", "workingset_...")
	 * or pageset lines; reject those on their first byte.
	 */
	switch (*k) {
	case 'c':
		/* "count:" of a pageset: not read */
		if (eol - k > 1 && k[1] == 'o')
			return WM_OK;
		break;
	case 'h':
		/*
		 * A pageset's "high:" is not read, nor its "high_min:" and
		 * "high_max:" after the first pageset of a zone.
		 */
		if (eol - k > 4 && (k[4] == ':' || (k[4] == '_' && st->z && !st->pcp_lines)))
			return WM_OK;
		break;
	case 'b':
		/* a "batch:" after the zone's first pageset */
		if (eol - k > 1 && k[1] == 'a' && st->z && !st->pcp_lines)
			return WM_OK;
		break;
	case 'N': case 'p': case 'm': case 'l': case 's':
		break;
	case 'n':
		/* of the counters, only the LRU sizes: nr_inactive_*, nr_active_* */
		if (eol - k > 14 && k[1] == 'r' && k[2] == '_' && (k[3] == 'i' || k[3] == 'a'))
			return parse_lru(st, k, eol);
		return WM_OK;
	default:
		return WM_OK;
	}
	while (ke < eol && !is_blank(*ke) && *ke != ':')
		ke++;
	if (ke < eol && *ke == ':')
		ke++;
	n = (size_t)(ke - k);

	switch (*k) {
	case 'N':
		if (KEY_IS(k, n, "Node"))
			return parse_header(st, k, eol);
		break;
	case 'p':
		if (KEY_IS(k, n, "pages")) {
			const char *v = skip_blanks(ke, eol);

			if (eol - v >= 4 && memcmp(v, "free", 4) == 0 &&
			    (eol - v == 4 || is_blank(v[4])))
				return zone_value(st, "pages free", v + 4, eol,
						  offsetof(struct zi_zone, free),
						  ZI_HAS_FREE);
		} else if (KEY_IS(k, n, "present")) {
			return ZV("present", present, ZI_HAS_PRESENT);
		} else if (KEY_IS(k, n, "promo")) {
			return ZV("promo", promo, ZI_HAS_PROMO);
		} else if (KEY_IS(k, n, "protection:")) {
			if (!st->z)
				return no_zone(st, "protection");
			return parse_protection(st, ke, eol);
		}
		break;
	case 'm':
		if (KEY_IS(k, n, "min"))
			return ZV("min", min, ZI_HAS_MIN);
		if (KEY_IS(k, n, "managed"))
			return ZV("managed", managed, ZI_HAS_MANAGED);
		break;
	case 'l':
		if (KEY_IS(k, n, "low"))
			return ZV("low", low, ZI_HAS_LOW);
		break;
	case 'h':
		if (KEY_IS(k, n, "high"))
			return ZV("high", high, ZI_HAS_HIGH);
		if (n == 9 && memcmp(k, "high_m", 6) == 0 && k[8] == ':') {
			if (!st->z)
				return no_zone(st, "high_min");
			if (k[6] == 'i' && k[7] == 'n')
				return parse_pcp(st, "high_min", ke, eol,
						 &st->z->pcp_high_min,
						 ZI_HAS_HIGH_MIN);
			if (k[6] == 'a' && k[7] == 'x')
				return parse_pcp(st, "high_max", ke, eol,
						 &st->z->pcp_high_max,
						 ZI_HAS_HIGH_MIN);
		}
		break;
	case 'b':
		if (KEY_IS(k, n, "batch:")) {
			if (!st->z)
				return no_zone(st, "batch");
			return parse_pcp(st, "batch", ke, eol,
					 &st->z->pcp_batch, 0);
		}
		if (KEY_IS(k, n, "boost"))
			return ZV("boost", boost, ZI_HAS_BOOST);
		break;
	case 's':
		if (KEY_IS(k, n, "spanned"))
			return ZV("spanned", spanned, ZI_HAS_SPANNED);
		break;
	case 'c':
		if (KEY_IS(k, n, "cpu:")) {
			if (!st->z)
				return no_zone(st, "cpu");
			return parse_cpu(st, ke, eol);
		}
		if (KEY_IS(k, n, "cma"))
			return ZV("cma", cma, ZI_HAS_CMA);
		break;
	}
	return WM_OK;
}

/*
 * Fill *out with the zones of buf[0..len) in file order.  Return WM_OK,
 * WM_ENOMEM, or WM_EPARSE with diag->line and diag->msg; *out is valid
 * for zi_free() in every case.
 */
int zi_parse(const char *buf, size_t len, struct zi_info *out,
	     struct wm_diag *diag)
{
	struct zi_state st = { .zi = out, .diag = diag };
	const char *p, *end, *nl, *eol, *k;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!buf)
		buf = "", len = 0;
	for (p = buf, end = buf + len; p < end;) {
		if (st.line == INT_MAX)
			return wm_fail(diag, WM_EPARSE, st.line, NULL,
				       "too many lines");
		st.line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		eol = nl ? nl : end;
		k = skip_indent(p, eol);
		if (k < eol) {
			rc = parse_line(&st, k, eol);
			if (rc)
				return rc;
		}
		p = nl ? nl + 1 : end;
	}
	if (out->nzones == 0)
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       "no 'Node N, zone NAME' line: not a zoneinfo file");
	return WM_OK;
}

/* Release what zi_parse() allocated and empty *zi; NULL is fine. */
void zi_free(struct zi_info *zi)
{
	if (!zi)
		return;
	free(zi->zones);
	zi->zones = NULL;
	zi->nzones = 0;
	zi->cap = 0;
	zi->nnodes = 0;
}

bool zi_sized(const struct zi_info *zi)
{
	size_t i;

	for (i = 0; i < zi->nzones; i++)
		if (zi->zones[i].flags & (ZI_HAS_MANAGED | ZI_HAS_PRESENT))
			return true;
	return false;
}
