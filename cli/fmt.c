// SPDX-License-Identifier: MIT
/*
 * fmt.c - the field descriptor's readers: a value, its text cell and its
 * JSON form, each decided by the unit alone, and the JSON number helpers.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "fmt.h"

/*
 * The text printers below run once per cell of tables with thousands of
 * rows (show on a large machine): they put digits and blanks themselves
 * rather than parse a printf format per cell, and print exactly what
 * "%ld", "%*s" and "%.1f" would.
 */

char *fmt_digits_before(char *end, long long v)
{
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--end = '-';
	return end;
}

size_t fmt_long(char *buf, int64_t v)
{
	char tmp[24], *e = tmp + sizeof(tmp), *p = fmt_digits_before(e, v);

	memcpy(buf, p, (size_t)(e - p));
	buf[e - p] = 0;
	return (size_t)(e - p);
}

/* n blanks on f, a run at a time. */
static void put_blanks(FILE *f, int n)
{
	static const char blanks[] = "                                ";

	while (n > 0) {
		int k = n < (int)sizeof(blanks) - 1 ? n : (int)sizeof(blanks) - 1;

		fwrite_unlocked(blanks, 1, (size_t)k, f);
		n -= k;
	}
}

/* s[0..n) on f, padded with blanks to width. */
static void put_padded_n(FILE *f, const char *s, size_t n, int width, bool left)
{
	int pad = width > (int)n ? width - (int)n : 0;

	if (left)
		fwrite_unlocked(s, 1, n, f);
	put_blanks(f, pad);
	if (!left)
		fwrite_unlocked(s, 1, n, f);
}

void fmt_put_padded(FILE *f, const char *s, int width, bool left)
{
	put_padded_n(f, s, strlen(s), width, left);
}

bool fmt_shown(const struct fmt_field *f, unsigned cols, unsigned mib_ps)
{
	return (f->need & cols) == f->need && !(mib_ps && (f->flags & FMT_F_NO_MIB));
}

/* Whether v, the long of an offset field f, is a value ("-" when not). */
static inline bool long_ok(const struct fmt_field *f, int64_t v)
{
	return v != RV_NONE && !(f->unit == FMT_WSF && v < 0);
}

struct fmt_val fmt_value(const struct fmt_field *f, const void *row)
{
	struct fmt_val v = { 0 };

	if (f->get) {
		v.ok = f->get(row, &v.x);
		/*
		 * a counter's double may not fit an int64_t: convert only
		 * integer units, and only a value the type holds (-INT64_MIN
		 * is 2^63, exact as a double); outside it there is no value,
		 * never a conversion whose result is undefined
		 */
		if (v.ok && f->unit <= FMT_BOOL) {
			if (v.x >= (double)INT64_MIN && v.x < -(double)INT64_MIN)
				v.n = (int64_t)v.x;
			else
				v.ok = false;
		}
		return v;
	}
	v.n = *(const int64_t *)((const char *)row + f->off);
	v.x = (double)v.n;
	v.ok = long_ok(f, v.n);
	return v;
}

static void fmt_ns(char *buf, size_t n, double ns)
{
	if (ns < 1e3)
		snprintf(buf, n, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, n, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, n, "%.2fms", ns / 1e6);
	else
		snprintf(buf, n, "%.3fs", ns / 1e9);
}

size_t fmt_cell(char *buf, size_t n, const struct fmt_field *f, const void *row,
		unsigned mib_ps)
{
	struct fmt_val v = fmt_value(f, row);

	if (!v.ok) {
		if (n < 2)
			return n ? (buf[0] = 0) : 0;
		buf[0] = '-';
		buf[1] = 0;
		return 1;
	}
	switch (f->unit) {
	case FMT_PAGES:
		if (mib_ps) {
			fmt_mib(buf, n, v.n, mib_ps);
			break;
		}
		/* fall through */
	case FMT_WSF:
		if (n >= 24)
			return fmt_long(buf, v.n);
		snprintf(buf, n, "%" PRId64 "", v.n);
		break;
	case FMT_BOOL:
		snprintf(buf, n, "%s", v.n ? "yes" : "no");
		break;
	case FMT_COUNT:
		snprintf(buf, n, "%.0f", v.x);
		break;
	case FMT_NS:
		fmt_ns(buf, n, v.x);
		break;
	case FMT_SHARE:
		snprintf(buf, n, "%.2f%%", v.x * 100);
		break;
	case FMT_MIB:
		snprintf(buf, n, "%.1fM", v.x);
		break;
	}
	return strlen(buf);
}

/* The digits of v as "%ld" prints them. */
static int long_len(int64_t v)
{
	uint64_t u = v < 0 ? 0ul - (uint64_t)v : (uint64_t)v;
	int k = v < 0 ? 2 : 1;

	while (u >= 10) {
		u /= 10;
		k++;
	}
	return k;
}

/* Whether f's value is a long at f->off, printed as its digits or in MiB. */
static bool long_unit(const struct fmt_field *f)
{
	return !f->get && (f->unit == FMT_PAGES || f->unit == FMT_WSF);
}

/* The length of fmt_cell()'s text for the value v of such a field. */
static int long_cell_len(const struct fmt_field *f, int64_t v, unsigned mib_ps)
{
	char buf[32];

	if (f->unit == FMT_PAGES && mib_ps)
		return (int)strlen(fmt_mib(buf, sizeof(buf), v, mib_ps));
	return long_len(v);
}

/*
 * The widest cell of a long_unit() column over n rows.  A cell's length
 * never shrinks as the value moves away from 0 on either side (more
 * digits; MiB rounds a larger count to a number no smaller), so the
 * largest and the smallest value have the widest cells, and a row
 * without a value has "-": a scan for two values instead of a cell
 * printed per row (the width pass of a table of thousands of zones).
 */
static int long_column_len(const struct fmt_field *f, const char *rows, size_t stride,
			   size_t n, unsigned mib_ps)
{
	int64_t hi = 0, lo = 0, v;
	bool any = false, none = false;
	int len, w;
	size_t i;

	for (i = 0; i < n; i++) {
		v = *(const int64_t *)(const void *)(rows + i * stride + f->off);
		if (!long_ok(f, v)) {
			none = true;
			continue;
		}
		if (!any || v > hi)
			hi = v;
		if (!any || v < lo)
			lo = v;
		any = true;
	}
	len = none ? 1 : 0;
	if (any) {
		w = long_cell_len(f, hi, mib_ps);
		len = w > len ? w : len;
		w = long_cell_len(f, lo, mib_ps);
		len = w > len ? w : len;
	}
	return len;
}

/* The blanks before a column, and how many. */
static const char *fmt_sep(const struct fmt_field *f)
{
	return (f->flags & FMT_F_GROUP) ? "   " : " ";
}

static size_t fmt_sep_len(const struct fmt_field *f)
{
	return (f->flags & FMT_F_GROUP) ? 3 : 1;
}

void fmt_widths(const struct fmt_field *fs, size_t nf, const void *rows, size_t stride,
		size_t n, unsigned mib_ps, int *width)
{
	char buf[32];
	size_t i, k;
	int len;

	for (k = 0; k < nf; k++) {
		width[k] = fs[k].width;
		if (width[k])
			continue;
		width[k] = (int)strlen(fs[k].header);
		if (long_unit(&fs[k])) {
			len = long_column_len(&fs[k], rows, stride, n, mib_ps);
			if (len > width[k])
				width[k] = len;
			continue;
		}
		for (i = 0; i < n; i++) {
			len = (int)fmt_cell(buf, sizeof(buf), &fs[k],
					    (const char *)rows + i * stride, mib_ps);
			if (len > width[k])
				width[k] = len;
		}
	}
}

void fmt_text_header(FILE *f, const struct fmt_field *fs, size_t nf, const int *width,
		     unsigned cols, unsigned mib_ps)
{
	size_t k;

	for (k = 0; k < nf; k++)
		if (fmt_shown(&fs[k], cols, mib_ps)) {
			fputs_unlocked(fmt_sep(&fs[k]), f);
			fmt_put_padded(f, fs[k].header, width ? width[k] : fs[k].width, false);
		}
}

/*
 * lead blanks and the digits of v (or "-" when f has no value there),
 * right-aligned in w columns or wider when they need it, at p; return
 * the end.  The digits go right to left into place: what fmt_cell() and
 * a copy would put, without the copy (the cells of a table of thousands
 * of zones).
 */
static char *put_long_cell(char *p, size_t lead, int w, const struct fmt_field *f, int64_t v)
{
	bool ok = long_ok(f, v);
	int len = ok ? long_len(v) : 1;
	char *end = p + lead + (size_t)(w > len ? w : len), *q;

	if (ok) {
		q = fmt_digits_before(end, v);
	} else {
		q = end - 1;
		*q = '-';
	}
	memset(p, ' ', (size_t)(q - p));
	return end;
}

void fmt_text_cells(FILE *f, const struct fmt_field *fs, size_t nf, const int *width,
		    unsigned cols, unsigned mib_ps, const void *row)
{
	/* the row is put together here and written once: one stdio call a row */
	char line[1024], cell[32], *p = line;
	size_t k, len, sep;

	for (k = 0; k < nf; k++) {
		int w, pad;

		if (!fmt_shown(&fs[k], cols, mib_ps))
			continue;
		w = width ? width[k] : fs[k].width;
		if ((size_t)(line + sizeof(line) - p) < (size_t)(w > 32 ? w : 32) + 8) {
			fwrite_unlocked(line, 1, (size_t)(p - line), f);
			p = line;
		}
		if (w > 512) {	/* no header is that wide; stay correct anyway */
			char buf[32];

			fwrite_unlocked(line, 1, (size_t)(p - line), f);
			p = line;
			len = fmt_cell(buf, sizeof(buf), &fs[k], row, mib_ps);
			fputs_unlocked(fmt_sep(&fs[k]), f);
			put_padded_n(f, buf, len, w, false);
			continue;
		}
		if (long_unit(&fs[k]) && !(fs[k].unit == FMT_PAGES && mib_ps)) {
			p = put_long_cell(p, fmt_sep_len(&fs[k]), w, &fs[k],
					  *(const int64_t *)(const void *)((const char *)row + fs[k].off));
			continue;
		}
		len = fmt_cell(cell, sizeof(cell), &fs[k], row, mib_ps);
		pad = w > (int)len ? w - (int)len : 0;
		sep = fmt_sep_len(&fs[k]) + (size_t)pad;
		memset(p, ' ', sep);
		memcpy(p + sep, cell, len);
		p += sep + len;
	}
	fwrite_unlocked(line, 1, (size_t)(p - line), f);
}

void fmt_text_record(FILE *f, const struct fmt_field *fs, size_t nf, unsigned cols,
		     const void *row)
{
	char buf[32];
	bool first = true;
	size_t k, len;

	for (k = 0; k < nf; k++) {
		if (!fmt_shown(&fs[k], cols, 0))
			continue;
		len = fmt_cell(buf, sizeof(buf), &fs[k], row, 0);
		if (!first)
			fwrite_unlocked(", ", 1, 2, f);
		fputs_unlocked(fs[k].header, f);
		putc_unlocked(' ', f);
		fwrite_unlocked(buf, 1, len, f);
		first = false;
	}
}

const char *fmt_mib(char *buf, size_t n, int64_t pages, unsigned page_size)
{
	if (pages == RV_NONE) {
		snprintf(buf, n, "-");
	} else if (pages >= 0 && (uint64_t)pages < ((uint64_t)1 << 36) && page_size <= 65536 && n >= 24) {
		/*
		 * pages * page_size / 2^20 is exact in a double here, so "%.1f"
		 * rounds the exact value to tenths, ties to even: the same in
		 * integers.
		 */
		uint64_t t = (uint64_t)pages * page_size * 10;
		uint64_t q = t >> 20, r = t & ((1u << 20) - 1);
		size_t k;

		if (r > (1u << 19) || (r == (1u << 19) && (q & 1)))
			q++;
		k = fmt_long(buf, (int64_t)(q / 10));
		buf[k] = '.';
		buf[k + 1] = (char)('0' + q % 10);
		buf[k + 2] = 0;
	} else {
		snprintf(buf, n, "%.1f", (double)pages * page_size / (1024.0 * 1024.0));
	}
	return buf;
}

void fmt_prom_head(FILE *f, const char *prefix, const char *name, const char *help,
		   const char *type)
{
	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", prefix, name, help, prefix, name, type);
}
