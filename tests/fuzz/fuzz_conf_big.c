// SPDX-License-Identifier: MIT
/*
 * fuzz_conf_big.c - libFuzzer target for the sysctl.d reader of
 * calc/sysctl_text.c (apply --from) on texts past 64 KiB: the input is
 * put behind whole comment lines that end at a byte chosen by its first
 * two bytes, from 64 KiB - 1023 to 64 KiB + 1024, so every assignment of
 * the input starts at, straddles or follows the old 65535-byte cut.
 *
 * Contract checked: the padded text gives exactly the assignments (and
 * malformed lines) the input gives alone, with the same keys and values
 * and line numbers shifted by the comment lines: nothing past 64 KiB is
 * lost or cut, and sc_conf_next reads only buf[0..len).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/sysctl_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAD_LINE 74	/* "# 000...0\n", the adversarial report's 73 + newline */

static void check(int cond)
{
	if (!cond)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sc_conf_line a, b;
	size_t pad, npad, i, pa = 0, pb = 0, len;
	int la = 0, lb = 0, ra, rb, lines = 0;
	char *buf;

	if (size < 2)
		return 0;
	/* the padding ends near 64 KiB: 65536 - 1023 .. 65536 + 1024 */
	pad = 65536 - 1023 + (((size_t)data[0] << 8 | data[1]) % 2048);
	data += 2;
	size -= 2;
	npad = pad / PAD_LINE + 1;	/* whole lines, the last one shorter */
	len = 0;
	buf = malloc(pad + PAD_LINE + size);
	if (!buf)
		return 0;
	for (i = 0; i < npad; i++) {
		size_t l = i + 1 < npad ? PAD_LINE : pad - len;

		if (l < 2)
			l = 2;
		memset(buf + len, '0', l);
		buf[len] = '#';
		buf[len + l - 1] = '\n';
		len += l;
		lines++;
	}
	memcpy(buf + len, data, size);	/* no NUL after it: an overread is caught */

	for (;;) {
		ra = sc_conf_next((const char *)data, size, &pa, &la, &a);
		rb = sc_conf_next(buf, len + size, &pb, &lb, &b);	/* past the comments */
		check(ra == rb);
		if (ra == 0)
			break;
		check(b.line == a.line + lines);
		check(pb == pa + len);
		if (ra == 1) {
			check(strcmp(a.key, b.key) == 0);
			check(strcmp(a.value, b.value) == 0);
		}
	}
	check(pb == len + size);
	free(buf);
	return 0;
}
