// SPDX-License-Identifier: MIT
/*
 * cmd_scan.c - `wmark scan`: how many pages of each LRU list reclaim asks
 * for at each priority (get_scan_count(), calc/scancount.c), for a node
 * of zoneinfo, a cgroup's memory.stat or sizes given as options, under
 * one era's rule or all of them side by side.
 *
 * What the kernel keeps and does not show (reclaim history, costs,
 * refaults) is taken as "a reclaimer that just started" and said so.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../calc/procfs.h"
#include "../calc/reclaim.h"
#include "../calc/scancount.h"
#include "commands.h"
#include "scan.h"
#include "snapshot.h"

#define P_SWAPPINESS P_VM "swappiness"

enum {
	OPT_ANON = 400, OPT_FILE, OPT_FREE, OPT_HIGH, OPT_SWAPPINESS, OPT_SWAP, OPT_MEMCG,
	OPT_CGROUP, OPT_NODE, OPT_RULE, OPT_SCANNED, OPT_ROTATED, OPT_COST, OPT_OFFLINE,
	OPT_FROM_PARENT, OPT_LOW_RECLAIM,
};


static void scan_usage(void)
{
	fputs("Usage: wmark [--root DIR] [-j] scan [OPTIONS]\n"
	      "\n"
	      "The pages reclaim asks of each LRU list at priorities 12 down to 0\n"
	      "(the kernel's get_scan_count()), with the balance rule that applied\n"
	      "and why, for each node of zoneinfo, a cgroup's memory.stat, or sizes\n"
	      "given here.  Shows when file + free pages at or below the zones' high\n"
	      "watermarks make global reclaim scan anon only.\n"
	      "\n"
	      "  --cgroup PATH            a cgroup v2 directory (under --root): its\n"
	      "                           memory.stat, cgroup reclaim of it (its own\n"
	      "                           memory.min/low do not apply to that)\n"
	      "  --from-parent            with --cgroup: reclaim from its parent (the\n"
	      "                           parent's limit or memory.reclaim; global\n"
	      "                           reclaim when the parent is the root cgroup):\n"
	      "                           its memory.min and memory.low apply (5.8+)\n"
	      "  --low-reclaim            with --from-parent: the retry pass that\n"
	      "                           disregards memory.low\n"
	      "  --node N                 only this node of zoneinfo (with --from-parent\n"
	      "                           and global reclaim: the node reclaimed)\n"
	      "  --anon INACTIVE,ACTIVE   anon LRU sizes in pages (with --file: nothing\n"
	      "  --file INACTIVE,ACTIVE   but swappiness and swap is read)\n"
	      "  --free N                 the node's free pages (global reclaim)\n"
	      "  --high N                 the sum of its zones' high watermarks, pages\n"
	      "  --swappiness N           0..200 (default vm.swappiness)\n"
	      "  --swap SIZE              free swap, 0 for none (default meminfo SwapFree)\n"
	      "  --memcg                  cgroup reclaim (memory.max, memory.reclaim)\n"
	      "  --offline                the cgroup was deleted: its remains are scraped\n"
	      "  --rule R                 3.14, 3.15, 4.12, 4.13, 5.8, current or all\n"
	      "                           (default the kernel's own, from its release)\n"
	      "  --recent-scanned A,F     before 5.8: reclaim_stat's recent_scanned\n"
	      "  --recent-rotated A,F     before 5.8: recent_rotated (default 0, 0)\n"
	      "  --cost A,F               5.8+: the lruvec's anon_cost, file_cost (0, 0)\n"
	      "  -h, --help               this help\n", stdout);
}

static int parse_pair(const char *opt, const char *arg, uint64_t out[2])
{
	char a[64], *comma;
	struct wm_diag d = { 0 };
	int64_t v[2];

	if (strlen(arg) >= sizeof(a) || !(comma = strchr(strcpy(a, arg), ',')))
		return cli_usage("scan", "%s: expected two numbers A,B, not '%s'", opt, arg);
	*comma = '\0';
	if (wm_parse_long(a, 0, (int64_t)(ZI_MAX_PAGES), &v[0], &d) ||
	    wm_parse_long(comma + 1, 0, (int64_t)(ZI_MAX_PAGES), &v[1], &d))
		return cli_usage("scan", "%s: expected two page counts A,B, not '%s'", opt, arg);
	out[0] = (uint64_t)v[0];
	out[1] = (uint64_t)v[1];
	return EXIT_OK;
}

static int parse_pages(const char *opt, const char *arg, uint64_t *out)
{
	struct wm_diag d = { 0 };
	int64_t v;

	if (wm_parse_long(arg, 0, (int64_t)(ZI_MAX_PAGES), &v, &d))
		return cli_usage("scan", "%s: expected a page count, not '%s'", opt, arg);
	*out = (uint64_t)v;
	return EXIT_OK;
}

/* A small file under the root, parsed as key value lines; 1 if absent. */
static int read_kv(const char *root, const char *rel, struct pf_kv *kv, bool meminfo,
		   char *path, size_t n)
{
	struct wm_diag d = { 0 };
	char *buf;
	size_t len;
	int err, rc;

	if (root_path(root, rel, path, n))
		return cli_err(EXIT_USAGE, "scan", "%s: path too long", rel);
	err = read_path(path, READ_MAX, &buf, &len);
	if (err == -ENOENT)
		return 1;
	if (err)
		return read_error("scan", path, READ_MAX, err);
	rc = meminfo ? pf_parse_meminfo(buf, len, kv, &d) : pf_parse_vmstat(buf, len, kv, &d);
	free(buf);
	if (rc) {
		pf_kv_free(kv);
		return cli_err(EXIT_USAGE, "scan", "%s: line %d: %s", path, d.line,
			       d.msg[0] ? d.msg : "malformed");
	}
	return EXIT_OK;
}

/* A one-number file under the root into *v; 1 if absent or "max". */
static int read_num(const char *root, const char *rel, int64_t *v)
{
	struct wm_diag d = { 0 };
	char path[4096], *buf;
	size_t len;
	int err;

	if (root_path(root, rel, path, sizeof(path)))
		return cli_err(EXIT_USAGE, "scan", "%s: path too long", rel);
	err = read_path(path, READ_MAX, &buf, &len);
	if (err == -ENOENT)
		return 1;
	if (err)
		return read_error("scan", path, READ_MAX, err);
	if (len >= 3 && strncmp(buf, "max", 3) == 0) {
		free(buf);
		return 1;
	}
	err = pf_parse_long(buf, len, v, &d);
	free(buf);
	if (err)
		return cli_err(EXIT_USAGE, "scan", "%s: %s", path, d.msg[0] ? d.msg : "not a number");
	return EXIT_OK;
}

/*
 * A swappiness file under the root (vm.swappiness, a v1 memory.swappiness)
 * into *v; 1 if absent.  The kernel holds 0..200 there (proc_dointvec_minmax
 * with MAX_SWAPPINESS; mem_cgroup_swappiness_write() likewise), so anything
 * else, "max" included, is no file of a kernel: exit 2 naming file:1.
 */
static int read_swappiness(const char *root, const char *rel, int64_t *v)
{
	char path[4096], *buf;
	size_t len;
	int rc;

	if (root_path(root, rel, path, sizeof(path)))
		return cli_err(EXIT_USAGE, "scan", "%s: path too long", rel);
	if (read_path(path, READ_MAX, &buf, &len) == 0) {
		bool max = len >= 3 && strncmp(buf, "max", 3) == 0;

		free(buf);
		if (max)
			return cli_err(EXIT_USAGE, "scan", "%s:1: 'max' is no swappiness the "
				       "kernel holds (0 to 200)", path);
	}
	rc = read_num(root, rel, v);
	if (rc == EXIT_OK && (*v < 0 || *v > 200))
		return cli_err(EXIT_USAGE, "scan", "%s:1: %" PRId64 " is outside the kernel's "
			       "swappiness range, 0 to 200", path, *v);
	return rc;
}

/* Is MGLRU on (lru_gen/enabled non-zero)?  false when the file is absent. */
static bool mglru_on(const char *root)
{
	char path[4096], *buf = NULL;
	size_t len;
	bool on = false;

	if (root_path(root, P_LRU_GEN, path, sizeof(path)) == 0 &&
	    read_path(path, READ_MAX, &buf, &len) == 0) {
		on = strtoull(buf, NULL, 0) != 0;
		free(buf);
	}
	return on;
}

static int node_targets(const struct snapshot *s, const struct scan_opts *o, struct target **out,
			size_t *nout)
{
	struct target *t = calloc((size_t)s->st.zi.nnodes + 1, sizeof(*t));
	bool seen_lru = false;
	size_t n = 0;
	int node;

	if (!t)
		return cli_err(EXIT_SYSTEM, "scan", "out of memory");
	for (node = 0; node < s->st.zi.nnodes; node++) {
		struct target *x = &t[n];

		if (o->node >= 0 && node != o->node)
			continue;
		memset(x, 0, sizeof(*x));
		if (!wm_scan_node(&s->st.zi, node, NULL, &x->in))
			continue;
		seen_lru = true;
		x->node = node;
		snprintf(x->name, sizeof(x->name), "node %d", node);
		x->have_line = true;
		n++;
	}
	if (!seen_lru) {
		free(t);
		return cli_err(EXIT_USAGE, "scan", "%s/%s: no nr_inactive_anon line: give the LRU "
			       "sizes with --anon and --file", s->root, P_ZONEINFO);
	}
	if (n == 0) {
		free(t);
		return cli_usage("scan", "--node %" PRId64 ": zoneinfo has no such node", o->node);
	}
	*out = t;
	*nout = n;
	return EXIT_OK;
}

/* The four LRU lists of DIR/memory.stat (bytes) into lru[] in pages. */
static int stat_lists(const char *root, const char *dir, unsigned page_size,
		      uint64_t lru[WM_NR_LRU])
{
	static const char *const keys[WM_NR_LRU] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file",
	};
	char rel[4096], path[4096];
	struct pf_kv kv;
	int l, rc;

	if (snprintf(rel, sizeof(rel), "%s/memory.stat", dir) >= (int)sizeof(rel))
		return cli_usage("scan", "--cgroup: path too long");
	rc = read_kv(root, rel, &kv, false, path, sizeof(path));
	if (rc == 1)
		return cli_err(EXIT_SYSTEM, "scan", "%s: not there (is --cgroup a cgroup v2 "
			       "directory with the memory controller?)", path);
	if (rc)
		return rc;
	for (l = 0; l < WM_NR_LRU; l++) {
		uint64_t v;

		if (!pf_kv_get(&kv, keys[l], &v)) {
			pf_kv_free(&kv);
			return cli_err(EXIT_USAGE, "scan", "%s: no '%s' line", path, keys[l]);
		}
		lru[l] = (uint64_t)(v / page_size);
	}
	pf_kv_free(&kv);
	return EXIT_OK;
}

/*
 * DIR/NAME, a byte count or "max", into *pages (ZI_MAX_PAGES for max);
 * 1 if absent, exit 2 naming the file if it is no number.
 */
static int cg_pages(const char *root, const char *dir, const char *name, unsigned page_size,
		    uint64_t *pages)
{
	struct wm_diag d = { 0 };
	char rel[4096], path[4096], *buf;
	size_t len;
	int64_t v;
	int err;

	if (snprintf(rel, sizeof(rel), "%s/%s", dir, name) >= (int)sizeof(rel) ||
	    root_path(root, rel, path, sizeof(path)))
		return cli_usage("scan", "--cgroup: path too long");
	err = read_path(path, READ_MAX, &buf, &len);
	if (err == -ENOENT)
		return 1;
	if (err)
		return read_error("scan", path, READ_MAX, err);
	if (len >= 3 && strncmp(buf, "max", 3) == 0) {
		free(buf);
		*pages = ZI_MAX_PAGES;
		return EXIT_OK;
	}
	err = pf_parse_long(buf, len, &v, &d);
	free(buf);
	if (err || v < 0)
		return cli_err(EXIT_USAGE, "scan", "%s:1: %s", path,
			       err && d.msg[0] ? d.msg : "expected a byte count or max");
	*pages = (uint64_t)v / page_size;
	if (*pages > ZI_MAX_PAGES)
		*pages = ZI_MAX_PAGES;
	return EXIT_OK;
}

/*
 * The cgroup's lists, its memory.min, memory.low and usage (memory.current),
 * and with --from-parent whose reclaim it is: a parent that has a
 * memory.current is a cgroup (its memory.stat gives the target's lists);
 * one without is the root cgroup (global reclaim; the node's lists).
 */
static int cgroup_target(const char *root, const char *cg, const struct scan_opts *o,
			 unsigned page_size, struct target *t)
{
	uint64_t pg;
	int rc, have;

	while (*cg == '/')
		cg++;
	if ((rc = stat_lists(root, cg, page_size, t->in.lru)))
		return rc;
	have = 0;
	if ((rc = cg_pages(root, cg, "memory.min", page_size, &t->min)) > 1)
		return rc;
	have |= rc == EXIT_OK;
	if ((rc = cg_pages(root, cg, "memory.low", page_size, &t->low)) > 1)
		return rc;
	have |= rc == EXIT_OK;
	if ((rc = cg_pages(root, cg, "memory.current", page_size, &t->usage)) > 1)
		return rc;
	t->have_prot = have;
	t->from = FROM_SELF;
	if (!o->from_parent)
		return EXIT_OK;
	if (rc == 1)
		return cli_err(EXIT_USAGE, "scan", "--from-parent: %s has no memory.current "
			       "(the root cgroup has no parent)", cg[0] ? cg : "/");
	{
		char parent[4096];
		char *slash;

		snprintf(parent, sizeof(parent), "%s", cg);
		slash = strrchr(parent, '/');
		if (slash)
			*slash = '\0';
		else
			parent[0] = '\0';
		rc = cg_pages(root, parent, "memory.current", page_size, &pg);
		if (rc > 1)
			return rc;
		if (rc == 1) {
			t->from = FROM_GLOBAL;
			return EXIT_OK;
		}
		t->from = FROM_PARENT;
		t->in.have_target = true;
		return stat_lists(root, parent, page_size, t->in.target_lru);
	}
}

/*
 * Reclaim from above: the cgroup's memory.min and memory.low are its
 * effective protection, as page_counter_calculate_protection() (6.12) sets
 * them for a child of the reclaim target; global reclaim decides the
 * balance on the node's lists and anon-only line (zoneinfo), for the only
 * node or --node.
 */
static int apply_from(const struct snapshot *s, bool have_snap, const struct scan_opts *o,
		      struct target *t)
{
	struct wm_scan_in nodein;
	int node = o->node >= 0 ? (int)o->node : 0;

	if (t->from == FROM_SELF)
		return EXIT_OK;
	if (t->have_prot) {
		t->in.prot_min = t->min;
		t->in.prot_low = t->low;
		t->in.usage = t->usage;
		t->in.memcg_low_reclaim = o->low_reclaim;
	}
	if (t->from != FROM_GLOBAL)
		return o->node >= 0 ? cli_usage("scan", "--node: %s's parent is a cgroup, whose "
						"reclaim is no node's", o->cgroup)
				    : EXIT_OK;
	if (!have_snap) {
		t->target_assumed = true;
		return EXIT_OK;
	}
	if (o->node < 0 && s->st.zi.nnodes > 1)
		return cli_usage("scan", "global reclaim of %s: zoneinfo has %d nodes: give --node N",
				 o->cgroup, s->st.zi.nnodes);
	memset(&nodein, 0, sizeof(nodein));
	if (!wm_scan_node(&s->st.zi, node, NULL, &nodein)) {
		if (o->node >= 0)
			return cli_usage("scan", "--node %d: zoneinfo has no such node with LRU "
					 "lines", node);
		t->target_assumed = true;
		return EXIT_OK;
	}
	memcpy(t->in.target_lru, nodein.lru, sizeof(nodein.lru));
	t->in.have_target = true;
	t->in.node_file = nodein.node_file;
	t->in.node_inactive_anon = nodein.node_inactive_anon;
	t->in.free = nodein.free;
	t->in.high_sum = nodein.high_sum;
	t->have_line = true;
	t->node = node;
	return EXIT_OK;
}

const struct option cmd_scan_opts[] = {
	{ "anon", required_argument, NULL, OPT_ANON },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "free", required_argument, NULL, OPT_FREE },
	{ "high", required_argument, NULL, OPT_HIGH },
	{ "swappiness", required_argument, NULL, OPT_SWAPPINESS },
	{ "swap", required_argument, NULL, OPT_SWAP },
	{ "memcg", no_argument, NULL, OPT_MEMCG },
	{ "offline", no_argument, NULL, OPT_OFFLINE },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "from-parent", no_argument, NULL, OPT_FROM_PARENT },
	{ "low-reclaim", no_argument, NULL, OPT_LOW_RECLAIM },
	{ "node", required_argument, NULL, OPT_NODE },
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "recent-scanned", required_argument, NULL, OPT_SCANNED },
	{ "recent-rotated", required_argument, NULL, OPT_ROTATED },
	{ "cost", required_argument, NULL, OPT_COST },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options into *o, and the combinations refused; EXIT_OK or an exit code. */
static int parse_scan_args(const struct cli_ctx *ctx, struct scan_opts *o)
{
	struct wm_diag d = { 0 };
	uint64_t pair[2];
	bool given;
	int c, oi, rc;

	for (oi = 0; oi < ctx->args.nopt; oi++) {
		const char *arg = ctx->args.opt[oi].arg;

		c = ctx->args.opt[oi].code;
		rc = EXIT_OK;
		switch (c) {
		case OPT_ANON:
		case OPT_FILE:
			rc = parse_pair(c == OPT_ANON ? "--anon" : "--file", arg, pair);
			if (rc)
				return rc;
			o->lru[c == OPT_ANON ? 0 : 2] = pair[0];
			o->lru[c == OPT_ANON ? 1 : 3] = pair[1];
			*(c == OPT_ANON ? &o->anon : &o->file) = true;
			break;
		case OPT_FREE:
			rc = parse_pages("--free", arg, &o->free_v);
			o->free = true;
			break;
		case OPT_HIGH:
			rc = parse_pages("--high", arg, &o->high_v);
			o->high = true;
			break;
		case OPT_SWAPPINESS:
			if (strcmp(arg, "max") == 0)
				o->swappiness_v = 201;
			else if (wm_parse_long(arg, 0, 200, &o->swappiness_v, &d))
				return cli_usage("scan", "--swappiness: expected 0..200 or max, not '%s'",
						 arg);
			o->swappiness = true;
			break;
		case OPT_SWAP:
			if (wm_parse_size(arg, &o->swap_bytes, &d))
				return cli_usage("scan", "--swap: expected a size (0 for none), not '%s'",
						 arg);
			o->swap = true;
			break;
		case OPT_MEMCG:
			o->memcg = true;
			break;
		case OPT_OFFLINE:
			o->offline = true;
			break;
		case OPT_CGROUP:
			o->cgroup = arg;
			break;
		case OPT_FROM_PARENT:
			o->from_parent = true;
			break;
		case OPT_LOW_RECLAIM:
			o->low_reclaim = true;
			break;
		case OPT_NODE:
			if (wm_parse_long(arg, 0, 65535, &o->node, &d))
				return cli_usage("scan", "--node: expected a node number, not '%s'", arg);
			break;
		case OPT_RULE:
			if (strcmp(arg, "all") == 0)
				o->all = true;
			else if (wm_scan_rule_parse(arg, &o->rule))
				return cli_usage("scan", "--rule: '%s' is not 3.14, 3.15, 4.12, 4.13, 5.8, "
						 "current or all", arg);
			o->rule_given = true;
			break;
		case OPT_SCANNED:
			rc = parse_pair("--recent-scanned", arg, o->hist_s);
			o->scanned = true;
			break;
		case OPT_ROTATED:
			rc = parse_pair("--recent-rotated", arg, o->hist_r);
			o->rotated = true;
			break;
		case OPT_COST:
			rc = parse_pair("--cost", arg, o->cost_v);
			o->cost = true;
			break;
		case 'h':
			scan_usage();
			return -1;
		default:
			return cli_opt_unhandled("scan", c);
		}
		if (rc)
			return rc;
	}
	if (ctx->args.noperand)
		return cli_usage("scan", "unexpected argument '%s'", ctx->args.operand[0]);
	given = o->anon || o->file;
	if (given && !(o->anon && o->file))
		return cli_usage("scan", "give both --anon and --file");
	if (given && o->cgroup)
		return cli_usage("scan", "--cgroup reads the sizes: not with --anon/--file");
	if ((o->free || o->high) && !given)
		return cli_usage("scan", "--free and --high go with --anon and --file");
	if (o->free != o->high)
		return cli_usage("scan", "give both --free and --high");
	if (o->node >= 0 && (given || (o->cgroup && !o->from_parent)))
		return cli_usage("scan", "--node reads zoneinfo: not with --cgroup (but with "
				 "--from-parent) or --anon/--file");
	if (o->from_parent && !o->cgroup)
		return cli_usage("scan", "--from-parent goes with --cgroup");
	if (o->low_reclaim && !o->from_parent)
		return cli_usage("scan", "--low-reclaim goes with --cgroup and --from-parent");
	if (o->swappiness && o->swappiness_v == 201 && o->rule_given &&
	    (o->all || o->rule != WM_RULE_CURRENT))
		return cli_usage("scan", "--swappiness max exists only in the current rule");
	if (o->cgroup)
		o->memcg = true;
	return EXIT_OK;
}

/*
 * The targets: the sizes given, a cgroup's lists, or each node's from
 * zoneinfo; into *out (nt of them, to free).  EXIT_OK or an exit code.
 */
static int scan_targets(const struct cli_ctx *ctx, const struct snapshot *s,
			const struct scan_opts *o, bool have_snap, struct target **out, size_t *nt)
{
	struct target *t;
	int rc;

	if (!o->anon && !o->cgroup)
		return node_targets(s, o, out, nt);
	t = calloc(1, sizeof(*t));
	if (!t)
		return cli_err(EXIT_SYSTEM, "scan", "out of memory");
	*out = t;
	*nt = 1;
	t->node = -1;
	if (o->anon) {
		memcpy(t->in.lru, o->lru, sizeof(o->lru));
		snprintf(t->name, sizeof(t->name), "given");
		if (o->free) {
			t->in.free = o->free_v;
			t->in.high_sum = o->high_v;
			t->have_line = true;
		}
		return EXIT_OK;
	}
	snprintf(t->name, sizeof(t->name), "cgroup %.50s", o->cgroup);
	t->cgroup = o->cgroup;
	if ((rc = cgroup_target(ctx->root, o->cgroup, o, s->st.geo.page_size, t)))
		return rc;
	return apply_from(s, have_snap, o, t);
}

/*
 * Swappiness and swap into every target: the options, else the root's
 * (a cgroup v1's own memory.swappiness, vm.swappiness, SwapFree and a
 * cgroup's memory.swap.max), else 60 and some, marked in run as assumed.
 */
static int scan_swap(const struct cli_ctx *ctx, const struct scan_opts *o, bool have_snap,
		     struct scan_run *run, struct target *t, size_t nt)
{
	bool sw_known = true, swap_known = true, swap = true;
	unsigned page_size = run->page_size;
	int64_t swappiness = 60, v;
	char cgsw[4096] = "", path[4096];
	size_t i;
	int rc;

	/* cgroup v1 has its own memory.swappiness; v2 uses vm.swappiness */
	if (o->cgroup)
		snprintf(cgsw, sizeof(cgsw), "%s/memory.swappiness",
			 o->cgroup + strspn(o->cgroup, "/"));
	if (o->swappiness) {
		swappiness = o->swappiness_v;
	} else if (cgsw[0] && (rc = read_swappiness(ctx->root, cgsw, &v)) != 1) {
		if (rc)
			return rc;
		swappiness = v;
	} else if ((rc = read_swappiness(ctx->root, P_SWAPPINESS, &v)) == EXIT_OK) {
		swappiness = v;
	} else if (rc == 1) {
		sw_known = false;
	} else {
		return rc;
	}
	if (o->swap) {
		swap = o->swap_bytes >= page_size;
	} else {
		struct pf_kv mi;
		uint64_t kb;

		rc = read_kv(ctx->root, P_MEMINFO, &mi, true, path, sizeof(path));
		if (rc == EXIT_OK) {
			if (pf_kv_get(&mi, "SwapFree", &kb))
				swap = kb * 1024 >= page_size;
			else
				swap_known = false;
			pf_kv_free(&mi);
		} else if (rc == 1) {
			swap_known = false;
		} else {
			return rc;
		}
		if (o->cgroup) {
			char rel[4096];
			const char *cg = o->cgroup;

			while (*cg == '/')
				cg++;
			snprintf(rel, sizeof(rel), "%s/memory.swap.max", cg);
			rc = read_num(ctx->root, rel, &v);
			if (rc != EXIT_OK && rc != 1)
				return rc;
			if (rc == EXIT_OK && v < (int64_t)page_size)
				swap = false;
		}
	}
	for (i = 0; i < nt; i++) {
		struct wm_scan_in *in = &t[i].in;

		in->page_size = page_size;
		in->swappiness = (int)swappiness;
		in->swap = swap;
		in->memcg = o->memcg && t[i].from != FROM_GLOBAL;
		in->offline = o->offline;
		if (!have_snap || (o->cgroup && !t[i].have_line)) {
			in->node_file = in->lru[2] + in->lru[3];
			in->node_inactive_anon = in->lru[0];
		}
		memcpy(in->recent_scanned, o->hist_s, sizeof(o->hist_s));
		memcpy(in->recent_rotated, o->hist_r, sizeof(o->hist_r));
		in->anon_cost = o->cost_v[0];
		in->file_cost = o->cost_v[1];
	}
	run->swappiness_assumed = !sw_known;
	run->swap_assumed = !swap_known;
	return EXIT_OK;
}

int cmd_scan(struct cli_ctx *ctx, int argc, char **argv)
{
	struct scan_opts o = { .node = -1 };
	struct snapshot s = { 0 };
	struct scan_run run = { .def = WM_RULE_CURRENT, .folio = 1 };
	struct target *t = NULL;
	bool have_snap, given;
	size_t nt = 0;
	char kernel[128] = "";
	struct wm_diag d = { 0 };
	struct wm_kver kv;
	int rc;

	(void)argc;
	(void)argv;
	if ((rc = parse_scan_args(ctx, &o)))
		return rc < 0 ? EXIT_OK : rc;	/* -1: --help printed */
	given = o.anon || o.file;

	/*
	 * The machine as every command reads it: the kernel and the page
	 * size, and the zones (the nodes' lists) unless the sizes are given
	 * or a cgroup's are read, where a zoneinfo is used when there is one.
	 */
	if (ctx->kernel && wm_kver_parse(ctx->kernel, &kv, &d))
		return cli_usage("scan", "--kernel: '%s' is not a kernel release", ctx->kernel);
	if ((rc = snapshot_read_need(ctx, &s, given || o.cgroup ? 0 : WM_NEED_ZONEINFO)))
		return rc;
	/* the nodes' lists count only where the sizes are not given */
	have_snap = s.st.have_zones && !given;
	run.page_size = s.st.geo.page_size;
	/* the release said (--kernel, else the root's): without one, the current rules */
	snprintf(kernel, sizeof(kernel), "%s", ctx->kernel ? ctx->kernel : s.st.kernel.osrelease);
	run.kernel = kernel;
	kv = s.st.kernel.kver;
	if (s.st.kernel.known)
		run.def = wm_scan_rule_for((int)kv.major, (int)kv.minor);

	/* memory.reclaim's swappiness=max: 6.16+, refused (EINVAL) before */
	if (o.swappiness && o.swappiness_v == 201 && s.st.kernel.known) {
		struct wm_reclaim_profile rp;

		wm_reclaim_profile_for(&kv, &rp);
		if (wm_reclaim_check_swappiness(&rp, &kv, -1, &d)) {
			rc = cli_usage("scan", "--swappiness: %s", d.msg);
			goto out;
		}
	}
	if ((rc = scan_targets(ctx, &s, &o, have_snap, &t, &nt)) ||
	    (rc = scan_swap(ctx, &o, have_snap, &run, t, nt)))
		goto out;

	if (o.all) {
		run.lo = 0;
		run.hi = WM_NR_RULES - 1;
	} else {
		run.lo = run.hi = o.rule_given ? (int)o.rule : (int)run.def;
	}
	if (t[0].in.swappiness == 201 && (o.all || run.lo != WM_RULE_CURRENT)) {
		rc = cli_usage("scan", "swappiness max exists only in the current rule (--rule current)");
		goto out;
	}
	run.mglru = mglru_on(ctx->root);
	/* 7.x keeps the page cache in large folios (the kernel suite's 7.2 guest) */
	if (s.st.kernel.known && kv.major >= 7)
		run.folio = wm_reclaim_largest_folio(snapshot_pmd_bytes(ctx->root), run.page_size);
	run.source = given ? "options" : root_is_live(ctx->root) ? "live" : "capture";
	rc = scan_print(ctx->format, &run, &o, t, nt);
out:
	free(t);
	snapshot_free(&s);
	return rc;
}
