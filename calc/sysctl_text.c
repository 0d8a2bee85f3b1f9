// SPDX-License-Identifier: MIT
/*
 * sysctl_text.c - the watermark sysctls as text: keys, values, the ranges
 * a kernel accepts, and sysctl.d files.
 *
 * Keys follow procps sysctl(8): "vm.x" or "vm/x", and only the knobs in
 * the allowlist below, which is what keeps apply off every other file
 * under /proc/sys.  Values follow the kernel's proc_dointvec_minmax
 * (docs/model.md §5): decimal ints between blanks, an
 * out-of-range value refused whole.  Files follow systemd's sysctl.d(5),
 * which procps reads the same way: "#" and ";" start a comment line,
 * "key = value" with blanks optional, a leading "-" asks that a failure
 * to set the key be ignored.  The subtle point is a key written with
 * '/': systemd takes it as a path, so its dots are literal and are
 * swapped with the slashes ("net/ipv4/conf/eth0.100/rp_filter" is the
 * key "net.ipv4.conf.eth0/100.rp_filter").
 */
#include <inttypes.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "knob.h"
#include "sysctl_text.h"

const char *wm_knob_name(enum wm_knob k)
{
	const struct wm_knob_def *d = wm_knob_def(k);

	return d ? d->name : "?";
}

int sc_key_parse(const char *s, enum wm_knob *out)
{
	int i;

	/* Only the vm. prefix: the allowlist is what keeps us off other knobs. */
	if (strncmp(s, "vm.", 3) != 0 && strncmp(s, "vm/", 3) != 0)
		return WM_EINVAL;
	for (i = 0; i < WM_NKNOBS; i++) {
		if (strcmp(s + 3, wm_knob_name((enum wm_knob)i)) == 0) {
			*out = (enum wm_knob)i;
			return WM_OK;
		}
	}
	return WM_EINVAL;
}

int sc_value_parse(enum wm_knob k, const char *text, struct sc_value *out,
		   struct wm_diag *diag)
{
	const char *p = text, *name = wm_knob_name(k);
	int max = k == WM_KNOB_LRR ? WM_MAX_ZONES : 1;

	memset(out, 0, sizeof(*out));
	for (;;) {
		char *end;
		int64_t v;

		while (isspace((unsigned char)*p) || (k == WM_KNOB_LRR && *p == ','))
			p++;
		if (!*p)
			break;
		if (!(isdigit((unsigned char)*p) ||
		      (*p == '-' && isdigit((unsigned char)p[1]))))
			return wm_fail(diag, WM_EPARSE, 0, name,
				       "'%s' is not an integer", text);
		errno = 0;
		v = strtoll(p, &end, 10);
		/* The kernel keeps an int: INT_MAX + 1 would wrap. */
		if (errno == ERANGE || v > INT_MAX || v < INT_MIN)
			return wm_fail(diag, WM_ERANGE, 0, name,
				       "'%s' is too large", text);
		if (*end && !isspace((unsigned char)*end) &&
		    !(k == WM_KNOB_LRR && *end == ','))
			return wm_fail(diag, WM_EPARSE, 0, name,
				       "'%s' is not an integer", text);
		if (out->n == max)
			return wm_fail(diag, WM_EPARSE, 0, name, max == 1 ?
				       "'%s': one integer expected" :
				       "'%s': too many entries", text);
		out->v[out->n++] = v;
		p = end;
	}
	if (out->n == 0)
		return wm_fail(diag, WM_EPARSE, 0, name, "empty value");
	return WM_OK;
}

int sc_value_check(const struct wm_profile *p, enum wm_knob k,
		   const struct sc_value *v, int want_n, struct wm_diag *diag)
{
	const char *name = wm_knob_name(k);
	struct wm_profile def;
	int i, rc;

	if (!p) {
		/* no profile: the newest rules, with the older wsf limit */
		wm_profile_default(&def);
		def.wsf_max = 1000;
		p = &def;
	}
	if (k == WM_KNOB_LRR && want_n > 0 && v->n != want_n)
		return wm_fail(diag, WM_EINVAL, 0, name,
			       "%s needs %d entries (one per zone type, as the kernel prints it), got %d",
			       name, want_n, v->n);
	for (i = 0; i < v->n; i++)
		if ((rc = wm_knob_check_clean(p, k, v->v[i], diag)))
			return rc;
	return WM_OK;
}

int sc_value_format(const struct sc_value *v, char *buf, size_t n)
{
	size_t off = 0;
	int i, r;

	for (i = 0; i < v->n; i++) {
		r = snprintf(buf + off, n - off, "%s%" PRId64 "", i ? " " : "", v->v[i]);
		if (r < 0 || (size_t)r >= n - off)
			return WM_ERANGE;
		off += (size_t)r;
	}
	if (off + 2 > n)
		return WM_ERANGE;
	buf[off++] = '\n';
	buf[off] = '\0';
	return (int)off;
}

bool sc_value_equal(const struct sc_value *a, const struct sc_value *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i])
			return false;
	return true;
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

static const char *trim_end(const char *start, const char *end)
{
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

int sc_conf_next(const char *buf, size_t len, size_t *pos, int *line,
		 struct sc_conf_line *out)
{
	const char *end = buf + len;

	while (*pos < len) {
		const char *p = buf + *pos, *eol, *eq, *k, *ke, *v, *ve;
		size_t kl, vl, i;
		char first_sep = 0;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		*pos = (size_t)(eol - buf) + (eol < end);
		++*line;
		memset(out, 0, sizeof(*out));
		out->line = *line;
		p = skip_blank(p, eol);
		if (p == eol || *p == '#' || *p == ';' || *p == '\n')
			continue;
		if (*p == '-') {
			out->ignore_failure = true;
			p = skip_blank(p + 1, eol);
		}
		eq = memchr(p, '=', (size_t)(eol - p));
		if (!eq || memchr(p, '\0', (size_t)(eol - p)))
			return WM_EPARSE;	/* no '=', or a NUL byte: not text */
		k = p;
		ke = trim_end(k, eq);
		v = skip_blank(eq + 1, eol);
		ve = trim_end(v, eol);
		kl = (size_t)(ke - k);
		vl = (size_t)(ve - v);
		if (kl == 0 || kl >= sizeof(out->key) || vl >= sizeof(out->value))
			return WM_EPARSE;
		memcpy(out->key, k, kl);
		memcpy(out->value, v, vl);
		/*
		 * systemd-sysctl: if the first separator is '/', the key is a
		 * path and its dots are literal, so swap the two.
		 */
		for (i = 0; i < kl && !first_sep; i++)
			if (out->key[i] == '.' || out->key[i] == '/')
				first_sep = out->key[i];
		for (i = 0; first_sep == '/' && i < kl; i++) {
			if (out->key[i] == '/')
				out->key[i] = '.';
			else if (out->key[i] == '.')
				out->key[i] = '/';
		}
		return 1;
	}
	return 0;
}
