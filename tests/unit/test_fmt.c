// SPDX-License-Identifier: MIT
/*
 * test_fmt.c - the text printers of fmt.c put what printf would: digits
 * as "%ld", MiB as "%.1f" (ties to even on the exact value), blanks as
 * "%*s" and "%-*s".
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../cli/fmt.h"

static void test_digits_are_what_printf_ld_prints(void **state)
{
	static const long v[] = { 0, 1, -1, 9, 10, -10, 4096, 2147483647L, -2147483648L,
				  LONG_MAX, LONG_MIN, 1000000000000000L };
	char mine[24], ref[32];
	size_t i;
	long x;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(ref, sizeof(ref), "%ld", v[i]);
		assert_int_equal(fmt_long(mine, v[i]), strlen(ref));
		assert_string_equal(mine, ref);
	}
	for (x = -100000; x <= 100000; x += 7) {
		snprintf(ref, sizeof(ref), "%ld", x);
		fmt_long(mine, x);
		assert_string_equal(mine, ref);
	}
}

static void test_mib_is_what_printf_1f_prints_ties_to_even(void **state)
{
	static const unsigned sizes[] = { 1024, 4096, 8192, 16384, 65536 };
	char mine[32], ref[32];
	size_t s;
	long p;
	uint64_t x = 88172645463325252ull;
	int i;

	(void)state;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		/* every tenth of a MiB, and its ties, in the first 64 Ki pages */
		for (p = 0; p < 65536; p++) {
			snprintf(ref, sizeof(ref), "%.1f", (double)p * sizes[s] / (1024.0 * 1024.0));
			fmt_mib(mine, sizeof(mine), p, sizes[s]);
			assert_string_equal(mine, ref);
		}
		for (i = 0; i < 100000; i++) {	/* xorshift: page counts up to 2^40 */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p = (long)(x >> 24);
			snprintf(ref, sizeof(ref), "%.1f", (double)p * sizes[s] / (1024.0 * 1024.0));
			fmt_mib(mine, sizeof(mine), p, sizes[s]);
			assert_string_equal(mine, ref);
		}
	}
	assert_string_equal(fmt_mib(mine, sizeof(mine), RV_NONE, 4096), "-");
}

static void test_padding_is_what_printf_star_s_prints(void **state)
{
	static const char *const s[] = { "", "a", "DMA32", "Movable", "Normal", "12345678901" };
	static const int widths[] = { 0, 1, 4, 8, 12 };
	char *text = NULL, ref[64];
	size_t len = 0, i, k;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
			f = open_memstream(&text, &len);
			fmt_put_padded(f, s[i], widths[k], false);
			fmt_put_padded(f, s[i], widths[k], true);
			fputc('|', f);
			fclose(f);
			snprintf(ref, sizeof(ref), "%*s%-*s|", widths[k], s[i], widths[k], s[i]);
			assert_string_equal(text, ref);
			free(text);
			text = NULL;
		}
}

/* A row of test_widths_and_cells: longs at offsets, as report.c's zrow. */
struct wrow {
	long pages, wsf;
};

static const struct fmt_field wfields[] = {
	{ .header = "p", .json = "p", .unit = FMT_PAGES, .off = offsetof(struct wrow, pages) },
	{ .header = "wsf", .json = "wsf", .unit = FMT_WSF, .off = offsetof(struct wrow, wsf),
	  .flags = FMT_F_GROUP },
};

/*
 * fmt_widths() finds a long column's width from its largest and smallest
 * value; fmt_text_cells() puts such cells' digits in place.  Both must
 * give what printing every cell with fmt_cell() and padding it gives:
 * negative counts, RV_NONE ("-"), a negative wsf (no value), page counts
 * past 2^36 (MiB through printf), and every page size.
 */
static void test_widths_and_cells_are_the_cells_padded(void **state)
{
	static const unsigned sizes[] = { 0, 4096, 16384, 65536 };
	struct wrow rows[64];
	char *text = NULL, ref[256], cell[32];
	size_t len = 0, s, n, i, k;
	int width[2], want[2];
	uint64_t x = 88172645463325252ull;
	FILE *f;
	int round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		n = 1 + (size_t)(round % 64);
		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* a spread of magnitudes: 0 to 2^(round % 50) */
			rows[i].pages = (long)(x >> (14 + round % 50));
			switch (x % 7) {
			case 0: rows[i].pages = RV_NONE; break;
			case 1: rows[i].pages = -rows[i].pages - 2; break;
			}
			rows[i].wsf = (x >> 8) % 5 == 0 ? -(long)(x % 3) - 1 : (long)((x >> 20) % 100000);
		}
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			fmt_widths(wfields, 2, rows, sizeof(rows[0]), n, sizes[s], width);
			for (k = 0; k < 2; k++) {
				want[k] = (int)strlen(wfields[k].header);
				for (i = 0; i < n; i++) {
					int l = (int)fmt_cell(cell, sizeof(cell), &wfields[k], &rows[i],
							      sizes[s]);

					if (l > want[k])
						want[k] = l;
				}
				assert_int_equal(width[k], want[k]);
			}
			for (i = 0; i < n; i++) {
				size_t m = 0;

				f = open_memstream(&text, &len);
				fmt_text_cells(f, wfields, 2, width, 0, sizes[s], &rows[i]);
				fclose(f);
				for (k = 0; k < 2; k++) {
					fmt_cell(cell, sizeof(cell), &wfields[k], &rows[i], sizes[s]);
					m += (size_t)snprintf(ref + m, sizeof(ref) - m, "%s%*s",
							      k ? "   " : " ", width[k], cell);
				}
				assert_string_equal(text, ref);
				free(text);
				text = NULL;
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits_are_what_printf_ld_prints),
		cmocka_unit_test(test_mib_is_what_printf_1f_prints_ties_to_even),
		cmocka_unit_test(test_padding_is_what_printf_star_s_prints),
		cmocka_unit_test(test_widths_and_cells_are_the_cells_padded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
