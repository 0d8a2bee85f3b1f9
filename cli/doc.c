// SPDX-License-Identifier: MIT
/*
 * doc.c - one description of a command's output, text or JSON (doc.h).
 */
#include <inttypes.h>
#include <stdarg.h>

#include "doc.h"

void doc_begin(struct doc *d, enum cli_format format, FILE *f)
{
	d->format = format;
	d->f = f;
	d->width = NULL;
	d->page_size = 0;
	if (doc_is_json(d)) {
		jw_init(&d->w, f);
		jw_obj_open(&d->w, NULL);
	}
}

void doc_begin_line(struct doc *d, enum cli_format format, FILE *f)
{
	d->format = format;
	d->f = f;
	d->width = NULL;
	d->page_size = 0;
	if (doc_is_json(d)) {
		jw_init_compact(&d->w, f);
		jw_obj_open(&d->w, NULL);
	}
}

int doc_end(struct doc *d)
{
	if (!doc_is_json(d))
		return ferror(d->f) ? EXIT_SYSTEM : EXIT_OK;
	jw_close(&d->w);
	return jw_finish(&d->w) ? EXIT_SYSTEM : EXIT_OK;
}

void doc_obj(struct doc *d, const char *key)
{
	if (doc_is_json(d))
		jw_obj_open(&d->w, key);
}

void doc_arr(struct doc *d, const char *key)
{
	if (doc_is_json(d))
		jw_arr_open(&d->w, key);
}

void doc_close(struct doc *d)
{
	if (doc_is_json(d))
		jw_close(&d->w);
}

void doc_text(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (doc_is_json(d))
		return;
	va_start(ap, fmt);
	vfprintf(d->f, fmt, ap);
	va_end(ap);
}

void doc_log(enum cli_format format, FILE *f, const char *fmt, ...)
{
	va_list ap;

	if (format != FMT_TEXT)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}

/* The text of one value: fmt with v, when text is the sink and there is a fmt. */
#define TEXT(d, fmt, v) do { \
		if (!doc_is_json(d) && (fmt)) \
			fprintf((d)->f, (fmt), (v)); \
	} while (0)

/* Formats are the caller's literals, checked where they are written. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void doc_str(struct doc *d, const char *key, const char *fmt, const char *v)
{
	if (doc_is_json(d) && key)
		jw_str(&d->w, key, v);
	TEXT(d, fmt, v);
}

void doc_u64(struct doc *d, const char *key, const char *fmt, uint64_t v)
{
	if (doc_is_json(d) && key)
		jw_u64(&d->w, key, v);
	TEXT(d, fmt, v);
}

void doc_long(struct doc *d, const char *key, const char *fmt, int64_t v)
{
	if (doc_is_json(d) && key)
		jw_long(&d->w, key, v);
	TEXT(d, fmt, v);
}

void doc_double(struct doc *d, const char *key, const char *fmt, double v)
{
	if (doc_is_json(d) && key)
		jw_double(&d->w, key, v);
	TEXT(d, fmt, v);
}

void doc_bool(struct doc *d, const char *key, const char *fmt, bool v)
{
	if (doc_is_json(d) && key)
		jw_bool(&d->w, key, v);
	TEXT(d, fmt, v ? "yes" : "no");
}

void doc_item_str(struct doc *d, const char *fmt, const char *v)
{
	if (doc_is_json(d))
		jw_str(&d->w, NULL, v);
	TEXT(d, fmt, v);
}

#pragma GCC diagnostic pop

void doc_item_long(struct doc *d, int64_t v)
{
	if (doc_is_json(d))
		jw_long(&d->w, NULL, v);
}

void doc_item_double(struct doc *d, double v)
{
	if (doc_is_json(d))
		jw_double(&d->w, NULL, v);
}

void doc_null(struct doc *d, const char *key)
{
	if (doc_is_json(d))
		jw_null(&d->w, key);
}

void doc_long_or_null(struct doc *d, const char *key, int64_t v)
{
	if (doc_is_json(d))
		jw_long_or_null(&d->w, key, v);
}

void doc_unit(struct doc *d, const char *key, enum fmt_unit u, struct fmt_val v)
{
	if (doc_is_json(d))
		jw_fmt_value(&d->w, key, u, v);
}

void doc_fields(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		const void *row)
{
	if (doc_is_json(d))
		jw_fmt_fields(&d->w, fs, nf, cols, row);
	else
		fmt_text_cells(d->f, fs, nf, d->width, cols, d->page_size, row);
}

void doc_cells(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
	       const void *row)
{
	if (!doc_is_json(d))
		fmt_text_cells(d->f, fs, nf, d->width, cols, d->page_size, row);
}

void doc_members(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		 const void *row)
{
	if (doc_is_json(d))
		jw_fmt_fields(&d->w, fs, nf, cols, row);
}

void doc_record(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		const void *row)
{
	if (doc_is_json(d))
		jw_fmt_fields(&d->w, fs, nf, cols, row);
	else
		fmt_text_record(d->f, fs, nf, cols, row);
}

void doc_header(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols)
{
	if (!doc_is_json(d))
		fmt_text_header(d->f, fs, nf, d->width, cols, d->page_size);
}

