/* SPDX-License-Identifier: MIT */
/*
 * fmt.h - one field descriptor for every table wmark prints.
 *
 * A table is an array of struct fmt_field, one row per column: text
 * header, JSON key, Prometheus name and help, unit, and where the value
 * is (an offset into the table's row struct, or a getter).  The unit
 * alone decides how a value looks: one text cell formatter and one JSON
 * emitter per unit, shared by every table (report.c's zones, recommend's
 * zones, stalls' delays), so a new column is one row, never two printers.
 */
#ifndef WMARK_FMT_H
#define WMARK_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RV_NONE (-1L)	/* a value the source does not have: JSON null, text "-" */

/* Units whose value is a long (fmt_val.n) come first, through FMT_BOOL. */
enum fmt_unit {
	FMT_PAGES,	/* a page count: "%ld", or MiB in a table shown in MiB */
	FMT_WSF,	/* a watermark_scale_factor: "%ld"; any v < 0 is no value */
	FMT_BOOL,	/* 0 or 1: text "no"/"yes", JSON false/true */
	FMT_COUNT,	/* an event count held as a double: "%.0f" */
	FMT_NS,		/* nanoseconds: "950ns", "1.5us", "2.25ms", "1.000s" */
	FMT_SHARE,	/* a fraction: text "12.34%", JSON the fraction itself */
	FMT_MIB,	/* MiB held as a double: text "12.5M", JSON the number */
};

/* A field's value in one row. */
struct fmt_val {
	bool ok;	/* false: none (text "-", JSON null, no Prometheus sample) */
	int64_t n;		/* FMT_PAGES, FMT_WSF, FMT_BOOL */
	double x;	/* FMT_COUNT, FMT_NS, FMT_SHARE, FMT_MIB */
};

enum {
	FMT_F_NO_MIB = 1u << 0,	/* left out of a table shown in MiB */
	FMT_F_GROUP = 1u << 1,	/* starts a group of columns: three blanks before it */
};

struct fmt_field {
	const char *header;	/* text column header */
	const char *json;	/* JSON key */
	const char *prom;	/* Prometheus family, NULL if not exported */
	const char *help;	/* Prometheus HELP text, with prom */
	enum fmt_unit unit;
	size_t off;		/* without get: offset of a long in the row struct */
	/* Or set *v from row; return false when there is no value. */
	bool (*get)(const void *row, double *v);
	unsigned need;		/* the table's column bits, all required; 0 = always */
	unsigned flags;		/* FMT_F_* */
	int width;		/* text column width; 0: the widest cell or header */
};

/*
 * Return whether f is a column of a table that has the column bits cols,
 * shown in MiB when mib_ps (the page size) is not 0.
 */
bool fmt_shown(const struct fmt_field *f, unsigned cols, unsigned mib_ps);

/*
 * Return f's value in row.  A long at f->off is no value when it is
 * RV_NONE (for FMT_WSF, when it is below 0); a getter says so itself.
 */
struct fmt_val fmt_value(const struct fmt_field *f, const void *row);

/*
 * Put f's text cell of row into buf (n bytes): "-" when there is no
 * value; page counts in MiB at page size mib_ps, or in pages when mib_ps
 * is 0.  Return the text's length.
 */
size_t fmt_cell(char *buf, size_t n, const struct fmt_field *f, const void *row,
		unsigned mib_ps);

/*
 * Fill width[nf] for the table fs[nf] over n rows (stride bytes apart from
 * rows): a field's own width, else the widest of its header and cells.
 */
void fmt_widths(const struct fmt_field *fs, size_t nf, const void *rows, size_t stride,
		size_t n, unsigned mib_ps, int *width);

/*
 * Print " header" for each field of fs[nf] shown (fmt_shown), right
 * aligned to width[] (NULL: each field's own width).  No newline.
 */
void fmt_text_header(FILE *f, const struct fmt_field *fs, size_t nf, const int *width,
		     unsigned cols, unsigned mib_ps);

/* Print " cell" for each field shown, as fmt_text_header.  No newline. */
void fmt_text_cells(FILE *f, const struct fmt_field *fs, size_t nf, const int *width,
		    unsigned cols, unsigned mib_ps, const void *row);

/*
 * Print the fields of fs[nf] shown (fmt_shown) as one record: "header
 * cell" pairs joined by ", ", cells in pages.  No newline.
 */
void fmt_text_record(FILE *f, const struct fmt_field *fs, size_t nf, unsigned cols,
		     const void *row);

/* v's digits as "%ld" prints them into buf (24 bytes); return their length. */
size_t fmt_long(char *buf, int64_t v);

/*
 * v's digits and sign written right to left, the last just before end
 * (at most 20 bytes before it); return where they start.
 */
char *fmt_digits_before(char *end, long long v);

/* s on f, padded with blanks to width: on the right when left, else before. */
void fmt_put_padded(FILE *f, const char *s, int width, bool left);

/*
 * A Prometheus family's head on f: "# HELP PREFIXNAME HELP" and "# TYPE
 * PREFIXNAME TYPE" (gauge, counter).  Every family wmark exports starts
 * here.
 */
void fmt_prom_head(FILE *f, const char *prefix, const char *name, const char *help,
		   const char *type);

/* pages -> MiB with one decimal, into buf ("-" for RV_NONE). */
const char *fmt_mib(char *buf, size_t n, int64_t pages, unsigned page_size);

#endif /* WMARK_FMT_H */
