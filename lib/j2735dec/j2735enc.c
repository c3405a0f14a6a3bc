/* j2735enc with a schema: the walk of j2735dec_walk.c run backwards. Which base type a
 * descriptor is, is told by its codec functions as there; each JSON value is checked
 * against the type's PER-visible constraints here, so that an error names the path and
 * the rule instead of asn1c's bare failure. Built with j2735dec_mem.h forced in, as the
 * generated code is (CMakeLists.txt): what is allocated here, ASN_STRUCT_FREE frees. */
#include "j2735enc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "BIT_STRING.h"
#include "BOOLEAN.h"
#include "MessageFrame.h"
#include "NativeEnumerated.h"
#include "NativeInteger.h"
#include "OCTET_STRING.h"
#include "asn_SET_OF.h"
#include "constr_CHOICE.h"
#include "constr_SEQUENCE.h"
#include "constr_SEQUENCE_OF.h"
#include "constr_SET_OF.h"
#include "hex.h"
#include "j2735dec_walk.h"

/* The path of the value being filled (".value.coreData.speed") and the first error. */
struct enc {
	char path[512];
	size_t path_len;
	char *err;
	size_t errlen;
	bool failed, nomem;
};

static bool invalid(struct enc *e, const char *fmt, ...)
{
	if (e->failed)
		return false;
	e->failed = true;
	int n = snprintf(e->err, e->errlen, "%s: ", e->path_len ? e->path : ".");
	if (n >= 0 && (size_t)n < e->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->err + n, e->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool nomem(struct enc *e)
{
	e->nomem = true;
	return invalid(e, "out of memory");
}

static size_t push(struct enc *e, const char *fmt, ...)
{
	size_t at = e->path_len;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(e->path + at, sizeof(e->path) - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->path_len = at + (size_t)n < sizeof(e->path) ? at + (size_t)n : sizeof(e->path) - 1;
	return at;
}

static void pop(struct enc *e, size_t at)
{
	e->path_len = at;
	e->path[at] = '\0';
}

static bool fill(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc, const char *owner,
		 const struct json_value *j, void *sptr, struct enc *e);

/* Octets of the C structure of a value of td, for the members and list items stored
 * behind pointers. */
static size_t struct_size(asn_TYPE_descriptor_t *td)
{
	per_type_decoder_f *dec = td->uper_decoder;
	if (dec == SEQUENCE_decode_uper)
		return (size_t)((const asn_SEQUENCE_specifics_t *)td->specifics)->struct_size;
	if (dec == CHOICE_decode_uper)
		return (size_t)((const asn_CHOICE_specifics_t *)td->specifics)->struct_size;
	if (dec == SEQUENCE_OF_decode_uper || dec == SET_OF_decode_uper)
		return (size_t)((const asn_SET_OF_specifics_t *)td->specifics)->struct_size;
	if (dec == NativeInteger_decode_uper || dec == NativeEnumerated_decode_uper)
		return sizeof(long);
	if (dec == BOOLEAN_decode_uper)
		return sizeof(BOOLEAN_t);
	if (td->print_struct == BIT_STRING_print)
		return sizeof(BIT_STRING_t);
	if (dec == OCTET_STRING_decode_uper)
		return sizeof(OCTET_STRING_t);
	return sizeof(int); /* NULL_t (NULL.h exists only in editions that use NULL) */
}

static bool wrong_type(struct enc *e, const struct json_value *j, const char *want)
{
	return invalid(e, "%s where %s belongs", json_kind_name(j->kind), want);
}

/* The SIZE constraint of a string or list: n within it, or an error. */
static bool size_ok(asn_per_constraints_t *pc, size_t n, const char *unit, struct enc *e)
{
	if (!pc || !(pc->size.flags & APC_CONSTRAINED) || (pc->size.flags & APC_EXTENSIBLE))
		return true;
	if ((long)n >= pc->size.lower_bound && (long)n <= pc->size.upper_bound)
		return true;
	if (pc->size.lower_bound == pc->size.upper_bound)
		return invalid(e, "%zu %s where SIZE(%ld) is required", n, unit,
			       pc->size.lower_bound);
	return invalid(e, "%zu %s where SIZE(%ld..%ld) is required", n, unit,
		       pc->size.lower_bound, pc->size.upper_bound);
}

static bool fill_integer(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc,
			 const struct json_value *j, void *sptr, struct enc *e)
{
	if (j->kind != JSON_NUMBER)
		return wrong_type(e, j, "an integer");
	if (!j->is_integer)
		return invalid(e, "%s is not an integer", j->str);
	long long v = j->integer;
	const asn_per_constraint_t *c = pc ? &pc->value : NULL;
	if (c && !(c->flags & APC_EXTENSIBLE)) {
		if ((c->flags & (APC_CONSTRAINED | APC_SEMI_CONSTRAINED)) && v < c->lower_bound) {
			if (c->flags & APC_CONSTRAINED)
				return invalid(e, "%lld is outside %ld..%ld", v, c->lower_bound,
					       c->upper_bound);
			return invalid(e, "%lld is below %ld", v, c->lower_bound);
		}
		if ((c->flags & APC_CONSTRAINED) && v > c->upper_bound)
			return invalid(e, "%lld is outside %ld..%ld", v, c->lower_bound,
				       c->upper_bound);
	}
	const asn_INTEGER_specifics_t *spec = td->specifics;
	if (spec && spec->field_unsigned) {
		if (v < 0)
			return invalid(e, "%lld is negative", v);
		*(unsigned long *)sptr = (unsigned long)v;
	} else {
		*(long *)sptr = (long)v;
	}
	return true;
}

static bool fill_enumerated(asn_TYPE_descriptor_t *td, const struct json_value *j, void *sptr,
			    struct enc *e)
{
	const asn_INTEGER_specifics_t *spec = td->specifics;
	if (j->kind != JSON_STRING)
		return wrong_type(e, j, "an enumeration name");
	for (int i = 0; spec && i < spec->map_count; i++)
		if (strcmp(spec->value2enum[i].enum_name, j->str) == 0) {
			*(long *)sptr = spec->value2enum[i].nat_value;
			return true;
		}
	return invalid(e, "\"%s\" is not a name of %s", j->str, td->name);
}

static bool set_bits(BIT_STRING_t *bs, size_t nbits, struct enc *e)
{
	bs->size = (int)((nbits + 7) / 8);
	bs->bits_unused = (int)(bs->size * 8 - nbits);
	bs->buf = calloc(bs->size ? (size_t)bs->size : 1, 1);
	return bs->buf ? true : nomem(e);
}

/* Named bits: {"name": bool, ...}, trailing zero bits removed down to the lower bound
 * (X.691 16.2: the canonical encoding of a BIT STRING with a NamedBitList); others a
 * string of '0' and '1'. */
static bool fill_bit_string(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc,
			    const struct json_value *j, BIT_STRING_t *bs, struct enc *e)
{
	const struct j2735dec_bit_names *names = j2735dec_bit_names_of(td->name);
	if (!names) {
		if (j->kind != JSON_STRING)
			return wrong_type(e, j, "a string of bits");
		for (size_t i = 0; i < j->len; i++)
			if (j->str[i] != '0' && j->str[i] != '1')
				return invalid(e, "'%c' in a string of bits", j->str[i]);
		if (!size_ok(pc, j->len, "bits", e) || !set_bits(bs, j->len, e))
			return false;
		for (size_t i = 0; i < j->len; i++)
			if (j->str[i] == '1')
				bs->buf[i / 8] |= (uint8_t)(0x80 >> (i % 8));
		return true;
	}
	if (j->kind != JSON_OBJECT)
		return wrong_type(e, j, "an object of named bits");
	size_t used = 0;
	for (const struct json_value *m = j->first; m; m = m->next) {
		size_t i = 0;
		while (i < names->count && !(names->names[i] && strcmp(names->names[i], m->key) == 0))
			i++;
		if (i == names->count) {
			size_t at = push(e, ".%s", m->key);
			invalid(e, "not a bit of %s", td->name);
			pop(e, at);
			return false;
		}
		if (m->kind != JSON_TRUE && m->kind != JSON_FALSE) {
			size_t at = push(e, ".%s", m->key);
			wrong_type(e, m, "a boolean");
			pop(e, at);
			return false;
		}
		if (m->kind == JSON_TRUE && i + 1 > used)
			used = i + 1;
	}
	size_t nbits = used;
	if (pc && (pc->size.flags & APC_CONSTRAINED) && (long)nbits < pc->size.lower_bound)
		nbits = (size_t)pc->size.lower_bound;
	if (!set_bits(bs, nbits, e))
		return false;
	for (const struct json_value *m = j->first; m; m = m->next) {
		size_t i = 0;
		while (strcmp(names->names[i] ? names->names[i] : "", m->key) != 0)
			i++;
		if (m->kind == JSON_TRUE)
			bs->buf[i / 8] |= (uint8_t)(0x80 >> (i % 8));
	}
	return true;
}

/* A character string's octets: the decoder writes each octet as the character of that
 * code point (lib/json.c: \u00XX for controls and octets above 0x7e), so U+0000..U+00FF
 * are read back as one octet each. The count, or -1 at the first other character (its
 * offset in *at). */
static long string_octets(const char *s, size_t len, uint8_t *out, size_t *at)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80) { /* in UTF-8, U+0080..U+00FF are 0xc2/0xc3 and one more octet */
			if ((c != 0xc2 && c != 0xc3) || i + 1 == len ||
			    ((unsigned char)s[i + 1] & 0xc0) != 0x80) {
				*at = i;
				return -1;
			}
			c = (unsigned char)((c & 0x03) << 6 | ((unsigned char)s[++i] & 0x3f));
		}
		out[n++] = c;
	}
	return (long)n;
}

/* Text for the character string types, hex for OCTET STRING (as the decoder writes
 * them). */
static bool fill_octet_string(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc,
			      const struct json_value *j, OCTET_STRING_t *os, struct enc *e)
{
	bool text = td->print_struct == OCTET_STRING_print_utf8;
	if (j->kind != JSON_STRING)
		return wrong_type(e, j, text ? "a string" : "a string of hex digits");
	if (!text && j->len % 2)
		return invalid(e, "an odd number of hex digits");
	if (!(os->buf = malloc(j->len + 1)))
		return nomem(e);
	size_t at;
	long n = text ? string_octets(j->str, j->len, os->buf, &at)
		      : v2x_hex_decode(j->str, j->len, os->buf, j->len / 2, &at);
	if (n < 0 && text)
		return invalid(e, "the character at octet %zu is not one octet (U+0000..U+00FF: "
			       "the decoder writes each octet of a string as one character)", at);
	if (n < 0)
		return invalid(e, "\"%s\" is not hex", j->str);
	os->size = (int)n;
	os->buf[n] = 0;
	return size_ok(pc, (size_t)n, text ? "characters" : "octets", e);
}

/* Appends octets to a v2x_buf: asn1c's output callback. */
static int collect(const void *buf, size_t size, void *key)
{
	v2x_put(key, buf, size);
	return ((struct v2x_buf *)key)->err ? -1 : 0;
}

/* A complete UPER encoding of sptr as td (X.691 10.1.3: at least one octet), appended. */
static bool uper(asn_TYPE_descriptor_t *td, void *sptr, struct v2x_buf *out, struct enc *e)
{
	size_t start = out->len;
	asn_enc_rval_t rv = uper_encode(td, sptr, collect, out);
	if (out->err)
		return nomem(e);
	if (rv.encoded < 0)
		return invalid(e, "asn1c cannot encode this %s (%s)", td->name,
			       rv.failed_type ? rv.failed_type->name : "?");
	if (out->len == start)
		v2x_put_u8(out, 0);
	return out->err ? nomem(e) : true;
}

/* { id, the type of that id } (BSM part II, regional extensions): the inner value is
 * encoded on its own into the OCTET STRING, or taken as hex where the decoder wrote hex
 * (an id the schema does not define). */
static bool fill_open_type(asn_TYPE_descriptor_t *td, const struct j2735dec_open_type *table,
			   const char *owner, const struct json_value *j, void *sptr,
			   struct enc *e)
{
	if (j->kind != JSON_OBJECT)
		return wrong_type(e, j, "an object");
	const asn_TYPE_member_t *idm = &td->elements[0], *vm = &td->elements[1];
	const struct json_value *jid = NULL, *jv = NULL;
	for (const struct json_value *m = j->first; m; m = m->next) {
		if (strcmp(m->key, idm->name) == 0)
			jid = m;
		else if (strcmp(m->key, vm->name) == 0)
			jv = m;
		else
			return invalid(e, "unknown member \"%s\" (%s has %s and %s)", m->key,
				       td->name, idm->name, vm->name);
	}
	if (!jid || !jv)
		return invalid(e, "missing member \"%s\"", jid ? vm->name : idm->name);
	size_t at = push(e, ".%s", idm->name);
	bool ok = fill(idm->type, idm->per_constraints, owner, jid,
		       (char *)sptr + idm->memb_offset, e);
	pop(e, at);
	if (!ok)
		return false;
	long id = *(long *)((char *)sptr + idm->memb_offset);
	const struct j2735dec_open_type *t = j2735dec_find(table, owner, id);
	OCTET_STRING_t *os = (OCTET_STRING_t *)((char *)sptr + vm->memb_offset);
	at = push(e, ".%s", vm->name);
	if (!t || !t->type) {
		ok = fill_octet_string(&asn_DEF_OCTET_STRING, NULL, jv, os, e);
	} else {
		void *inner = calloc(1, struct_size(t->type));
		struct v2x_buf b = {0};
		ok = inner ? fill(t->type, NULL, owner, jv, inner, e) && uper(t->type, inner, &b, e)
			   : nomem(e);
		if (ok && !(os->buf = malloc(b.len)))
			ok = nomem(e);
		if (ok) {
			memcpy(os->buf, b.p, b.len);
			os->size = (int)b.len;
		}
		v2x_buf_free(&b);
		if (inner)
			ASN_STRUCT_FREE(*t->type, inner);
	}
	pop(e, at);
	return ok;
}

/* A member's storage: in place, or behind a pointer allocated here. */
static void *member_storage(const asn_TYPE_member_t *m, void *sptr, struct enc *e)
{
	void *p = (char *)sptr + m->memb_offset;
	if (!(m->flags & ATF_POINTER))
		return p;
	void *v = calloc(1, struct_size(m->type));
	if (!v)
		nomem(e);
	return *(void **)p = v;
}

static bool fill_member(const asn_TYPE_member_t *m, const char *owner,
			const struct json_value *j, void *sptr, struct enc *e)
{
	void *p = member_storage(m, sptr, e);
	if (!p)
		return false;
	size_t at = push(e, ".%s", m->name);
	bool ok = fill(m->type, m->per_constraints, owner, j, p, e);
	pop(e, at);
	return ok;
}

static bool fill_sequence(asn_TYPE_descriptor_t *td, const char *owner,
			  const struct json_value *j, void *sptr, struct enc *e)
{
	if (j->kind != JSON_OBJECT)
		return wrong_type(e, j, "an object");
	for (const struct json_value *m = j->first; m; m = m->next) {
		int i = 0;
		while (i < td->elements_count && strcmp(td->elements[i].name, m->key) != 0)
			i++;
		if (i == td->elements_count)
			return invalid(e, "unknown member \"%s\" (%s in the %s edition has no "
				       "such member)", m->key, td->name, J2735DEC_EDITION);
		if (json_member(j, m->key) != m)
			return invalid(e, "member \"%s\" given twice", m->key);
		if (!fill_member(&td->elements[i], owner, m, sptr, e))
			return false;
	}
	for (int i = 0; i < td->elements_count; i++)
		if (!td->elements[i].optional && !json_member(j, td->elements[i].name))
			return invalid(e, "missing member \"%s\" (mandatory in %s)",
				       td->elements[i].name, td->name);
	return true;
}

static bool fill_choice(asn_TYPE_descriptor_t *td, const char *owner,
			const struct json_value *j, void *sptr, struct enc *e)
{
	if (j->kind != JSON_OBJECT)
		return wrong_type(e, j, "an object with one member");
	if (j->count != 1)
		return invalid(e, "%zu members where a CHOICE of %s takes one", j->count,
			       td->name);
	const struct json_value *m = j->first;
	int i = 0;
	while (i < td->elements_count && strcmp(td->elements[i].name, m->key) != 0)
		i++;
	if (i == td->elements_count)
		return invalid(e, "\"%s\" is not an alternative of %s in the %s edition", m->key,
			       td->name, J2735DEC_EDITION);
	const asn_CHOICE_specifics_t *spec = td->specifics;
	char *pres = (char *)sptr + spec->pres_offset;
	switch (spec->pres_size) {
	case sizeof(uint8_t): *(uint8_t *)pres = (uint8_t)(i + 1); break;
	case sizeof(uint16_t): *(uint16_t *)pres = (uint16_t)(i + 1); break;
	default: *(int *)pres = i + 1; break;
	}
	return fill_member(&td->elements[i], owner, m, sptr, e);
}

static bool fill_sequence_of(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc,
			     const char *owner, const struct json_value *j, void *sptr,
			     struct enc *e)
{
	if (j->kind != JSON_ARRAY)
		return wrong_type(e, j, "an array");
	if (!size_ok(pc, j->count, "items", e))
		return false;
	const asn_TYPE_member_t *item = &td->elements[0];
	size_t n = 0;
	for (const struct json_value *m = j->first; m; m = m->next, n++) {
		void *v = calloc(1, struct_size(item->type));
		if (!v || asn_set_add(sptr, v) != 0) {
			free(v);
			return nomem(e);
		}
		size_t at = push(e, "[%zu]", n);
		bool ok = fill(item->type, item->per_constraints, owner, m, v, e);
		pop(e, at);
		if (!ok)
			return false;
	}
	return true;
}

static bool fill(asn_TYPE_descriptor_t *td, asn_per_constraints_t *pc, const char *owner,
		 const struct json_value *j, void *sptr, struct enc *e)
{
	per_type_decoder_f *dec = td->uper_decoder;
	if (!pc)
		pc = td->per_constraints;
	if (dec == NativeInteger_decode_uper)
		return fill_integer(td, pc, j, sptr, e);
	if (dec == NativeEnumerated_decode_uper)
		return fill_enumerated(td, j, sptr, e);
	if (dec == BOOLEAN_decode_uper) {
		if (j->kind != JSON_TRUE && j->kind != JSON_FALSE)
			return wrong_type(e, j, "a boolean");
		*(BOOLEAN_t *)sptr = j->kind == JSON_TRUE;
		return true;
	}
	if (dec == SEQUENCE_decode_uper) {
		if (j2735dec_is_owner(j2735dec_regional, td->name))
			owner = td->name;
		if (td->elements_count == 2 && j2735dec_is_owner(j2735dec_partii, td->name))
			return fill_open_type(td, j2735dec_partii, td->name, j, sptr, e);
		if (td->elements_count == 2 && strcmp(td->name, "RegionalExtension") == 0)
			return fill_open_type(td, j2735dec_regional, owner, j, sptr, e);
		return fill_sequence(td, owner, j, sptr, e);
	}
	if (dec == SEQUENCE_OF_decode_uper || dec == SET_OF_decode_uper)
		return fill_sequence_of(td, pc, owner, j, sptr, e);
	if (dec == CHOICE_decode_uper) {
		if (j2735dec_is_owner(j2735dec_regional, td->name))
			owner = td->name;
		return fill_choice(td, owner, j, sptr, e);
	}
	if (td->print_struct == BIT_STRING_print)
		return fill_bit_string(td, pc, j, sptr, e);
	if (dec == OCTET_STRING_decode_uper)
		return fill_octet_string(td, pc, j, sptr, e);
	if (j->kind != JSON_NULL) /* NULL: the only other type J2735 uses */
		return wrong_type(e, j, "null");
	return true;
}

enum j2735enc_result j2735enc_encode(long msg_id, const struct json_value *value,
				     struct v2x_buf *out, char *err, size_t errlen)
{
	struct enc e = {.err = err, .errlen = errlen};
	j2735dec_types_resolve();
	push(&e, ".value");
	const struct j2735dec_open_type *t = j2735dec_find(j2735dec_messages, "", msg_id);
	if (!t || !t->type) {
		invalid(&e, "messageId %ld is %s", msg_id,
			t ? "a placeholder in this edition" : "not in this edition");
		return J2735ENC_INVALID;
	}
	void *msg = calloc(1, struct_size(t->type));
	MessageFrame_t mf = {.messageId = msg_id};
	struct v2x_buf b = {0};
	bool ok = msg ? fill(t->type, NULL, "", value, msg, &e) && uper(t->type, msg, &b, &e)
		      : nomem(&e);
	if (ok) {
		mf.value.buf = b.p;
		mf.value.size = (int)b.len;
		pop(&e, 0);
		ok = uper(&asn_DEF_MessageFrame, &mf, out, &e);
	}
	v2x_buf_free(&b);
	if (msg)
		ASN_STRUCT_FREE(*t->type, msg);
	if (ok)
		return J2735ENC_OK;
	return e.nomem ? J2735ENC_NOMEM : J2735ENC_INVALID;
}
