// SPDX-License-Identifier: MIT
/*
 * fuzz_procfs.c - libFuzzer target for the procfs.h parsers.
 *
 * The first byte picks the parser (its value modulo 8, so the seeds use
 * '0'..'7'), the rest is the file.  Each result is checked against the
 * contract in procfs.h; a broken promise aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static void check_failure(int rc, const struct wm_diag *d)
{
	check(rc == WM_EPARSE || rc == WM_ENOMEM);
	check(d->msg[0] != '\0');
	check(d->line >= 0);
}

static void check_kv(int rc, struct pf_kv *kv, const struct wm_diag *d)
{
	const struct pf_kv_item *it;
	size_t i;

	if (rc != WM_OK) {
		check_failure(rc, d);
		pf_kv_free(kv);
		return;
	}
	check(kv->n > 0 && kv->n <= kv->cap);
	for (i = 0; i < kv->n; i++) {
		it = &kv->items[i];
		check(it->line >= 1);
		check(i == 0 || it->line > kv->items[i - 1].line);
		/* lookup finds this key (or an earlier duplicate) */
		it = pf_kv_find(kv, kv->items[i].key);
		check(it != NULL && it <= &kv->items[i]);
		check(strcmp(it->key, kv->items[i].key) == 0);
	}
	pf_kv_free(kv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data + 1;
	struct wm_diag d;
	char word[32];
	struct pf_kv kv;
	struct pf_psi psi;
	enum wm_thp thp;
	long v[WM_MAX_ZONES], one;
	size_t len;
	int rc, n = -1;

	if (size == 0)
		return 0;
	len = size - 1;
	memset(&d, 0, sizeof(d));
	switch (data[0] % 8) {
	case 0:
		rc = pf_parse_long(buf, len, &one, &d);
		if (rc != WM_OK)
			check_failure(rc, &d);
		break;
	case 1:
		rc = pf_parse_long_list(buf, len, v, WM_MAX_ZONES, &n, &d);
		if (rc == WM_OK)
			check(n >= 1 && n <= WM_MAX_ZONES);
		else
			check_failure(rc, &d);
		break;
	case 2:
		rc = pf_parse_line(buf, len, word, sizeof(word), &d);
		if (rc == WM_OK)
			check(word[0] != '\0' && strlen(word) < sizeof(word) &&
			      word[0] != ' ' && word[strlen(word) - 1] != ' ');
		else
			check_failure(rc, &d);
		break;
	case 3:
		rc = pf_parse_choice(buf, len, word, sizeof(word), &d);
		if (rc == WM_OK)
			check(word[0] != '\0' && !strchr(word, '[') &&
			      !strchr(word, ']') && !strchr(word, ' '));
		else
			check_failure(rc, &d);
		break;
	case 4:
		rc = pf_parse_thp(buf, len, &thp, &d);
		if (rc == WM_OK)
			check(thp == WM_THP_ALWAYS || thp == WM_THP_MADVISE ||
			      thp == WM_THP_NEVER);
		else
			check_failure(rc, &d);
		break;
	case 5:
		rc = pf_parse_meminfo(buf, len, &kv, &d);
		check_kv(rc, &kv, &d);
		break;
	case 6:
		rc = pf_parse_vmstat(buf, len, &kv, &d);
		check_kv(rc, &kv, &d);
		break;
	default:
		rc = pf_parse_psi(buf, len, &psi, &d);
		if (rc == WM_OK)
			check(psi.some.present || psi.full.present);
		else
			check_failure(rc, &d);
		break;
	}
	return 0;
}
