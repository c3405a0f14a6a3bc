/* v2xcap: the V2X capture tool's entry point and subcommand table (iw's shape): each row
 * names a command, its synopsis, its handler (cmd_<name>.c) and a one-line help. */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "j2735.h"
#include "j2735dec.h"
#include "version.h"

/* Synopsis lines: each is one form of the command ("v2xcap NAME ..."), except a line that
 * starts with a space, which continues the form above. */
#define ROW(name, usage, help) {#name, usage, cmd_##name, help, cmd_##name##_options}
static const struct v2xcap_command commands[] = {
	ROW(dump, "[--strict] [--] FILE...",
	    "print one line per frame with the layers found"),
	ROW(stats, "[--format table|csv|json] [--by type|psid|channel|sender|bsm]\n"
		   " [--filter TYPE|psid=HEX] [--interval N[ms|s|m]] [--decode] [-j N]\n"
		   " [--strict] [--] FILE...",
	    "per-type/PSID/channel/sender and BSM statistics"),
	ROW(decode, "[--strict] [--octets] [-j N] [--kafka BROKERS [--topic T]\n"
		    " [--compression C] [-X KEY=VALUE]... | --partition hour -o DIR] [--] FILE...\n"
		    "[--strict] [--octets] --hex [FILE|-]\n"
		    "[--strict] [--octets] --raw FILE",
	    "one JSON object per J2735 message (JSON Lines)"),
	ROW(encode, "[--format hex|raw] [--strict] [--] [FILE|-]...",
	    "JSON Lines (decode's, edited or not) to UPER MessageFrames"),
	ROW(ocb, "join IFACE FREQ|CHANNEL [--width 5|10|20]\n"
		 "leave IFACE\n"
		 "monitor IFACE [--name NAME]\n"
		 "status [IFACE]",
	    "802.11p OCB set-up over nl80211"),
	ROW(capture, "-i IFACE [-w FILE] [--all] [--stats] [--duration S] [--count N]\n"
		     " [--rotate SIZE|TIME] [--user USER]\n"
		     " [--kafka BROKERS [--topic T] [--compression C] [-X KEY=VALUE]...]",
	    "live capture of WSMP frames"),
	ROW(send, "-i IFACE [--force] FILE [--rate HZ] [--loop] [--count N]\n"
		  "-i IFACE [--force] --json FILE|- [--psid HEX] [--dot2] [--rate HZ] [--loop]\n"
		  " [--count N]\n"
		  "-i IFACE [--force] --bsm [--id HEX] [--rate HZ] [--count N]\n"
		  " [--lat DEG] [--lon DEG] [--speed M/S] [--heading DEG] [--dot2]",
	    "transmit WSMP on an OCB interface"),
	ROW(report, "[-o FILE] [--format html|json] [--max-age MS] [--] CAPTURE...",
	    "conformance report (HTML page or JSON)"),
	ROW(export, "--geojson [-o FILE] [--] CAPTURE...",
	    "tracks, MAP lanes, findings as GeoJSON"),
	ROW(convert, "-o OUT.pcapng [--] FILE...",
	    "any input (pcap, pcapng, WYDOT logs) into a pcapng for Wireshark"),
};
#undef ROW

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The synopsis: "usage: v2xcap NAME ..." and its other forms. */
static void print_synopsis(const struct v2xcap_command *cmd, FILE *out)
{
	int indent = (int)strlen("usage: v2xcap ") + (int)strlen(cmd->name);
	const char *line = cmd->usage;
	for (bool first = true;; first = false) {
		size_t len = strcspn(line, "\n");
		if (first)
			fprintf(out, "usage: v2xcap %s ", cmd->name);
		else if (line[0] == ' ')
			fprintf(out, "%*s", indent, "");
		else
			fprintf(out, "       v2xcap %s ", cmd->name);
		fprintf(out, "%.*s\n", (int)len, line);
		if (!line[len])
			break;
		line += len + 1;
	}
}

void v2xcap_cli_usage(const struct v2xcap_command *cmd, FILE *out)
{
	print_synopsis(cmd, out);
	fprintf(out, "  %s\n%s", cmd->help, cmd->options);
}

int v2xcap_cli_usage_error(const struct v2xcap_command *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "v2xcap %s: ", cmd->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	print_synopsis(cmd, stderr);
	fprintf(stderr, "'v2xcap %s --help' shows the options.\n", cmd->name);
	return V2XCAP_EXIT_USAGE;
}

int v2xcap_cli_other_option(const struct v2xcap_command *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	if (c == 'h') {
		v2xcap_cli_usage(cmd, stdout);
		return V2XCAP_EXIT_OK;
	}
	if (c == ':')
		return v2xcap_cli_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt && arg[0] == '-' && arg[1] != '-')
		return v2xcap_cli_usage_error(cmd, "unknown option '-%c'", optopt);
	return v2xcap_cli_usage_error(cmd, "unknown option '%s'", arg);
}

/* --j2735-psid LIST, taken out of argv wherever it stands (before or after the command):
 * every frame-reading command honours it, as the J2735 plugin's extra_psids preference.
 * Returns the new argc, or -1 after a usage message. */
static int take_j2735_psids(int argc, char **argv)
{
	static const char opt[] = "--j2735-psid";
	int out = 0;
	for (int i = 0; i < argc; i++) {
		const char *list = NULL;
		if (strcmp(argv[i], opt) == 0) {
			if (i + 1 == argc) {
				fprintf(stderr, "v2xcap: %s needs a list of PSIDs\n", opt);
				return -1;
			}
			list = argv[++i];
		} else if (strncmp(argv[i], opt, sizeof opt - 1) == 0 &&
			   argv[i][sizeof opt - 1] == '=') {
			list = argv[i] + sizeof opt;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		if (v2x_j2735_psids_set(list) < 0) {
			fprintf(stderr, "v2xcap: %s: invalid PSID list '%s' (e.g. 0x7f,0x8010-0x8020)\n",
				opt, list);
			return -1;
		}
	}
	argv[out] = NULL;
	return out;
}

static void print_help(FILE *out)
{
	fprintf(out, "usage: v2xcap [--version] [--help] COMMAND [ARGS]\n\n"
		     "The V2X capture tool: IEEE 802.11p OCB, WSMP, IEEE 1609.2, SAE J2735.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'v2xcap COMMAND --help' shows a command's usage and options.\n"
		     "--j2735-psid LIST (any command): payloads of these PSIDs are J2735 too,\n"
		     "  e.g. 0x7f,0x8010-0x8020 (as the J2735 plugin's extra_psids preference).\n");
}

static void print_version(void)
{
	printf("v2xcap %s\n", V2X_VERSION);
	if (j2735dec_edition())
		printf("SAE J2735 decoder: edition %s (%zu message types decoded in full)\n",
		       j2735dec_edition(), j2735dec_message_types());
	else
		printf("SAE J2735 decoder: none (message ids only). Rebuild with "
		       "-DJ2735_ASN1_DIR=<your SAE J2735 ASN.1 dir> for full decoding.\n");
}

int main(int argc, char **argv)
{
	argc = take_j2735_psids(argc, argv);
	if (argc < 0)
		return V2XCAP_EXIT_USAGE;
	if (argc < 2) {
		print_help(stderr);
		return V2XCAP_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		print_version();
		return V2XCAP_EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_help(stdout);
		return V2XCAP_EXIT_OK;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, argv[1]) == 0)
			return commands[i].run(&commands[i], argc - 1, argv + 1);
	fprintf(stderr, "v2xcap: unknown command '%s'\n", argv[1]);
	print_help(stderr);
	return V2XCAP_EXIT_USAGE;
}
