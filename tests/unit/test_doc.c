// SPDX-License-Identifier: MIT
/*
 * test_doc.c - the document layer (cli/doc.c): one description gives the
 * text the formats say and the JSON document cJSON would print for the
 * same members (the layout of cJSON_Print(), or one line for a fleet),
 * each value where its key or format puts it and nowhere else.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cli/doc.h"

/* One description of a small report: a window line and a list of names. */
static void describe(struct doc *d)
{
	static const char *const names[] = { "0/DMA32", "0/Normal" };
	int i;

	doc_str(d, "mode", NULL, "all");		/* JSON only */
	doc_obj(d, "window");
	doc_double(d, "seconds", "window %.2fs: ", 1.5);
	doc_u64(d, "exits", "%" PRIu64 " exit records", UINT64_C(9));
	doc_null(d, "lost_estimate");
	doc_close(d);
	doc_text(d, "\n");				/* text only */
	doc_arr(d, "moved");
	for (i = 0; i < 2; i++)
		doc_item_str(d, i ? ", %s" : "moves %s", names[i]);
	doc_close(d);
	doc_bool(d, "ok", "; ok: %s\n", true);
	doc_arr(d, "ratios");
	doc_item_long(d, 256);
	doc_item_long(d, INT64_C(9007199254740993));	/* past 2^53: a string */
	doc_close(d);
}

static char *render(enum cli_format fmt, bool line)
{
	static struct doc d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (line)
		doc_begin_line(&d, FMT_JSON, f);
	else
		doc_begin(&d, fmt, f);
	describe(&d);
	assert_int_equal(doc_end(&d), EXIT_OK);
	fclose(f);
	return text;
}

static void test_text_is_the_formats_alone(void **state)
{
	char *t = render(FMT_TEXT, false);

	(void)state;
	assert_string_equal(t, "window 1.50s: 9 exit records\nmoves 0/DMA32, 0/Normal; ok: yes\n");
	free(t);
}

static void test_json_is_cjsons_layout_of_the_keys(void **state)
{
	char *t = render(FMT_JSON, false);

	(void)state;
	assert_string_equal(t,
		"{\n"
		"\t\"mode\":\t\"all\",\n"
		"\t\"window\":\t{\n"
		"\t\t\"seconds\":\t1.5,\n"
		"\t\t\"exits\":\t9,\n"
		"\t\t\"lost_estimate\":\tnull\n"
		"\t},\n"
		"\t\"moved\":\t[\"0/DMA32\", \"0/Normal\"],\n"
		"\t\"ok\":\ttrue,\n"
		"\t\"ratios\":\t[256, \"9007199254740993\"]\n"
		"}\n");
	free(t);
}

static void test_a_fleet_line_is_one_line(void **state)
{
	char *t = render(FMT_JSON, true);

	(void)state;
	assert_string_equal(t, "{\"mode\":\"all\",\"window\":{\"seconds\":1.5,\"exits\":9,"
			       "\"lost_estimate\":null},\"moved\":[\"0/DMA32\",\"0/Normal\"],"
			       "\"ok\":true,\"ratios\":[256,\"9007199254740993\"]}\n");
	free(t);
}

/* A table: text cells lined up by doc_table's widths, JSON members of the same fields. */
struct trow {
	int64_t a, bb;
};

static const struct fmt_field tfields[] = {
	{ .header = "a", .json = "a", .unit = FMT_PAGES, .off = offsetof(struct trow, a) },
	{ .header = "bb", .json = "bb", .unit = FMT_PAGES, .off = offsetof(struct trow, bb) },
};

static char *render_table(enum cli_format fmt, bool line)
{
	static const struct trow rows[] = { { 5, 123 }, { 40, 7 } };
	static struct doc d;
	char *text = NULL;
	size_t len = 0, i;
	int width[2];
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (line)
		doc_begin_line(&d, fmt, f);
	else
		doc_begin(&d, fmt, f);
	fmt_widths(tfields, 2, rows, sizeof(rows[0]), 2, 0, width);
	doc_table(&d, width, 0);
	doc_header(&d, tfields, 2, 0);
	doc_text(&d, "\n");
	doc_arr(&d, "rows");
	for (i = 0; i < 2; i++) {
		doc_obj(&d, NULL);
		doc_cells(&d, tfields, 2, 0, &rows[i]);		/* text only */
		doc_members(&d, tfields, 2, 0, &rows[i]);	/* JSON only */
		doc_text(&d, "\n");
		doc_close(&d);
	}
	doc_close(&d);
	/* pages in MiB of 4 KiB pages, each cell its own width */
	doc_table(&d, NULL, 4096);
	doc_fields(&d, tfields, 2, 0, &(struct trow){ 256, 512 });
	doc_table(&d, NULL, 0);
	doc_text(&d, "\n");
	assert_int_equal(doc_end(&d), EXIT_OK);
	fclose(f);
	return text;
}

static void test_a_table_lines_up_in_text_and_is_members_in_json(void **state)
{
	char *t = render_table(FMT_TEXT, false), *j = render_table(FMT_JSON, true);

	(void)state;
	/* widths: a column is as wide as its widest cell or header (2 and 3) */
	assert_string_equal(t, "  a  bb\n  5 123\n 40   7\n 1.0 2.0\n");
	/* JSON: the same fields by key, in pages whatever the text's page size */
	assert_string_equal(j, "{\"rows\":[{\"a\":5,\"bb\":123},{\"a\":40,\"bb\":7}],"
			       "\"a\":256,\"bb\":512}\n");
	free(t);
	free(j);
}

/* A one-line document is plain text in text; prose outside documents only in text. */
static void test_lines_and_logs_follow_the_format(void **state)
{
	char *t = render_table(FMT_TEXT, true), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct doc d;

	(void)state;
	assert_string_equal(t, "  a  bb\n  5 123\n 40   7\n 1.0 2.0\n");
	assert_non_null(f);
	doc_log(FMT_TEXT, f, "tune: %s\n", "stopping");
	doc_log(FMT_JSON, f, "tune: %s\n", "never");
	fclose(f);
	assert_string_equal(text, "tune: stopping\n");
	doc_begin(&d, FMT_TEXT, stdout);
	assert_true(doc_is_streamed(&d));
	doc_begin_line(&d, FMT_JSON, stdout);
	assert_false(doc_is_streamed(&d));
	free(t);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_is_the_formats_alone),
		cmocka_unit_test(test_json_is_cjsons_layout_of_the_keys),
		cmocka_unit_test(test_a_fleet_line_is_one_line),
		cmocka_unit_test(test_a_table_lines_up_in_text_and_is_members_in_json),
		cmocka_unit_test(test_lines_and_logs_follow_the_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
