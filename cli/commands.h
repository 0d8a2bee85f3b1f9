/* SPDX-License-Identifier: MIT */
/*
 * commands.h - wmark's commands, one row each (WM_COMMANDS).
 *
 * A row names the command, says what it does (the line of `wmark
 * --help`), whether it has a Prometheus form (-o prom; main refuses it
 * for the others), and the short letters of its options.  From the row
 * come the handler's declaration, cmd_NAME(), and that of its long
 * options, cmd_NAME_opts[] (defined at file scope in cmd_NAME.c, ended
 * by a zero row), and main.c's table; so a new command is its file and
 * one row here.
 *
 * Global options go before or after the command name.  main parses the
 * command's arguments once, through one table made of the global options
 * and the command's: it keeps the global ones and hands the handler the
 * rest parsed (ctx->args: each option's code and value, then the
 * operands).  So a command's option cannot share a name or letter with
 * a global one: main refuses that table at its first run (exit 3), and
 * tests/sh/options.sh checks every command.  The same rows give `wmark
 * completion`'s scripts and the check that each command's --help and
 * wmark.1 list exactly these options.
 */
#ifndef WMARK_COMMANDS_H
#define WMARK_COMMANDS_H

#include "cli.h"

#include <getopt.h>

/* The global options (main.c), ended by a zero row; their short letters. */
extern const struct option cli_global_opts[];
#define CLI_GLOBAL_SHORTOPTS "jo:V"

/* The commands, in the order of `wmark --help`: X(name, summary, prom, short letters). */
#define WM_COMMANDS(X) \
	X(calc, "watermarks from memory sizes alone", true, "h") \
	X(show, "this machine's watermarks, per node and zone", true, "h") \
	X(verify, "recompute every zone and compare with the kernel", true, "h") \
	X(whatif, "this machine's watermarks after a change", false, "h") \
	X(recommend, "a watermark_scale_factor with its reasons", false, "h") \
	X(apply, "write watermark sysctls safely, with read-back", false, "nfh") \
	X(rollback, "restore the values from before the last applies", false, "fnh") \
	X(capture, "write a root tree of the live machine", false, "h") \
	X(stalls, "per-task direct-reclaim and other delays", false, "h") \
	X(scan, "reclaim scan targets per LRU list and priority", false, "h") \
	X(reclaim, "proactive reclaim of a cgroup, measured and modelled", false, "nh") \
	X(tune, "tune wsf and boost in a closed loop from measured stalls", false, "nh") \
	X(completion, "a bash or zsh completion script for wmark", false, "h")

#define WM_CMD_DECLARE(name, summary, prom, shorts) \
	int cmd_##name(struct cli_ctx *ctx, int argc, char **argv); \
	extern const struct option cmd_##name##_opts[];
WM_COMMANDS(WM_CMD_DECLARE)
#undef WM_CMD_DECLARE

#endif /* WMARK_COMMANDS_H */
