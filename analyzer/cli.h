/* v2xcap subcommands: each lives in its own file, cmd_<name>.c, and is one row of the
 * table in main.c. Every command parses its arguments with getopt_long and prints its
 * usage from its row (v2xcap_cli_help), so the synopsis is written once. */
#ifndef V2XCAP_CLI_H
#define V2XCAP_CLI_H

#include <stdio.h>

/* Exit codes, the same in every command (README "Exit codes", v2xcap(1) EXIT STATUS):
 * 1 for a failure of the run (a file that cannot be read as a capture, an interface that
 * cannot be used, output that cannot be written; with --strict also a malformed frame);
 * malformed frames alone are reported and counted, and exit 0. */
enum { V2XCAP_EXIT_OK = 0, V2XCAP_EXIT_FAILURE = 1, V2XCAP_EXIT_USAGE = 2 };

struct v2xcap_command {
	const char *name;
	/* The synopsis after "v2xcap NAME"; several forms are separated by '\n'. */
	const char *usage;
	/* Called with argv[0] = NAME; returns the exit code. */
	int (*run)(const struct v2xcap_command *cmd, int argc, char **argv);
	const char *help;    /* one line, for 'v2xcap --help' */
	const char *options; /* what 'v2xcap NAME --help' adds: options, notes (cmd_NAME.c) */
};

/* The subcommands' handlers and option texts (one cmd_NAME.c each). */
#define V2XCAP_COMMAND(name)                                                                \
	int cmd_##name(const struct v2xcap_command *cmd, int argc, char **argv);             \
	extern const char cmd_##name##_options[]
V2XCAP_COMMAND(dump);
V2XCAP_COMMAND(stats);
V2XCAP_COMMAND(decode);
V2XCAP_COMMAND(encode);
V2XCAP_COMMAND(ocb);
V2XCAP_COMMAND(capture);
V2XCAP_COMMAND(send);
V2XCAP_COMMAND(report); /* cmd_report.c: report and export */
V2XCAP_COMMAND(export);
V2XCAP_COMMAND(convert);
#undef V2XCAP_COMMAND

/* Prints "usage: v2xcap NAME USAGE", the help line and the options to out. */
void v2xcap_cli_usage(const struct v2xcap_command *cmd, FILE *out);
/* "v2xcap NAME: <printf>" and the synopsis on stderr; returns V2XCAP_EXIT_USAGE. */
int v2xcap_cli_usage_error(const struct v2xcap_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The default branch of every getopt_long loop (run with opterr = 0 and an optstring
 * that starts with ':' and holds 'h', and "help" mapped to 'h'): for 'h' prints the usage
 * on stdout and returns V2XCAP_EXIT_OK; for an unknown option or a missing value, a usage
 * error. */
int v2xcap_cli_other_option(const struct v2xcap_command *cmd, int c, char **argv);

#endif
