// SPDX-License-Identifier: MIT
/*
 * verify-zoneinfo.c - libwmark's smallest complete use: judge a kernel's
 * watermarks from files, as an lmkd-like daemon or a fleet agent would.
 *
 *   verify-zoneinfo RELEASE ZONEINFO MIN_FREE_KBYTES WSF [LOWMEM_RESERVE_RATIO]
 *
 * RELEASE is the kernel release ("6.1.0-18-amd64"); the other arguments
 * are files as /proc prints them.  Prints the verdict (exact, stale,
 * mismatch) and exits 0 when exact, 1 otherwise, 2 on bad input.  The
 * page size is assumed, 4096 bytes (wm_geometry_assume): a program with
 * the whole root uses wm_state_build() instead, as verify-root.c does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wmark/machine.h>
#include <wmark/procfs.h>
#include <wmark/verify.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int fail(const char *what, const struct wm_diag *d)
{
	fprintf(stderr, "verify-zoneinfo: %s:%d: %s\n", what, d->line, d->msg);
	return 2;
}

/* One integer from a sysctl file into *v; the caller sets the have bit. */
static int knob(const char *path, long *v)
{
	struct wm_diag d = { 0 };
	size_t len;
	char *buf = slurp(path, &len);
	int rc;

	if (!buf) {
		perror(path);
		return 2;
	}
	rc = pf_parse_long(buf, len, v, &d);
	free(buf);
	return rc ? fail(path, &d) : 0;
}

int main(int argc, char **argv)
{
	struct wm_diag d = { 0 };
	struct wm_kver k;
	struct wm_verify_opts o = { 0 };
	struct wm_geometry geo;
	struct wm_layout l;
	struct wm_machine m;
	struct wm_sysctl sc;
	struct wm_verify v;
	struct zi_info zi;
	size_t len;
	char *text;
	int rc;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: verify-zoneinfo RELEASE ZONEINFO MIN_FREE_KBYTES WSF [LRR]\n");
		return 2;
	}
	if (wm_kver_parse(argv[1], &k, &d))
		return fail(argv[1], &d);
	wm_profile_for(&k, &o.prof);
	o.kernel_known = true;

	wm_sysctl_none(&sc);
	if ((rc = knob(argv[3], &sc.min_free_kbytes)) || (rc = knob(argv[4], &sc.wsf)))
		return rc;
	sc.have |= WM_HAVE_MFK | WM_HAVE_WSF;
	if (argc == 6) {
		char *buf = slurp(argv[5], &len);

		if (!buf) {
			perror(argv[5]);
			return 2;
		}
		rc = pf_parse_long_list(buf, len, sc.lrr, WM_MAX_ZONES, &sc.nlrr, &d);
		free(buf);
		if (rc)
			return fail(argv[5], &d);
		sc.have |= WM_HAVE_LRR;
	}

	text = slurp(argv[2], &len);
	if (!text) {
		perror(argv[2]);
		return 2;
	}
	if (zi_parse(text, len, &zi, &d) || wm_layout_from_zoneinfo(&zi, &l, &d)) {
		free(text);
		return fail(argv[2], &d);
	}
	/* these files do not say the page size: assume the common one, said so */
	if (wm_geometry_assume(WM_ARCH_UNKNOWN, 4096, false, 0, 0, &geo, &d)) {
		wm_layout_free(&l);
		zi_free(&zi);
		free(text);
		return fail("geometry", &d);
	}
	m = (struct wm_machine){ .zones = l.zones, .nzones = l.nzones,
				 .page_size = geo.page_size,
				 .pageblock_pages = geo.pageblock_pages };
	o.geo = geo;
	rc = wm_verify(&zi, &l, &m, &sc, &o, &v, &d);
	if (rc == WM_OK) {
		printf("%s\n", wm_verdict_name(v.verdict));
		rc = v.verdict == WM_VERDICT_EXACT ? 0 : 1;
	} else {
		rc = fail("verify", &d);
	}
	wm_verify_free(&v);
	wm_layout_free(&l);
	zi_free(&zi);
	free(text);
	return rc;
}
