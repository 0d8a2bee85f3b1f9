// SPDX-License-Identifier: MIT
/*
 * rec_sample.c - the counters `wmark recommend` decides from: read live
 * every interval (--sample), from two vmstat files, or from a --record
 * file (--replay); and --record itself (recommend.h).
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/procfs.h"
#include "../calc/replay.h"
#include "readings.h"
#include "recommend.h"
#include "sig.h"

/* ---- reading counters ------------------------------------------------- */

/* The boost readings of zoneinfo zi for every model zone (zeros where not printed). */
void rec_boost_obs_of(const struct rec *r, const struct zi_info *zi, struct wm_boost_obs *obs)
{
	size_t i;

	for (i = 0; i < r->s.st.m.nzones; i++) {
		int64_t k = r->s.st.layout.printed[i];
		const struct zi_zone *z = k >= 0 ? &zi->zones[k] : NULL;

		memset(&obs[i], 0, sizeof(obs[i]));
		obs[i].boost = -1;
		if (!z)
			continue;
		obs[i].free = z->free;
		obs[i].min = z->min;
		obs[i].low = z->low;
		obs[i].high = z->high;
		if (z->flags & ZI_HAS_BOOST)
			obs[i].boost = (int64_t)z->boost;
	}
}

/* A user-given path: absolute, or relative to the working directory. */
int rec_read_user(const char *path, char **buf, size_t *len)
{
	if (path[0] == '/')
		return read_rooted("/", path + 1, buf, len);
	return read_rooted(".", path, buf, len);
}

/* One live sample from the root, with the fallback counter when it is on. */
static int read_sample(const struct rec *r, struct wm_rec_sample *smp)
{
	int rc = readings_live(CMD, r->s.root, smp);

	if (rc == EXIT_OK && r->fbc_on && tp_counter_read(&r->fbc, &smp->c[WM_REC_FALLBACK]) == 0)
		smp->have |= 1u << WM_REC_FALLBACK;
	return rc;
}

/*
 * Fill one reading of boost obs[m.nzones] from the root's zoneinfo, in
 * the snapshot's layout (zone_map: the same file order on one kernel).
 */
static int read_boost_obs(const struct rec *r, struct wm_boost_obs *obs)
{
	struct zi_info zi;
	int rc;

	if ((rc = snapshot_reread_zones(&r->s, CMD, &zi)))
		return rc;
	rec_boost_obs_of(r, &zi, obs);
	zi_free(&zi);
	return EXIT_OK;
}

int rec_sample_live(struct rec *r, struct wm_rec_sample **out, size_t *n)
{
	double dt = (double)r->interval_ms / 1000.0, t0;
	size_t cap = (size_t)((double)r->sample_s / dt) + 2, i = 0;
	struct wm_rec_sample *s = calloc(cap, sizeof(*s));
	size_t nz = r->s.st.m.nzones ? r->s.st.m.nzones : 1;
	int64_t last_report = -1;
	int rc;

	free(r->bobs);
	r->bobs = calloc(cap * nz, sizeof(*r->bobs));
	if (!s || !r->bobs) {
		free(s);
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	}
	/*
	 * Boosts are often gone before the next reading; the fallbacks that
	 * raise them are counted where the kernel lets us.
	 */
	if (!r->s.live)
		snprintf(r->fbc_why, sizeof(r->fbc_why), "they are counted on the live machine only");
	else if (tp_counter_open(&r->fbc, "kmem/mm_page_alloc_extfrag", r->fbc_why,
				 sizeof(r->fbc_why)) == 0)
		r->fbc_on = true;
	t0 = sig_now();
	for (;;) {
		double t = sig_now();

		if ((rc = read_sample(r, &s[i])) ||
		    (rc = read_boost_obs(r, &r->bobs[i * r->s.st.m.nzones]))) {
			free(s);
			return rc;
		}
		s[i].t = t - t0;
		i++;
		r->nbobs = i;
		if (s[i - 1].t >= (double)r->sample_s || i >= cap)
			break;
		if ((int64_t)s[i - 1].t != last_report) {
			const struct wm_rec_sample *a = &s[0], *b = &s[i - 1];

			last_report = (int64_t)s[i - 1].t;
			fprintf(stderr, "wmark: recommend: %" PRId64 "/%" PRId64 " s, allocstall +%llu, "
				"pgscan_direct +%llu, pgsteal_kswapd +%llu\n",
				last_report, r->sample_s,
				(unsigned long long)(b->c[WM_REC_ALLOCSTALL] - a->c[WM_REC_ALLOCSTALL]),
				(unsigned long long)(b->c[WM_REC_PGSCAN_DIRECT] - a->c[WM_REC_PGSCAN_DIRECT]),
				(unsigned long long)(b->c[WM_REC_PGSTEAL_KSWAPD] - a->c[WM_REC_PGSTEAL_KSWAPD]));
		}
		/*
		 * From the last reading, not from the start: a reading that came
		 * late must not be followed by catch-up readings microseconds
		 * apart, whose tiny intervals would make absurd peak rates.
		 */
		sig_sleep_until(t0 + s[i - 1].t + dt);
	}
	*out = s;
	*n = i;
	return EXIT_OK;
}

/*
 * An event counter never goes down while the kernel runs: one that is
 * lower in the after file than in the before file means the files are
 * swapped, or come from two boots.  Either way the difference means
 * nothing, and clamped to 0 it would read as "no reclaim".
 */
static int counters_forward(const struct rec *r, const struct wm_rec_sample *s)
{
	int k = wm_rec_backwards(&s[0], &s[1]);

	if (k >= 0 && k < WM_REC_NCTR)
		return cli_err(EXIT_USAGE, CMD, "%s: %s%s went backwards since %s (%llu -> %llu): "
			       "swapped --vmstat-before/--vmstat-after, or two boots",
			       r->vm_after, wm_rec_ctrs[k].key, wm_rec_ctrs[k].suffixes ? "_*" : "",
			       r->vm_before,
			       (unsigned long long)s[0].c[k], (unsigned long long)s[1].c[k]);
	if (k == WM_REC_NCTR)
		return cli_err(EXIT_USAGE, CMD, "%s: the memory pressure totals went backwards "
			       "since %s: swapped --psi-before/--psi-after, or two boots",
			       r->psi_after, r->psi_before);
	return EXIT_OK;
}

int rec_sample_files(struct rec *r, struct wm_rec_sample *s)
{
	const char *vf[2] = { r->vm_before, r->vm_after };
	const char *pfile[2] = { r->psi_before, r->psi_after };
	int k, rc, e;

	for (k = 0; k < 2; k++) {
		char *buf;
		size_t len;

		memset(&s[k], 0, sizeof(s[k]));
		if ((e = rec_read_user(vf[k], &buf, &len)))
			return read_error(CMD, vf[k], READ_MAX, e);
		rc = readings_parse_vmstat(CMD, vf[k], buf, len, &s[k]);
		free(buf);
		if (rc)
			return rc;
		if (pfile[k]) {
			if ((e = rec_read_user(pfile[k], &buf, &len)))
				return read_error(CMD, pfile[k], READ_MAX, e);
			rc = readings_parse_psi(pfile[k], buf, len, &s[k]);
			free(buf);
			if (rc)
				return rc;
		}
	}
	s[0].t = 0;
	s[1].t = r->seconds > 0 ? r->seconds : 1;
	return counters_forward(r, s);
}

/*
 * --record and --replay: the readings of --sample as text, one line each,
 * after a first line "# wmark recommend readings 1 zones=N":
 *   t=SECONDS COUNTER=VALUE... [psi=SOME_US,FULL_US] zone=FREE,MIN,LOW,HIGH,BOOST...
 * with the counters by their JSON names (those the reading had), one
 * zone= field per zone in zoneinfo's order, BOOST -1 where not printed.
 * A replay decides from them as --sample would have, against the zones
 * of the machine or root given (the capture of the same machine).
 */
#define READINGS_MAGIC WM_REPLAY_MAGIC

int rec_record_write(const struct rec *r, const struct wm_rec_sample *s, size_t n)
{
	size_t nz = r->s.st.m.nzones, i, z;
	FILE *f = fopen(r->record, "w");
	int k, e;

	if (!f)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", r->record, strerror(errno));
	fprintf(f, "%s zones=%zu\n", READINGS_MAGIC, nz);
	for (i = 0; i < n; i++) {
		fprintf(f, "t=%.6f", s[i].t);
		for (k = 0; k < WM_REC_NCTR; k++)
			if (s[i].have & (1u << k))
				fprintf(f, " %s=%llu", wm_rec_ctrs[k].json,
					(unsigned long long)s[i].c[k]);
		if (s[i].psi)
			fprintf(f, " psi=%llu,%llu", (unsigned long long)s[i].psi_some,
				(unsigned long long)s[i].psi_full);
		for (z = 0; z < nz; z++) {
			const struct wm_boost_obs *o = &r->bobs[i * nz + z];

			fprintf(f, " zone=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 "", o->free, o->min, o->low, o->high,
				o->boost);
		}
		fputc('\n', f);
	}
	e = ferror(f) ? errno : 0;
	if (fclose(f) && !e)
		e = errno;
	if (e)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", r->record, strerror(e ? e : EIO));
	return EXIT_OK;
}

int rec_replay_read(struct rec *r, struct wm_rec_sample **out, size_t *n)
{
	size_t nz = r->s.st.m.nzones, cap = 0, i = 0;
	struct wm_rec_sample *s = NULL;
	struct readings rd;
	bool done = false;
	int rc;

	free(r->bobs);
	r->bobs = NULL;
	rc = readings_open(&rd, CMD, r->replay, nz, r->s.root);
	while (rc == EXIT_OK) {
		if (i == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *ns = NULL, *nb = NULL;

			if (nc > MAX_SAMPLES) {
				rc = cli_err(EXIT_USAGE, CMD, "%s: more than %d readings", r->replay,
					     MAX_SAMPLES);
				break;
			}
			ns = realloc(s, nc * sizeof(*s));
			if (ns)
				s = ns;
			nb = ns ? realloc(r->bobs, nc * nz * sizeof(*r->bobs)) : NULL;
			if (!nb) {
				rc = cli_err(EXIT_SYSTEM, CMD, "out of memory");
				break;
			}
			r->bobs = nb;
			cap = nc;
		}
		rc = readings_next(&rd, &s[i], &r->bobs[i * nz], &done);
		if (rc || done)
			break;
		i++;
	}
	readings_close(&rd);
	if (rc == EXIT_OK && i < 2)
		rc = cli_err(EXIT_USAGE, CMD, "%s: %zu readings; two or more are needed", r->replay,
			     i);
	if (rc) {
		free(s);
		return rc;
	}
	r->nbobs = i;
	if (!(s[0].have & (1u << WM_REC_FALLBACK)))
		snprintf(r->fbc_why, sizeof(r->fbc_why), "%s has none", r->replay);
	*out = s;
	*n = i;
	return EXIT_OK;
}
