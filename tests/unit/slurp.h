/* SPDX-License-Identifier: MIT */
/*
 * slurp.h - the unit tests' whole-file reader.  Include after cmocka.h.
 */
#ifndef WMARK_TEST_SLURP_H
#define WMARK_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* All of the file at path, NUL-terminated, its length in *len; NULL if it cannot be opened. */
static char *slurp_path(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

#endif /* WMARK_TEST_SLURP_H */
