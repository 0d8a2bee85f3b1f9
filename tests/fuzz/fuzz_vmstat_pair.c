// SPDX-License-Identifier: MIT
/*
 * fuzz_vmstat_pair.c - libFuzzer target for recommend's two captured
 * vmstat files (--vmstat-before, --vmstat-after): the input is split at
 * its first NUL byte into the two texts (the same text twice when there
 * is none), each parsed by pf_parse_vmstat, read into a sample and the
 * pair reduced by wm_rec_analyze and wm_rec_decide.
 *
 * Contracts checked: each parse gives WM_OK, WM_EPARSE or WM_ENOMEM (a
 * message with the parse error); a pair in which an event counter went
 * backwards is refused (WM_ERANGE, as the CLI refuses swapped files), any
 * other analyses with each difference after - before; a decision to raise
 * comes only from direct reclaim and asks for at least today's gap.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/procfs.h"
#include "../../calc/recommend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

/* Parse text[0..len) into *s; false when it is no vmstat. */
static int sample(const char *text, size_t len, struct wm_rec_sample *s)
{
	struct pf_kv kv;
	struct wm_diag d = { 0 };
	int rc = pf_parse_vmstat(text, len, &kv, &d);

	check(rc == WM_OK || rc == WM_EPARSE || rc == WM_ENOMEM);
	if (rc == WM_EPARSE)
		check(d.msg[0] != '\0');
	memset(s, 0, sizeof(*s));
	if (rc == WM_OK)
		wm_rec_sample_vmstat(&kv, s);
	pf_kv_free(&kv);
	return rc == WM_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t la = nul ? (size_t)(nul - text) : size;
	struct wm_rec_sample s[2];
	struct wm_rec_measure m;
	struct wm_rec_decision dec;
	struct wm_diag d = { 0 };
	int c;

	if (!sample(text, la, &s[0]))
		return 0;
	if (nul ? !sample(nul + 1, size - la - 1, &s[1]) : !sample(text, size, &s[1]))
		return 0;
	s[0].t = 0;
	s[1].t = 1;
	if (wm_rec_backwards(&s[0], &s[1]) >= 0) {
		/* swapped files or two boots: refused, as the CLI refuses them */
		check(wm_rec_analyze(s, 2, &m, &d) == WM_ERANGE);
		return 0;
	}
	check(wm_rec_analyze(s, 2, &m, &d) == WM_OK);
	check(m.nsamples == 2 && m.have == (s[0].have & s[1].have));
	for (c = 0; c < WM_REC_NCTR; c++) {
		if (wm_rec_ctrs[c].level)
			check(m.d[c] == (s[0].c[c] < s[1].c[c] ? s[0].c[c] : s[1].c[c]));
		else
			check(m.d[c] == (s[1].c[c] >= s[0].c[c] ? s[1].c[c] - s[0].c[c] : 0));
	}
	wm_rec_decide(&m, 1000, &dec);
	check(dec.verdict == WM_REC_KEEP || dec.verdict == WM_REC_RAISE ||
	      dec.verdict == WM_REC_LOWER);
	if (dec.verdict == WM_REC_RAISE)
		check(dec.direct && dec.need >= 1000);
	if (!nul)
		check(m.d[WM_REC_ALLOCSTALL] == 0 && m.d[WM_REC_PGSCAN_DIRECT] == 0 &&
		      dec.verdict != WM_REC_RAISE);
	return 0;
}
