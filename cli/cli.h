/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the wmark commands share: global options, the error
 * function, exit codes.  Only cli/main.c calls exit().
 */
#ifndef WMARK_CLI_H
#define WMARK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "../calc/wmark.h"

/* Exit codes (wmark.1, EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_CHECK = 1,		/* the check did not hold */
	EXIT_USAGE = 2,		/* bad usage or bad input */
	EXIT_SYSTEM = 3,	/* the system refused */
};

enum cli_format { FMT_TEXT, FMT_JSON, FMT_PROM };

/* Global options: before or after the command name (commands.h). */
/* One of a command's own options, as main parsed it. */
struct cli_opt {
	int code;		/* its table's val, or its short letter */
	const char *arg;	/* its value, or NULL */
};

/*
 * A command's own options and operands: main parses the command's
 * arguments once, through one table of the global options and the
 * command's (struct cli_cmd), takes the global ones into the context and
 * leaves these.  An unknown option or a missing value is a usage error
 * there, so a command sees only options of its own table, in order.
 */
struct cli_args {
	const struct cli_opt *opt;
	int nopt;
	char *const *operand;	/* in order, after the options */
	int noperand;
};

struct cli_ctx {
	enum cli_format format;
	const char *root;	/* "/" unless --root; the last one given */
	const char *kernel;	/* --kernel VERSION, or NULL */
	bool root_given;	/* --root was on the command line */
	const char **roots;	/* every --root, in order (verify reads them all) */
	int nroots;
	struct cli_args args;	/* the command's own options and operands */
};

struct option;

/*
 * A command: handler gets argv[0] = command name, then its arguments
 * without the global options, each option on its own ("-nf" as "-n" "-f",
 * "--wsf=5" as "--wsf" "5"), then "--" and the operands: the command line
 * as a journal records it.  Its options come parsed in ctx->args, from
 * opts and shortopts merged with the global options (commands.h).
 * Returns an exit code.
 */
struct cli_cmd {
	const char *name;
	int (*run)(struct cli_ctx *ctx, int argc, char **argv);
	const char *summary;
	bool prom;		/* has a Prometheus form (-o prom); refused otherwise */
	const struct option *opts;	/* its long options */
	const char *shortopts;	/* its short option letters, getopt syntax ("nfh") */
};

/* The command table (main.c), ncommands rows. */
extern const struct cli_cmd cli_commands[];
extern const size_t cli_ncommands;


/* Print "wmark: <context>: <message>" on stderr; return code. */
int cli_err(int code, const char *context, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * An option of the command's table that its parser has no case for: a
 * bug, said as one.  Returns EXIT_SYSTEM.
 */
int cli_opt_unhandled(const char *cmd, int code);

/* A usage error: the message plus "Try 'wmark --help'"; returns EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print a core error (diag) and return its exit code: EXIT_SYSTEM for
 * WM_ENOMEM, EXIT_USAGE otherwise. */
int cli_diag(const char *context, int rc, const struct wm_diag *d);

#endif /* WMARK_CLI_H */
