/* Tables generated from the schema's information object sets (asn1/asn1c/), which asn1c
 * 0.9.28 cannot compile: the type an open type holds, by id; BIT STRING bit names. */
#ifndef J2735DEC_TABLES_H
#define J2735DEC_TABLES_H

#include "asn_application.h"

struct j2735dec_open_type {
	const char *owner;      /* regional: the type holding the extension; "" otherwise */
	long id;
	const char *name;       /* ASN.1 type name */
	asn_TYPE_descriptor_t *type; /* NULL: a placeholder the edition defines as NULL */
};

struct j2735dec_bit_names {
	const char *type;
	unsigned count;
	const char *const *names; /* by bit number; NULL for unnamed bits */
};

/* Each ends with a row whose name is NULL. */
extern const struct j2735dec_open_type j2735dec_messages[];
extern const struct j2735dec_open_type j2735dec_partii[];
extern const struct j2735dec_open_type j2735dec_regional[];
extern const struct j2735dec_bit_names j2735dec_bit_names[];

#endif
