/* v2xcap encode: JSON Lines (what `v2xcap decode` writes, edited or not) to UPER
 * MessageFrames, on the public <v2x/encode.h>. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#include <v2x/encode.h>

const char cmd_encode_options[] =
	"Reads JSON Lines from the FILEs or stdin ('-' or none): each line a whole\n"
	"`v2xcap decode` line, or its \"j2735\" object {\"messageId\" or \"name\", \"value\"},\n"
	"in the decoder's vocabulary (ASN.1 field names, enum names, BIT STRINGs as objects of\n"
	"named flags, OCTET STRINGs in hex; optional members may be left out). Writes each\n"
	"message's UPER MessageFrame. A line that holds the octets it was decoded from\n"
	"(decode --octets) is compared with them: a difference (a sender's encoding that is\n"
	"not canonical UPER, or an edit) is said on stderr with the first bit that differs.\n"
	"  --format hex|raw  hex: one line of hex digits per message (default); raw: the\n"
	"                    octets, one message after another\n"
	"  --strict          stop at the first line that does not encode\n"
	"Errors name the line, the path and the rule (\"line 3: .value.coreData.speed: 9000\n"
	"is outside 0..8191\"); the lines after a bad one are still encoded.\n"
	"Exit status: 0 every line encoded, 1 a line did not encode or a FILE could not be\n"
	"read, 2 usage error.\n";

struct encode_run {
	struct v2x_encoder *enc;
	bool raw, strict;
	unsigned long encoded, failed, different;
	int status;                 /* V2X_OK, or the code that stops the run */
};

static void write_message(const struct encode_run *r, const struct v2x_encoded *m)
{
	if (r->raw) {
		fwrite(m->octets, 1, m->len, stdout);
		return;
	}
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < m->len; i++) {
		putchar(digits[m->octets[i] >> 4]);
		putchar(digits[m->octets[i] & 0xf]);
	}
	putchar('\n');
}

/* One line; where names the input in messages ("" for stdin). */
static void encode_line(struct encode_run *r, const char *where, unsigned long lineno,
			const char *line, size_t len)
{
	struct v2x_encoded m = {.size = sizeof(m)};
	int rc = v2x_encode_json(r->enc, line, len, &m);
	if (rc == V2X_OK) {
		write_message(r, &m);
		r->encoded++;
		if (m.has_received && !m.same_as_received) {
			r->different++;
			fprintf(stderr, "v2xcap encode: %sline %lu: not the received octets: the "
				"first different bit is bit %zu (the sender's encoding is not "
				"canonical UPER, or the JSON was edited)\n", where, lineno,
				m.first_different_bit);
		}
		return;
	}
	r->failed++;
	fprintf(stderr, "v2xcap encode: %sline %lu: %s\n", where, lineno,
		v2x_encoder_geterr(r->enc));
	if (rc == V2X_ENOTSUP || rc == V2X_ENOMEM || r->strict)
		r->status = rc;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

/* A FILE or stdin: false when it cannot be read. */
static bool encode_file(struct encode_run *r, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	if (!in) {
		fprintf(stderr, "v2xcap encode: %s: %m\n", path);
		return false;
	}
	char where[512] = "";
	if (!is_stdin)
		snprintf(where, sizeof(where), "%s: ", path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	while (r->status == V2X_OK && (n = getline(&line, &cap, in)) >= 0)
		if (++lineno, !blank(line, (size_t)n))
			encode_line(r, where, lineno, line, (size_t)n);
	bool ok = !ferror(in);
	if (!ok)
		fprintf(stderr, "v2xcap encode: %s: read error\n", is_stdin ? "stdin" : path);
	free(line);
	if (!is_stdin)
		fclose(in);
	return ok;
}

int cmd_encode(const struct v2xcap_command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"strict", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct encode_run r = {0};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'f' && (strcmp(optarg, "hex") == 0 || strcmp(optarg, "raw") == 0))
			r.raw = strcmp(optarg, "raw") == 0;
		else if (c == 'f')
			return v2xcap_cli_usage_error(cmd, "--format %s: hex or raw", optarg);
		else if (c == 's')
			r.strict = true;
		else
			return v2xcap_cli_other_option(cmd, c, argv);
	}
	char errbuf[V2X_ERRBUF_SIZE];
	if (!(r.enc = v2x_encoder_open(errbuf))) {
		fprintf(stderr, "v2xcap encode: %s\n", errbuf);
		return V2XCAP_EXIT_FAILURE;
	}
	bool read_all = true;
	if (optind == argc)
		read_all = encode_file(&r, "-");
	for (int i = optind; i < argc && r.status == V2X_OK; i++)
		read_all &= encode_file(&r, argv[i]);
	v2x_encoder_close(r.enc);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "v2xcap encode: writing the output failed\n");
		return V2XCAP_EXIT_FAILURE;
	}
	if (r.failed || r.different)
		fprintf(stderr, "v2xcap encode: %lu encoded, %lu did not encode, %lu not the "
			"received octets\n", r.encoded, r.failed, r.different);
	return read_all && !r.failed ? V2XCAP_EXIT_OK : V2XCAP_EXIT_FAILURE;
}
