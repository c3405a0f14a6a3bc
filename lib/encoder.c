/* <v2x/encode.h>: the encoder handle over the JSON reader and j2735enc; which members of
 * a decoder's line say what to encode. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "j2735enc.h"
#include "json_read.h"
#include "registry.h"
#include "writer.h"

#include <v2x/encode.h>

struct v2x_encoder {
	struct json_doc doc;
	struct v2x_buf out;
	struct v2x_buf received;
	char err[V2X_ERRBUF_SIZE];
};

struct v2x_encoder *v2x_encoder_open(char *errbuf)
{
	if (!errbuf)
		return NULL;
	struct v2x_encoder *e = calloc(1, sizeof(*e));
	if (!e)
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_encoder_open: out of memory");
	return e;
}

static int fail(struct v2x_encoder *e, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return code;
}

/* The message id of "messageId" and/or "name" (the registry's "BSM" or "BasicSafetyMessage"),
 * which must agree: >= 0, or -1 with e->err. */
static long message_id(struct v2x_encoder *e, const struct json_value *jid,
		       const struct json_value *jname)
{
	long id = -1;
	if (jid) {
		if (jid->kind != JSON_NUMBER || !jid->is_integer || jid->integer < 0 ||
		    jid->integer > 32767) {
			fail(e, 0, ".messageId: %s is not a message id (0..32767)",
			     jid->kind == JSON_NUMBER ? jid->str : json_kind_name(jid->kind));
			return -1;
		}
		id = (long)jid->integer;
	}
	if (jname) {
		if (jname->kind != JSON_STRING) {
			fail(e, 0, ".name: %s where a string belongs", json_kind_name(jname->kind));
			return -1;
		}
		const struct v2x_msgid *m = v2x_msgids;
		while (m->abbrev && strcmp(m->abbrev, jname->str) && strcmp(m->name, jname->str))
			m++;
		if (!m->abbrev) {
			fail(e, 0, ".name: \"%s\" is not a J2735 message name", jname->str);
			return -1;
		}
		if (id >= 0 && id != m->id) {
			fail(e, 0, ".name: \"%s\" is message %u, not messageId %ld", jname->str,
			     m->id, id);
			return -1;
		}
		id = m->id;
	}
	if (id < 0)
		fail(e, 0, "no \"messageId\" or \"name\": which message this is");
	return id;
}

/* The "j2735" object (or the whole text when it is one): its members. */
static int message_parts(struct v2x_encoder *e, const struct json_value *root,
			 const struct json_value **jid, const struct json_value **jname,
			 const struct json_value **value, const struct json_value **octets)
{
	const struct json_value *o = json_member(root, "j2735");
	if (!o)
		o = root;
	else if (o->kind != JSON_OBJECT)
		return fail(e, V2X_EFORMAT, ".j2735: %s where an object belongs",
			    json_kind_name(o->kind));
	if (o->kind != JSON_OBJECT)
		return fail(e, V2X_EFORMAT, "%s where a message object belongs",
			    json_kind_name(o->kind));
	*jid = *jname = *value = *octets = NULL;
	const struct json_value *said = NULL;
	for (const struct json_value *m = o->first; m; m = m->next) {
		if (strcmp(m->key, "messageId") == 0)
			*jid = m;
		else if (strcmp(m->key, "name") == 0)
			*jname = m;
		else if (strcmp(m->key, "value") == 0)
			*value = m;
		else if (strcmp(m->key, "octets") == 0)
			*octets = m;
		else if (strcmp(m->key, "error") == 0 || strcmp(m->key, "note") == 0)
			said = m;
		else if (strcmp(m->key, "trailing_octets") != 0 && strcmp(m->key, "trailing") != 0)
			return fail(e, V2X_EFORMAT, "unknown member \"%s\" of a message (messageId, "
				    "name, value, octets)", m->key);
	}
	if (!*value && said)
		return fail(e, V2X_EFORMAT, "no \"value\": the decoder said \"%s\"",
			    said->kind == JSON_STRING ? said->str : "?");
	if (!*value)
		return fail(e, V2X_EFORMAT, "no \"value\": nothing to encode");
	return V2X_OK;
}

/* The received octets against the encoding. */
static void compare(struct v2x_encoder *e, const struct json_value *octets,
		    struct v2x_encoded *out)
{
	size_t at;
	v2x_buf_reset(&e->received);
	uint8_t *p = octets->kind == JSON_STRING ? v2x_buf_room(&e->received, octets->len / 2 + 1)
						  : NULL;
	long n = p ? v2x_hex_decode(octets->str, octets->len, p, octets->len / 2 + 1, &at) : -1;
	if (n < 0)
		return;
	out->has_received = true;
	size_t common = (size_t)n < e->out.len ? (size_t)n : e->out.len;
	size_t i = 0;
	while (i < common && p[i] == e->out.p[i])
		i++;
	out->same_as_received = i == common && (size_t)n == e->out.len;
	if (out->same_as_received)
		return;
	out->first_different_bit = i * 8;
	if (i < common)
		for (uint8_t d = p[i] ^ e->out.p[i]; !(d & 0x80); d <<= 1)
			out->first_different_bit++;
}

int v2x_encode_json(struct v2x_encoder *e, const char *json, size_t len, struct v2x_encoded *out)
{
	if (!e || !json || !out || out->size < offsetof(struct v2x_encoded, first_different_bit) +
							sizeof(size_t))
		return V2X_EINVAL;
	size_t size = out->size;
	memset(out, 0, size < sizeof(*out) ? size : sizeof(*out));
	out->size = size;
	e->err[0] = '\0';
	const struct json_value *root, *jid = NULL, *jname = NULL, *value = NULL, *octets = NULL;
	char why[V2X_ERRBUF_SIZE];
	if (json_read(&e->doc, json, len, &root, why, sizeof(why)) < 0)
		return fail(e, V2X_EFORMAT, "not JSON: %s", why);
	int r = message_parts(e, root, &jid, &jname, &value, &octets);
	if (r < 0)
		return r;
	long id = message_id(e, jid, jname);
	if (id < 0)
		return V2X_EFORMAT;
	v2x_buf_reset(&e->out);
	e->out.err = false;
	switch (j2735enc_encode(id, value, &e->out, e->err, sizeof(e->err))) {
	case J2735ENC_OK: break;
	case J2735ENC_NO_ENCODER:
		return fail(e, V2X_ENOTSUP, "libv2x was built without a J2735 schema: no "
			    "encoder (build with -DJ2735_ASN1_DIR=<the schema's folder>)");
	case J2735ENC_INVALID: return V2X_EFORMAT;
	case J2735ENC_NOMEM: return V2X_ENOMEM;
	}
	out->octets = e->out.p;
	out->len = e->out.len;
	out->message_id = (unsigned)id;
	if (octets)
		compare(e, octets, out);
	return V2X_OK;
}

const char *v2x_encoder_geterr(const struct v2x_encoder *e)
{
	return e ? e->err : "";
}

void v2x_encoder_close(struct v2x_encoder *e)
{
	if (!e)
		return;
	json_doc_free(&e->doc);
	v2x_buf_free(&e->out);
	v2x_buf_free(&e->received);
	free(e);
}
