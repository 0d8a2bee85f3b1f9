/* SPDX-License-Identifier: MIT */
/*
 * jsonw.h - a streaming JSON writer for large documents.
 *
 * cJSON builds a tree of one malloc'd node per value and prints numbers
 * with a "%1.15g" round trip each: fine for a few hundred values, most of
 * the time of `show -j` on a machine with thousands of zones.  This writer
 * prints as it goes, into a buffer flushed to a FILE, in exactly the
 * layout cJSON_Print() gives (tabs, "key":<TAB>value, ", " between array
 * items, the same string forms), and numbers by wmark's one rule
 * (jw_double), so a cJSON tree written through jw_cjson() reads the
 * same as the same document written call by call (the tests compare
 * the writer with cJSON that way).
 *
 * Calls take a key inside an object and NULL inside an array or at the
 * top.  Nothing is checked at run time beyond the nesting depth: the
 * caller writes a well-formed document (tests/unit/test_jsonw.c compares
 * every form with cJSON's own print of the parsed output).
 */
#ifndef WMARK_JSONW_H
#define WMARK_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "fmt.h"

#define JW_MAX_DEPTH 32
#define JW_BUF 65536

struct jw {
	FILE *f;
	int depth;			/* open objects and arrays */
	bool array[JW_MAX_DEPTH];	/* level d is an array, not an object */
	uint64_t count[JW_MAX_DEPTH];	/* values written at level d */
	bool err;			/* a write failed or nesting overflowed */
	bool compact;			/* cJSON_PrintUnformatted()'s layout */
	size_t len;
	char buf[JW_BUF];
};

/* Start a document written to f, laid out as cJSON_Print() does. */
void jw_init(struct jw *w, FILE *f);

/* Or on one line, as cJSON_PrintUnformatted() does. */
void jw_init_compact(struct jw *w, FILE *f);

/* Open an object or array as the value of key (NULL: array item or top). */
void jw_obj_open(struct jw *w, const char *key);
void jw_arr_open(struct jw *w, const char *key);
void jw_close(struct jw *w);

/* Scalars, as cJSON prints them. */
void jw_null(struct jw *w, const char *key);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_str(struct jw *w, const char *key, const char *s);
/*
 * A number, by the one rule of every JSON document wmark prints: an
 * integer below 2^53 as its digits, an integer of 2^53 up to 2^64 as a
 * string of its digits, other values as cJSON prints them, NaN and
 * infinities as null.
 */
void jw_double(struct jw *w, const char *key, double v);
/* An integer exactly: jw_double's rule, from the integer (no double in between). */
void jw_long(struct jw *w, const char *key, int64_t v);
/* An unsigned 64-bit counter by the same rule: digits below 2^53, else a string. */
void jw_u64(struct jw *w, const char *key, uint64_t v);
/* jw_long, or null when v == RV_NONE. */
void jw_long_or_null(struct jw *w, const char *key, int64_t v);
/* Digits or other JSON text as it is (cJSON_CreateRaw). */
void jw_raw(struct jw *w, const char *key, const char *text);

/* A cJSON value (and everything under it) as the value of key. */
void jw_cjson(struct jw *w, const char *key, const cJSON *item);

/* v under key as unit u prints it in JSON: null when !v.ok, counts past 2^53 as strings. */
void jw_fmt_value(struct jw *w, const char *key, enum fmt_unit u, struct fmt_val v);

/* The fields of fs[nf] a table with column bits cols has (fmt_shown), from row, as members. */
void jw_fmt_fields(struct jw *w, const struct fmt_field *fs, size_t nf, unsigned cols,
		   const void *row);

/*
 * End the document with a newline (as puts() after cJSON_Print) and flush
 * it.  Return 0, or -1 when a write failed or the nesting was too deep.
 */
int jw_finish(struct jw *w);

#endif /* WMARK_JSONW_H */
