/* v2xcap subcommands: each lives in its own file and is one row of the table in main.c. */
#ifndef V2XCAP_CLI_H
#define V2XCAP_CLI_H

/* Exit codes (design.md) */
enum { V2X_EXIT_OK = 0, V2X_EXIT_RUNTIME = 1, V2X_EXIT_USAGE = 2 };

struct v2x_command {
	const char *name;
	const char *usage;  /* arguments after the name */
	const char *help;   /* one line */
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
};

/* Prints "usage: v2xcap NAME USAGE" and the help line of a command to stderr; returns 2. */
int v2x_usage(const struct v2x_command *cmd);
const struct v2x_command *v2x_command_find(const char *name);
/* For commands that take "[--help] [--] FILE...": returns -1 with *first set to the first
 * file, or the exit code to return (help printed to stdout, or a usage error to stderr).
 * help is the command's usage text. */
int v2x_file_args(int argc, char **argv, const char *help, int *first);

int cmd_dump(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_ocb(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_report(int argc, char **argv); /* cmd_report.c: report and export */
int cmd_export(int argc, char **argv);

#endif
