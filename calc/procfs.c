// SPDX-License-Identifier: MIT
/*
 * procfs.c - the small /proc and /sys files, from buffers.
 *
 * What the kernel prints, and so what is accepted: a sysctl integer is
 * "%d\n" or "%lu\n"; lowmem_reserve_ratio is proc_dointvec's list,
 * tab-separated (captures copied by hand often have spaces); a sysfs
 * choice brackets the active word; /proc/meminfo and /proc/vmstat print
 * unsigned numbers (meminfo with " kB" except the HugePages_ counts);
 * /proc/pressure/memory (4.20+) prints "%lu.%02lu" averages and a total
 * in microseconds.  Unknown keys are kept (meminfo, vmstat) or skipped
 * (pressure); anything that does not fit the shape is WM_EPARSE with the
 * line, so a truncated or foreign file is never read as zeros.
 *
 * No sscanf/strtol: their locale and errno handling would make "is this
 * the whole value" harder to say, and the buffers are not NUL-terminated.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"
#include "scan.h"

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* End of the line starting at p: its '\n', or end. */
static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

static int bad_number(struct wm_diag *diag, int line, const char *key,
		      int rc)
{
	if (rc == -2)
		return wm_fail(diag, WM_EPARSE, line, key, "number too large");
	return wm_fail(diag, WM_EPARSE, line, key, "expected a number");
}

/*
 * A one-line file: set [*b, *e) to its first line without surrounding
 * blanks; fail if any later line holds anything but blanks.
 */
static int only_line(const char *buf, size_t len, const char **b,
		     const char **e, struct wm_diag *diag)
{
	const char *end, *eol, *p;
	int line = 1;

	if (!buf)
		buf = "", len = 0;
	end = buf + len;
	eol = line_end(buf, end);
	*b = skip_blanks(buf, eol);
	p = eol;
	while (p > *b && is_blank(p[-1]))
		p--;
	*e = p;
	for (p = eol; p < end; p++) {
		if (*p == '\n')
			line++;
		else if (!is_blank(*p))
			return wm_fail(diag, WM_EPARSE, line, NULL,
				       "text after the first line");
	}
	return WM_OK;
}

/* One integer sysctl into *out; WM_EPARSE with the line otherwise. */
int pf_parse_long(const char *buf, size_t len, int64_t *out,
		  struct wm_diag *diag)
{
	const char *p, *e;
	int64_t v;
	int rc;

	rc = only_line(buf, len, &p, &e, diag);
	if (rc)
		return rc;
	rc = wm_scan_long(&p, e, true, &v);
	if (rc)
		return bad_number(diag, 1, NULL, rc);
	if (p != e)
		return wm_fail(diag, WM_EPARSE, 1, NULL,
			       "unexpected text after the number");
	*out = v;
	return WM_OK;
}

/* Up to max blank-separated integers into out[0..*n); WM_EPARSE otherwise. */
int pf_parse_long_list(const char *buf, size_t len, int64_t *out, int max,
		       int *n, struct wm_diag *diag)
{
	const char *p, *e;
	int rc, k = 0;
	int64_t v;

	rc = only_line(buf, len, &p, &e, diag);
	if (rc)
		return rc;
	if (p == e)
		return wm_fail(diag, WM_EPARSE, 1, NULL, "no value");
	while (p < e) {
		rc = wm_scan_long(&p, e, true, &v);
		if (rc)
			return bad_number(diag, 1, NULL, rc);
		if (p < e && !is_blank(*p))
			return wm_fail(diag, WM_EPARSE, 1, NULL,
				       "values must be separated by tabs or spaces");
		if (k >= max)
			return wm_fail(diag, WM_EPARSE, 1, NULL,
				       "more than %d values", max);
		out[k++] = v;
		p = skip_blanks(p, e);
	}
	*n = k;
	return WM_OK;
}

/* The trimmed first line into out[size]; WM_EPARSE if empty or too long. */
int pf_parse_line(const char *buf, size_t len, char *out, size_t size,
		  struct wm_diag *diag)
{
	const char *p, *e;
	size_t n;
	int rc;

	rc = only_line(buf, len, &p, &e, diag);
	if (rc)
		return rc;
	n = (size_t)(e - p);
	if (n == 0)
		return wm_fail(diag, WM_EPARSE, 1, NULL, "empty");
	if (memchr(p, '\0', n))
		return wm_fail(diag, WM_EPARSE, 1, NULL, "contains a NUL byte");
	if (n >= size)
		return wm_fail(diag, WM_EPARSE, 1, NULL,
			       "longer than %zu characters", size ? size - 1 : 0);
	memcpy(out, p, n);
	out[n] = '\0';
	return WM_OK;
}

/* The one bracketed word into out[size]; WM_EPARSE otherwise. */
int pf_parse_choice(const char *buf, size_t len, char *out, size_t size,
		    struct wm_diag *diag)
{
	const char *p, *e, *w, *we, *active = NULL;
	size_t n = 0;
	int rc;

	rc = only_line(buf, len, &p, &e, diag);
	if (rc)
		return rc;
	for (; p < e; p = skip_blanks(we, e)) {
		w = p;
		we = w;
		while (we < e && !is_blank(*we))
			we++;
		if (*w != '[') {
			if (memchr(w, '[', (size_t)(we - w)) ||
			    memchr(w, ']', (size_t)(we - w)))
				return wm_fail(diag, WM_EPARSE, 1, NULL,
					       "misplaced bracket");
			continue;
		}
		if (we - w < 3 || we[-1] != ']' ||
		    memchr(w + 1, '[', (size_t)(we - w - 1)) ||
		    memchr(w + 1, ']', (size_t)(we - w - 2)))
			return wm_fail(diag, WM_EPARSE, 1, NULL,
				       "unbalanced bracket");
		if (active)
			return wm_fail(diag, WM_EPARSE, 1, NULL,
				       "more than one bracketed choice");
		active = w + 1;
		n = (size_t)(we - w - 2);
	}
	if (!active)
		return wm_fail(diag, WM_EPARSE, 1, NULL,
			       "no bracketed (active) choice");
	if (n >= size || memchr(active, '\0', n))
		return wm_fail(diag, WM_EPARSE, 1, NULL,
			       "unexpected active choice");
	memcpy(out, active, n);
	out[n] = '\0';
	return WM_OK;
}

/* The active THP mode into *out; WM_EPARSE for any other word. */
int pf_parse_thp(const char *buf, size_t len, enum wm_thp *out,
		 struct wm_diag *diag)
{
	static const struct {
		const char *name;
		enum wm_thp mode;
	} modes[] = {
		{ "always", WM_THP_ALWAYS },
		{ "madvise", WM_THP_MADVISE },
		{ "never", WM_THP_NEVER },
	};
	char word[16];
	size_t i;
	int rc;

	rc = pf_parse_choice(buf, len, word, sizeof(word), diag);
	if (rc)
		return rc;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(word, modes[i].name) == 0) {
			*out = modes[i].mode;
			return WM_OK;
		}
	}
	return wm_fail(diag, WM_EPARSE, 1, "enabled",
		       "active THP mode '%s' is not always, madvise or never",
		       word);
}

/* ---- key/value files ------------------------------------------------- */

static int kv_add(struct pf_kv *kv, const char *key, uint64_t value,
		  int line, bool kb, struct wm_diag *diag)
{
	struct pf_kv_item *it;

	if (kv->n == kv->cap) {
		size_t cap = kv->cap ? kv->cap * 2 : 64;

		if (cap > SIZE_MAX / sizeof(*it))
			goto nomem;
		it = realloc(kv->items, cap * sizeof(*it));
		if (!it)
			goto nomem;
		kv->items = it;
		kv->cap = cap;
	}
	it = &kv->items[kv->n++];
	it->key = key;
	it->value = value;
	it->line = line;
	it->kb = kb;
	return WM_OK;
nomem:
	return wm_fail(diag, WM_ENOMEM, line, NULL, "out of memory");
}

/*
 * Parse "KEY: N [kB]" (meminfo) or "KEY N" (vmstat) lines.  The keys are
 * cut out of one private copy of the file: one allocation for all of
 * them however many lines there are.
 */
static int parse_kv(const char *buf, size_t len, struct pf_kv *out,
		    bool meminfo, struct wm_diag *diag)
{
	char *p, *end, *eol, *k, *ke;
	const char *v;
	uint64_t val;
	int line = 0, rc;
	bool kb;

	memset(out, 0, sizeof(*out));
	if (len == SIZE_MAX)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	out->text = malloc(len + 1);
	if (!out->text)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	if (len && buf)
		memcpy(out->text, buf, len);
	else
		len = 0;
	out->text[len] = '\0';
	for (p = out->text, end = p + len; p < end; p = eol + 1) {
		if (line == INT_MAX)
			return wm_fail(diag, WM_EPARSE, line, NULL,
				       "too many lines");
		line++;
		/* Offsets keep the copy writable without casting const away. */
		eol = p + (line_end(p, end) - p);
		k = p + (skip_blanks(p, eol) - p);
		if (k == eol)
			continue;
		ke = k;
		if (meminfo) {
			while (ke < eol && *ke != ':')
				ke++;
			if (ke == eol || ke == k)
				return wm_fail(diag, WM_EPARSE, line, NULL,
					       "expected 'Key: value'");
		} else {
			while (ke < eol && !is_blank(*ke))
				ke++;
			/* A colon means some other file (meminfo, say). */
			if (memchr(k, ':', (size_t)(ke - k)))
				return wm_fail(diag, WM_EPARSE, line, NULL,
					       "expected 'key value'");
		}
		if (memchr(k, '\0', (size_t)(ke - k)))
			return wm_fail(diag, WM_EPARSE, line, NULL,
				       "NUL byte in a key");
		v = skip_blanks(ke + meminfo, eol);
		*ke = '\0';
		rc = wm_scan_u64(&v, eol, UINT64_MAX, &val);
		if (rc)
			return bad_number(diag, line, k, rc);
		v = skip_blanks(v, eol);
		kb = false;
		if (meminfo && eol - v >= 2 && v[0] == 'k' && v[1] == 'B') {
			kb = true;
			v = skip_blanks(v + 2, eol);
		}
		if (v != eol)
			return wm_fail(diag, WM_EPARSE, line, k,
				       "unexpected text after the value of '%s'",
				       k);
		rc = kv_add(out, k, val, line, kb, diag);
		if (rc)
			return rc;
	}
	if (out->n == 0)
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       meminfo ? "no 'Key: value' line" :
					 "no 'key value' line");
	return WM_OK;
}

/* "Key: N [kB]" lines into *out (free with pf_kv_free); WM_EPARSE otherwise. */
int pf_parse_meminfo(const char *buf, size_t len, struct pf_kv *out,
		     struct wm_diag *diag)
{
	return parse_kv(buf, len, out, true, diag);
}

/* "key N" lines into *out (free with pf_kv_free); WM_EPARSE otherwise. */
int pf_parse_vmstat(const char *buf, size_t len, struct pf_kv *out,
		    struct wm_diag *diag)
{
	return parse_kv(buf, len, out, false, diag);
}

/* The first entry named key, or NULL. */
const struct pf_kv_item *pf_kv_find(const struct pf_kv *kv, const char *key)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (strcmp(kv->items[i].key, key) == 0)
			return &kv->items[i];
	return NULL;
}

/* Store the value of key in *out and return true, or return false. */
bool pf_kv_get(const struct pf_kv *kv, const char *key, uint64_t *out)
{
	const struct pf_kv_item *it = pf_kv_find(kv, key);

	if (!it)
		return false;
	*out = it->value;
	return true;
}

/* Release what a pf_parse_* call allocated and empty *kv; NULL is fine. */
void pf_kv_free(struct pf_kv *kv)
{
	if (!kv)
		return;
	free(kv->items);
	free(kv->text);
	memset(kv, 0, sizeof(*kv));
}

/* ---- pressure -------------------------------------------------------- */

/* "12.34" (the kernel prints "%lu.%02lu") into a double, by hand. */
static int scan_decimal(const char **pp, const char *end, double *out)
{
	const char *p = *pp;
	uint64_t ip, frac = 0;
	double scale = 1;
	int rc, digits = 0;

	rc = wm_scan_u64(&p, end, UINT64_MAX, &ip);
	if (rc)
		return rc;
	if (p < end && *p == '.') {
		p++;
		if (p >= end || (unsigned)(*p - '0') > 9)
			return -1;
		for (; p < end && (unsigned)(*p - '0') <= 9; p++) {
			/* Digits past the 18th cannot change a double. */
			if (digits < 18) {
				frac = frac * 10 + (unsigned)(*p - '0');
				scale *= 10;
				digits++;
			}
		}
	}
	*out = (double)ip + (double)frac / scale;
	*pp = p;
	return 0;
}

static int parse_psi_line(const char *p, const char *eol, int line,
			  struct pf_psi_line *pl, struct wm_diag *diag)
{
	const char *w, *we, *eq;
	unsigned seen = 0;
	double *avg;
	int rc;

	for (p = skip_blanks(p, eol); p < eol; p = skip_blanks(we, eol)) {
		w = p;
		we = w;
		while (we < eol && !is_blank(*we))
			we++;
		eq = memchr(w, '=', (size_t)(we - w));
		if (!eq)
			return wm_fail(diag, WM_EPARSE, line, NULL,
				       "expected key=value");
		avg = NULL;
		if (eq - w == 5 && memcmp(w, "avg10", 5) == 0) {
			avg = &pl->avg10;
			seen |= 1;
		} else if (eq - w == 5 && memcmp(w, "avg60", 5) == 0) {
			avg = &pl->avg60;
			seen |= 2;
		} else if (eq - w == 6 && memcmp(w, "avg300", 6) == 0) {
			avg = &pl->avg300;
			seen |= 4;
		} else if (eq - w == 5 && memcmp(w, "total", 5) == 0) {
			p = eq + 1;
			rc = wm_scan_u64(&p, we, UINT64_MAX, &pl->total);
			if (rc || p != we)
				return bad_number(diag, line, "total", rc);
			seen |= 8;
			continue;
		} else {
			continue;
		}
		p = eq + 1;
		rc = scan_decimal(&p, we, avg);
		if (rc || p != we)
			return bad_number(diag, line, NULL, rc);
	}
	if (seen != 15)
		return wm_fail(diag, WM_EPARSE, line, NULL,
			       "expected avg10=, avg60=, avg300= and total=");
	pl->present = true;
	return WM_OK;
}

/* The "some" and "full" lines into *out; WM_EPARSE if malformed or absent. */
int pf_parse_psi(const char *buf, size_t len, struct pf_psi *out,
		 struct wm_diag *diag)
{
	const char *p, *end, *eol, *k;
	struct pf_psi_line *pl;
	int line = 0, rc;

	memset(out, 0, sizeof(*out));
	if (!buf)
		buf = "", len = 0;
	for (p = buf, end = buf + len; p < end; p = eol + 1) {
		if (line == INT_MAX)
			break;
		line++;
		eol = line_end(p, end);
		k = skip_blanks(p, eol);
		if (eol - k >= 5 && memcmp(k, "some", 4) == 0 && is_blank(k[4]))
			pl = &out->some;
		else if (eol - k >= 5 && memcmp(k, "full", 4) == 0 &&
			 is_blank(k[4]))
			pl = &out->full;
		else
			continue;
		rc = parse_psi_line(k + 4, eol, line, pl, diag);
		if (rc)
			return rc;
	}
	if (!out->some.present && !out->full.present)
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       "no 'some' or 'full' line");
	return WM_OK;
}
