// SPDX-License-Identifier: MIT
/*
 * fuzz_replay.c - libFuzzer target for recommend --replay's readings
 * (calc/replay.h): the input is a recording, its first line parsed by
 * wm_replay_header, each later line by wm_replay_line, and the readings
 * that parsed reduced by wm_rec_analyze, as the CLI does.
 *
 * Contracts checked: every parse gives WM_OK or WM_EPARSE with a message;
 * a parsed reading has a finite t, counter bits only for known counters,
 * boosts of -1 or more; wm_rec_backwards() names a counter exactly when
 * one present in both readings is lower in the later; wm_rec_analyze()
 * refuses (WM_EINVAL) time not ascending, refuses (WM_ERANGE) a counter
 * that went backwards, and otherwise gives each event counter's last -
 * first, never a wrapped difference.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXS 32

static void check(int cond)
{
	if (!cond)
		abort();
}

/* Whether some counter present in both went down from a to b (by hand). */
static int went_back(const struct wm_rec_sample *a, const struct wm_rec_sample *b)
{
	int c;

	for (c = 0; c < WM_REC_NCTR; c++)
		if (!wm_rec_ctrs[c].level && (a->have & b->have & (1u << c)) && b->c[c] < a->c[c])
			return 1;
	return a->psi && b->psi && (b->psi_some < a->psi_some || b->psi_full < a->psi_full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wm_rec_sample s[MAXS];
	const char *p = (const char *)data, *end = p + size;
	struct wm_boost_obs *obs = NULL;
	struct wm_rec_measure m;
	struct wm_diag d;
	size_t nz = 0, n = 0;
	int first = 1, rc, c, ascending = 1, back = 0;
	char *line;

	while (p < end && n < MAXS) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		line = malloc(len + 1);
		check(line != NULL);
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl ? nl + 1 : end;
		memset(&d, 0, sizeof(d));
		if (first) {
			first = 0;
			rc = wm_replay_header(line, &nz, &d);
			free(line);
			check(rc == WM_OK || rc == WM_EPARSE);
			if (rc) {
				check(d.msg[0] != '\0');
				return 0;
			}
			check(nz >= 1 && nz <= WM_MAX_ZONES * 1024);
			obs = calloc(nz, sizeof(*obs));
			check(obs != NULL);
			continue;
		}
		if (strlen(line) != len || line[0] == '#') {	/* a NUL inside, or a comment */
			free(line);
			continue;
		}
		rc = wm_replay_line(line, nz, &s[n], obs, &d);
		free(line);
		check(rc == WM_OK || rc == WM_EPARSE);
		if (rc) {
			check(d.msg[0] != '\0');
			continue;
		}
		check(isfinite(s[n].t));
		check((s[n].have >> WM_REC_NCTR) == 0);
		for (size_t z = 0; z < nz; z++)
			check(obs[z].boost >= -1);
		if (n > 0) {
			int k = wm_rec_backwards(&s[n - 1], &s[n]);

			check((k >= 0) == went_back(&s[n - 1], &s[n]));
			check(k >= -1 && k <= WM_REC_NCTR);
			if (k >= 0 && k < WM_REC_NCTR)
				check(s[n].c[k] < s[n - 1].c[k]);
			back |= k >= 0;
			ascending &= s[n].t > s[n - 1].t;
		}
		n++;
	}
	free(obs);
	if (n < 2)
		return 0;
	memset(&d, 0, sizeof(d));
	rc = wm_rec_analyze(s, n, &m, &d);
	if (!ascending) {
		check(rc == WM_EINVAL);
		return 0;
	}
	check(rc == (back ? WM_ERANGE : WM_OK));
	if (rc)
		return 0;
	for (c = 0; c < WM_REC_NCTR; c++)
		if (!wm_rec_ctrs[c].level)
			check(m.d[c] == (s[n - 1].c[c] >= s[0].c[c] ? s[n - 1].c[c] - s[0].c[c] : 0));
	return 0;
}
