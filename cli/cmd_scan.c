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
#include <inttypes.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../calc/procfs.h"
#include "../calc/scancount.h"
#include "commands.h"
#include "report.h"
#include "snapshot.h"

#define P_SWAPPINESS P_VM "swappiness"
#define P_LRU_GEN "sys/kernel/mm/lru_gen/enabled"

enum {
	OPT_ANON = 400, OPT_FILE, OPT_FREE, OPT_HIGH, OPT_SWAPPINESS, OPT_SWAP, OPT_MEMCG,
	OPT_CGROUP, OPT_NODE, OPT_RULE, OPT_SCANNED, OPT_ROTATED, OPT_COST, OPT_OFFLINE,
};

/* One lruvec to model: a node, a cgroup, or the options. */
struct target {
	char name[64];			/* "node 0", "cgroup /x", "given" */
	int node;			/* -1 unless a node */
	const char *cgroup;
	struct wm_scan_in in;
	bool have_line;			/* free and high_sum are known */
};

struct scan_opts {
	bool anon, file, free, high, swappiness, swap, memcg, scanned, rotated, cost;
	uint64_t lru[WM_NR_LRU], free_v, high_v;
	uint64_t hist_s[2], hist_r[2], cost_v[2];
	int64_t swappiness_v;
	uint64_t swap_bytes;
	bool offline;
	const char *cgroup;
	int64_t node;
	bool all;
	enum wm_scan_rule rule;
	bool rule_given;
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
	      "                           memory.stat, cgroup reclaim\n"
	      "  --node N                 only this node of zoneinfo\n"
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

static const char *why_base(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n);

/* The reason, and which active lists the kernel skips although nr[] counts them. */
static const char *why_text(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n)
{
	char base[200];
	bool sa = o->nr[WM_LRU_ACTIVE_ANON] && !o->deactivate[0];
	bool sf = o->nr[WM_LRU_ACTIVE_FILE] && !o->deactivate[1];

	snprintf(b, n, "%s%s%s%s", why_base(rule, o, base, sizeof(base)),
		 sa || sf ? "; not shrunk (inactive not low): " : "",
		 sa ? (sf ? "active anon, active file" : "active anon") : "",
		 sf && !sa ? "active file" : "");
	return b;
}

static const char *why_base(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n)
{
	switch (o->why) {
	case WM_WHY_NO_SWAP:
		return "no swap: file only";
	case WM_WHY_MEMCG_SWAPPINESS0:
		return "cgroup reclaim, swappiness 0: file only";
	case WM_WHY_ANON_ONLY_ARG:
		return "swappiness=max: anon only";
	case WM_WHY_PRIORITY0:
		return "priority 0: every list by its size";
	case WM_WHY_FILE_TINY:
		return "file + free <= Σ high: anon only";
	case WM_WHY_INACTIVE_FILE_OK:
		if (rule <= WM_RULE_315)
			return "active file <= inactive file: file only";
		return rule >= WM_RULE_58 ? "cache trim mode (enough inactive file): file only"
					  : "enough inactive file: file only";
	case WM_WHY_FRACTION:
		snprintf(b, n, "anon:file %" PRIu64 ":%" PRIu64 " of %" PRIu64 "%s%s", o->fraction[0], o->fraction[1],
			 o->denominator, o->forced ? "; small lists forced to 32" : "",
			 o->tiny_guarded ? "; file + free <= Σ high, but inactive anon is "
					   "low or too small" : "");
		return b;
	}
	return "?";
}

static const char *bal_short(enum wm_scan_balance b)
{
	return wm_scan_balance_name(b) + 5;	/* "SCAN_" */
}

static double mib(int64_t pages, unsigned ps)
{
	return (double)pages * ps / (1024.0 * 1024.0);
}

static void print_head(const struct target *t, const char *kernel, enum wm_scan_rule def)
{
	const struct wm_scan_in *in = &t->in;

	printf("%s: inactive_anon %" PRIu64 ", active_anon %" PRIu64 ", inactive_file %" PRIu64 ", active_file %" PRIu64 " pages\n",
	       t->name, in->lru[0], in->lru[1], in->lru[2], in->lru[3]);
	if (!in->memcg && t->have_line) {
		int64_t m = wm_anon_only_margin(in->node_file, in->free, in->high_sum);

		printf("  free %" PRIu64 ", Σ high %" PRIu64 ": file + free is %.1f MiB %s the anon-only line%s\n",
		       in->free, in->high_sum, mib(m < 0 ? -m : m, in->page_size),
		       m > 0 ? "above" : "at or below",
		       m > 0 ? "" : " (global reclaim scans anon only)");
	}
	printf("  swappiness %d, swap %s, %s reclaim; kernel %s (its rule: %s)\n", in->swappiness,
	       in->swap ? "available" : "none", in->memcg ? "cgroup" : "global",
	       kernel[0] ? kernel : "unknown", wm_scan_rule_name(def));
}

static void print_assumed(FILE *f, const struct target *t, const struct scan_opts *o,
			  enum wm_scan_rule lo, enum wm_scan_rule hi)
{
	if (lo < WM_RULE_58 && !o->scanned && !o->rotated)
		fprintf(f, "  assumed: recent_scanned = recent_rotated = 0 before 5.8 (not exported; "
			   "give --recent-scanned, --recent-rotated)\n");
	if (hi >= WM_RULE_58 && !o->cost)
		fprintf(f, "  assumed: anon_cost = file_cost = 0 from 5.8 (not exported; give --cost)\n");
	if (hi >= WM_RULE_413)
		fprintf(f, "  assumed: no workingset refaults since the last reclaim\n");
	if (!t->in.memcg && !t->have_line)
		fprintf(f, "  assumed: file + free above Σ high (give --free and --high)\n");
}

static void text_one(const struct target *t, enum wm_scan_rule rule)
{
	char b[512];
	int p;

	printf("\nrule %s\n%4s %13s %13s %13s %13s  %-10s %s\n", wm_scan_rule_name(rule), "prio",
	       "inactive_anon", "active_anon", "inactive_file", "active_file", "balance", "why");
	for (p = 12; p >= 0; p--) {
		struct wm_scan_out o;
		struct wm_diag d = { 0 };

		wm_scan_count(rule, &t->in, p, &o, &d);
		printf("%4d %13" PRIu64 " %13" PRIu64 " %13" PRIu64 " %13" PRIu64 "  %-10s %s\n", p, o.nr[0], o.nr[1], o.nr[2],
		       o.nr[3], wm_scan_balance_name(o.balance), why_text(rule, &o, b, sizeof(b)));
	}
}

static void text_all(const struct target *t)
{
	char cell[13][WM_NR_RULES][64];
	int p, r, w = 0;

	for (p = 12; p >= 0; p--)
		for (r = 0; r < WM_NR_RULES; r++) {
			struct wm_scan_out o;
			struct wm_diag d = { 0 };
			int len;

			wm_scan_count((enum wm_scan_rule)r, &t->in, p, &o, &d);
			len = snprintf(cell[p][r], sizeof(cell[p][r]), "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 " %s", o.nr[0],
				       o.nr[1], o.nr[2], o.nr[3], bal_short(o.balance));
			if (len > w)
				w = len;
		}
	printf("\nEach cell: inactive_anon,active_anon,inactive_file,active_file balance\n%4s",
	       "prio");
	for (r = 0; r < WM_NR_RULES; r++)
		printf("  %-*s", r < WM_NR_RULES - 1 ? w : 0, wm_scan_rule_name((enum wm_scan_rule)r));
	putchar('\n');
	for (p = 12; p >= 0; p--) {
		printf("%4d", p);
		for (r = 0; r < WM_NR_RULES; r++)
			printf("  %-*s", r < WM_NR_RULES - 1 ? w : 0, cell[p][r]);
		putchar('\n');
	}
}

static cJSON *json_target(const struct target *t, const struct scan_opts *o, int lo, int hi)
{
	const struct wm_scan_in *in = &t->in;
	cJSON *obj = cJSON_CreateObject(), *rules, *as;
	char b[512];
	int r, p;

	if (t->node >= 0)
		cJSON_AddNumberToObject(obj, "node", t->node);
	if (t->cgroup)
		cJSON_AddStringToObject(obj, "cgroup", t->cgroup);
	cJSON_AddNumberToObject(obj, "inactive_anon", (double)in->lru[0]);
	cJSON_AddNumberToObject(obj, "active_anon", (double)in->lru[1]);
	cJSON_AddNumberToObject(obj, "inactive_file", (double)in->lru[2]);
	cJSON_AddNumberToObject(obj, "active_file", (double)in->lru[3]);
	if (!in->memcg && t->have_line) {
		int64_t m = wm_anon_only_margin(in->node_file, in->free, in->high_sum);

		cJSON_AddNumberToObject(obj, "free", (double)in->free);
		cJSON_AddNumberToObject(obj, "high_sum", (double)in->high_sum);
		cJSON_AddNumberToObject(obj, "anon_only_margin", (double)m);
		cJSON_AddBoolToObject(obj, "anon_only_line", m <= 0);
	}
	cJSON_AddNumberToObject(obj, "swappiness", in->swappiness);
	cJSON_AddBoolToObject(obj, "swap", in->swap);
	cJSON_AddBoolToObject(obj, "memcg", in->memcg);
	cJSON_AddItemToObject(obj, "history", as = cJSON_CreateObject());
	cJSON_AddNumberToObject(as, "recent_scanned_anon", (double)in->recent_scanned[0]);
	cJSON_AddNumberToObject(as, "recent_scanned_file", (double)in->recent_scanned[1]);
	cJSON_AddNumberToObject(as, "recent_rotated_anon", (double)in->recent_rotated[0]);
	cJSON_AddNumberToObject(as, "recent_rotated_file", (double)in->recent_rotated[1]);
	cJSON_AddNumberToObject(as, "anon_cost", (double)in->anon_cost);
	cJSON_AddNumberToObject(as, "file_cost", (double)in->file_cost);
	cJSON_AddBoolToObject(as, "assumed", !(o->scanned || o->rotated || o->cost));
	rules = cJSON_AddArrayToObject(obj, "rules");
	for (r = lo; r <= hi; r++) {
		cJSON *ro = cJSON_CreateObject(), *pa;

		cJSON_AddStringToObject(ro, "rule", wm_scan_rule_name((enum wm_scan_rule)r));
		pa = cJSON_AddArrayToObject(ro, "priorities");
		for (p = 12; p >= 0; p--) {
			struct wm_scan_out so;
			struct wm_diag d = { 0 };
			cJSON *po = cJSON_CreateObject();

			wm_scan_count((enum wm_scan_rule)r, in, p, &so, &d);
			cJSON_AddNumberToObject(po, "priority", p);
			cJSON_AddNumberToObject(po, "inactive_anon", (double)so.nr[0]);
			cJSON_AddNumberToObject(po, "active_anon", (double)so.nr[1]);
			cJSON_AddNumberToObject(po, "inactive_file", (double)so.nr[2]);
			cJSON_AddNumberToObject(po, "active_file", (double)so.nr[3]);
			cJSON_AddBoolToObject(po, "deactivate_anon", so.deactivate[0]);
			cJSON_AddBoolToObject(po, "deactivate_file", so.deactivate[1]);
			cJSON_AddStringToObject(po, "balance", wm_scan_balance_name(so.balance));
			cJSON_AddStringToObject(po, "why", why_text((enum wm_scan_rule)r, &so, b,
								    sizeof(b)));
			cJSON_AddItemToArray(pa, po);
		}
		cJSON_AddItemToArray(rules, ro);
	}
	return obj;
}

/* The node targets of zoneinfo (all, or only o->node). */
static int node_targets(const struct snapshot *s, const struct scan_opts *o, struct target **out,
			size_t *nout)
{
	struct target *t = calloc((size_t)s->zi.nnodes + 1, sizeof(*t));
	bool seen_lru = false;
	size_t n = 0;
	int node;

	if (!t)
		return cli_err(EXIT_SYSTEM, "scan", "out of memory");
	for (node = 0; node < s->zi.nnodes; node++) {
		struct target *x = &t[n];

		if (o->node >= 0 && node != o->node)
			continue;
		memset(x, 0, sizeof(*x));
		if (!wm_scan_node(&s->zi, node, NULL, &x->in))
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

static int cgroup_target(const char *root, const char *cg, unsigned page_size, struct target *t)
{
	static const char *const keys[WM_NR_LRU] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file",
	};
	char rel[4096], path[4096];
	struct pf_kv kv;
	int l, rc;

	while (*cg == '/')
		cg++;
	if (snprintf(rel, sizeof(rel), "%s/memory.stat", cg) >= (int)sizeof(rel))
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
		t->in.lru[l] = (uint64_t)(v / page_size);
	}
	pf_kv_free(&kv);
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
	{ "node", required_argument, NULL, OPT_NODE },
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "recent-scanned", required_argument, NULL, OPT_SCANNED },
	{ "recent-rotated", required_argument, NULL, OPT_ROTATED },
	{ "cost", required_argument, NULL, OPT_COST },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_scan(struct cli_ctx *ctx, int argc, char **argv)
{
	struct scan_opts o = { .node = -1 };
	struct snapshot s;
	bool have_snap = false, given, mglru;
	struct target *t = NULL;
	size_t nt = 0, i;
	unsigned page_size = 4096;
	uint64_t pair[2];
	char path[4096], kernel[128] = "";
	struct wm_diag d = { 0 };
	struct wm_kver kv;
	enum wm_scan_rule def = WM_RULE_CURRENT;
	int c, rc, lo, hi;
	int64_t v;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", cmd_scan_opts, NULL)) != -1) {
		rc = EXIT_OK;
		switch (c) {
		case OPT_ANON:
		case OPT_FILE:
			rc = parse_pair(c == OPT_ANON ? "--anon" : "--file", optarg, pair);
			if (rc)
				return rc;
			o.lru[c == OPT_ANON ? 0 : 2] = pair[0];
			o.lru[c == OPT_ANON ? 1 : 3] = pair[1];
			*(c == OPT_ANON ? &o.anon : &o.file) = true;
			break;
		case OPT_FREE:
			rc = parse_pages("--free", optarg, &o.free_v);
			o.free = true;
			break;
		case OPT_HIGH:
			rc = parse_pages("--high", optarg, &o.high_v);
			o.high = true;
			break;
		case OPT_SWAPPINESS:
			if (strcmp(optarg, "max") == 0)
				o.swappiness_v = 201;
			else if (wm_parse_long(optarg, 0, 200, &o.swappiness_v, &d))
				return cli_usage("scan", "--swappiness: expected 0..200 or max, not '%s'",
						 optarg);
			o.swappiness = true;
			break;
		case OPT_SWAP:
			if (wm_parse_size(optarg, &o.swap_bytes, &d))
				return cli_usage("scan", "--swap: expected a size (0 for none), not '%s'",
						 optarg);
			o.swap = true;
			break;
		case OPT_MEMCG:
			o.memcg = true;
			break;
		case OPT_OFFLINE:
			o.offline = true;
			break;
		case OPT_CGROUP:
			o.cgroup = optarg;
			break;
		case OPT_NODE:
			if (wm_parse_long(optarg, 0, 65535, &o.node, &d))
				return cli_usage("scan", "--node: expected a node number, not '%s'", optarg);
			break;
		case OPT_RULE:
			if (strcmp(optarg, "all") == 0)
				o.all = true;
			else if (wm_scan_rule_parse(optarg, &o.rule))
				return cli_usage("scan", "--rule: '%s' is not 3.14, 3.15, 4.12, 4.13, 5.8, "
						 "current or all", optarg);
			o.rule_given = true;
			break;
		case OPT_SCANNED:
			rc = parse_pair("--recent-scanned", optarg, o.hist_s);
			o.scanned = true;
			break;
		case OPT_ROTATED:
			rc = parse_pair("--recent-rotated", optarg, o.hist_r);
			o.rotated = true;
			break;
		case OPT_COST:
			rc = parse_pair("--cost", optarg, o.cost_v);
			o.cost = true;
			break;
		case 'h':
			scan_usage();
			return EXIT_OK;
		case ':':
			return cli_usage("scan", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage("scan", "unknown option '%s'", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	if (optind < argc)
		return cli_usage("scan", "unexpected argument '%s'", argv[optind]);
	given = o.anon || o.file;
	if (given && !(o.anon && o.file))
		return cli_usage("scan", "give both --anon and --file");
	if (given && o.cgroup)
		return cli_usage("scan", "--cgroup reads the sizes: not with --anon/--file");
	if ((o.free || o.high) && !given)
		return cli_usage("scan", "--free and --high go with --anon and --file");
	if (o.free != o.high)
		return cli_usage("scan", "give both --free and --high");
	if (o.node >= 0 && (given || o.cgroup))
		return cli_usage("scan", "--node reads zoneinfo: not with --cgroup or --anon/--file");
	if (o.swappiness && o.swappiness_v == 201 && o.rule_given && (o.all || o.rule != WM_RULE_CURRENT))
		return cli_usage("scan", "--swappiness max exists only in the current rule");
	if (o.cgroup)
		o.memcg = true;

	/* zoneinfo: the nodes, or for a cgroup the page size where there is one */
	if (!given && (!o.cgroup || (root_path(ctx->root, P_ZONEINFO, path, sizeof(path)) == 0 &&
				     access(path, R_OK) == 0))) {
		if ((rc = snapshot_read(ctx, &s)))
			return rc;
		have_snap = true;
		page_size = s.m.page_size;
		snprintf(kernel, sizeof(kernel), "%s", s.osrelease);
	}
	if (!have_snap && root_path(ctx->root, P_OSRELEASE, path, sizeof(path)) == 0) {
		char *buf;
		size_t len;

		if (read_path(path, READ_MAX, &buf, &len) == 0) {
			pf_parse_line(buf, len, kernel, sizeof(kernel), &d);
			free(buf);
		}
	}
	if (ctx->kernel)
		snprintf(kernel, sizeof(kernel), "%s", ctx->kernel);
	if (kernel[0]) {
		if (wm_kver_parse(kernel, &kv, &d) == 0)
			def = wm_scan_rule_for((int)kv.major, (int)kv.minor);
		else if (ctx->kernel) {
			rc = cli_usage("scan", "--kernel: '%s' is not a kernel release", ctx->kernel);
			goto out;
		}
	}

	if (given || o.cgroup) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			rc = cli_err(EXIT_SYSTEM, "scan", "out of memory");
			goto out;
		}
		nt = 1;
		t->node = -1;
		if (given) {
			memcpy(t->in.lru, o.lru, sizeof(o.lru));
			snprintf(t->name, sizeof(t->name), "given");
			if (o.free) {
				t->in.free = o.free_v;
				t->in.high_sum = o.high_v;
				t->have_line = true;
			}
		} else {
			snprintf(t->name, sizeof(t->name), "cgroup %.50s", o.cgroup);
			t->cgroup = o.cgroup;
			if ((rc = cgroup_target(ctx->root, o.cgroup, page_size, t)))
				goto out;
		}
	} else if ((rc = node_targets(&s, &o, &t, &nt))) {
		goto out;
	}

	/* swappiness and swap: the options, else the root's, else 60 and some */
	{
		bool sw_known = true, swap_known = true, swap = true;
		int64_t swappiness = 60;

		char cgsw[4096] = "";

		/* cgroup v1 has its own memory.swappiness; v2 uses vm.swappiness */
		if (o.cgroup)
			snprintf(cgsw, sizeof(cgsw), "%s/memory.swappiness",
				 o.cgroup + strspn(o.cgroup, "/"));
		if (o.swappiness) {
			swappiness = o.swappiness_v;
		} else if (cgsw[0] && (rc = read_num(ctx->root, cgsw, &v)) != 1) {
			if (rc)
				goto out;
			swappiness = v;
		} else if ((rc = read_num(ctx->root, P_SWAPPINESS, &v)) == EXIT_OK) {
			swappiness = v;
		} else if (rc == 1) {
			sw_known = false;
		} else {
			goto out;
		}
		if (o.swap) {
			swap = o.swap_bytes >= page_size;
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
				goto out;
			}
			if (o.cgroup) {
				char rel[4096];
				const char *cg = o.cgroup;

				while (*cg == '/')
					cg++;
				snprintf(rel, sizeof(rel), "%s/memory.swap.max", cg);
				if (read_num(ctx->root, rel, &v) == EXIT_OK && v < (int64_t)page_size)
					swap = false;
			}
		}
		for (i = 0; i < nt; i++) {
			struct wm_scan_in *in = &t[i].in;

			in->page_size = page_size;
			in->swappiness = (int)swappiness;
			in->swap = swap;
			in->memcg = o.memcg;
			in->offline = o.offline;
			if (!have_snap) {
				in->node_file = in->lru[2] + in->lru[3];
				in->node_inactive_anon = in->lru[0];
			}
			memcpy(in->recent_scanned, o.hist_s, sizeof(o.hist_s));
			memcpy(in->recent_rotated, o.hist_r, sizeof(o.hist_r));
			in->anon_cost = o.cost_v[0];
			in->file_cost = o.cost_v[1];
		}
		if (!sw_known && ctx->format == FMT_TEXT)
			printf("vm.swappiness not readable: 60 assumed (give --swappiness)\n");
		if (!swap_known && ctx->format == FMT_TEXT)
			printf("SwapFree not readable: swap assumed available (give --swap)\n");
	}

	if (o.all) {
		lo = 0;
		hi = WM_NR_RULES - 1;
	} else {
		lo = hi = o.rule_given ? (int)o.rule : (int)def;
	}
	if (t[0].in.swappiness == 201 && (o.all || lo != WM_RULE_CURRENT)) {
		rc = cli_usage("scan", "swappiness max exists only in the current rule (--rule current)");
		goto out;
	}
	mglru = mglru_on(ctx->root);

	if (ctx->format == FMT_JSON) {
		cJSON *doc = cJSON_CreateObject(), *arr;

		cJSON_AddStringToObject(doc, "source", given ? "options"
						       : root_is_live(ctx->root) ? "live" : "capture");
		cJSON_AddStringToObject(doc, "kernel", kernel);
		cJSON_AddStringToObject(doc, "default_rule", wm_scan_rule_name(def));
		cJSON_AddNumberToObject(doc, "page_size", page_size);
		cJSON_AddBoolToObject(doc, "mglru", mglru);
		arr = cJSON_AddArrayToObject(doc, "targets");
		for (i = 0; i < nt; i++)
			cJSON_AddItemToArray(arr, json_target(&t[i], &o, lo, hi));
		rc = report_json_print(doc);
		goto out;
	}
	if (mglru)
		printf("MGLRU is on (%s): this kernel's reclaim does not use get_scan_count();\n"
		       "what follows is what it would scan with MGLRU off (echo 0 > "
		       "/sys/kernel/mm/lru_gen/enabled).\n\n", P_LRU_GEN);
	for (i = 0; i < nt; i++) {
		int r;

		if (i)
			putchar('\n');
		print_head(&t[i], kernel, def);
		print_assumed(stdout, &t[i], &o, (enum wm_scan_rule)lo, (enum wm_scan_rule)hi);
		if (o.all)
			text_all(&t[i]);
		else
			for (r = lo; r <= hi; r++)
				text_one(&t[i], (enum wm_scan_rule)r);
	}
	rc = EXIT_OK;
out:
	free(t);
	if (have_snap)
		snapshot_free(&s);
	return rc;
}
