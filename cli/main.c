// SPDX-License-Identifier: MIT
/*
 * main.c - wmark's entry point: global options, the command table, and
 * the only exit().  Commands are matched by exact name (no prefixes).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

static const struct cli_cmd commands[] = {
	{ "calc", cmd_calc, "watermarks from memory sizes alone", true },
	{ "show", cmd_show, "this machine's watermarks, per node and zone", true },
	{ "verify", cmd_verify, "recompute every zone and compare with the kernel", false },
	{ "whatif", cmd_whatif, "this machine's watermarks after a change", false },
	{ "recommend", cmd_recommend, "a watermark_scale_factor with its reasons", false },
	{ "apply", cmd_apply, "write watermark sysctls safely, with read-back", false },
	{ "rollback", cmd_rollback, "restore the values from before the last applies", false },
	{ "capture", cmd_capture, "write a root tree of the live machine", false },
	{ "stalls", cmd_stalls, "per-task direct-reclaim and other delays", false },
	{ "scan", cmd_scan, "reclaim scan targets per LRU list and priority", false },
	{ "reclaim", cmd_reclaim, "proactive reclaim of a cgroup, measured and modelled", false },
};

int cli_err(int code, const char *context, const char *fmt, ...)
{
	va_list ap;

	fputs("wmark: ", stderr);
	if (context && *context)
		fprintf(stderr, "%s: ", context);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("wmark: ", stderr);
	if (cmd && *cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'wmark --help'", stderr);
	if (cmd && *cmd)
		fprintf(stderr, " or 'wmark %s --help'", cmd);
	fputs(".\n", stderr);
	return EXIT_USAGE;
}

int cli_diag(const char *context, int rc, const struct wm_diag *d)
{
	const char *msg = d->msg[0] ? d->msg : "invalid input";
	int code = rc == WM_ENOMEM ? EXIT_SYSTEM : EXIT_USAGE;

	if (d->line > 0)
		return cli_err(code, context, "line %d: %s", d->line, msg);
	if (d->key[0])
		return cli_err(code, context, "%s: %s", d->key, msg);
	return cli_err(code, context, "%s", msg);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("Usage: wmark [OPTIONS] COMMAND [COMMAND OPTIONS]\n"
	      "\n"
	      "Compute, explain, verify and apply the Linux kernel's memory zone\n"
	      "watermarks (min/low/high/promo, min_free_kbytes, protection).\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-10s %s\n", "help", "this help");
	fputs("\n"
	      "Options:\n"
	      "  -j, --json              print JSON (same as -o json)\n"
	      "  -o, --format FORMAT     text (default), json or prom\n"
	      "      --root DIR          read the machine from DIR laid out like /\n"
	      "                          (default /, the live machine)\n"
	      "      --kernel VERSION    model this kernel release (default: the\n"
	      "                          root's osrelease, or the newest modelled)\n"
	      "  -h, --help              show this help and exit\n"
	      "  -V, --version           show the version and exit\n"
	      "\n"
	      "'wmark COMMAND --help' describes a command's options.\n"
	      "Exit status: 0 success, 1 a check did not hold, 2 bad usage or\n"
	      "input, 3 the system refused.  See wmark(1).\n", f);
}

static const struct cli_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* Does a command's argument list ask for its --help? */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

/* stdout errors (a full disk, a closed pipe) must not pass silently. */
static int close_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno == EPIPE)
			return rc;
		cli_err(0, "write error", "%s", strerror(errno));
		return rc ? rc : EXIT_SYSTEM;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'o' },
		{ "root", required_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_ctx ctx = { .format = FMT_TEXT, .root = "/" };
	const struct cli_cmd *cmd;
	int c, rc, fd;

	/*
	 * Started with fd 0, 1 or 2 closed, the next file opened (apply's
	 * journal lock) would become stdout or stderr and take the report.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			return EXIT_SYSTEM;

	/* "+": stop at the command name; its options are its own.  ":": a
	 * missing value is ':', not an unknown option. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:jo:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctx.format = FMT_JSON;
			break;
		case 'o':
			if (strcmp(optarg, "text") == 0)
				ctx.format = FMT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				ctx.format = FMT_JSON;
			else if (strcmp(optarg, "prom") == 0)
				ctx.format = FMT_PROM;
			else
				return cli_usage(NULL, "unknown format '%s' (text, json or prom)", optarg);
			break;
		case 'R':
			ctx.root = optarg;
			ctx.root_given = true;
			break;
		case 'K':
			ctx.kernel = optarg;
			break;
		case 'h':
			usage(stdout);
			return close_stdout(EXIT_OK);
		case 'V':
			printf("wmark %s\n", WMARK_VERSION);
			return close_stdout(EXIT_OK);
		case ':':
			return cli_usage(NULL, "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage(NULL, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage(NULL, "no command given");

	if (strcmp(argv[optind], "help") == 0) {
		usage(stdout);
		return close_stdout(EXIT_OK);
	}
	cmd = find_command(argv[optind]);
	if (!cmd)
		return cli_usage(NULL, "unknown command '%s'", argv[optind]);
	/* One place decides: a command without a Prometheus form never prints text for -o prom. */
	if (ctx.format == FMT_PROM && !cmd->prom && !asks_help(argc - optind - 1, argv + optind + 1))
		return cli_usage(cmd->name, "-o prom: %s has no Prometheus form (text or json)",
				 cmd->name);
	optind++;	/* getopt restarts at the command's own arguments */
	rc = cmd->run(&ctx, argc - optind + 1, argv + optind - 1);
	exit(close_stdout(rc));
}
