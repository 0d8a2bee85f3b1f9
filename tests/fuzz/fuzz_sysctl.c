// SPDX-License-Identifier: MIT
/*
 * fuzz_sysctl.c - libFuzzer target for the sysctl.d reader and the value
 * parser of cli/sysctl.c (apply --from, journal texts, kernel read-backs).
 *
 * The file is compiled in directly: the fuzz build links only calc/.
 * Contracts checked: sc_conf_next always advances and ends, returns
 * trimmed non-empty keys with increasing line numbers; a value that
 * parses formats to text that parses back to the same numbers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/sysctl.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static void conf(const char *buf, size_t len)
{
	struct sc_conf_line l;
	size_t pos = 0, last_pos = 0;
	int line = 0, last_line = 0, r;

	while ((r = sc_conf_next(buf, len, &pos, &line, &l)) != 0) {
		check(r == 1 || r == -1);
		check(pos > last_pos && pos <= len);
		check(l.line > last_line && l.line == line);
		last_pos = pos;
		last_line = l.line;
		if (r < 0)
			continue;
		check(l.key[0] != '\0');
		check(!isspace((unsigned char)l.key[0]));
		check(!isspace((unsigned char)l.key[strlen(l.key) - 1]));
		/* The dotted form: a '/' survives only where a '.' was literal. */
		check(strlen(l.key) < sizeof(l.key));
		if (l.value[0]) {
			check(!isspace((unsigned char)l.value[0]));
			check(!isspace((unsigned char)l.value[strlen(l.value) - 1]));
		}
	}
	check(pos == len || len == 0);
}

static void value(const char *text)
{
	struct sc_value v, w;
	char err[160], out[256];
	int k, n;

	for (k = 0; k < SC_NKEYS; k++) {
		if (sc_value_parse((enum sc_key)k, text, &v, err, sizeof(err)) != 0) {
			check(err[0] != '\0');
			continue;
		}
		check(v.n >= 1 && v.n <= (k == SC_LRR ? WM_MAX_ZONES : 1));
		n = sc_value_format(&v, out, sizeof(out));
		check(n > 0 && out[n - 1] == '\n' && (size_t)n == strlen(out));
		check(sc_value_parse((enum sc_key)k, out, &w, err, sizeof(err)) == 0);
		check(sc_value_equal(&v, &w));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	conf(s, size);
	value(s);
	free(s);
	return 0;
}
