// SPDX-License-Identifier: MIT
/*
 * err.c - how wmark says what went wrong (cli.h): one line on stderr,
 * "wmark: CONTEXT: what", and the exit code it means; a usage error adds
 * where the help is.  Commands return the code; only main() exits.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

/* "wmark: CONTEXT: " (no context: "wmark: ") and the message, without the newline. */
static void say(const char *context, const char *fmt, va_list ap)
{
	fputs("wmark: ", stderr);
	if (context && *context)
		fprintf(stderr, "%s: ", context);
	vfprintf(stderr, fmt, ap);
}

int cli_err(int code, const char *context, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(context, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, fmt, ap);
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

int cli_opt_unhandled(const char *cmd, int code)
{
	return cli_err(EXIT_SYSTEM, cmd, "internal error: option %d has no handler", code);
}
