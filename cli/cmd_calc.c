// SPDX-License-Identifier: MIT
/*
 * cmd_calc.c - `wmark calc`: watermarks from memory sizes alone.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/machine.h"
#include "cli.h"
#include "commands.h"
#include "explain.h"
#include "opts.h"
#include "report.h"

#define MAX_CALC_ZONES 64

static void calc_usage(void)
{
	fputs("Usage: wmark [--kernel VERSION] [-j|-o FORMAT] calc [OPTIONS]\n"
	      "\n"
	      "Compute the watermarks a kernel gives memory of the sizes named.\n"
	      "\n"
	      "  --mem SIZE                  one Normal zone of SIZE (8G, 512M, bytes)\n"
	      "  --zone [NODE:]NAME=SIZE     a zone (DMA, DMA32, Normal, HighMem, Movable,\n"
	      "                              Device); repeat for more zones and nodes\n"
	      "  --min-free-kbytes K         as if written (default: the kernel's boot value)\n"
	      "  --wsf N                     watermark_scale_factor (default 10)\n"
	      "  --boost-factor N            watermark_boost_factor (default 15000)\n"
	      "  --extra-free-kbytes K       Android's extra_free_kbytes\n"
	      "  --thp always|madvise|never|none\n"
	      "                              THP mode at boot, for min_free_kbytes\n"
	      "                              (default madvise; none: no THP support,\n"
	      "                              the only mode before 2.6.38)\n"
	      "  --lowmem-reserve-ratio LIST ratios by zone index, e.g. \"256 256 32 0 0\"\n"
	      "  --formula stock|sqrt|quarter|both\n"
	      "                              the high watermark: the kernel's (stock, also\n"
	      "                              \"default\"), the 2018 RFC's sqrt clamp, low +\n"
	      "                              gap/4 (quarter), or stock with the RFC's columns\n"
	      "                              beside it (both); default stock\n"
	      "  --page-size SIZE            4K (default), 16K or 65536: the page size\n"
	      "  --arch ARCH                 the machine's architecture (uname -m: x86_64,\n"
	      "                              aarch64, ppc64le, s390x, riscv64, i686, or\n"
	      "                              i686-pae); default: the one --kernel's release\n"
	      "                              names (6.12.57+deb13-s390x), else none\n"
	      "  --pageblock-pages N         pages per pageblock (default: from the arch and\n"
	      "                              page size: the PMD order, 512/2048/8192; s390x\n"
	      "                              256, i686 1024; ppc64 64K: 32 at run time)\n"
	      "  -h, --help                  this help\n"
	      "\n"
	      "Sizes are managed memory: what the buddy allocator manages, a little\n"
	      "less than installed RAM.  Example:\n"
	      "  wmark --kernel 4.9 calc --mem 64G --thp none --wsf 120 --formula both\n",
	      stdout);
}

static int parse_zone_arg(const char *arg, struct wm_zone *z, char *name,
			  size_t namesz, unsigned page_size)
{
	const char *eq = strchr(arg, '='), *colon = strchr(arg, ':'), *nm = arg;
	struct wm_diag d = { 0 };
	uint64_t bytes;
	int64_t node = 0;

	if (!eq)
		return cli_usage("calc", "--zone '%s': expected [NODE:]NAME=SIZE", arg);
	if (colon && colon < eq) {
		char num[16];
		size_t len = (size_t)(colon - arg);

		if (len == 0 || len >= sizeof(num))
			return cli_usage("calc", "--zone '%s': bad node number", arg);
		memcpy(num, arg, len);
		num[len] = 0;
		if (wm_parse_long(num, 0, 1023, &node, &d))
			return cli_usage("calc", "--zone '%s': node %s", arg, d.msg);
		nm = colon + 1;
	}
	if ((size_t)(eq - nm) >= namesz || eq == nm)
		return cli_usage("calc", "--zone '%s': bad zone name", arg);
	memcpy(name, nm, (size_t)(eq - nm));
	name[eq - nm] = 0;
	z->type = wm_zone_type_of(name);
	if (z->type == WM_ZONE_OTHER)
		return cli_usage("calc", "--zone '%s': unknown zone '%s' (DMA, DMA32, Normal, HighMem, Movable or Device)",
				 arg, name);
	if (wm_parse_size(eq + 1, &bytes, &d))
		return cli_usage("calc", "--zone '%s': %s", arg, d.msg);
	if (z->type == WM_ZONE_DEVICE && bytes)
		return cli_usage("calc", "--zone '%s': a Device zone manages no pages", arg);
	z->node = (int)node;
	z->managed = (uint64_t)(bytes / page_size);
	z->present = z->managed;
	return EXIT_OK;
}

static int cmp_zone(const void *a, const void *b)
{
	const struct wm_zone *x = a, *y = b;

	if (x->node != y->node)
		return x->node - y->node;
	return (int)x->type - (int)y->type;
}

/*
 * Every node gets the same zone list (the kernel configures the same
 * zones on every node): the union of the types named, in index order.
 */
static int build_layout(struct wm_zone *in, size_t nin, struct wm_zone *out,
			size_t *nout, enum wm_zone_type *types, int *ntypes)
{
	bool seen[WM_ZONE_OTHER] = { false };
	int maxnode = 0, t, node;
	size_t i, n = 0;

	for (i = 0; i < nin; i++) {
		seen[in[i].type] = true;
		if (in[i].node > maxnode)
			maxnode = in[i].node;
	}
	*ntypes = 0;
	for (t = 0; t < WM_ZONE_OTHER; t++)
		if (seen[t])
			types[(*ntypes)++] = (enum wm_zone_type)t;
	if (*ntypes > WM_MAX_ZONES)
		return cli_usage("calc", "at most %d zone types", WM_MAX_ZONES);
	qsort(in, nin, sizeof(*in), cmp_zone);
	for (i = 1; i < nin; i++)
		if (in[i].node == in[i - 1].node && in[i].type == in[i - 1].type)
			return cli_usage("calc", "zone %d:%s given twice", in[i].node,
					 wm_zone_type_name(in[i].type));
	for (node = 0; node <= maxnode; node++) {
		for (t = 0; t < *ntypes; t++) {
			struct wm_zone z = { .node = node, .idx = t, .type = types[t] };

			for (i = 0; i < nin; i++)
				if (in[i].node == node && in[i].type == types[t])
					z = in[i];
			z.idx = t;
			if (n >= MAX_CALC_ZONES)
				return cli_usage("calc", "too many zones");
			out[n++] = z;
		}
	}
	*nout = n;
	return EXIT_OK;
}

enum { O_MEM = 256, O_ZONE, O_PAGESIZE, O_PAGEBLOCK, O_ARCH };
const struct option cmd_calc_opts[] = {
	{ "mem", required_argument, NULL, O_MEM },
	{ "zone", required_argument, NULL, O_ZONE },
	OPTS_KNOBS,
	{ "thp", required_argument, NULL, OPT_THP },
	{ "formula", required_argument, NULL, OPT_FORMULA },
	{ "page-size", required_argument, NULL, O_PAGESIZE },
	{ "pageblock-pages", required_argument, NULL, O_PAGEBLOCK },
	{ "arch", required_argument, NULL, O_ARCH },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* calc's options, as given. */
struct calc_opts {
	const char *zone_args[MAX_CALC_ZONES], *mem;
	size_t ngiven;
	int64_t page_size, pageblock;
	enum wm_arch arch;
	bool arch_given;
	struct wm_change ch;		/* the knobs given */
	enum wm_thp thp;
	bool thp_given;
	unsigned cols;
	enum wm_high_rule rule;
};

/* The options into *o; EXIT_OK, an exit code, or -1 after --help. */
static int calc_args(const struct cli_ctx *ctx, struct calc_opts *o)
{
	struct wm_diag d = { 0 };
	int c, oi, rc;

	for (oi = 0; oi < ctx->args.nopt; oi++) {
		const char *arg = ctx->args.opt[oi].arg;

		c = ctx->args.opt[oi].code;
		switch (c) {
		case O_MEM:
			o->mem = arg;
			break;
		case O_ZONE:
			if (o->ngiven >= MAX_CALC_ZONES)
				return cli_usage("calc", "too many --zone options");
			o->zone_args[o->ngiven++] = arg;
			break;
		case OPT_THP:
			if ((rc = opts_thp("calc", arg, &o->thp)))
				return rc;
			o->thp_given = true;
			break;
		case OPT_FORMULA:
			if ((rc = opts_formula("calc", arg, &o->cols, &o->rule)))
				return rc;
			break;
		case O_PAGESIZE: {
			uint64_t b;

			if (wm_parse_size(arg, &b, &d) ||
			    (b != 4096 && b != 16384 && b != 65536))
				return cli_usage("calc", "--page-size: 4096, 16384 or 65536 (4K, 16K, 64K)");
			o->page_size = (int64_t)b;
			break;
		}
		case O_PAGEBLOCK:
			if (wm_parse_long(arg, 1, 1L << 30, &o->pageblock, &d) ||
			    (o->pageblock & (o->pageblock - 1)))
				return cli_usage("calc", "--pageblock-pages: a power of two (1 to 2^30)");
			break;
		case O_ARCH:
			if (wm_arch_parse(arg, &o->arch, &d))
				return cli_usage("calc", "--arch: %s", d.msg);
			o->arch_given = true;
			break;
		case 'h':
			calc_usage();
			return -1;
		default:
			if (opts_is_knob(c)) {
				if ((rc = opts_knob("calc", c, arg, &o->ch)))
					return rc;
				break;
			}
			return cli_opt_unhandled("calc", c);
		}
	}
	if (ctx->args.noperand)
		return cli_usage("calc", "unexpected argument '%s'", ctx->args.operand[0]);
	if (!o->mem && !o->ngiven)
		return cli_usage("calc", "give --mem SIZE or --zone NAME=SIZE");
	if (o->mem && o->ngiven)
		return cli_usage("calc", "--mem and --zone do not go together");
	return EXIT_OK;
}

/* The zones --mem or --zone describe, laid out as the kernel would. */
static int calc_zones(const struct calc_opts *o, struct wm_zone *zones, size_t *nzones,
		      enum wm_zone_type *types, int *ntypes)
{
	struct wm_zone given[MAX_CALC_ZONES];
	char names[MAX_CALC_ZONES][16];
	struct wm_diag d = { 0 };
	size_t i, ngiven = o->ngiven;
	int rc;

	if (o->mem) {
		uint64_t bytes;

		if (wm_parse_size(o->mem, &bytes, &d))
			return cli_usage("calc", "--mem: %s", d.msg);
		given[0] = (struct wm_zone){ .type = WM_ZONE_NORMAL,
					     .managed = (uint64_t)(bytes / (uint64_t)o->page_size) };
		given[0].present = given[0].managed;
		strcpy(names[0], "Normal");
		ngiven = 1;
	} else {
		for (i = 0; i < ngiven; i++) {
			given[i] = (struct wm_zone){ 0 };
			rc = parse_zone_arg(o->zone_args[i], &given[i], names[i],
					    sizeof(names[i]), (unsigned)o->page_size);
			if (rc)
				return rc;
		}
	}
	return build_layout(given, ngiven, zones, nzones, types, ntypes);
}

/*
 * The kernel's rules (--kernel, else the newest) and the sysctls: its
 * defaults for these zones with the knobs given over them.
 */
static int calc_rules(const struct cli_ctx *ctx, struct calc_opts *o, const enum wm_zone_type *types,
		      int ntypes, struct wm_profile *p, struct wm_sysctl *s)
{
	struct wm_sysctl base;
	struct wm_diag d = { 0 };
	unsigned recomputes;

	if (ctx->kernel) {
		struct wm_kver k;

		if (wm_kver_parse(ctx->kernel, &k, &d))
			return cli_usage(NULL, "--kernel: %s", d.msg);
		wm_profile_for(&k, p);
		if (!o->arch_given)
			wm_arch_from_release(ctx->kernel, &o->arch);
	} else {
		wm_profile_default(p);
	}
	if (!p->thp) {
		/* mainline THP is 2.6.38: before it the sqrt rule alone */
		if (o->thp_given && o->thp != WM_THP_UNSUPPORTED)
			return cli_usage("calc", "--thp: kernel %u.%u.%u has no transparent "
					 "hugepages (mainline 2.6.38+)", p->kver.major,
					 p->kver.minor, p->kver.sub);
		o->thp = WM_THP_UNSUPPORTED;
	}
	p->high_rule = o->rule;
	wm_sysctl_defaults(p, ntypes, types, s);
	/*
	 * The knobs go through the kernel's own checks, but calc models any
	 * kernel: extra_free_kbytes on one without it, and a ratio list of
	 * any length.
	 */
	base = *s;
	base.have |= WM_HAVE_EXTRA;
	o->ch.set &= ~(unsigned)WM_HAVE_LRR;
	if (wm_change_apply(p, &base, &o->ch, s, &recomputes, &d))
		return opts_change_error("calc", &d);
	if (!(o->ch.set & WM_HAVE_EXTRA) && !p->extra_free)
		s->have &= ~(unsigned)WM_HAVE_EXTRA;
	if (o->ch.to.have & WM_HAVE_LRR) {
		memcpy(s->lrr, o->ch.to.lrr, sizeof(s->lrr));
		s->nlrr = o->ch.to.nlrr;
	}
	return EXIT_OK;
}

int cmd_calc(struct cli_ctx *ctx, int argc, char **argv)
{
	struct calc_opts o = { .page_size = 4096, .arch = WM_ARCH_UNKNOWN, .thp = WM_THP_MADVISE,
			       .cols = COL_DEFAULT, .rule = WM_HIGH_STOCK };
	struct wm_zone zones[MAX_CALC_ZONES];
	size_t nzones = 0;
	enum wm_zone_type types[WM_MAX_ZONES];
	int ntypes = 0, rc;
	struct wm_sysctl s;
	struct wm_profile p;
	struct wm_machine m;
	struct wm_geometry geo;
	struct wm_diag d = { 0 };
	struct explain ex;
	struct wm_zone_wm *w;
	unsigned order = 0;

	(void)argc;
	(void)argv;
	if ((rc = calc_args(ctx, &o)))
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = calc_zones(&o, zones, &nzones, types, &ntypes)) ||
	    (rc = calc_rules(ctx, &o, types, ntypes, &p, &s)))
		return rc;
	while (o.pageblock && (1L << order) < o.pageblock)
		order++;
	if (wm_geometry_settle_arch(o.arch, (unsigned)o.page_size, 0, 0, order,
				    (uint64_t)o.pageblock, &geo, &d))
		return cli_diag("calc", WM_EINVAL, &d);
	m = (struct wm_machine){ .zones = zones, .nzones = nzones,
				 .page_size = geo.page_size,
				 .pageblock_pages = geo.pageblock_pages };
	explain_init(&ex);
	if (o.ch.set & WM_HAVE_MFK) {
		ex.mfk.value = s.min_free_kbytes;
		ex.mfk.rule = WM_MFK_USER;
		ex.mfk_known = true;
	} else {
		if ((rc = wm_boot_min_free_kbytes(&p, &m, &s, o.thp, &ex.mfk, &d)))
			return cli_diag("calc", rc, &d);
		s.min_free_kbytes = ex.mfk.value;
		s.have |= WM_HAVE_MFK;
		ex.mfk_known = true;
	}

	w = calloc(nzones, sizeof(*w));
	if (!w)
		return cli_err(EXIT_SYSTEM, "calc", "out of memory");
	if ((rc = wm_setup_wmarks(&p, &m, &s, w, &d)) || (rc = wm_protection(&p, &m, &s, w, &d))) {
		free(w);
		return cli_diag("calc", rc, &d);
	}
	ex.source = "calc";
	ex.kernel_label = ctx->kernel ? ctx->kernel : NULL;
	ex.profile = &p;
	ex.machine = &m;
	ex.sysctl = &s;
	ex.wm = w;
	ex.cols = o.cols | (p.promo ? COL_PROMO : 0);
	if (o.rule != WM_HIGH_STOCK) {
		/* the sqrt columns are named; quarter's are the high and promo ones */
		ex.high_formula = opts_formula_name(o.rule);
		if (o.rule == WM_HIGH_QUARTER)
			ex.text_note = "High watermark by --formula quarter (low + gap/4), not the stock kernel's.";
	}
	rc = explain_print(ctx, &ex);
	free(w);
	return rc;
}
