/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the command handlers of the table in main.c.
 *
 * Each handler gets argv[0] = the command name and its own options after
 * it; it parses them with getopt_long after setting optind = 0, and
 * returns an exit code.  The table in main.c lists exactly these: a
 * command that is declared but not built fails to link.
 *
 * Global options go before or after the command name.  For that a
 * command's getopt tables are reachable from its row in main.c's table:
 * WM_CMD(cmd_x) declares cmd_x_opts[], the struct option table cmd_x
 * passes to getopt_long() (defined at file scope in cmd_x.c, ended by a
 * zero row), and the row names it with the short letters of its optstring
 *
 *	{ "x", cmd_x, "what x does", false, cmd_x_opts, "h" },
 *
 * main then parses the command's arguments once, through one table made
 * of the global options and cmd_x_opts: it keeps the global ones and
 * hands the handler the rest, one option per argument ("-nf" as "-n"
 * "-f", "--wsf=5" as "--wsf" "5"), then "--" and the operands.  So a
 * command's option cannot share a name or letter with a global one: main
 * refuses that table at its first run (exit 3), and tests/sh/options.sh
 * checks every command.  The same rows give `wmark completion`'s scripts
 * and the check that each command's --help and wmark.1 list exactly
 * these options.  A row without a table (NULL) takes global options
 * before its name only.
 */
#ifndef WMARK_COMMANDS_H
#define WMARK_COMMANDS_H

#include "cli.h"

#include <getopt.h>

/* The global options (main.c), ended by a zero row; their short letters. */
extern const struct option cli_global_opts[];
#define CLI_GLOBAL_SHORTOPTS "jo:V"

#define WM_CMD(name) \
	int name(struct cli_ctx *ctx, int argc, char **argv); \
	extern const struct option name##_opts[]

WM_CMD(cmd_calc);
WM_CMD(cmd_show);
WM_CMD(cmd_verify);
WM_CMD(cmd_whatif);
WM_CMD(cmd_recommend);
WM_CMD(cmd_apply);
WM_CMD(cmd_rollback);
WM_CMD(cmd_capture);
WM_CMD(cmd_stalls);
WM_CMD(cmd_scan);
WM_CMD(cmd_reclaim);
WM_CMD(cmd_tune);
WM_CMD(cmd_completion);

#undef WM_CMD

#endif /* WMARK_COMMANDS_H */
