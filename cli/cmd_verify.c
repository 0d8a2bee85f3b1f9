// SPDX-License-Identifier: MIT
/*
 * cmd_verify.c - `wmark verify`: the model's judgement (calc/verify.c) of
 * what the kernel printed, as text or JSON.
 */
#include <inttypes.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/verify.h"
#include "commands.h"
#include "doc.h"
#include "explain.h"
#include "opts.h"
#include "snapshot.h"

static void verify_usage(void)
{
	fputs("Usage: wmark [--root DIR] [--kernel VERSION] [-j] verify [OPTIONS]\n"
	      "       wmark [-j] verify [OPTIONS] --root DIR --root DIR... [--roots-from FILE]\n"
	      "\n"
	      "Recompute every zone's min/low/high/promo and protection from its managed\n"
	      "pages and the sysctls, and compare with what the kernel printed.\n"
	      "Exit 0 when every number matches (verdict exact); 1 with a per-zone diff\n"
	      "and a verdict: stale (computed from managed counts that moved since, as\n"
	      "after every boot; `wmark apply --refresh` makes the kernel recompute)\n"
	      "or mismatch.  -o prom prints wmark_verify_match{node,zone}, the verdict\n"
	      "as wmark_verify_verdict{verdict} and wmark_verify_managed_moved_pages\n"
	      "for node_exporter's textfile collector.\n"
	      "\n"
	      "Many machines in one run: --root given more than once (before or after\n"
	      "verify), then each line of --roots-from FILE (- for stdin), in order;\n"
	      "with -j one JSON line per machine, {\"root\": DIR, ...the document...},\n"
	      "or {\"root\": DIR, \"verdict\": \"error\", \"exit\": N} when it cannot be\n"
	      "read.  The exit status is the worst of the machines'.\n"
	      "\n"
	      "  --roots-from FILE          machines, one root directory per line\n"
	      "  --infer                    recover min_free_kbytes and\n"
	      "                             watermark_scale_factor from zoneinfo alone\n"
	      "  --min-free-kbytes K        use K instead of the root's sysctl\n"
	      "  --wsf N                    use N instead of the root's sysctl\n"
	      "  --lowmem-reserve-ratio L   use L instead of the root's sysctl\n"
	      "  --extra-free-kbytes K      use K (Android) instead of the root's sysctl\n"
	      "  --formula stock|sqrt|quarter\n"
	      "                             the kernel's high watermark rule: stock (the\n"
	      "                             default), the 2018 RFC's sqrt clamp or low +\n"
	      "                             gap/4, for kernels patched to run them\n"
	      "  -h, --help                 this help\n", stdout);
}

/* A zone's four watermarks as zoneinfo prints them (boost included). */
struct wm4 {
	int64_t min, low, high, promo;
};

#define V(name) \
	{ .header = #name, .json = #name, .prom = "expected_" #name "_pages", \
	  .help = "The " #name " watermark the model computes (boost included)", \
	  .unit = FMT_PAGES, .off = offsetof(struct wm4, name) }

/* The watermarks verify compares, in zoneinfo's order. */
static const struct fmt_field wm4_fields[] = { V(min), V(low), V(high), V(promo) };

#define NWM4 (sizeof(wm4_fields) / sizeof(wm4_fields[0]))

/* The model's watermarks of zone i, as the kernel would print them. */
static struct wm4 wm4_model(const struct wm_verify *a, size_t i)
{
	const struct wm_zone_wm *w = &a->w[i];
	int64_t b = a->boost[i];

	return (struct wm4){ (int64_t)w->min + b, (int64_t)w->low + b, (int64_t)w->high + b,
			     a->pr[i].has_promo ? (int64_t)w->promo + b : RV_NONE };
}

/* What the kernel printed for zone i. */
static struct wm4 wm4_printed(const struct wm_verify *a, size_t i)
{
	const struct wm_printed *pr = &a->pr[i];
	int64_t b = a->boost[i];

	return (struct wm4){ (int64_t)pr->min + b, (int64_t)pr->low + b, (int64_t)pr->high + b,
			     pr->has_promo ? (int64_t)pr->promo + b : RV_NONE };
}

static void text_list(struct doc *d, const int64_t *v, int n)
{
	int j;

	doc_text(d, "(");
	for (j = 0; j < n; j++)
		doc_text(d, "%s%" PRId64 "", j ? ", " : "", v[j]);
	doc_text(d, ")");
}

static const char *zname(const struct snapshot *s, size_t i)
{
	return wm_zone_type_name(s->st.m.zones[i].type);
}

/*
 * Start a verify document on stdout in format: JSON laid out as
 * cJSON_Print() does for one machine (root NULL), or as one line
 * {"root": ROOT, ...} per machine of a fleet.
 */
static struct doc *verify_doc(enum cli_format format, const char *root)
{
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */

	if (root) {
		doc_begin_line(&doc, format, stdout);
		doc_str(&doc, "root", NULL, root);
	} else {
		doc_begin(&doc, format, stdout);
	}
	return &doc;
}

/*
 * What a zone's printed numbers are against the model's, in text: "ok",
 * or "differs:" and a line per number that does.
 */
static void text_zone(struct doc *d, const struct snapshot *s, const struct wm_verify *a, size_t i)
{
	const struct wm_printed *pr = &a->pr[i];
	size_t k;

	doc_text(d, "%-4d %-8s ", s->st.m.zones[i].node, s->st.zi.zones[s->st.layout.printed[i]].name);
	if (!a->bad_wm[i] && !a->bad_prot[i]) {
		doc_text(d, "ok\n");
		return;
	}
	doc_text(d, "differs:\n");
	if (a->bad_wm[i]) {
		struct wm4 e = wm4_model(a, i), g = wm4_printed(a, i);

		for (k = 0; k < NWM4; k++) {
			struct fmt_val ve = fmt_value(&wm4_fields[k], &e);
			struct fmt_val vg = fmt_value(&wm4_fields[k], &g);

			if (vg.ok && ve.n != vg.n)
				doc_text(d, "    %-10s kernel %" PRId64 ", model %" PRId64 " (%+" PRId64 ")\n",
					 wm4_fields[k].header, vg.n, ve.n, vg.n - ve.n);
		}
	}
	if (a->bad_prot[i]) {
		doc_text(d, "    %-10s kernel ", "protection");
		text_list(d, pr->protection, pr->nprot);
		doc_text(d, ", model ");
		text_list(d, a->w[i].protection, pr->nprot);
		doc_text(d, "\n");
	}
}

/* The verdict's words in text. */
static void text_verdict(struct doc *d, const struct snapshot *s, const struct wm_verify *a)
{
	size_t i;

	switch (a->verdict) {
	case WM_VERDICT_EXACT:
		doc_text(d, "verdict: exact: every printed number matches the model\n");
		break;
	case WM_VERDICT_STALE:
		doc_text(d, "verdict: stale: the kernel computed these from managed counts %" PRId64
			 " pages away\nfrom today's:", a->moved);
		for (i = 0; i < a->nzones; i++) {
			uint64_t then = a->then[i];

			if (then != s->st.m.zones[i].managed)
				doc_text(d, " %d/%s %" PRIu64 " then, %" PRIu64 " now;", s->st.m.zones[i].node,
					 zname(s, i), then, s->st.m.zones[i].managed);
		}
		doc_text(d, "\n  with those, every printed number matches exactly.  Writing any watermark\n"
			 "  sysctl makes the kernel recompute: wmark apply --refresh.\n");
		break;
	default:
		doc_text(d, "verdict: mismatch: no managed counts near today's explain these numbers\n");
	}
}

/*
 * The verify report, text or JSON, written as it comes: the zones, most of
 * it, without a tree of nodes per machine (a fleet of thousands).  Root,
 * when set, names the machine of a fleet: the text's first line, the
 * first member of its JSON line.
 */
static void report_doc(enum cli_format format, const struct snapshot *s, const struct wm_verify *a,
		       const char *kernel, const char *root)
{
	struct doc *d = verify_doc(format, root);
	size_t i;
	int j;

	if (root)
		doc_text(d, "root %s:\n", root);
	explain_doc_head(d, &(struct explain_head){
		.source = s->live ? "live" : "capture", .kernel = kernel,
		.m = &s->st.m, .geo = &s->st.geo, .sysctl = &a->sc });
	doc_text(d, "Kernel %s rules", kernel);
	if (a->prof.high_rule != WM_HIGH_STOCK)
		doc_str(d, "high_formula", " with high by --formula %s", opts_formula_name(a->prof.high_rule));
	doc_text(d, "; min_free_kbytes %" PRId64 "", a->sc.min_free_kbytes);
	if (a->prof.wsf)
		doc_text(d, ", watermark_scale_factor %" PRId64 "", a->sc.wsf);
	if (a->prot_known) {
		doc_text(d, ", lowmem_reserve_ratio");
		for (j = 0; j < a->sc.nlrr; j++)
			doc_text(d, " %" PRId64 "", a->sc.lrr[j]);
	}
	doc_text(d, "\n");
	for (j = 0; j < a->nnotes; j++)
		doc_text(d, "note: %s\n", a->notes[j].text);
	doc_arr(d, "zones");
	for (i = 0; i < a->nzones; i++) {
		const struct wm_zone_wm *zw = &a->w[i];
		int64_t k = s->st.layout.printed[i];
		struct wm4 e = wm4_model(a, i);
		struct zrow r;

		if (k < 0)
			continue;
		text_zone(d, s, a, i);
		zrow_from_zoneinfo(&r, &s->st.zi.zones[k]);
		doc_obj(d, NULL);
		report_doc_zone_members(d, &r, COL_DEFAULT | COL_PROMO);
		doc_obj(d, "expected");
		/* text gives the model's numbers only where they differ (text_zone) */
		doc_members(d, wm4_fields, NWM4, 0, &e);
		if (a->prot_known) {
			doc_arr(d, "protection");
			for (j = 0; j < a->pr[i].nprot && j < WM_MAX_ZONES; j++)
				doc_item_long(d, zw->protection[j]);
			doc_close(d);
		}
		doc_close(d);
		doc_bool(d, "match", NULL, !a->bad_wm[i] && !a->bad_prot[i]);
		if (a->verdict == WM_VERDICT_STALE)
			doc_long(d, "managed_then", NULL, (int64_t)a->then[i]);
		doc_close(d);
	}
	doc_close(d);
	text_verdict(d, s, a);
	doc_bool(d, "match", NULL, a->verdict == WM_VERDICT_EXACT);
	doc_str(d, "verdict", NULL, wm_verdict_name(a->verdict));
	if (a->verdict == WM_VERDICT_STALE)
		doc_long(d, "managed_moved_pages", NULL, (int64_t)a->moved);
	doc_arr(d, "notes");
	for (j = 0; j < a->nnotes; j++)
		doc_item_str(d, NULL, a->notes[j].text);
	doc_close(d);
	if (root)
		doc_text(d, "\n");
	doc_end(d);	/* a failed write is close_stdout()'s to report */
}

/* The verdicts a Prometheus rule may ask for: one sample each, 1 for this one. */
static void prom_verdict(const char *verdict)
{
	static const char *const all[] = { "exact", "stale", "mismatch", "cannot-verify" };
	size_t i;

	fmt_prom_head(stdout, "wmark_verify_", "verdict",
		      "The verdict of wmark verify: 1 for the one that holds.", "gauge");
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		printf("wmark_verify_verdict{verdict=\"%s\"} %d\n", all[i],
		       strcmp(all[i], verdict) == 0);
}

/*
 * verify in Prometheus form: per zone whether it matches and the model's
 * watermarks (the kernel's own are show's wmark_zone_*_pages), the
 * verdict, and the managed pages moved since the kernel last computed
 * its watermarks (0 when exact).  Only wmark_verify_* families, so show's
 * and verify's outputs go into one textfile side by side.
 */
static void verify_prom(const struct snapshot *s, const struct wm_verify *a)
{
	size_t i, k;

	fmt_prom_head(stdout, "wmark_verify_", "match",
		      "Whether the zone's printed watermarks and protection match the model.", "gauge");
	for (i = 0; i < a->nzones; i++)
		if (s->st.layout.printed[i] >= 0)
			printf("wmark_verify_match{node=\"%d\",zone=\"%s\"} %d\n",
			       s->st.m.zones[i].node, s->st.zi.zones[s->st.layout.printed[i]].name,
			       !a->bad_wm[i] && !a->bad_prot[i]);
	for (k = 0; k < NWM4; k++) {
		char help[256];

		snprintf(help, sizeof(help), "%s.", wm4_fields[k].help);
		fmt_prom_head(stdout, "wmark_verify_", wm4_fields[k].prom, help, "gauge");
		for (i = 0; i < a->nzones; i++) {
			struct wm4 e = wm4_model(a, i);
			struct fmt_val v = fmt_value(&wm4_fields[k], &e);

			if (s->st.layout.printed[i] >= 0 && v.ok)
				printf("wmark_verify_%s{node=\"%d\",zone=\"%s\"} %" PRId64 "\n",
				       wm4_fields[k].prom, s->st.m.zones[i].node,
				       s->st.zi.zones[s->st.layout.printed[i]].name, v.n);
		}
	}
	prom_verdict(wm_verdict_name(a->verdict));
	if (a->verdict != WM_VERDICT_MISMATCH) {
		fmt_prom_head(stdout, "wmark_verify_", "managed_moved_pages",
			      "Managed pages moved since the kernel last computed its watermarks.",
			      "gauge");
		printf("wmark_verify_managed_moved_pages %" PRId64 "\n",
		       a->verdict == WM_VERDICT_STALE ? (int64_t)a->moved : 0L);
	}
}

/*
 * Say why nothing was compared: rc is EXIT_CHECK with the reason printed
 * here, or the code of an error already printed; -j still prints a
 * document.
 */
static int cannot_verify(const struct cli_ctx *ctx, const struct snapshot *s, int rc,
			 const char *why, const char *fleet)
{
	struct doc *d;

	if (rc == EXIT_CHECK)
		cli_err(EXIT_CHECK, "verify", "cannot verify: %s", why);
	if (ctx->format == FMT_PROM) {
		prom_verdict("cannot-verify");
		return rc;
	}
	/* the text has said it on stderr */
	d = verify_doc(ctx->format, fleet);
	explain_doc_head(d, &(struct explain_head){ .source = s->live ? "live" : "capture" });
	doc_bool(d, "match", NULL, false);
	doc_str(d, "verdict", NULL, "cannot-verify");
	doc_str(d, "reason", NULL, why);
	doc_end(d);
	return rc;
}

/*
 * Verify the machine under ctx->root with the options o; print its report
 * (one JSON line naming the root when fleet is not NULL); return the
 * exit code.
 */
static int verify_one(const struct cli_ctx *ctx, struct wm_verify_opts o, const char *fleet)
{
	struct wm_verify v = { 0 };
	struct wm_diag d = { 0 };
	struct snapshot s;
	char kernel[160];
	int rc;

	if ((rc = snapshot_read(ctx, &s))) {
		/* the error is on stderr; the fleet's line says which machine */
		if (fleet && ctx->format != FMT_PROM) {
			struct doc *doc = verify_doc(ctx->format, fleet);

			doc_bool(doc, "match", NULL, false);
			doc_str(doc, "verdict", NULL, "error");
			doc_long(doc, "exit", NULL, rc);
			doc_end(doc);
		}
		return rc;
	}
	rc = wm_verify(&s.st, &o, &v, &d);
	if (rc == WM_EINVAL) {
		rc = opts_change_error("verify", &d);
		goto out;
	}
	if (rc) {
		rc = cli_diag("verify", rc, &d);
		goto out;
	}
	switch (v.cannot) {
	case WM_CANNOT_NONE:
		break;
	case WM_CANNOT_NO_MANAGED:
		rc = cannot_verify(ctx, &s, EXIT_CHECK, "no managed pages in zoneinfo", fleet);
		goto out;
	case WM_CANNOT_MFK:
		/* the file is missing: exit 3 naming it, as every command does */
		rc = snapshot_need(&s, "verify", &v.sc, WM_HAVE_MFK, ", or --infer");
		rc = cannot_verify(ctx, &s, rc ? rc : EXIT_SYSTEM,
				   "min_free_kbytes unknown (give --min-free-kbytes, or --infer)", fleet);
		goto out;
	case WM_CANNOT_WSF:
		rc = snapshot_need(&s, "verify", &v.sc, WM_HAVE_WSF, ", or --infer");
		rc = cannot_verify(ctx, &s, rc ? rc : EXIT_SYSTEM,
				   "watermark_scale_factor unknown (give --wsf, or --infer)", fleet);
		goto out;
	}
	snprintf(kernel, sizeof(kernel), "%s", v.assumed ? v.assumed :
		 ctx->kernel ? ctx->kernel : s.st.kernel.osrelease);
	if (ctx->format == FMT_PROM)
		verify_prom(&s, &v);
	else
		report_doc(ctx->format, &s, &v, kernel, fleet);
	rc = v.verdict == WM_VERDICT_EXACT ? EXIT_OK : EXIT_CHECK;
out:
	wm_verify_free(&v);
	snapshot_free(&s);
	return rc;
}

/* The worse of two exit codes: a refusal (3) over bad input (2) over a check (1). */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Verify every root named on the lines of f (blank lines skipped), as
 * verify_one() with a fleet line each; return the worst exit code.
 */
static int verify_list(const struct cli_ctx *ctx, const struct wm_verify_opts *o, FILE *f,
		       const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = EXIT_OK;
	uint64_t lineno = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct cli_ctx c = *ctx;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len)
			continue;
		if (strlen(line) != (size_t)len) {
			rc = worse(rc, cli_err(EXIT_USAGE, "verify", "%s:%" PRIu64 ": a NUL byte in a root path",
					       name, lineno));
			continue;
		}
		c.root = line;
		c.root_given = true;
		rc = worse(rc, verify_one(&c, *o, line));
	}
	if (ferror(f))
		rc = worse(rc, cli_err(EXIT_SYSTEM, "verify", "%s: read error", name));
	free(line);
	return rc;
}

enum { O_INFER = 256, O_ROOTS_FROM };
const struct option cmd_verify_opts[] = {
	{ "infer", no_argument, NULL, O_INFER },
	{ "roots-from", required_argument, NULL, O_ROOTS_FROM },
	{ "min-free-kbytes", required_argument, NULL, OPT_MFK },
	{ "wsf", required_argument, NULL, OPT_WSF },
	{ "lowmem-reserve-ratio", required_argument, NULL, OPT_LRR },
	{ "extra-free-kbytes", required_argument, NULL, OPT_EXTRA },
	{ "formula", required_argument, NULL, OPT_FORMULA },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_verify(struct cli_ctx *ctx, int argc, char **argv)
{
	struct wm_verify_opts o = { 0 };
	const char *from = NULL;
	int c, oi, rc, i;

	for (oi = 0; oi < ctx->args.nopt; oi++) {
		const char *arg = ctx->args.opt[oi].arg;

		c = ctx->args.opt[oi].code;
		switch (c) {
		case O_INFER:
			o.infer = true;
			break;
		case O_ROOTS_FROM:
			from = arg;
			break;
		case OPT_FORMULA:
			if ((rc = opts_formula("verify", arg, NULL, &o.high_rule)))
				goto done;
			break;
		case 'h':
			verify_usage();
			rc = EXIT_OK;
			goto done;
		default:
			if (opts_is_knob(c)) {
				if ((rc = opts_knob("verify", c, arg, &o.given)))
					goto done;
				break;
			}
			rc = cli_opt_unhandled("verify", c);
			goto done;
		}
	}
	if (ctx->args.noperand) {
		rc = cli_usage("verify", "unexpected argument '%s'", ctx->args.operand[0]);
		goto done;
	}
	if (ctx->nroots < 2 && !from) {
		rc = verify_one(ctx, o, NULL);
		goto done;
	}
	/* a fleet: one report (one JSON line with -j) per machine, in order */
	if (ctx->format == FMT_PROM) {
		rc = cli_usage("verify", "-o prom: one machine at a time (the series of two "
			       "machines would collide)");
		goto done;
	}
	rc = EXIT_OK;
	for (i = 0; i < ctx->nroots; i++) {
		struct cli_ctx one = *ctx;

		one.root = ctx->roots[i];
		one.root_given = true;
		rc = worse(rc, verify_one(&one, o, ctx->roots[i]));
	}
	if (from) {
		FILE *f = strcmp(from, "-") ? fopen(from, "r") : stdin;

		if (!f) {
			rc = worse(rc, cli_err(EXIT_SYSTEM, "verify", "%s: %s", from, strerror(errno)));
			goto done;
		}
		rc = worse(rc, verify_list(ctx, &o, f, strcmp(from, "-") ? from : "stdin"));
		if (f != stdin)
			fclose(f);
	}
done:
	return rc;
}
