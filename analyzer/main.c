/* v2xcap: the V2X capture tool's entry point and subcommand table (iw's shape). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "j2735dec.h"
#include "version.h"

static const struct v2x_command commands[] = {
	{"dump", "FILE...", "print one line per frame with the layers found", cmd_dump},
	{"stats", "[OPTIONS] FILE...", "per-type/PSID/channel/sender and BSM statistics", cmd_stats},
	{"decode", "FILE...", "one JSON object per J2735 message (JSON Lines)", cmd_decode},
	{"ocb", "join|leave|monitor|status ...", "802.11p OCB set-up over nl80211", cmd_ocb},
	{"capture", "-i IFACE [-w FILE] [--stats]", "live capture of WSMP frames", cmd_capture},
	{"send", "-i IFACE FILE|--bsm", "transmit WSMP on an OCB interface", cmd_send},
	{"report", "[-o FILE] CAPTURE...", "conformance report (HTML page or JSON)", cmd_report},
	{"export", "--geojson CAPTURE...", "tracks, MAP lanes, findings as GeoJSON", cmd_export},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct v2x_command *v2x_command_find(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int v2x_usage(const struct v2x_command *cmd)
{
	fprintf(stderr, "usage: v2xcap %s %s\n  %s\n", cmd->name, cmd->usage, cmd->help);
	return V2X_EXIT_USAGE;
}

int v2x_file_args(int argc, char **argv, const char *help, int *first)
{
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(help, stdout);
			return V2X_EXIT_OK;
		}
		fprintf(stderr, "v2xcap %s: unknown option '%s'\n%s", argv[0], argv[i], help);
		return V2X_EXIT_USAGE;
	}
	if (i == argc) {
		fprintf(stderr, "v2xcap %s: no capture file given\n%s", argv[0], help);
		return V2X_EXIT_USAGE;
	}
	*first = i;
	return -1;
}

static void print_help(FILE *out)
{
	fprintf(out, "usage: v2xcap [--version] [--help] COMMAND [ARGS]\n\n"
		     "The V2X capture tool: IEEE 802.11p OCB, WSMP, IEEE 1609.2, SAE J2735.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-8s %-28s %s\n", commands[i].name, commands[i].usage,
			commands[i].help);
	fprintf(out, "\n'v2xcap COMMAND --help' shows a command's options.\n");
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
	if (argc < 2) {
		print_help(stderr);
		return V2X_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		print_version();
		return V2X_EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_help(stdout);
		return V2X_EXIT_OK;
	}
	const struct v2x_command *cmd = v2x_command_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "v2xcap: unknown command '%s'\n", argv[1]);
		print_help(stderr);
		return V2X_EXIT_USAGE;
	}
	return cmd->run(argc - 1, argv + 1);
}
