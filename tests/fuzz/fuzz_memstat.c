// SPDX-License-Identifier: MIT
/*
 * fuzz_memstat.c - libFuzzer target for a cgroup's memory.stat as reclaim
 * and scan read it: reclaim looks keys up with wm_cg_stat_get
 * (calc/cgroup.h), scan parses the file with pf_parse_vmstat and
 * pf_kv_get (calc/procfs.h).
 *
 * Contracts checked: wm_cg_stat_get finds a value only where the first
 * line with that key carries it, as plain digits below 2^64 (checked by a
 * scan written here, not by the parser); pf_parse_vmstat gives WM_OK,
 * WM_EPARSE or WM_ENOMEM with a message, and a key it has reads back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/cgroup.h"
#include "../../calc/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {
	"anon", "file", "pgsteal_proactive", "pgsteal_direct", "pgsteal",
	"workingset_refault_anon", "workingset_refault_file", "inactive_anon",
	"active_anon", "inactive_file", "active_file", "MemTotal:", "MemFree:",
};

static void check(int cond)
{
	if (!cond)
		abort();
}

/* The value of key's first line, by hand: 1 found, 0 not a number, -1 no line. */
static int first_line(const char *p, const char *end, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;

		if ((size_t)(e - p) > kl && !memcmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			const char *q = p + kl;
			unsigned __int128 x = 0;
			int nd = 0, big = 0;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			for (; q < e && *q >= '0' && *q <= '9'; q++, nd++) {
				x = x * 10 + (unsigned)(*q - '0');
				if (x > UINT64_MAX) {
					big = 1;
					x = 0;
				}
			}
			if (e - q == 3 && !memcmp(q, " kB", 3))
				q = e;
			if (!nd || q != e || big)
				return 0;
			*v = (uint64_t)x;
			return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct pf_kv kv;
	struct wm_diag d = { 0 };
	size_t i;
	int rc;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		uint64_t got = 0, want = 0;
		bool ok = wm_cg_stat_get(buf, size, keys[i], &got);
		int ref = first_line(buf, buf + size, keys[i], &want);

		check(ok == (ref == 1));
		if (ok)
			check(got == want);
	}
	rc = pf_parse_vmstat(buf, size, &kv, &d);
	check(rc == WM_OK || rc == WM_EPARSE || rc == WM_ENOMEM);
	if (rc == WM_OK) {
		for (i = 0; i < kv.n; i++) {
			uint64_t v;

			check(pf_kv_get(&kv, kv.items[i].key, &v));
		}
	} else {
		check(d.msg[0] != '\0');
	}
	pf_kv_free(&kv);
	return 0;
}
