/* j2735dec with a schema: the MessageFrame and its message decoded by the asn1c code
 * generated at build time, and the BSM encoder of `v2xcap send --bsm`. */
#include "j2735dec.h"

#include <string.h>

#include "MessageFrame.h"
#include "j2735dec_tables.h"
#include "j2735dec_walk.h"

/* Bounds asn1c's recursion on hostile input (its decoders check the stack they use). */
#define DECODE_STACK_LIMIT (64 * 1024)

const char *j2735dec_edition(void)
{
	return J2735DEC_EDITION;
}

const char *j2735dec_result_str(enum j2735dec_result r)
{
	switch (r) {
	case J2735DEC_OK: return "ok";
	case J2735DEC_NO_DECODER: return "no J2735 decoder built";
	case J2735DEC_UNKNOWN_ID: return "not in this edition";
	case J2735DEC_PLACEHOLDER: return "placeholder in this edition";
	case J2735DEC_MALFORMED: return "malformed J2735 message";
	}
	return "?";
}

const struct j2735dec_open_type *j2735dec_find(const struct j2735dec_open_type *table,
					      const char *owner, long id)
{
	for (; table->name; table++)
		if (table->id == id && strcmp(table->owner, owner) == 0)
			return table;
	return NULL;
}

void *j2735dec_decode_as(asn_TYPE_descriptor_t *td, const uint8_t *buf, size_t len,
			 size_t *consumed)
{
	asn_codec_ctx_t ctx = {DECODE_STACK_LIMIT};
	void *out = NULL;
	j2735dec_types_resolve();
	asn_dec_rval_t rv = uper_decode_complete(&ctx, td, &out, buf, len);
	if (rv.code != RC_OK) {
		ASN_STRUCT_FREE(*td, out);
		return NULL;
	}
	if (consumed)
		*consumed = rv.consumed;
	return out;
}

const char *j2735dec_id_note(long msg_id)
{
	const struct j2735dec_open_type *t = j2735dec_find(j2735dec_messages, "", msg_id);
	if (!t)
		return j2735dec_result_str(J2735DEC_UNKNOWN_ID);
	return t->type ? NULL : j2735dec_result_str(J2735DEC_PLACEHOLDER);
}

size_t j2735dec_message_types(void)
{
	size_t n = 0;
	for (const struct j2735dec_open_type *t = j2735dec_messages; t->name; t++)
		n += t->type != NULL;
	return n;
}

enum j2735dec_result j2735dec_decode(const uint8_t *buf, size_t len, struct j2735dec_msg *msg)
{
	memset(msg, 0, sizeof(*msg));
	MessageFrame_t *mf = j2735dec_decode_as(&asn_DEF_MessageFrame, buf, len, &msg->frame_len);
	if (!mf)
		return J2735DEC_MALFORMED;
	msg->frame_ = mf;
	msg->msg_id = (uint16_t)mf->messageId;
	const struct j2735dec_open_type *t = j2735dec_find(j2735dec_messages, "", mf->messageId);
	if (!t)
		return J2735DEC_UNKNOWN_ID;
	msg->type_name = t->name;
	if (!t->type)
		return J2735DEC_PLACEHOLDER;
	msg->value_ = j2735dec_decode_as(t->type, mf->value.buf, (size_t)mf->value.size, NULL);
	if (!msg->value_) {
		msg->type_name = NULL;
		return J2735DEC_MALFORMED;
	}
	return J2735DEC_OK;
}

void j2735dec_free(struct j2735dec_msg *msg)
{
	if (msg->value_) {
		const struct j2735dec_open_type *t =
			j2735dec_find(j2735dec_messages, "", msg->msg_id);
		ASN_STRUCT_FREE(*t->type, msg->value_);
	}
	if (msg->frame_)
		ASN_STRUCT_FREE(asn_DEF_MessageFrame, msg->frame_);
	memset(msg, 0, sizeof(*msg));
}

void j2735dec_walk(const struct j2735dec_msg *msg, const struct v2x_visitor *v,
		   void *ctx)
{
	const struct j2735dec_open_type *t = j2735dec_find(j2735dec_messages, "", msg->msg_id);
	j2735dec_walk_value(t->type, msg->value_, v, ctx);
}
