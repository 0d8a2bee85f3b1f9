// SPDX-License-Identifier: MIT
/*
 * main.c - wmark's entry point: global options, the command table, and
 * the only exit().  Commands are matched by exact name (no prefixes).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "sig.h"

#define WM_CMD_ROW(name, summary, prom, shorts) \
	{ #name, cmd_##name, summary, prom, cmd_##name##_opts, shorts },

const struct cli_cmd cli_commands[] = { WM_COMMANDS(WM_CMD_ROW) };

#undef WM_CMD_ROW

const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

/* The global options; -h/--help is global only before the command name. */
enum { OPT_G_ROOT = 'R', OPT_G_KERNEL = 'K' };

const struct option cli_global_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "format", required_argument, NULL, 'o' },
	{ "root", required_argument, NULL, OPT_G_ROOT },
	{ "kernel", required_argument, NULL, OPT_G_KERNEL },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define NGLOBAL (sizeof(cli_global_opts) / sizeof(cli_global_opts[0]) - 1)

static void usage(FILE *f)
{
	size_t i;

	fputs("Usage: wmark [OPTIONS] COMMAND [COMMAND OPTIONS]\n"
	      "\n"
	      "Compute, explain, verify and apply the Linux kernel's memory zone\n"
	      "watermarks (min/low/high/promo, min_free_kbytes, protection).\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < cli_ncommands; i++)
		fprintf(f, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fprintf(f, "  %-10s %s\n", "help", "this help");
	fputs("\n"
	      "Options (before or after the command):\n"
	      "  -j, --json              print JSON (same as -o json)\n"
	      "  -o, --format FORMAT     text (default), json or prom\n"
	      "      --root DIR          read the machine from DIR laid out like /\n"
	      "                          (default /, the live machine)\n"
	      "      --kernel VERSION    model this kernel release (default: the\n"
	      "                          root's osrelease, or the newest modelled)\n"
	      "  -h, --help              show this help and exit (after a command:\n"
	      "                          that command's help)\n"
	      "  -V, --version           show the version and exit\n"
	      "\n"
	      "'wmark COMMAND --help' describes a command's options.\n"
	      "Exit status: 0 success, 1 a check did not hold, 2 bad usage or\n"
	      "input, 3 the system refused.  See wmark(1).\n", f);
}

static const struct cli_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < cli_ncommands; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
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

/*
 * stdout errors (a full disk) must not pass silently.  A reader that went
 * away (EPIPE; SIGPIPE is ignored) has what it wanted, as with `| head`:
 * the command's own status stands.  Commands that changed the system
 * (apply, rollback, reclaim) check stdout themselves and say what was
 * done before they return.
 */
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

/*
 * Take a global option c (value arg) into ctx.  Return -1 to go on, the
 * exit code to stop with (a usage error, or --version's 0), or -2 when c
 * is no global option.
 */
static int global_opt(struct cli_ctx *ctx, const char *cmd, int c, const char *arg)
{
	switch (c) {
	case 'j':
		ctx->format = FMT_JSON;
		return -1;
	case 'o':
		if (strcmp(arg, "text") == 0)
			ctx->format = FMT_TEXT;
		else if (strcmp(arg, "json") == 0)
			ctx->format = FMT_JSON;
		else if (strcmp(arg, "prom") == 0)
			ctx->format = FMT_PROM;
		else
			return cli_usage(cmd, "unknown format '%s' (text, json or prom)", arg);
		return -1;
	case OPT_G_ROOT:
		if (!*arg)
			return cli_usage(cmd, "--root needs a directory");
		ctx->root = arg;
		ctx->root_given = true;
		if (ctx->roots)
			ctx->roots[ctx->nroots++] = arg;
		return -1;
	case OPT_G_KERNEL:
		ctx->kernel = arg;
		return -1;
	case 'V':
		printf("wmark %s\n", WMARK_VERSION);
		return close_stdout(EXIT_OK);
	}
	return -2;
}

/* Does cmd's table hold an option (long name or short letter) of the global table? */
static const char *collides(const struct cli_cmd *cmd)
{
	const struct option *o;
	const char *s;
	size_t g;

	for (o = cmd->opts; o->name; o++)
		for (g = 0; g < NGLOBAL; g++)
			if (strcmp(o->name, cli_global_opts[g].name) == 0)
				return o->name;
	for (s = CLI_GLOBAL_SHORTOPTS; *s; s++)
		if (*s != ':' && strchr(cmd->shortopts, *s)) {
			static char one[3] = "-";

			one[1] = *s;
			return one;
		}
	return NULL;
}

/*
 * The long options of table opts that name (up to '=') abbreviates, as
 * "--a, --b", when there are two or more; else NULL.
 */
static const char *ambiguous(const struct option *opts, const char *name)
{
	static char list[256];
	size_t len = strcspn(name, "="), off = 0;
	int n = 0;

	list[0] = '\0';
	for (; opts->name; opts++) {
		if (strncmp(opts->name, name, len) != 0)
			continue;
		if (strlen(opts->name) == len)
			return NULL;	/* exact: not an abbreviation */
		if (off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s--%s",
						n ? ", " : "", opts->name);
		n++;
	}
	return n >= 2 ? list : NULL;
}

/*
 * The command's arguments argv[0..argc) (argv[0] its name), parsed once
 * through one getopt table, the global options and the command's: the
 * global ones go into ctx, the command's into ctx->args (code and value,
 * in order) with the operands; an unknown option or a missing value is a
 * usage error here, worded for the command.  *outv gets the command line
 * as the command records it: each option on its own ("-nf" becomes "-n"
 * "-f", "--wsf=5" becomes "--wsf" "5"), then "--" and the operands.
 * Return -1 to go on, or an exit code.
 */
static int split_args(struct cli_ctx *ctx, const struct cli_cmd *cmd, int argc, char **argv,
		      int *outc, char ***outv)
{
	/* static: what the command gets lives until exit, error or not */
	static char shorts[64][3];
	static char **opnd, **out;
	static struct cli_opt *parsed;
	struct option all[96];
	char optstring[64];
	size_t n = 0, k;
	int c, li, nout = 1, nopnd = 0, nparsed = 0, nshort = 0, rc;
	const char *clash;

	out = calloc((size_t)argc * 2 + 2, sizeof(*out));
	opnd = calloc((size_t)argc + 1, sizeof(*opnd));
	parsed = calloc((size_t)argc + 1, sizeof(*parsed));
	if (!out || !opnd || !parsed)
		return cli_err(EXIT_SYSTEM, cmd->name, "out of memory");
	if ((clash = collides(cmd)))
		return cli_err(EXIT_SYSTEM, cmd->name, "internal error: option '%s' is "
			       "both global and the command's", clash);
	for (k = 0; k < NGLOBAL; k++)
		all[n++] = cli_global_opts[k];
	for (k = 0; cmd->opts[k].name && n < sizeof(all) / sizeof(all[0]) - 1; k++)
		all[n++] = cmd->opts[k];
	memset(&all[n], 0, sizeof(all[n]));
	/* "-": operands come back as 1, in order; ":": a missing value is ':' */
	snprintf(optstring, sizeof(optstring), "-:%s%s", CLI_GLOBAL_SHORTOPTS, cmd->shortopts);

	out[0] = argv[0];
	optind = 0;
	opterr = 0;
	for (;;) {
		li = -1;
		c = getopt_long(argc, argv, optstring, all, &li);
		if (c == -1)
			break;
		if (c == 1) {
			opnd[nopnd++] = optarg;
			continue;
		}
		if (c == ':')
			return cli_usage(cmd->name, "option '%s' needs a value", argv[optind - 1]);
		if (c == '?') {
			const char *given = argv[optind - 1], *eq = strchr(given, '=');

			/* a long option as given; "--dry-run=1" names a known one */
			if (strncmp(given, "--", 2) == 0 && eq && optopt)
				return cli_usage(cmd->name, "option '%.*s' takes no value",
						 (int)(eq - given), given);
			if (strncmp(given, "--", 2) == 0 && ambiguous(all, given + 2))
				return cli_usage(cmd->name, "option '%s' is ambiguous: %s", given,
						 ambiguous(all, given + 2));
			if (strncmp(given, "--", 2) == 0 || !optopt)
				return cli_usage(cmd->name, "unknown option '%s'", given);
			/* a short one by its letter, also inside "-nx" */
			return cli_usage(cmd->name, "unknown option '-%c'", optopt);
		}
		if ((li < 0 || (size_t)li < NGLOBAL) &&
		    (rc = global_opt(ctx, cmd->name, c, optarg)) != -2) {
			if (rc != -1)
				return rc;
			continue;
		}
		parsed[nparsed++] = (struct cli_opt){ .code = c, .arg = optarg };
		if (li >= 0) {
			if (all[li].has_arg == optional_argument && optarg) {
				size_t len = strlen(all[li].name) + strlen(optarg) + 4;
				char *o = malloc(len);

				if (!o)
					return cli_err(EXIT_SYSTEM, cmd->name, "out of memory");
				snprintf(o, len, "--%s=%s", all[li].name, optarg);
				out[nout++] = o;
				continue;
			}
			out[nout] = malloc(strlen(all[li].name) + 3);
			if (!out[nout])
				return cli_err(EXIT_SYSTEM, cmd->name, "out of memory");
			sprintf(out[nout++], "--%s", all[li].name);
		} else {
			if (nshort >= 64)
				return cli_usage(cmd->name, "too many options");
			shorts[nshort][0] = '-';
			shorts[nshort][1] = (char)c;
			out[nout++] = shorts[nshort++];
		}
		if (optarg)
			out[nout++] = optarg;
	}
	/* after "--", the rest are operands */
	while (optind < argc)
		opnd[nopnd++] = argv[optind++];
	if (nopnd) {
		out[nout++] = "--";
		for (k = 0; k < (size_t)nopnd; k++)
			out[nout++] = opnd[k];
	}
	out[nout] = NULL;
	ctx->args = (struct cli_args){ .opt = parsed, .nopt = nparsed, .operand = opnd,
				       .noperand = nopnd };
	*outc = nout;
	*outv = out;
	return -1;
}

/*
 * Everything after the setup: the global options before the command, the
 * command and its arguments, then the command itself, whose status is the
 * process's (exit here, with the context still in main's frame).  Return
 * an exit code when it stops before the command runs.
 */
static int dispatch(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'o' },
		{ "root", required_argument, NULL, OPT_G_ROOT },
		{ "kernel", required_argument, NULL, OPT_G_KERNEL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cli_cmd *cmd;
	char **cargv;
	int c, rc, cargc;

	/* "+": stop at the command name.  ":": a missing value is ':', not
	 * an unknown option. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" CLI_GLOBAL_SHORTOPTS "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return close_stdout(EXIT_OK);
		case ':':
			return cli_usage(NULL, "option '%s' needs a value", argv[optind - 1]);
		case '?':
			return cli_usage(NULL, "unknown option '%s'", argv[optind - 1]);
		default:
			if ((rc = global_opt(ctx, NULL, c, optarg)) != -1)
				return rc;
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
	cargc = argc - optind;
	cargv = argv + optind;
	/* a command that lists its options takes the global ones after its name too */
	if ((rc = split_args(ctx, cmd, cargc, cargv, &cargc, &cargv)) != -1)
		return rc;	/* a usage error, or --version (stdout closed) */
	/* Several machines in one run are verify's alone. */
	if (ctx->nroots > 1 && strcmp(cmd->name, "verify") != 0)
		return cli_usage(cmd->name, "--root given %d times: only verify reads several "
				 "machines", ctx->nroots);
	/* One place decides: a command without a Prometheus form never prints text for -o prom. */
	if (ctx->format == FMT_PROM && !cmd->prom && !asks_help(cargc - 1, cargv + 1))
		return cli_usage(cmd->name, "-o prom: %s has no Prometheus form (text or json)",
				 cmd->name);
	rc = cmd->run(ctx, cargc, cargv);
	exit(close_stdout(rc));
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { .format = FMT_TEXT, .root = "/" };
	int fd, rc;

	/* a closed pipe is an error to report, never a silent death (sig.h) */
	sig_init();

	/*
	 * Started with fd 0, 1 or 2 closed, the next file opened (apply's
	 * journal lock) would become stdout or stderr and take the report.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			return EXIT_SYSTEM;

	/* every --root takes an argument: at most argc / 2 of them */
	ctx.roots = calloc((size_t)argc / 2 + 1, sizeof(*ctx.roots));
	if (!ctx.roots)
		return cli_err(EXIT_SYSTEM, NULL, "out of memory");
	rc = dispatch(&ctx, argc, argv);
	free(ctx.roots);
	return rc;
}
