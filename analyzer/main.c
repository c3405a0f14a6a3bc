/* v2xcap: the V2X capture tool's entry point and subcommand table (iw's shape). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "j2735.h"
#include "j2735dec.h"
#include "version.h"

static const struct v2x_command commands[] = {
	{"dump", "FILE...", "print one line per frame with the layers found", cmd_dump},
	{"stats", "[OPTIONS] FILE...", "per-type/PSID/channel/sender and BSM statistics", cmd_stats},
	{"decode", "FILE...", "one JSON object per J2735 message (JSON Lines)", cmd_decode},
	{"ocb", "join|leave|monitor|status ...", "802.11p OCB set-up over nl80211", cmd_ocb},
	{"capture", "-i IFACE [-w FILE] [--stats]", "live capture of WSMP frames", cmd_capture},
	{"send", "-i IFACE FILE|--bsm", "transmit WSMP on an OCB interface", cmd_send},
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
		fprintf(out, "  %-8s %-28s %s\n", commands[i].name, commands[i].usage,
			commands[i].help);
	fprintf(out, "\n'v2xcap COMMAND --help' shows a command's options.\n"
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
		return V2X_EXIT_USAGE;
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
