/* Internal to j2735dec: the generic walk over asn1c's type descriptors and the lookups
 * of the open-type tables. */
#ifndef J2735DEC_WALK_H
#define J2735DEC_WALK_H

#include "j2735dec.h"
#include "j2735dec_tables.h"

/* The row for (owner, id), NULL when absent. */
const struct j2735dec_open_type *j2735dec_find(const struct j2735dec_open_type *table,
					      const char *owner, long id);
/* Whether name is an owner (the type holding an open type) in table; the bit names of
 * a named BIT STRING type, NULL for one without: the walk and the encoder read both. */
bool j2735dec_is_owner(const struct j2735dec_open_type *table, const char *name);
const struct j2735dec_bit_names *j2735dec_bit_names_of(const char *type);
/* A complete UPER decode as td (NULL when it fails); *consumed octets when non-NULL. */
void *j2735dec_decode_as(asn_TYPE_descriptor_t *td, const uint8_t *buf, size_t len,
			 size_t *consumed);
/* Resolves every descriptor of the schema once (j2735dec_types.c); called before the
 * first decode, so that threads decoding at once only read the descriptors. */
void j2735dec_types_resolve(void);
void j2735dec_walk_value(asn_TYPE_descriptor_t *td, const void *sptr,
			 const struct v2x_visitor *v, void *ctx);

#endif
