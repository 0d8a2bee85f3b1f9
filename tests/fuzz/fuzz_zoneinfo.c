// SPDX-License-Identifier: MIT
/*
 * fuzz_zoneinfo.c - libFuzzer target for zi_parse().
 *
 * Besides "no crash, no leak, no undefined behaviour", every result must
 * keep the promises of zoneinfo.h: success means at least one zone, each
 * with a named, typed, in-range node and at most WM_MAX_ZONES protection
 * entries; failure means a message and a line inside the input.  A broken
 * promise aborts, so libFuzzer reports it like a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 1, i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wm_diag d;
	struct zi_info zi;
	size_t i;
	int rc;

	memset(&d, 0, sizeof(d));
	rc = zi_parse((const char *)data, size, &zi, &d);
	if (rc == WM_OK) {
		check(zi.nzones > 0 && zi.nzones <= zi.cap);
		check(zi.nnodes > 0);
		for (i = 0; i < zi.nzones; i++) {
			const struct zi_zone *z = &zi.zones[i];

			check(z->node >= 0 && z->node < zi.nnodes);
			check(z->name[0] != '\0');
			check(memchr(z->name, '\0', sizeof(z->name)) != NULL);
			check(z->type == wm_zone_type_of(z->name));
			check(z->nprotection >= 0 &&
			      z->nprotection <= WM_MAX_ZONES);
			check(z->ncpus >= 0);
			check(z->line >= 1 &&
			      (size_t)z->line <= count_lines(data, size));
			check(i == 0 || z->node >= zi.zones[i - 1].node);
			check(!(z->flags & ZI_HAS_HIGH_MIN) ||
			      z->pcp_high_min >= 0 || z->pcp_high_max >= 0);
		}
	} else {
		check(rc == WM_EPARSE || rc == WM_ENOMEM);
		check(d.msg[0] != '\0');
		check(d.line >= 0 && (size_t)d.line <= count_lines(data, size));
	}
	zi_free(&zi);
	return 0;
}
