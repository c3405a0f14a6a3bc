/* The generic walk over asn1c 0.9.28's type descriptors: which base type a descriptor is
 * is told by its codec functions; open types (BSM part II, regional extensions) are
 * decoded by their id on the way and walked in place of their octets. */
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "j2735dec_walk.h"

/* strcmp() == 0 inline: the names compared for every value differ in their first letters. */
static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static const void *member_ptr(const asn_TYPE_member_t *m, const void *sptr)
{
	const void *p = (const char *)sptr + m->memb_offset;
	return (m->flags & ATF_POINTER) ? *(const void *const *)p : p;
}

static void walk(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
		 const struct v2x_visitor *v, void *ctx);

bool j2735dec_is_owner(const struct j2735dec_open_type *table, const char *name)
{
	for (const struct j2735dec_open_type *t = table; t->name; t++)
		if (same_name(t->owner, name))
			return true;
	return false;
}

/* Part II contents (PartIIcontent, CCMPartIIcontent: found by their own name) and
 * RegionalExtension (by the type holding it): { id, OCTET STRING holding the type of
 * that id }. */
static bool walk_open_type(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
			   const struct v2x_visitor *v, void *ctx)
{
	const struct j2735dec_open_type *table;
	if (td->elements_count != 2)
		return false;
	if (j2735dec_is_owner(j2735dec_partii, td->name))
		table = j2735dec_partii, owner = td->name;
	else if (same_name(td->name, "RegionalExtension"))
		table = j2735dec_regional;
	else
		return false;
	long id = *(const long *)member_ptr(&td->elements[0], sptr);
	const OCTET_STRING_t *os = member_ptr(&td->elements[1], sptr);
	const struct j2735dec_open_type *t = j2735dec_find(table, owner, id);
	void *inner = t && t->type ? j2735dec_decode_as(t->type, os->buf, (size_t)os->size, NULL)
				   : NULL;
	v->open(ctx, false);
	v->key(ctx, td->elements[0].name);
	v->integer(ctx, id);
	v->key(ctx, td->elements[1].name);
	if (inner) {
		walk(t->type, inner, owner, v, ctx);
		ASN_STRUCT_FREE(*t->type, inner);
	} else {
		v->octets(ctx, os->buf, (size_t)os->size); /* unknown id or undecodable */
	}
	v->close(ctx, false);
	return true;
}

static void walk_sequence(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
			  const struct v2x_visitor *v, void *ctx)
{
	v->open(ctx, false);
	for (int i = 0; i < td->elements_count; i++) {
		const void *p = member_ptr(&td->elements[i], sptr);
		if (!p)
			continue; /* absent OPTIONAL */
		v->key(ctx, td->elements[i].name);
		walk(td->elements[i].type, p, owner, v, ctx);
	}
	v->close(ctx, false);
}

static void walk_choice(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
			const struct v2x_visitor *v, void *ctx)
{
	const asn_CHOICE_specifics_t *spec = td->specifics;
	const char *p = (const char *)sptr + spec->pres_offset;
	int present;
	switch (spec->pres_size) {
	case sizeof(uint8_t): present = *(const uint8_t *)p; break;
	case sizeof(uint16_t): present = *(const uint16_t *)p; break;
	default: present = *(const int *)p; break;
	}
	v->open(ctx, false);
	if (present > 0 && present <= td->elements_count) {
		const asn_TYPE_member_t *m = &td->elements[present - 1];
		const void *value = member_ptr(m, sptr);
		if (value) {
			v->key(ctx, m->name);
			walk(m->type, value, owner, v, ctx);
		}
	}
	v->close(ctx, false);
}

static void walk_sequence_of(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
			     const struct v2x_visitor *v, void *ctx)
{
	const asn_anonymous_set_ *list = _A_CSET_FROM_VOID(sptr);
	v->open(ctx, true);
	for (int i = 0; i < list->count; i++)
		if (list->array[i])
			walk(td->elements[0].type, list->array[i], owner, v, ctx);
	v->close(ctx, true);
}

const struct j2735dec_bit_names *j2735dec_bit_names_of(const char *type)
{
	for (const struct j2735dec_bit_names *b = j2735dec_bit_names; b->type; b++)
		if (same_name(b->type, type))
			return b;
	return NULL;
}

/* Named bits become {"name": true|false, ...}; a BIT STRING without names "0101...". */
static void walk_bit_string(asn_TYPE_descriptor_t *td, const BIT_STRING_t *bs,
			    const struct v2x_visitor *v, void *ctx)
{
	size_t nbits = (size_t)bs->size * 8 - (size_t)bs->bits_unused;
	const struct j2735dec_bit_names *names = j2735dec_bit_names_of(td->name);
	if (!names) {
		char bits[256];
		size_t n = nbits < sizeof(bits) ? nbits : sizeof(bits);
		for (size_t i = 0; i < n; i++)
			bits[i] = (bs->buf[i / 8] >> (7 - i % 8)) & 1 ? '1' : '0';
		v->text(ctx, bits, n);
		return;
	}
	v->open(ctx, false);
	for (size_t i = 0; i < names->count; i++) {
		if (!names->names[i])
			continue;
		v->key(ctx, names->names[i]);
		v->boolean(ctx, i < nbits && ((bs->buf[i / 8] >> (7 - i % 8)) & 1));
	}
	v->close(ctx, false);
}

static void walk_enumerated(asn_TYPE_descriptor_t *td, long value,
			    const struct v2x_visitor *v, void *ctx)
{
	const asn_INTEGER_enum_map_t *e =
		td->specifics ? INTEGER_map_value2enum(td->specifics, value) : NULL;
	if (e)
		v->text(ctx, e->enum_name, e->enum_len);
	else
		v->integer(ctx, value); /* a value added by a later edition */
}

/* Integers, enumerations and booleans, most of the values: a small function the loops
 * over members can have inline. False for the other types. */
static inline bool walk_scalar(asn_TYPE_descriptor_t *td, const void *sptr,
			       const struct v2x_visitor *v, void *ctx)
{
	per_type_decoder_f *dec = td->uper_decoder;
	if (dec == NativeInteger_decode_uper) {
		const asn_INTEGER_specifics_t *spec = td->specifics;
		if (spec && spec->field_unsigned)
			v->integer(ctx, (long long)*(const unsigned long *)sptr);
		else
			v->integer(ctx, *(const long *)sptr);
	} else if (dec == NativeEnumerated_decode_uper) {
		walk_enumerated(td, *(const long *)sptr, v, ctx);
	} else if (dec == BOOLEAN_decode_uper) {
		v->boolean(ctx, *(const BOOLEAN_t *)sptr != 0);
	} else {
		return false;
	}
	return true;
}

/* The other types; false for NULL. */
static bool walk_other(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
		       const struct v2x_visitor *v, void *ctx)
{
	per_type_decoder_f *dec = td->uper_decoder;
	if (dec == SEQUENCE_decode_uper) {
		if (j2735dec_is_owner(j2735dec_regional, td->name))
			owner = td->name;
		if (!walk_open_type(td, sptr, owner, v, ctx))
			walk_sequence(td, sptr, owner, v, ctx);
	} else if (dec == SEQUENCE_OF_decode_uper || dec == SET_OF_decode_uper) {
		walk_sequence_of(td, sptr, owner, v, ctx);
	} else if (dec == CHOICE_decode_uper) {
		if (j2735dec_is_owner(j2735dec_regional, td->name))
			owner = td->name;
		walk_choice(td, sptr, owner, v, ctx);
	} else if (td->print_struct == BIT_STRING_print) {
		walk_bit_string(td, sptr, v, ctx);
	} else if (td->print_struct == OCTET_STRING_print_utf8) {
		const OCTET_STRING_t *os = sptr;
		v->text(ctx, (const char *)os->buf, (size_t)os->size);
	} else if (dec == OCTET_STRING_decode_uper) {
		const OCTET_STRING_t *os = sptr;
		v->octets(ctx, os->buf, (size_t)os->size);
	} else {
		return false;
	}
	return true;
}

/* Every descriptor holds its base type's codec functions by now (j2735dec_types.c). */
static void walk(asn_TYPE_descriptor_t *td, const void *sptr, const char *owner,
		 const struct v2x_visitor *v, void *ctx)
{
	if (!walk_scalar(td, sptr, v, ctx) && !walk_other(td, sptr, owner, v, ctx))
		v->null(ctx); /* NULL: the only other type J2735 uses */
}

void j2735dec_walk_value(asn_TYPE_descriptor_t *td, const void *sptr,
			 const struct v2x_visitor *v, void *ctx)
{
	walk(td, sptr, "", v, ctx);
}
