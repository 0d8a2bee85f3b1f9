// SPDX-License-Identifier: MIT
/*
 * cmd_completion.c - `wmark completion bash|zsh|options`: shell
 * completion written from the command table itself (main.c), so a new
 * command or option completes the day it is added.  `options` lists the
 * same table one option per line, for scripts and for the test that
 * --help and wmark.1 say the same.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

static void completion_usage(void)
{
	fputs("Usage: wmark completion bash|zsh|options\n"
	      "\n"
	      "Print a completion script for bash or zsh, made from wmark's own table\n"
	      "of commands and options:\n"
	      "  source <(wmark completion bash)\n"
	      "or install it as bash-completion's completions/wmark (zsh: _wmark in\n"
	      "$fpath).  `options` lists every long option, one per line: the command\n"
	      "(or 'global'), the option, its short form (or -), and 'value' or 'flag'.\n"
	      "\n"
	      "  -h, --help                 this help\n", stdout);
}

const struct option cmd_completion_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option of a table, long or short, and whether it takes a value. */
struct copt {
	char name[40];	/* "--wsf" or "-n" */
	bool value;
};

/*
 * Fill out[max] with the options of a long table and a getopt short
 * string (leading '+', '-' and ':' skipped; a ':' after a letter: a
 * value); return how many.
 */
static size_t copts(const struct option *lo, const char *so, struct copt *out, size_t max)
{
	size_t n = 0;

	for (; lo && lo->name && n < max; lo++, n++) {
		snprintf(out[n].name, sizeof(out[n].name), "--%s", lo->name);
		out[n].value = lo->has_arg == required_argument;
	}
	while (so && (*so == '+' || *so == '-' || *so == ':'))
		so++;
	for (; so && *so && n < max; so++) {
		if (*so == ':')
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "-%c", *so);
		out[n].value = so[1] == ':';
		n++;
	}
	return n;
}

#define MAXOPT 64

static void print_words(const struct copt *o, size_t n, bool values_only)
{
	size_t i;
	const char *sep = "";

	for (i = 0; i < n; i++) {
		if (values_only && !o[i].value)
			continue;
		printf("%s%s", sep, o[i].name);
		sep = " ";
	}
}

/* One line per long option of a table: WHO --name -x|- value|flag. */
static void print_table(const char *who, const struct option *lo, const char *so)
{
	for (; lo && lo->name; lo++) {
		const char *p = lo->val > 0 && lo->val < 128 && !lo->flag ? strchr(so, lo->val) : NULL;

		if (p && (p[0] == ':' || p[0] == '+' || p[0] == '-'))
			p = NULL;
		if (p)
			printf("%s --%s -%c %s\n", who, lo->name, *p,
			       lo->has_arg == required_argument ? "value" : "flag");
		else
			printf("%s --%s - %s\n", who, lo->name,
			       lo->has_arg == required_argument ? "value" : "flag");
	}
}

static void print_options(void)
{
	size_t i;

	print_table("global", cli_global_opts, CLI_GLOBAL_SHORTOPTS);
	for (i = 0; i < cli_ncommands; i++)
		print_table(cli_commands[i].name, cli_commands[i].opts, cli_commands[i].shortopts);
}

static void print_bash(void)
{
	struct copt g[MAXOPT], o[MAXOPT];
	size_t i, ng, n;

	ng = copts(cli_global_opts, CLI_GLOBAL_SHORTOPTS, g, MAXOPT);
	fputs("# bash completion for wmark(1): written by `wmark completion bash`\n"
	      "# from wmark's table of commands and options.\n"
	      "_wmark()\n"
	      "{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i w opts= vals=\n"
	      "\tlocal globals='", stdout);
	print_words(g, ng, false);
	fputs("'\n\tlocal gvals='", stdout);
	print_words(g, ng, true);
	fputs("'\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\t# the command: the first word that is no option nor a global's value\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tw=${COMP_WORDS[i]}\n"
	      "\t\tcase \" $gvals \" in *\" $w \"*) ((i++)); continue ;; esac\n"
	      "\t\tcase $w in -*) ;; *) cmd=$w; break ;; esac\n"
	      "\tdone\n"
	      "\tcase $prev in\n"
	      "\t--root) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
	      "\t--kernel) COMPREPLY=($(compgen -W \"$(uname -r)\" -- \"$cur\")); return ;;\n"
	      "\t-o|--format) COMPREPLY=($(compgen -W 'text json prom' -- \"$cur\")); return ;;\n"
	      "\tesac\n"
	      "\tcase $cmd in\n"
	      "\t'')\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", stdout);
	for (i = 0; i < cli_ncommands; i++)
		printf("%s ", cli_commands[i].name);
	fputs("help $globals --help -h\" -- \"$cur\"))\n"
	      "\t\treturn ;;\n", stdout);
	for (i = 0; i < cli_ncommands; i++) {
		n = copts(cli_commands[i].opts, cli_commands[i].shortopts, o, MAXOPT);
		printf("\t%s)\n\t\topts='", cli_commands[i].name);
		print_words(o, n, false);
		fputs("'\n\t\tvals='", stdout);
		print_words(o, n, true);
		fputs("' ;;\n", stdout);
	}
	fputs("\t*) return ;;\n"
	      "\tesac\n"
	      "\tcase \" $vals \" in *\" $prev \"*) COMPREPLY=($(compgen -f -- \"$cur\")); return ;; esac\n"
	      "\tcase $cur in\n"
	      "\t''|-*) COMPREPLY=($(compgen -W \"$opts $globals\" -- \"$cur\")) ;;\n"
	      "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\tesac\n"
	      "}\n"
	      "complete -F _wmark wmark\n", stdout);
}

/* A zsh _arguments spec for each option of o[n]. */
static void zsh_specs(const struct copt *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *nm = o[i].name;

		if (strcmp(nm, "--root") == 0)
			printf(" '%s=:directory:_files -/'", nm);
		else if (strcmp(nm, "--kernel") == 0)
			printf(" '%s=:release:($(uname -r))'", nm);
		else if (strcmp(nm, "--format") == 0 || strcmp(nm, "-o") == 0)
			printf(" '%s%s:format:(text json prom)'", nm, nm[1] == '-' ? "=" : "+");
		else if (o[i].value)
			printf(" '%s%s:value:_files'", nm, nm[1] == '-' ? "=" : "+");
		else
			printf(" '%s'", nm);
	}
}

static void print_zsh(void)
{
	struct copt g[MAXOPT], o[MAXOPT];
	size_t i, ng, n;

	ng = copts(cli_global_opts, CLI_GLOBAL_SHORTOPTS, g, MAXOPT);
	fputs("#compdef wmark\n"
	      "# zsh completion for wmark(1): written by `wmark completion zsh`\n"
	      "# from wmark's table of commands and options.\n"
	      "_wmark() {\n"
	      "\tlocal curcontext=$curcontext state line\n"
	      "\tlocal -a globals cmds\n"
	      "\tglobals=(", stdout);
	zsh_specs(g, ng);
	fputs(" )\n\tcmds=(", stdout);
	for (i = 0; i < cli_ncommands; i++)
		printf(" '%s:%s'", cli_commands[i].name, cli_commands[i].summary);
	fputs(" 'help:this help' )\n"
	      "\t_arguments -C $globals '(-h --help)'{-h,--help} '1:command:->cmd' '*::arg:->args'\n"
	      "\tcase $state in\n"
	      "\tcmd) _describe command cmds ;;\n"
	      "\targs)\n"
	      "\t\tcase $line[1] in\n", stdout);
	for (i = 0; i < cli_ncommands; i++) {
		n = copts(cli_commands[i].opts, cli_commands[i].shortopts, o, MAXOPT);
		printf("\t\t%s) _arguments $globals", cli_commands[i].name);
		zsh_specs(o, n);
		fputs(" '*:file:_files' ;;\n", stdout);
	}
	fputs("\t\tesac ;;\n"
	      "\tesac\n"
	      "}\n"
	      "_wmark \"$@\"\n", stdout);
}

int cmd_completion(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *shell;

	/* -h is its only option */
	if (ctx->args.nopt) {
		completion_usage();
		return EXIT_OK;
	}
	if (ctx->args.noperand < 1)
		return cli_usage("completion", "name one of bash, zsh or options");
	if (ctx->args.noperand > 1)
		return cli_usage("completion", "unexpected argument '%s'", ctx->args.operand[1]);
	shell = ctx->args.operand[0];
	if (ctx->format != FMT_TEXT)
		return cli_usage("completion", "prints a script: no -j or -o");
	if (strcmp(shell, "bash") == 0)
		print_bash();
	else if (strcmp(shell, "zsh") == 0)
		print_zsh();
	else if (strcmp(shell, "options") == 0)
		print_options();
	else
		return cli_usage("completion", "'%s': bash, zsh or options", shell);
	return EXIT_OK;
}
