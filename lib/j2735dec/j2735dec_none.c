/* j2735dec and j2735enc without a schema: every call says that no decoder (encoder) was
 * built. */
#include "j2735dec.h"
#include "j2735enc.h"

#include <stdio.h>
#include <string.h>

const char *j2735dec_edition(void)
{
	return NULL;
}

const char *j2735dec_result_str(enum j2735dec_result r)
{
	return r == J2735DEC_NO_DECODER ? "no J2735 decoder built" : "?";
}

const char *j2735dec_id_note(long msg_id)
{
	(void)msg_id;
	return NULL;
}

size_t j2735dec_message_types(void)
{
	return 0;
}

enum j2735dec_result j2735dec_decode(const uint8_t *buf, size_t len, struct j2735dec_msg *msg)
{
	(void)buf, (void)len;
	memset(msg, 0, sizeof(*msg));
	return J2735DEC_NO_DECODER;
}

void j2735dec_free(struct j2735dec_msg *msg)
{
	(void)msg;
}

void j2735dec_walk(const struct j2735dec_msg *msg, const struct v2x_visitor *v,
		   void *ctx)
{
	(void)msg, (void)v, (void)ctx;
}

enum j2735enc_result j2735enc_encode(long msg_id, const struct json_value *value,
				     struct v2x_buf *out, char *err, size_t errlen)
{
	(void)msg_id, (void)value, (void)out;
	snprintf(err, errlen, "no J2735 encoder built");
	return J2735ENC_NO_ENCODER;
}
