/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the command handlers of the table in main.c.
 *
 * Each handler gets argv[0] = the command name and its own options after
 * it; it parses them with getopt_long after setting optind = 0, and
 * returns an exit code.  The table in main.c lists exactly these: a
 * command that is declared but not built fails to link.
 */
#ifndef WMARK_COMMANDS_H
#define WMARK_COMMANDS_H

#include "cli.h"

#define WM_CMD(name) \
	int name(struct cli_ctx *ctx, int argc, char **argv)

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

#undef WM_CMD

#endif /* WMARK_COMMANDS_H */
