// SPDX-License-Identifier: MIT
/*
 * test_jsonw.c - the streaming JSON writer prints exactly what cJSON
 * prints: each document is written twice, once through the writer and
 * once as a cJSON tree printed by cJSON_Print(), and the two must be the
 * same bytes; the writer's output, parsed by cJSON and printed again,
 * must also come back byte for byte.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cli/jsonw.h"

/* ---- the cJSON reference the writer is compared with ------------------ */

static cJSON *json_long(int64_t v)
{
	char b[24];

	/* a double holds every integer below 2^53; past that, a string of the digits */
	if ((long long)v > -(1LL << 53) && (long long)v < (1LL << 53))
		return cJSON_CreateNumber((double)v);
	snprintf(b, sizeof(b), "%" PRId64 "", v);
	return cJSON_CreateString(b);
}

static void json_add_long(cJSON *o, const char *key, int64_t v)
{
	if (v == RV_NONE)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddItemToObject(o, key, json_long(v));
}

static void fmt_json_value(cJSON *o, const char *key, enum fmt_unit u, struct fmt_val v)
{
	char s[32];

	if (!v.ok) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	switch (u) {
	case FMT_PAGES:
	case FMT_WSF:
		cJSON_AddItemToObject(o, key, json_long(v.n));
		break;
	case FMT_BOOL:
		cJSON_AddBoolToObject(o, key, v.n != 0);
		break;
	case FMT_COUNT:
	case FMT_NS:
		/* a 64-bit counter held as a double: past 2^53 its digits, as a string */
		if (v.x >= 9007199254740992.0) {
			snprintf(s, sizeof(s), "%.0f", v.x);
			cJSON_AddStringToObject(o, key, s);
		} else {
			cJSON_AddNumberToObject(o, key, trunc(v.x));	/* v.x may be negative */
		}
		break;
	case FMT_SHARE:
	case FMT_MIB:
		cJSON_AddNumberToObject(o, key, v.x);
		break;
	}
}

static void fmt_json_fields(cJSON *o, const struct fmt_field *fs, size_t nf, unsigned cols,
		     const void *row)
{
	size_t k;

	for (k = 0; k < nf; k++)
		if (fmt_shown(&fs[k], cols, 0))
			fmt_json_value(o, fs[k].json, fs[k].unit, fmt_value(&fs[k], row));
}


/* The writer's document: build(w) between jw_init and jw_finish. */
static char *written(void (*build)(struct jw *w, const void *arg), const void *arg)
{
	struct jw *w = malloc(sizeof(*w));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(w);
	assert_non_null(f);
	jw_init(w, f);
	build(w, arg);
	assert_int_equal(jw_finish(w), 0);
	fclose(f);
	free(w);
	return text;
}

/* cJSON's print of doc with the newline puts() adds; frees doc. */
/*
 * wmark's number rule, applied to a cJSON tree before cJSON prints it: an
 * integer below 2^53 as its digits (cJSON would print 1e+15), an integer
 * of 2^53 up to 2^64 as a string of its digits, -0 and the rest as cJSON
 * prints them.
 */
static void number_rule(cJSON *c)
{
	char b[40];

	for (; c; c = c->next) {
		double v = c->valuedouble;

		number_rule(c->child);
		if (!cJSON_IsNumber(c) || isnan(v) || isinf(v) || v != floor(v) ||
		    (v == 0 && signbit(v)) || fabs(v) >= 18446744073709551616.0)
			continue;
		snprintf(b, sizeof(b), fabs(v) < 9007199254740992.0 ? "%.0f" : "\"%.0f\"", v);
		cJSON_free(c->valuestring);
		c->type = cJSON_Raw;
		c->valuestring = strdup(b);
	}
}

static char *printed(cJSON *doc)
{
	char *t, *out;

	number_rule(doc);
	t = cJSON_Print(doc);

	assert_non_null(t);
	out = malloc(strlen(t) + 2);
	assert_non_null(out);
	strcpy(out, t);
	strcat(out, "\n");
	free(t);
	cJSON_Delete(doc);
	return out;
}

/* The writer's text must equal cJSON's, and survive cJSON's round trip. */
static void same(const char *mine, cJSON *theirs)
{
	char *ref = printed(theirs);
	cJSON *back = cJSON_Parse(mine);

	assert_string_equal(mine, ref);
	assert_non_null(back);
	free(ref);
	ref = printed(back);
	assert_string_equal(mine, ref);
	free(ref);
}

static void build_nesting(struct jw *w, const void *arg)
{
	(void)arg;
	jw_obj_open(w, NULL);
	jw_obj_open(w, "empty_object");
	jw_close(w);
	jw_arr_open(w, "empty_array");
	jw_close(w);
	jw_arr_open(w, "mixed");
	jw_obj_open(w, NULL);
	jw_close(w);
	jw_arr_open(w, NULL);
	jw_close(w);
	jw_obj_open(w, NULL);
	jw_long(w, "a", 1);
	jw_arr_open(w, "b");
	jw_long(w, NULL, 2);
	jw_obj_open(w, NULL);
	jw_null(w, "c");
	jw_close(w);
	jw_close(w);
	jw_bool(w, "t", true);
	jw_bool(w, "f", false);
	jw_close(w);
	jw_close(w);
	jw_close(w);
}

static void test_nested_objects_and_arrays_are_laid_out_as_cjson_prints_them(void **state)
{
	cJSON *d = cJSON_CreateObject(), *a, *o, *b, *c;
	char *mine;

	(void)state;
	cJSON_AddObjectToObject(d, "empty_object");
	cJSON_AddArrayToObject(d, "empty_array");
	a = cJSON_AddArrayToObject(d, "mixed");
	cJSON_AddItemToArray(a, cJSON_CreateObject());
	cJSON_AddItemToArray(a, cJSON_CreateArray());
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "a", 1);
	b = cJSON_AddArrayToObject(o, "b");
	cJSON_AddItemToArray(b, cJSON_CreateNumber(2));
	c = cJSON_CreateObject();
	cJSON_AddNullToObject(c, "c");
	cJSON_AddItemToArray(b, c);
	cJSON_AddTrueToObject(o, "t");
	cJSON_AddFalseToObject(o, "f");
	cJSON_AddItemToArray(a, o);
	mine = written(build_nesting, NULL);
	same(mine, d);
	free(mine);
}

static const double numbers[] = {
	0, 1, -1, 7, 4096, 2147483647.0, 2147483648.0, -2147483649.0, 3000000000.0,
	999999999999999.0, 1e15, 1e15 + 1, 123456789012345678.0, 9007199254740991.0,
	0.1, 0.5, 1.0 / 3, 2.0 / 3, 12.25, -0.0, 1e-7, 1e300, -1e-300, 5e-324,
	1.7976931348623157e308, 100.0 / 7,
};

#define NNUM (sizeof(numbers) / sizeof(numbers[0]))

static void build_numbers(struct jw *w, const void *arg)
{
	size_t i;

	(void)arg;
	jw_arr_open(w, NULL);
	for (i = 0; i < NNUM; i++)
		jw_double(w, NULL, numbers[i]);
	jw_double(w, NULL, NAN);
	jw_double(w, NULL, INFINITY);
	jw_close(w);
}

static void test_numbers_print_as_cjson_prints_doubles(void **state)
{
	cJSON *a = cJSON_CreateArray();
	char *mine = written(build_numbers, NULL), *ref;
	size_t i;

	(void)state;
	for (i = 0; i < NNUM; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(numbers[i]));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(NAN));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(INFINITY));
	/* NaN and infinity print as null, which parses back as null: compare once */
	ref = printed(a);
	assert_string_equal(mine, ref);
	free(ref);
	free(mine);
}

static const long longs[] = {
	0, 1, -1, 42, 2147483647L, 2147483648L, -2147483648L, 999999999999999L,
	1000000000000000L, -1000000000000000L, 4503599627370496L, 9007199254740991L,
	9007199254740992L, 9223372036854775807L, -9223372036854775807L - 1,
};

#define NLONG (sizeof(longs) / sizeof(longs[0]))

static void build_longs(struct jw *w, const void *arg)
{
	size_t i;

	(void)arg;
	jw_obj_open(w, NULL);
	jw_arr_open(w, "v");
	for (i = 0; i < NLONG; i++)
		jw_long(w, NULL, longs[i]);
	jw_close(w);
	jw_long_or_null(w, "none", RV_NONE);
	jw_long_or_null(w, "some", 5);
	jw_close(w);
}

static void test_integers_are_exact_as_json_long_makes_them(void **state)
{
	cJSON *d = cJSON_CreateObject(), *a;
	char *mine = written(build_longs, NULL), *ref;
	size_t i;

	(void)state;
	a = cJSON_AddArrayToObject(d, "v");
	for (i = 0; i < NLONG; i++)
		cJSON_AddItemToArray(a, json_long(longs[i]));
	json_add_long(d, "none", RV_NONE);
	json_add_long(d, "some", 5);
	ref = printed(d);
	assert_string_equal(mine, ref);
	free(ref);
	/* past 2^53 the digits are kept, as a string: a double cannot hold them */
	assert_non_null(strstr(mine, "\"9223372036854775807\""));
	assert_non_null(strstr(mine, "\"-9223372036854775808\""));
	/* below it, digits and never exponent notation */
	assert_non_null(strstr(mine, " 1000000000000000, -1000000000000000, "));
	free(mine);
}

static const char *const strings[] = {
	"", "plain", "quote \" and backslash \\", "tab\tnewline\nreturn\r",
	"\b\f", "\x01\x1f\x7f", "UTF-8: 6.12.117+deb13 \xc3\xa9\xe2\x80\x94", "/slash/",
};

#define NSTR (sizeof(strings) / sizeof(strings[0]))

static void build_strings(struct jw *w, const void *arg)
{
	size_t i;

	(void)arg;
	jw_obj_open(w, NULL);
	for (i = 0; i < NSTR; i++)
		jw_str(w, strings[i], strings[i]);
	jw_raw(w, "raw", "12345678901234567890");
	jw_close(w);
}

static void test_strings_and_keys_are_escaped_as_cjson_escapes_them(void **state)
{
	cJSON *d = cJSON_CreateObject();
	char *mine = written(build_strings, NULL), *ref;
	size_t i;

	(void)state;
	for (i = 0; i < NSTR; i++)
		cJSON_AddStringToObject(d, strings[i], strings[i]);
	cJSON_AddRawToObject(d, "raw", "12345678901234567890");
	ref = printed(d);
	assert_string_equal(mine, ref);
	free(ref);
	free(mine);
}

struct row {
	long pages, wsf, flag, none;
	double count, ns, share, mib;
};

static bool get_count(const void *r, double *v) { *v = ((const struct row *)r)->count; return true; }
static bool get_ns(const void *r, double *v) { *v = ((const struct row *)r)->ns; return true; }
static bool get_share(const void *r, double *v) { *v = ((const struct row *)r)->share; return true; }
static bool get_mib(const void *r, double *v) { *v = ((const struct row *)r)->mib; return *v >= 0; }

static const struct fmt_field rfields[] = {
	{ .header = "p", .json = "pages", .unit = FMT_PAGES, .off = offsetof(struct row, pages) },
	{ .header = "w", .json = "wsf", .unit = FMT_WSF, .off = offsetof(struct row, wsf) },
	{ .header = "b", .json = "flag", .unit = FMT_BOOL, .off = offsetof(struct row, flag) },
	{ .header = "n", .json = "none", .unit = FMT_PAGES, .off = offsetof(struct row, none) },
	{ .header = "c", .json = "count", .unit = FMT_COUNT, .get = get_count },
	{ .header = "t", .json = "ns", .unit = FMT_NS, .get = get_ns },
	{ .header = "s", .json = "share", .unit = FMT_SHARE, .get = get_share },
	{ .header = "m", .json = "mib", .unit = FMT_MIB, .get = get_mib },
	{ .header = "x", .json = "hidden", .unit = FMT_PAGES, .off = offsetof(struct row, pages),
	  .need = 1u << 7 },
};

#define NRF (sizeof(rfields) / sizeof(rfields[0]))

static const struct row rrows[] = {
	{ 772918, 10, 1, RV_NONE, 12, 950, 0.1234, 12.5 },
	{ 0, -3, 0, RV_NONE, 18446744073709551615.0, 1e18, 1.0 / 3, -1 },
	{ 9007199254740993L, 1000, 1, RV_NONE, 9007199254740991.0, 2.5e9, 0, 0.1 },
	/* a negative count (pages over a request) is truncated, never cast to uint64_t */
	{ 5, 20, 0, RV_NONE, -5.5, 12.75, 0.5, 1 },
};

#define NRR (sizeof(rrows) / sizeof(rrows[0]))

static void build_fields(struct jw *w, const void *arg)
{
	size_t i;

	(void)arg;
	jw_arr_open(w, NULL);
	for (i = 0; i < NRR; i++) {
		jw_obj_open(w, NULL);
		jw_fmt_fields(w, rfields, NRF, 0, &rrows[i]);
		jw_close(w);
	}
	jw_close(w);
}

static void test_field_tables_write_the_same_keys_and_values_as_fmt_json_fields(void **state)
{
	cJSON *a = cJSON_CreateArray();
	char *mine = written(build_fields, NULL), *ref;
	size_t i;

	(void)state;
	for (i = 0; i < NRR; i++) {
		cJSON *o = cJSON_CreateObject();

		fmt_json_fields(o, rfields, NRF, 0, &rrows[i]);
		cJSON_AddItemToArray(a, o);
	}
	ref = printed(a);
	assert_string_equal(mine, ref);
	assert_null(strstr(mine, "hidden"));
	assert_non_null(strstr(mine, "\"count\":\t-5,"));
	assert_non_null(strstr(mine, "\"ns\":\t12,"));
	free(ref);
	free(mine);
}

/* A parsed document written back through jw_cjson(). */
static void build_copy(struct jw *w, const void *arg)
{
	jw_cjson(w, NULL, arg);
}

static void test_a_cjson_tree_is_written_as_cjson_prints_it(void **state)
{
	static const char doc[] =
		"{\"source\":\"capture\",\"kernel\":\"6.1.0-18-amd64\",\"page_size\":4096,"
		"\"sysctl\":{\"min_free_kbytes\":67584,\"lowmem_reserve_ratio\":[256,256,32,0,0],"
		"\"extra_free_kbytes\":null},\"zones\":[{\"node\":0,\"zone\":\"DMA\",\"min\":8,"
		"\"promo\":null,\"protection\":[0,2897,2897],\"match\":true},{}],\"x\":[[],[1.5]]}";
	cJSON *tree = cJSON_Parse(doc);
	char *mine;

	(void)state;
	assert_non_null(tree);
	mine = written(build_copy, tree);
	same(mine, tree);
	free(mine);
}

static void build_copy_compact(struct jw *w, const void *arg)
{
	w->compact = true;
	jw_cjson(w, NULL, arg);
}

static void test_the_compact_layout_is_cjson_print_unformatted(void **state)
{
	static const char doc[] =
		"{ \"root\": \"a b/\\\"q\\\"\", \"e\": {}, \"a\": [], \"z\": [{\"n\": 0, \"p\": [0, 1, 2],"
		" \"x\": null, \"t\": true}, {}, [[]], 1e15, 0.25, -3], \"s\": \"tab\\t\" }";
	cJSON *tree = cJSON_Parse(doc);
	char *mine, *ref;

	(void)state;
	assert_non_null(tree);
	mine = written(build_copy_compact, tree);
	number_rule(tree);	/* 1e15 is written 1000000000000000 */
	ref = cJSON_PrintUnformatted(tree);
	assert_non_null(ref);
	assert_int_equal(strlen(mine), strlen(ref) + 1);
	assert_memory_equal(mine, ref, strlen(ref));
	assert_int_equal(mine[strlen(ref)], '\n');
	free(ref);
	free(mine);
	cJSON_Delete(tree);
}

static void build_long_line(struct jw *w, const void *arg)
{
	const char *s = arg;
	int i;

	jw_arr_open(w, NULL);
	for (i = 0; i < 40; i++)
		jw_str(w, NULL, s);
	jw_close(w);
}

static void test_values_longer_than_the_buffer_are_written_whole(void **state)
{
	size_t n = JW_BUF + 1000;
	char *s = malloc(n + 1), *mine;
	cJSON *a = cJSON_CreateArray();
	int i;

	(void)state;
	assert_non_null(s);
	for (size_t k = 0; k < n; k++)
		s[k] = (char)('a' + k % 26);
	s[n] = 0;
	for (i = 0; i < 40; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(s));
	mine = written(build_long_line, s);
	same(mine, a);
	free(mine);
	free(s);
}

static void test_unbalanced_documents_are_refused(void **state)
{
	struct jw *w = malloc(sizeof(*w));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int i;

	(void)state;
	jw_init(w, f);
	jw_obj_open(w, NULL);
	assert_int_equal(jw_finish(w), -1);
	jw_init(w, f);
	for (i = 0; i <= JW_MAX_DEPTH; i++)
		jw_arr_open(w, NULL);
	for (i = 0; i <= JW_MAX_DEPTH; i++)
		jw_close(w);
	assert_int_equal(jw_finish(w), -1);
	fclose(f);
	free(text);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_objects_and_arrays_are_laid_out_as_cjson_prints_them),
		cmocka_unit_test(test_numbers_print_as_cjson_prints_doubles),
		cmocka_unit_test(test_integers_are_exact_as_json_long_makes_them),
		cmocka_unit_test(test_strings_and_keys_are_escaped_as_cjson_escapes_them),
		cmocka_unit_test(test_field_tables_write_the_same_keys_and_values_as_fmt_json_fields),
		cmocka_unit_test(test_a_cjson_tree_is_written_as_cjson_prints_it),
		cmocka_unit_test(test_the_compact_layout_is_cjson_print_unformatted),
		cmocka_unit_test(test_values_longer_than_the_buffer_are_written_whole),
		cmocka_unit_test(test_unbalanced_documents_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
