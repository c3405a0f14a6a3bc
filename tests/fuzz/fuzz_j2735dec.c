/* libFuzzer harness over the asn1c decoder generated from the J2735 schema (lib/j2735dec)
 * and the walk of its result into the JSON writer (lib/json.c), as `v2xcap
 * decode` does. The first octet picks what the rest is:
 *   0  a MessageFrame (UPER), as in a frame
 *   1  a message id (2 octets, big endian) and the message's UPER value: wrapped into a
 *      MessageFrame here, so that every message type of the edition is reached
 *   2  an index into the part II table (1 octet) and the part II content's UPER value
 *   3  an index into the regional extension table (2 octets) and the extension's value
 * The visitor checks the tree it is given (opens and closes paired, a key before each
 * member value) while writing it. Any sanitizer report, leak or broken tree is a finding. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "MessageFrame.h"
#include "j2735dec.h"
#include "j2735dec_walk.h" /* internal: the open-type tables, decode_as, walk_value */
#include "json.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DEPTH 256

struct tree {
	struct json_writer w;
	int depth;
	bool array[MAX_DEPTH];
	bool keyed;             /* key() seen, its value comes next */
};

static struct tree tree;

static void value(struct tree *t)
{
	/* in an object, a value follows its key; in an array or at the top, no key */
	if (t->depth > 0 && !t->array[t->depth - 1] && !t->keyed)
		__builtin_trap();
	if (t->keyed && (t->depth == 0 || t->array[t->depth - 1]))
		__builtin_trap();
	t->keyed = false;
}

static void on_key(void *ctx, const char *name)
{
	struct tree *t = ctx;
	if (!name || !name[0] || t->keyed)
		__builtin_trap();
	t->keyed = true;
	json_key(&t->w, name);
}

static void on_open(void *ctx, bool array)
{
	struct tree *t = ctx;
	value(t);
	if (t->depth == MAX_DEPTH)
		__builtin_trap(); /* deeper than any J2735 type */
	t->array[t->depth++] = array;
	if (array)
		json_begin_array(&t->w);
	else
		json_begin_object(&t->w);
}

static void on_close(void *ctx, bool array)
{
	struct tree *t = ctx;
	if (t->depth == 0 || t->array[t->depth - 1] != array || t->keyed)
		__builtin_trap();
	t->depth--;
	if (array)
		json_end_array(&t->w);
	else
		json_end_object(&t->w);
}

static struct json_writer *scalar(void *ctx)
{
	struct tree *t = ctx;
	value(t);
	return &t->w;
}

static void on_integer(void *ctx, long long v) { json_int(scalar(ctx), v); }
static void on_text(void *ctx, const char *s, size_t len) { json_string_len(scalar(ctx), s, len); }
static void on_octets(void *ctx, const uint8_t *p, size_t len) { json_hex(scalar(ctx), p, len); }
static void on_boolean(void *ctx, bool v) { json_bool(scalar(ctx), v); }
static void on_null(void *ctx) { json_null(scalar(ctx)); }

static const struct v2x_visitor checker = {
	sizeof(struct v2x_visitor), on_key, on_open, on_close, on_integer, on_text, on_octets, on_boolean, on_null, NULL, NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	FILE *out = fopen("/dev/null", "w");
	if (!out)
		__builtin_trap();
	json_init_held(&tree.w, out);
	return 0;
}

static void begin(void)
{
	tree.depth = 0;
	tree.keyed = false;
}

static void end(void)
{
	if (tree.depth != 0 || tree.keyed)
		__builtin_trap();
	json_end_line(&tree.w);
	json_flush(&tree.w);
}

static void message(const uint8_t *buf, size_t len)
{
	struct j2735dec_msg msg;
	enum j2735dec_result r = j2735dec_decode(buf, len, &msg);
	if (r == J2735DEC_OK) {
		if (msg.frame_len > len || !msg.type_name)
			__builtin_trap();
		begin();
		j2735dec_walk(&msg, &checker, &tree);
		end();
	}
	(void)j2735dec_result_str(r);
	(void)j2735dec_id_note(msg.msg_id);
	j2735dec_free(&msg);
}

/* A MessageFrame of that id around value, encoded by asn1c. */
static void wrapped(long id, const uint8_t *value, size_t len)
{
	static uint8_t frame[70000];
	MessageFrame_t mf = {0};
	mf.messageId = id;
	mf.value.buf = (uint8_t *)value;
	mf.value.size = (int)len;
	asn_enc_rval_t rv = uper_encode_to_buffer(&asn_DEF_MessageFrame, &mf, frame, sizeof(frame));
	if (rv.encoded < 0)
		return; /* an id out of range */
	message(frame, ((size_t)rv.encoded + 7) / 8);
}

static size_t rows(const struct j2735dec_open_type *t)
{
	size_t n = 0;
	while (t[n].name)
		n++;
	return n;
}

static void open_type(const struct j2735dec_open_type *t, const uint8_t *value, size_t len)
{
	if (!t->type)
		return; /* a placeholder */
	void *v = j2735dec_decode_as(t->type, value, len, NULL);
	if (!v)
		return;
	begin();
	j2735dec_walk_value(t->type, v, &checker, &tree);
	end();
	ASN_STRUCT_FREE(*t->type, v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	static size_t n_partii, n_regional;
	if (!n_partii) {
		n_partii = rows(j2735dec_partii);
		n_regional = rows(j2735dec_regional);
	}
	switch (data[0] % 4) {
	case 0:
		message(data + 1, size - 1);
		break;
	case 1:
		if (size >= 3)
			wrapped((long)(data[1] << 8 | data[2]), data + 3, size - 3);
		break;
	case 2:
		if (size >= 2 && n_partii)
			open_type(&j2735dec_partii[data[1] % n_partii], data + 2, size - 2);
		break;
	case 3:
		if (size >= 3 && n_regional)
			open_type(&j2735dec_regional[(size_t)(data[1] << 8 | data[2]) % n_regional],
				  data + 3, size - 3);
		break;
	}
	return 0;
}
