// SPDX-License-Identifier: MIT
/*
 * fuzz_sysctl.c - libFuzzer target for the sysctl text of
 * calc/sysctl_text.c: the sysctl.d reader (apply --from, the persist
 * scan), the key allowlist, the value parser (journal texts, kernel
 * read-backs) and the per-kernel range check.
 *
 * Contracts checked: sc_conf_next reads only buf[0..len), always
 * advances and ends, returns trimmed non-empty keys with increasing line
 * numbers, in the dotted form; an allowed key is "vm." + a knob's name;
 * a value that parses holds ints, formats to text that parses back to
 * the same numbers, and passes the range check only inside the range; a
 * failure is one of the documented codes with a message.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../calc/sysctl_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

/* Kernels whose ranges differ: rule A ratios, wsf 1..1000, 1..3000. */
static const char *const kernels[] = { "4.9.337", "5.15.55", "6.12.117+deb12-amd64" };
#define NPROF (sizeof(kernels) / sizeof(kernels[0]))
static struct wm_profile prof[NPROF];

static void init_profiles(void)
{
	static int done;
	struct wm_kver k;
	size_t i;

	if (done)
		return;
	for (i = 0; i < NPROF; i++) {
		check(wm_kver_parse(kernels[i], &k, NULL) == WM_OK);
		wm_profile_for(&k, &prof[i]);
	}
	done = 1;
}

static void key(const char *s)
{
	enum wm_knob k = WM_NKNOBS;
	int r = sc_key_parse(s, &k);

	check(r == WM_OK || r == WM_EINVAL);
	if (r != WM_OK) {
		check(k == WM_NKNOBS);
		return;
	}
	check((unsigned)k < WM_NKNOBS);
	check(strncmp(s, "vm", 2) == 0 && (s[2] == '.' || s[2] == '/'));
	check(strcmp(s + 3, wm_knob_name(k)) == 0);
}

static void range(enum wm_knob k, const struct sc_value *v)
{
	struct wm_diag d;
	size_t i;
	int j, r;

	for (i = 0; i < NPROF; i++) {
		long lo = 0, hi = INT_MAX;

		if (k == WM_KNOB_WSF) {
			lo = 1;
			hi = prof[i].wsf_max > 0 ? prof[i].wsf_max : 1000;
		}
		if (k == WM_KNOB_LRR && prof[i].lrr_rule == WM_LRR_A)
			lo = 1;
		d.msg[0] = '\0';
		r = sc_value_check(&prof[i], k, v, 0, &d);
		check(r == WM_OK || r == WM_EINVAL);
		for (j = 0; j < v->n; j++)
			if (v->v[j] < lo || v->v[j] > hi)
				break;
		check((r == WM_OK) == (j == v->n));
		if (r != WM_OK)
			check(d.msg[0] != '\0' && strcmp(d.key, wm_knob_name(k)) == 0);
		if (k == WM_KNOB_LRR)
			check(sc_value_check(&prof[i], k, v, v->n + 1, NULL) == WM_EINVAL);
	}
}

static void value(enum wm_knob k, const char *text)
{
	struct sc_value v, w;
	struct wm_diag d;
	char out[256];
	int j, n, r;

	d.msg[0] = '\0';
	r = sc_value_parse(k, text, &v, &d);
	if (r != WM_OK) {
		check(r == WM_EPARSE || r == WM_ERANGE);
		check(d.msg[0] != '\0' && strcmp(d.key, wm_knob_name(k)) == 0);
		check(sc_value_parse(k, text, &w, NULL) == r);
		return;
	}
	check(v.n >= 1 && v.n <= (k == WM_KNOB_LRR ? WM_MAX_ZONES : 1));
	for (j = 0; j < v.n; j++)
		check(v.v[j] >= INT_MIN && v.v[j] <= INT_MAX);
	n = sc_value_format(&v, out, sizeof(out));
	check(n > 0 && out[n - 1] == '\n' && (size_t)n == strlen(out));
	check(sc_value_format(&v, out, (size_t)n) == WM_ERANGE);
	check(sc_value_parse(k, out, &w, NULL) == WM_OK);
	check(sc_value_equal(&v, &w));
	range(k, &v);
}

static void conf(const char *buf, size_t len)
{
	struct sc_conf_line l;
	size_t pos = 0, last_pos = 0;
	int line = 0, last_line = 0, r;
	enum wm_knob k;

	while ((r = sc_conf_next(buf, len, &pos, &line, &l)) != 0) {
		check(r == 1 || r == WM_EPARSE);
		check(pos > last_pos && pos <= len);
		check(l.line > last_line && l.line == line);
		last_pos = pos;
		last_line = l.line;
		if (r < 0)
			continue;
		check(l.key[0] != '\0');
		check(strlen(l.key) < sizeof(l.key));
		check(strlen(l.value) < sizeof(l.value));
		check(!isspace((unsigned char)l.key[0]));
		check(!isspace((unsigned char)l.key[strlen(l.key) - 1]));
		if (l.value[0]) {
			check(!isspace((unsigned char)l.value[0]));
			check(!isspace((unsigned char)l.value[strlen(l.value) - 1]));
		}
		key(l.key);
		if (sc_key_parse(l.key, &k) == WM_OK) {
			/* The dotted form: a slashed "vm/x" has become "vm.x". */
			check(l.key[2] == '.');
			value(k, l.value);
		}
	}
	check(pos == len || len == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	int k;

	init_profiles();
	/* libFuzzer's buffer is exactly size bytes: an overread is caught. */
	conf((const char *)data, size);
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	key(s);
	for (k = 0; k < WM_NKNOBS; k++)
		value((enum wm_knob)k, s);
	free(s);
	return 0;
}
