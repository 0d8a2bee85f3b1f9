// SPDX-License-Identifier: MIT
/*
 * fuzz_cgroup_value.c - libFuzzer target for the one-value cgroup files
 * reclaim and scan read (memory.current, memory.swap.max, memory.min,
 * memory.low, memory.high, memory.max; memory.swappiness on v1): the
 * whole input is the file, parsed by wm_cg_parse_value (calc/cgroup.h)
 * and by pf_parse_long (calc/procfs.h, what scan reads numbers with).
 *
 * Contracts checked: wm_cg_parse_value gives WM_OK only for "max" or
 * plain digits below 2^64, each with at most one newline after, and then
 * the value printed back is those digits (leading zeros aside); a refusal
 * is WM_EPARSE with a message; pf_parse_long gives WM_OK, WM_EPARSE or
 * WM_ERANGE, with a message when it refuses.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/cgroup.h"
#include "../../calc/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t len = size && buf[size - 1] == '\n' ? size - 1 : size, i;
	struct wm_diag d = { 0 };
	uint64_t v = 0;
	int64_t l = 0;
	bool max = false;
	int rc = wm_cg_parse_value(buf, size, &v, &max, &d);

	check(rc == WM_OK || rc == WM_EPARSE);
	if (rc) {
		check(d.msg[0] != '\0');
	} else if (max) {
		check(len == 3 && !memcmp(buf, "max", 3) && v == UINT64_MAX);
	} else {
		char out[24];
		const char *q = buf;

		check(len > 0);
		for (i = 0; i < len; i++)
			check(buf[i] >= '0' && buf[i] <= '9');
		while (q < buf + len - 1 && *q == '0')
			q++;
		snprintf(out, sizeof(out), "%" PRIu64, v);
		check(strlen(out) == (size_t)(buf + len - q) && !memcmp(out, q, strlen(out)));
	}
	memset(&d, 0, sizeof(d));
	rc = pf_parse_long(buf, size, &l, &d);
	check(rc == WM_OK || rc == WM_EPARSE || rc == WM_ERANGE);
	if (rc)
		check(d.msg[0] != '\0');
	return 0;
}
