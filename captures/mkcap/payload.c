/* mkcap: loads a frame payload (hex text (.hex, .txt), binary file, or the <asn1> hex of a jpo-ode
 * decoder-output XML) and rewrites the msgCnt of a BSM. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bsm.h"
#include "hex.h"
#include "j2735.h"
#include "mkcap.h"

/* Hex digits of s[0..n) into out; whitespace and ':' separators are ignored. */
static int parse_hex(const char *s, size_t n, struct v2x_buf *out, char *err, size_t errlen)
{
	uint8_t *octets = malloc(n / 2 + 1);
	size_t at = 0;
	long got = octets ? v2x_hex_decode(s, n, octets, n / 2 + 1, &at) : -1;
	if (got >= 0)
		v2x_put(out, octets, (size_t)got);
	else if (!octets)
		snprintf(err, errlen, "out of memory");
	else if (at < n)
		snprintf(err, errlen, "not a hex digit: '%c'", s[at]);
	else
		snprintf(err, errlen, "odd number of hex digits");
	free(octets);
	return got >= 0 ? 0 : -1;
}

static int read_file(const char *path, struct v2x_buf *out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	uint8_t chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		v2x_put(out, chunk, n);
	int bad = ferror(f);
	fclose(f);
	if (bad || out->err) {
		snprintf(err, errlen, "%s: read error", path);
		return -1;
	}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* jpo-ode decoder output: the UPER hex is the text of the first <asn1> element. */
static int parse_ode_xml(const struct v2x_buf *text, struct v2x_buf *out, char *err, size_t errlen)
{
	static const char open[] = "<asn1>", close[] = "</asn1>";
	const char *s = (const char *)text->p;
	const char *end = s + text->len;
	const char *a = NULL, *b = NULL;
	for (const char *p = s; p + sizeof close - 1 <= end; p++) {
		if (!a && memcmp(p, open, sizeof open - 1) == 0)
			a = p + sizeof open - 1;
		else if (a && memcmp(p, close, sizeof close - 1) == 0) {
			b = p;
			break;
		}
	}
	if (!a || !b) {
		snprintf(err, errlen, "no <asn1> element");
		return -1;
	}
	return parse_hex(a, (size_t)(b - a), out, err, errlen);
}

int payload_load(const char *arg, struct v2x_buf *out, char *err, size_t errlen)
{
	if (arg[0] != '@')
		return parse_hex(arg, strlen(arg), out, err, errlen);
	const char *path = arg + 1;
	bool hex = ends_with(path, ".hex") || ends_with(path, ".txt"); /* .txt: jpo-ode's tests */
	if (!hex && !ends_with(path, ".xml"))
		return read_file(path, out, err, errlen);
	struct v2x_buf text = {0};
	int rc = read_file(path, &text, err, errlen);
	if (rc == 0)
		rc = ends_with(path, ".xml") ? parse_ode_xml(&text, out, err, errlen)
					     : parse_hex((const char *)text.p, text.len, out, err, errlen);
	if (rc < 0 && strncmp(err, path, strlen(path)) != 0) {
		char why[160];
		snprintf(why, sizeof why, "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
	}
	v2x_buf_free(&text);
	return rc;
}

int bsm_set_msgcnt(uint8_t *p, size_t n, unsigned msgcnt)
{
	struct v2x_msgframe mf;
	struct v2x_bsm_head h;
	const char *why;
	if (v2x_msgframe_parse(p, n, &mf, &why) < 0 || mf.msg_id != V2X_BSM_MSG_ID ||
	    msgcnt > 127)
		return -1;
	uint8_t *value = p + (mf.value - p);
	if (v2x_bsm_head_read(value, mf.value_len, &h) < 0)
		return -1;
	h.msg_cnt = (uint8_t)msgcnt;
	return v2x_bsm_head_write(value, mf.value_len, &h);
}
