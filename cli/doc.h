/* SPDX-License-Identifier: MIT */
/*
 * doc.h - one description of a command's output, written to the sink the
 * user asked for: text or JSON (Prometheus families go through
 * fmt_prom_head and fmt_field's prom names).
 *
 * A command says each value once, with its JSON key and the text it is
 * printed with: doc_u64(d, "exits", "%" PRIu64 " exit records", n) is a
 * member "exits" in JSON and the words in text.  A key of NULL is a value
 * only the text has, a format of NULL one only JSON has; objects and
 * arrays are JSON's (text has none), and doc_text() is prose only text
 * has.  A record of a fmt_field table is one call, doc_fields(): its
 * cells in text, its members in JSON.  As iproute2's print_*(PRINT_ANY,
 * key, fmt, v) does, so text and JSON cannot drift apart.
 *
 * JSON is streamed through jsonw.c in cJSON_Print()'s layout.
 */
#ifndef WMARK_DOC_H
#define WMARK_DOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "fmt.h"
#include "jsonw.h"

struct doc {
	enum cli_format format;		/* FMT_TEXT or FMT_JSON */
	FILE *f;
	struct jw w;			/* the JSON sink */
	const int *width;		/* text: column widths of the table being written (NULL: each cell its own) */
	unsigned page_size;		/* text: its page size, for cells in MiB (0: none) */
};

/* Start a document on f in format (FMT_JSON opens the top object). */
void doc_begin(struct doc *d, enum cli_format format, FILE *f);

/*
 * Start a document on f in format whose JSON is one line,
 * cJSON_PrintUnformatted()'s layout: a machine of a fleet, one line each.
 */
void doc_begin_line(struct doc *d, enum cli_format format, FILE *f);

/* End it (JSON: the top object closed and flushed); EXIT_OK, or EXIT_SYSTEM on a write error. */
int doc_end(struct doc *d);

static inline bool doc_is_json(const struct doc *d)
{
	return d->format == FMT_JSON;
}

/* Is the sink text?  The helpers that write only text (prose, aligned tables) ask this. */
static inline bool doc_is_text(const struct doc *d)
{
	return d->format == FMT_TEXT;
}

/*
 * Is what d writes out as it is written (text), or whole only at doc_end
 * (JSON)?  A command that reports as it works says its warnings and checks
 * its output before acting on the first, and gathers them into the
 * document on the second.
 */
static inline bool doc_is_streamed(const struct doc *d)
{
	return doc_is_text(d);
}

/*
 * A line of prose outside any document, on f: a command whose output is a
 * stream of one-line documents (tune) says what it starts and stops with
 * in text; JSON's stream holds objects only, so there it says nothing.
 */
void doc_log(enum cli_format format, FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* JSON's structure: an object or array under key (NULL inside an array), and its end. */
void doc_obj(struct doc *d, const char *key);
void doc_arr(struct doc *d, const char *key);
void doc_close(struct doc *d);

/* Prose only the text has. */
void doc_text(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A value: member key in JSON (NULL: none), fmt with the value in text (NULL: none). */
void doc_str(struct doc *d, const char *key, const char *fmt, const char *v);
void doc_u64(struct doc *d, const char *key, const char *fmt, uint64_t v);
void doc_long(struct doc *d, const char *key, const char *fmt, int64_t v);
void doc_double(struct doc *d, const char *key, const char *fmt, double v);
void doc_bool(struct doc *d, const char *key, const char *fmt, bool v);	/* text: fmt with "yes"/"no" */
void doc_null(struct doc *d, const char *key);				/* JSON only */
void doc_long_or_null(struct doc *d, const char *key, int64_t v);	/* JSON only: null for RV_NONE */

/* An item of the JSON array open (text: fmt with v, if fmt). */
void doc_item_str(struct doc *d, const char *fmt, const char *v);
void doc_item_long(struct doc *d, int64_t v);			/* JSON only */
void doc_item_double(struct doc *d, double v);			/* JSON only */

/* A value as unit u prints it (fmt.h): JSON only. */
void doc_unit(struct doc *d, const char *key, enum fmt_unit u, struct fmt_val v);

/*
 * A record of the table fs[nf] with column bits cols: in text its cells
 * (fmt_text_cells, widths NULL), in JSON its fields as members.
 */
void doc_fields(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		const void *row);

/* The cells of a row of the table fs[nf] in text only (a table JSON gives in another shape). */
void doc_cells(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
	       const void *row);

/* The fields of a row of fs[nf] as members in JSON only (text says them in its own words). */
void doc_members(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		 const void *row);

/*
 * A record of fs[nf] as prose: in text "header cell" pairs joined by ", "
 * (fmt_text_record), in JSON its fields as members.
 */
void doc_record(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols,
		const void *row);

/* The text header of the table fs[nf] with column bits cols (fmt_text_header); nothing in JSON. */
void doc_header(struct doc *d, const struct fmt_field *fs, size_t nf, unsigned cols);

/*
 * The text column widths (fmt_widths) and page size that doc_header,
 * doc_fields and doc_cells use from now on, for a table whose cells line
 * up and whose pages show in MiB; NULL and 0: none.
 */
static inline void doc_table(struct doc *d, const int *width, unsigned page_size)
{
	d->width = width;
	d->page_size = page_size;
}

#endif /* WMARK_DOC_H */
