/* SAE J2735 decoding with the asn1c decoder generated from the user's schema at build time:
 * MessageFrame, then the message by messageId (BSM part II and regional extensions by their
 * ids during the walk), visited as a tree of named values. */
#ifndef J2735DEC_H
#define J2735DEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/j2735.h> /* struct v2x_visitor: j2735dec_walk calls all but number and uinteger */

enum j2735dec_result {
	J2735DEC_OK = 0,
	J2735DEC_NO_DECODER,  /* built without a J2735 schema */
	J2735DEC_UNKNOWN_ID,  /* MessageFrame read; its messageId is not in the schema */
	J2735DEC_PLACEHOLDER, /* MessageFrame read; the schema defines its message as NULL */
	J2735DEC_MALFORMED,   /* the MessageFrame or the message does not decode */
};

struct j2735dec_msg {
	uint16_t msg_id;
	const char *type_name;  /* ASN.1 type of the message (J2735DEC_OK, _PLACEHOLDER) */
	size_t frame_len;       /* octets of the MessageFrame read */
	void *frame_;           /* private: the asn1c structures */
	void *value_;
};

/* The schema's edition ("2016", "2020", "2024"; for a set the build does not know, the year
 * its MessageFrame module names or "unknown"), or NULL when no decoder was built. */
const char *j2735dec_edition(void);

/* Decodes the MessageFrame at buf; on J2735DEC_OK, _UNKNOWN_ID and _PLACEHOLDER msg->msg_id
 * and msg->frame_len are set. Call j2735dec_free() whatever the result. */
enum j2735dec_result j2735dec_decode(const uint8_t *buf, size_t len, struct j2735dec_msg *msg);
void j2735dec_free(struct j2735dec_msg *msg);
const char *j2735dec_result_str(enum j2735dec_result r);

/* Why the built schema does not decode messages of this id in full ("not in this
 * edition", "placeholder in this edition"); NULL when it does or when no decoder was built. */
const char *j2735dec_id_note(long msg_id);

/* The number of message types the built schema decodes in full (placeholders excluded). */
size_t j2735dec_message_types(void);

/* Visits the decoded message (after J2735DEC_OK): field names as in the ASN.1, enums as
 * names, BIT STRINGs as objects of named flags, open types replaced by their decode. */
void j2735dec_walk(const struct j2735dec_msg *msg, const struct v2x_visitor *v,
		   void *ctx);

#endif
