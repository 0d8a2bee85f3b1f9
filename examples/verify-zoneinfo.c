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
 * files go to wm_state_build() as texts, the release in place of
 * osrelease; they do not say the page size, so 4096 bytes is assumed (and
 * said so in a note).  A program with the whole root reads every text
 * from it, as verify-root.c does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wmark/state.h>
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

int main(int argc, char **argv)
{
	/* the arguments after RELEASE, as the texts they are */
	static const enum wm_text file[] = { WM_TEXT_ZONEINFO, WM_TEXT_MFK, WM_TEXT_WSF, WM_TEXT_LRR };
	struct wm_texts t = { .need = WM_NEED_ZONEINFO, .assumed_page_size = 4096 };
	char *buf[4] = { NULL };
	struct wm_verify_opts o = { 0 };
	struct wm_diag d = { 0 };
	struct wm_state s;
	struct wm_verify v;
	enum wm_text which;
	int i, rc = 0;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: verify-zoneinfo RELEASE ZONEINFO MIN_FREE_KBYTES WSF [LRR]\n");
		return 2;
	}
	t.text[WM_TEXT_KERNEL] = (struct wm_text_buf){ argv[1], strlen(argv[1]) };
	for (i = 0; i < argc - 2 && !rc; i++) {
		size_t len;

		if (!(buf[i] = slurp(argv[i + 2], &len))) {
			perror(argv[i + 2]);
			rc = 2;
			break;
		}
		t.text[file[i]] = (struct wm_text_buf){ buf[i], len };
	}
	if (!rc && wm_state_build(&t, &s, &which, &d)) {
		fprintf(stderr, "verify-zoneinfo: %s: %s\n", wm_text_name(which), d.msg);
		rc = 2;
	}
	for (i = 0; i < 4; i++)
		free(buf[i]);
	if (rc)
		return rc;
	rc = wm_verify(&s, &o, &v, &d);
	if (rc == WM_OK) {
		printf("%s\n", wm_verdict_name(v.verdict));
		rc = v.verdict == WM_VERDICT_EXACT ? 0 : 1;
		wm_verify_free(&v);
	} else {
		fprintf(stderr, "verify-zoneinfo: verify: %s\n", d.msg);
		rc = 2;
	}
	wm_state_free(&s);
	return rc;
}
