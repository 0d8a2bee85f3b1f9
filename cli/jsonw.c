// SPDX-License-Identifier: MIT
/*
 * jsonw.c - the streaming JSON writer (jsonw.h) and its cJSON layout.
 *
 * The layout is cJSON_Print()'s (cJSON 1.7): an object opens "{\n", each
 * member is depth tabs, the quoted key, ":\t" and the value, members are
 * joined by ",\n", and the object closes with "\n" (when it has members),
 * depth - 1 tabs and "}"; an array is "[" items joined by ", " "]".
 * Numbers are where wmark departs from cJSON (put_double): integers below
 * 2^53 are their digits (cJSON gives 1e+15 from 10^15 on), integers from
 * 2^53 to 2^64 strings of their digits, the rest "%1.15g" unless that does
 * not read back as the same double, then "%1.17g"; NaN and infinities are
 * null.  Strings escape '"', '\\', \b \f \n \r \t and other bytes below
 * 0x20 as \u00XX; every other byte is copied.  cJSON_PrintUnformatted()'s
 * layout has no blanks at all: "key":value joined by ",".
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

static void jw_flush(struct jw *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->err = true;
	w->len = 0;
}

static inline void put(struct jw *w, const char *s, size_t n)
{
	if (w->len + n > sizeof(w->buf)) {
		jw_flush(w);
		if (n > sizeof(w->buf)) {
			if (fwrite(s, 1, n, w->f) != n)
				w->err = true;
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static inline void putch(struct jw *w, char c)
{
	if (w->len == sizeof(w->buf))
		jw_flush(w);
	w->buf[w->len++] = c;
}

static void tabs(struct jw *w, int n)
{
	while (n-- > 0)
		putch(w, '\t');
}

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->err = false;
	w->compact = false;
	w->len = 0;
}

void jw_init_compact(struct jw *w, FILE *f)
{
	jw_init(w, f);
	w->compact = true;
}

static void put_string(struct jw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *run;

	putch(w, '"');
	for (;;) {
		run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		put(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		putch(w, '\\');
		switch (*p) {
		case '"': putch(w, '"'); break;
		case '\\': putch(w, '\\'); break;
		case '\b': putch(w, 'b'); break;
		case '\f': putch(w, 'f'); break;
		case '\n': putch(w, 'n'); break;
		case '\r': putch(w, 'r'); break;
		case '\t': putch(w, 't'); break;
		default:
			put(w, "u00", 3);
			putch(w, hex[*p >> 4]);
			putch(w, hex[*p & 15]);
		}
		p++;
	}
	putch(w, '"');
}

/* What comes before a value: the separator, and in an object the key. */
static void lead(struct jw *w, const char *key)
{
	int d = w->depth;

	if (d == 0)
		return;
	if (w->compact) {
		if (w->count[d - 1]++)
			putch(w, ',');
		if (!w->array[d - 1]) {
			put_string(w, key ? key : "");
			putch(w, ':');
		}
		return;
	}
	if (w->array[d - 1]) {
		if (w->count[d - 1]++)
			put(w, ", ", 2);
		return;
	}
	if (w->count[d - 1]++)
		put(w, ",\n", 2);
	tabs(w, d);
	put_string(w, key ? key : "");
	put(w, ":\t", 2);
}

static void open_level(struct jw *w, const char *key, bool array)
{
	lead(w, key);
	if (w->depth == JW_MAX_DEPTH) {
		w->err = true;
		return;
	}
	w->array[w->depth] = array;
	w->count[w->depth] = 0;
	w->depth++;
	if (array || w->compact)
		putch(w, array ? '[' : '{');
	else
		put(w, "{\n", 2);
}

void jw_obj_open(struct jw *w, const char *key)
{
	open_level(w, key, false);
}

void jw_arr_open(struct jw *w, const char *key)
{
	open_level(w, key, true);
}

void jw_close(struct jw *w)
{
	int d = w->depth;

	if (d == 0) {
		w->err = true;
		return;
	}
	w->depth--;
	if (w->array[d - 1] || w->compact) {
		putch(w, w->array[d - 1] ? ']' : '}');
		return;
	}
	if (w->count[d - 1])
		putch(w, '\n');
	tabs(w, d - 1);
	putch(w, '}');
}

void jw_null(struct jw *w, const char *key)
{
	lead(w, key);
	put(w, "null", 4);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	lead(w, key);
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	lead(w, key);
	put_string(w, s ? s : "");
}

void jw_raw(struct jw *w, const char *key, const char *text)
{
	lead(w, key);
	put(w, text, strlen(text));
}

/* cJSON's own test of a "%1.15g" round trip. */
static bool same_double(double a, double b)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= m * DBL_EPSILON;
}

/*
 * The one rule for a JSON number, whatever the command: an integer below
 * 2^53 is its digits (never exponent notation, which readers take for a
 * float); an integer of 2^53 or more, up to 2^64, a string of its digits
 * (past 2^53 a JSON number cannot tell it from its neighbours: wmark(1),
 * JSON OUTPUT); anything else as cJSON prints it, "%1.15g" when that
 * reads back, else "%1.17g".  NaN and infinities are null.
 */
static void put_double(struct jw *w, double v)
{
	char b[40];
	double back;
	int n;

	if (isnan(v) || isinf(v)) {
		put(w, "null", 4);
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v))) {
		char *e = b + sizeof(b);
		char *s = fmt_digits_before(e, (long long)v);

		put(w, s, (size_t)(e - s));
		return;
	}
	if (v == floor(v) && fabs(v) >= 9007199254740992.0 && fabs(v) < 18446744073709551616.0) {
		n = snprintf(b, sizeof(b), "\"%.0f\"", v);
		put(w, b, (size_t)n);
		return;
	}
	n = snprintf(b, sizeof(b), "%1.15g", v);
	if (sscanf(b, "%lg", &back) != 1 || !same_double(back, v))
		n = snprintf(b, sizeof(b), "%1.17g", v);
	put(w, b, (size_t)n);
}

void jw_double(struct jw *w, const char *key, double v)
{
	lead(w, key);
	put_double(w, v);
}

void jw_long(struct jw *w, const char *key, int64_t v)
{
	char b[24], *e = b + sizeof(b), *s;

	lead(w, key);
	/* put_double()'s rule, from the integer itself: a string past 2^53 */
	s = fmt_digits_before(e, (long long)v);
	if ((long long)v > -(1LL << 53) && (long long)v < (1LL << 53)) {
		put(w, s, (size_t)(e - s));
		return;
	}
	putch(w, '"');
	put(w, s, (size_t)(e - s));
	putch(w, '"');
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	char b[24];
	int l;

	if (v < (1ull << 53)) {
		jw_long(w, key, (int64_t)v);
		return;
	}
	lead(w, key);
	l = snprintf(b, sizeof(b), "\"%llu\"", (unsigned long long)v);
	put(w, b, (size_t)l);
}

void jw_long_or_null(struct jw *w, const char *key, int64_t v)
{
	if (v == RV_NONE)
		jw_null(w, key);
	else
		jw_long(w, key, v);
}

static void jw_cjson_members(struct jw *w, const cJSON *o)
{
	const cJSON *c;

	for (c = o->child; c; c = c->next)
		jw_cjson(w, c->string, c);
}

void jw_cjson(struct jw *w, const char *key, const cJSON *item)
{
	const cJSON *c;

	switch (item->type & 0xff) {
	case cJSON_False:
		jw_bool(w, key, false);
		break;
	case cJSON_True:
		jw_bool(w, key, true);
		break;
	case cJSON_NULL:
		jw_null(w, key);
		break;
	case cJSON_Number:
		jw_double(w, key, item->valuedouble);
		break;
	case cJSON_String:
		jw_str(w, key, item->valuestring);
		break;
	case cJSON_Raw:
		jw_raw(w, key, item->valuestring ? item->valuestring : "");
		break;
	case cJSON_Array:
		jw_arr_open(w, key);
		for (c = item->child; c; c = c->next)
			jw_cjson(w, NULL, c);
		jw_close(w);
		break;
	case cJSON_Object:
		jw_obj_open(w, key);
		jw_cjson_members(w, item);
		jw_close(w);
		break;
	default:	/* cJSON_Invalid: cJSON_Print fails on it */
		w->err = true;
	}
}

void jw_fmt_value(struct jw *w, const char *key, enum fmt_unit u, struct fmt_val v)
{
	char s[32];

	if (!v.ok) {
		jw_null(w, key);
		return;
	}
	switch (u) {
	case FMT_PAGES:
	case FMT_WSF:
		jw_long(w, key, v.n);
		break;
	case FMT_BOOL:
		jw_bool(w, key, v.n != 0);
		break;
	case FMT_COUNT:
	case FMT_NS:
		if (v.x >= 9007199254740992.0) {
			snprintf(s, sizeof(s), "%.0f", v.x);
			jw_str(w, key, s);
		} else {
			jw_double(w, key, trunc(v.x));	/* no cast: v.x may be negative */
		}
		break;
	case FMT_SHARE:
	case FMT_MIB:
		jw_double(w, key, v.x);
		break;
	}
}

void jw_fmt_fields(struct jw *w, const struct fmt_field *fs, size_t nf, unsigned cols,
		   const void *row)
{
	size_t k;

	for (k = 0; k < nf; k++)
		if (fmt_shown(&fs[k], cols, 0))
			jw_fmt_value(w, fs[k].json, fs[k].unit, fmt_value(&fs[k], row));
}

int jw_finish(struct jw *w)
{
	if (w->depth)
		w->err = true;
	putch(w, '\n');
	jw_flush(w);
	return w->err ? -1 : 0;
}
