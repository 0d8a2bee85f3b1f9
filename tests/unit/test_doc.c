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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_is_the_formats_alone),
		cmocka_unit_test(test_json_is_cjsons_layout_of_the_keys),
		cmocka_unit_test(test_a_fleet_line_is_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
