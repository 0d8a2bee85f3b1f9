// SPDX-License-Identifier: MIT
/*
 * apply_args.c - what `wmark apply` is asked to write: its options, and
 * the assignments of a --from file (sysctl.d syntax), each knob once with
 * where it was given (apply.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "opts.h"
#include "commands.h"

static void apply_usage(FILE *f)
{
	fputs("Usage: wmark [--root DIR] [-j] apply [OPTIONS]\n"
	      "\n"
	      "Write watermark sysctls safely: validate against the running kernel,\n"
	      "show the predicted watermarks, journal the old values, write and read\n"
	      "back each one (all or nothing), then check the kernel's recomputed\n"
	      "watermarks against the prediction.\n"
	      "\n"
	      "Values:\n"
	      "      --wsf N, --watermark-scale-factor N\n"
	      "                                 vm.watermark_scale_factor\n"
	      "      --min-free-kbytes N        vm.min_free_kbytes\n"
	      "      --boost-factor N           vm.watermark_boost_factor\n"
	      "      --lowmem-reserve-ratio L   vm.lowmem_reserve_ratio (\"256 256 32 0 0\"\n"
	      "                                 or 256,256,32,0,0)\n"
	      "      --extra-free-kbytes N      vm.extra_free_kbytes (Android 4.x kernels)\n"
	      "      --from FILE                values in sysctl.d syntax\n"
	      "      --refresh                  rewrite min_free_kbytes unchanged, so the\n"
	      "                                 kernel recomputes stale watermarks\n"
	      "Options:\n"
	      "  -n, --dry-run                  validate and predict, write nothing\n"
	      "  -f, --force                    write values that fail the safety check;\n"
	      "                                 replace a --persist/--initrc file that\n"
	      "                                 wmark did not write\n"
	      "      --state FILE               journal (default ROOT/var/lib/wmark/state.json)\n"
	      "      --persist FILE             also write a sysctl.d file (an absolute\n"
	      "                                 path, taken inside --root)\n"
	      "      --initrc FILE              also write an Android init .rc fragment\n"
	      "                                 (the same)\n"
	      "  -h, --help                     show this help\n"
	      "\n"
	      "Exit status: 0 done, 1 a read-back or the kernel's watermarks differed,\n"
	      "2 bad usage or a refused value, 3 no permission, missing knob or I/O.\n", f);
}

static int set_value(struct apply *a, const char *cmd, enum wm_knob k,
		     const char *text, const char *origin, bool ignore)
{
	struct change *c = &a->ch[k];
	struct wm_diag d;
	char esc[200];

	if (sc_value_parse(k, text, &c->val, &d) < 0)
		return cli_usage(cmd, "%s: %s", origin, sc_escape(d.msg, esc, sizeof(esc)));
	c->set = true;
	c->ignore_failure = ignore;
	snprintf(c->origin_buf, sizeof(c->origin_buf), "%s", origin);
	c->origin = c->origin_buf;
	return EXIT_OK;
}

static int read_from(struct apply *a, const char *cmd, const char *file)
{
	struct sc_conf_line l;
	char origin[64];
	size_t len, pos = 0;
	char *buf;
	int line = 0, r, rc;
	enum wm_knob k;

	/* all of it or nothing: a value cut at a buffer's end is a wrong value */
	if ((r = read_path(file, READ_MAX, &buf, &len)))
		return read_error(cmd, file, READ_MAX, r);
	while ((r = sc_conf_next(buf, len, &pos, &line, &l)) != 0) {
		snprintf(origin, sizeof(origin), "%.40s:%d", file, l.line);
		if (r < 0) {
			free(buf);
			return cli_usage(cmd, "%s: not a \"key = value\" line", origin);
		}
		if (sc_key_parse(l.key, &k) != 0) {
			free(buf);
			return cli_usage(cmd, "%s: %s is not a watermark sysctl (vm.min_free_kbytes, vm.watermark_scale_factor, vm.watermark_boost_factor, vm.lowmem_reserve_ratio, vm.extra_free_kbytes)",
					 origin, l.key);
		}
		rc = set_value(a, cmd, k, l.value, origin, l.ignore_failure);
		if (rc != EXIT_OK) {
			free(buf);
			return rc;
		}
	}
	free(buf);
	return EXIT_OK;
}

enum { O_FROM = 256, O_REFRESH, O_STATE, O_PERSIST, O_INITRC };
const struct option cmd_apply_opts[] = {
	OPTS_KNOBS,
	{ "watermark-scale-factor", required_argument, NULL, OPT_WSF },
	{ "from", required_argument, NULL, O_FROM },
	{ "refresh", no_argument, NULL, O_REFRESH },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "state", required_argument, NULL, O_STATE },
	{ "persist", required_argument, NULL, O_PERSIST },
	{ "initrc", required_argument, NULL, O_INITRC },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int apply_parse(struct apply *a, const char *cmd)
{
	int c, oi, rc = EXIT_OK, i;
	bool any = false;

	for (oi = 0; rc == EXIT_OK && oi < a->ctx->args.nopt; oi++) {
		const char *arg = a->ctx->args.opt[oi].arg;

		c = a->ctx->args.opt[oi].code;
		if (opts_is_knob(c)) {
			enum wm_knob k = opts_knob_of(c);

			rc = set_value(a, cmd, k, arg, opts_knob_option(k), false);
			continue;
		}
		switch (c) {
		case O_FROM:
			rc = read_from(a, cmd, arg);
			break;
		case O_REFRESH:
			a->refresh = true;
			break;
		case 'n':
			a->dry_run = true;
			break;
		case 'f':
			a->force = true;
			break;
		case O_STATE:
			a->state_opt = arg;
			break;
		case O_PERSIST:
			a->persist = a->tgt[0].file = arg;
			break;
		case O_INITRC:
			a->initrc = a->tgt[1].file = arg;
			break;
		case 'h':
			apply_usage(stdout);
			return -1;
		default:
			return cli_opt_unhandled(cmd, c);
		}
	}
	if (rc != EXIT_OK)
		return rc;
	if (a->ctx->args.noperand)
		return cli_usage(cmd, "unexpected argument '%s'", a->ctx->args.operand[0]);
	for (i = 0; i < WM_NKNOBS; i++)
		any |= a->ch[i].set;
	if (!any && !a->refresh)
		return cli_usage(cmd, "nothing to apply: give --wsf, --min-free-kbytes, --boost-factor, --lowmem-reserve-ratio, --extra-free-kbytes, --from or --refresh");
	return EXIT_OK;
}

