// SPDX-License-Identifier: MIT
/*
 * verify-root.c - judge a machine's watermarks from a root tree (the live
 * machine's / or a capture of one) in two library calls: wm_state_build()
 * turns the files into the machine, wm_verify() recomputes every zone.
 *
 *   verify-root ROOT
 *
 * Prints "KERNEL PAGE_SIZE VERDICT", e.g. "5.10.251 4096 exact", and exits
 * 0 when exact, 1 otherwise, 2 on bad input.  The state takes the kernel's
 * stable sublevel from its version line where a Debian release hides it
 * (5.10.0-43-amd64 is 5.10.251), and the page size from MemTotal against
 * the managed pages (16 KiB on arm64-16k): this program does neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wmark/state.h>
#include <wmark/verify.h>

/* The files wm_state_build() reads, where a root has them. */
static const char *const rel[WM_TEXT_COUNT] = {
	[WM_TEXT_OSRELEASE] = "proc/sys/kernel/osrelease",
	[WM_TEXT_VERSION] = "proc/sys/kernel/version",
	[WM_TEXT_ZONEINFO] = "proc/zoneinfo",
	[WM_TEXT_MFK] = "proc/sys/vm/min_free_kbytes",
	[WM_TEXT_WSF] = "proc/sys/vm/watermark_scale_factor",
	[WM_TEXT_BOOST] = "proc/sys/vm/watermark_boost_factor",
	[WM_TEXT_EXTRA] = "proc/sys/vm/extra_free_kbytes",
	[WM_TEXT_LRR] = "proc/sys/vm/lowmem_reserve_ratio",
	[WM_TEXT_THP] = "sys/kernel/mm/transparent_hugepage/enabled",
	[WM_TEXT_ARCH] = "proc/sys/kernel/arch",
	[WM_TEXT_MEMINFO] = "proc/meminfo",
	[WM_TEXT_PAGETYPEINFO] = "proc/pagetypeinfo",
};

/* All of path into a malloc'd buffer, or NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			nb = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct wm_texts t = { .need = WM_NEED_ZONEINFO };
	char *buf[WM_TEXT_COUNT] = { NULL }, path[4096];
	struct wm_verify_opts o = { 0 };
	struct wm_diag d = { 0 };
	struct wm_state s;
	struct wm_verify v;
	enum wm_text which;
	int i, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: verify-root ROOT\n");
		return 2;
	}
	for (i = 0; i < WM_TEXT_COUNT; i++) {
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", argv[1], rel[i] ? rel[i] : "");
		if (rel[i] && (buf[i] = slurp(path, &len)))
			t.text[i] = (struct wm_text_buf){ buf[i], len };
	}
	/* a tree that says nothing of its page size: the common one, said so */
	t.assumed_page_size = 4096;

	rc = wm_state_build(&t, &s, &which, &d);
	for (i = 0; i < WM_TEXT_COUNT; i++)
		free(buf[i]);
	if (rc) {
		fprintf(stderr, "verify-root: %s: %s\n", wm_text_name(which), d.msg);
		return 2;
	}
	rc = wm_verify(&s, &o, &v, &d);
	if (rc == WM_OK) {
		printf("%u.%u.%u %u %s\n", s.kernel.kver.major, s.kernel.kver.minor,
		       s.kernel.kver.sub, s.geo.page_size, wm_verdict_name(v.verdict));
		rc = v.verdict == WM_VERDICT_EXACT ? 0 : 1;
		wm_verify_free(&v);
	} else {
		fprintf(stderr, "verify-root: verify: %s\n", d.msg);
		rc = 2;
	}
	wm_state_free(&s);
	return rc;
}
