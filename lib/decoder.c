/* <v2x/j2735.h>: the decoder handle over j2735dec and the line writer (decode_line.c),
 * the same code `v2xcap decode` writes its lines with. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_line.h"
#include "j2735dec.h"
#include "writer.h"

#include <v2x/j2735.h>

struct v2x_decoder {
	struct v2x_buf out;     /* the last JSON, NUL-ended */
	struct v2x_frame frame;
	char err[V2X_ERRBUF_SIZE];
};

struct v2x_decoder *v2x_decoder_open(char *errbuf)
{
	if (!errbuf)
		return NULL;
	struct v2x_decoder *d = calloc(1, sizeof(*d));
	if (!d)
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_decoder_open: out of memory");
	return d;
}

const char *v2x_decoder_edition(const struct v2x_decoder *d)
{
	return d ? j2735dec_edition() : NULL;
}

static void start(struct v2x_decoder *d, struct json_writer *w)
{
	v2x_buf_reset(&d->out);
	d->out.err = false;
	json_init_buf(w, &d->out);
}

/* The writer's text made the decoder's NUL-ended result. */
static int finish(struct v2x_decoder *d, struct json_writer *w, const char **json,
		  size_t *json_len)
{
	if (json_flush(w) < 0 || (v2x_put_u8(&d->out, 0), d->out.err)) {
		snprintf(d->err, sizeof(d->err), "out of memory");
		return V2X_ENOMEM;
	}
	*json = (const char *)d->out.p;
	if (json_len)
		*json_len = d->out.len - 1;
	return V2X_OK;
}

/* The MessageFrame of a bare message into d->frame: V2X_OK, or V2X_EFORMAT with d->err. */
static int parse_message(struct v2x_decoder *d, const uint8_t *octets, size_t len)
{
	int r = v2x_message_parse(octets, len, &d->frame);
	if (d->frame.layer == V2X_LAYER_J2735 && d->frame.has_j2735)
		return V2X_OK;
	/* an error names its layer; octets that are simply no message name none */
	if (r < 0 && d->frame.error)
		snprintf(d->err, sizeof(d->err), "%s: %s", v2x_layer_name(d->frame.error_layer),
			 d->frame.error);
	else
		snprintf(d->err, sizeof(d->err), "no J2735 MessageFrame in these %zu octets", len);
	return V2X_EFORMAT;
}

int v2x_decode_json(struct v2x_decoder *d, const uint8_t *octets, size_t len, unsigned flags,
		    const char **json, size_t *json_len)
{
	if (!d || !octets || !json)
		return V2X_EINVAL;
	*json = NULL;
	d->err[0] = '\0';
	int r = parse_message(d, octets, len);
	if (r < 0)
		return r;
	struct json_writer w;
	const char *why = NULL;
	start(d, &w);
	bool ok = v2x_decode_write_message(&w, &d->frame, flags & V2X_JSON_OCTETS, &why);
	if ((r = finish(d, &w, json, json_len)) < 0)
		return r;
	if (!ok) {
		snprintf(d->err, sizeof(d->err), "J2735: %s", why);
		return V2X_EFORMAT;
	}
	return V2X_OK;
}

/* The line of rec into w, text or visits: 1; 0 when rec holds no J2735 message; V2X_EFORMAT
 * (d->err says why) when the frame or its message is malformed. */
static int record_line(struct v2x_decoder *d, const char *file, const struct v2x_record *rec,
		       unsigned flags, struct json_writer *w)
{
	d->err[0] = '\0';
	const struct v2x_capframe fr = {file ? file : "", rec->number, rec->ts_ns, rec->linktype,
					rec->caplen, rec->origlen, rec->data};
	struct v2x_decoded dec;
	v2x_decode_line(w, &fr, flags & V2X_JSON_OCTETS, &dec);
	if (!dec.has_json)
		return 0;
	if (dec.why) {
		snprintf(d->err, sizeof(d->err), "%s: %s", dec.layer, dec.why);
		return V2X_EFORMAT;
	}
	return 1;
}

int v2x_decode_record_json(struct v2x_decoder *d, const char *file, const struct v2x_record *rec,
			   unsigned flags, const char **json, size_t *json_len)
{
	if (!d || !rec || !json)
		return V2X_EINVAL;
	*json = NULL;
	struct json_writer w;
	start(d, &w);
	int r = record_line(d, file, rec, flags, &w);
	if (r == 0) {
		json_flush(&w);
		return 0;
	}
	int f = finish(d, &w, json, json_len);
	return f < 0 ? f : r;
}

/* What a caller's visitor leaves NULL: the walk calls every callback. */
static void skip_key(void *c, const char *s) { (void)c, (void)s; }
static void skip_nesting(void *c, bool array) { (void)c, (void)array; }
static void skip_integer(void *c, long long v) { (void)c, (void)v; }
static void skip_text(void *c, const char *s, size_t n) { (void)c, (void)s, (void)n; }
static void skip_octets(void *c, const uint8_t *p, size_t n) { (void)c, (void)p, (void)n; }
static void skip_boolean(void *c, bool v) { (void)c, (void)v; }
static void skip_null(void *c) { (void)c; }

static void skip_number(void *c, double v) { (void)c, (void)v; }
static void skip_uinteger(void *c, unsigned long long v) { (void)c, (void)v; }

/* The size of struct v2x_visitor in libv2x 0.1 (up to null): what a caller built with that
 * header gives, and the least a call takes. */
#define VISITOR_SIZE_0 (offsetof(struct v2x_visitor, null) + sizeof(void (*)(void *)))

/* The caller's member, when its size holds it and it is set. */
#define MEMBER(v, name, skip) \
	((v)->size >= offsetof(struct v2x_visitor, name) + sizeof((v)->name) && (v)->name ? \
		 (v)->name : (skip))

/* v with a callback in every member: the caller's, or one that skips. */
static struct v2x_visitor complete(const struct v2x_visitor *v)
{
	return (struct v2x_visitor){
		sizeof(struct v2x_visitor),
		MEMBER(v, key, skip_key),
		MEMBER(v, open, skip_nesting),
		MEMBER(v, close, skip_nesting),
		MEMBER(v, integer, skip_integer),
		MEMBER(v, text, skip_text),
		MEMBER(v, octets, skip_octets),
		MEMBER(v, boolean, skip_boolean),
		MEMBER(v, null, skip_null),
		MEMBER(v, number, skip_number),
		MEMBER(v, uinteger, skip_uinteger),
	};
}

int v2x_decode_record_walk(struct v2x_decoder *d, const char *file,
			   const struct v2x_record *rec, unsigned flags,
			   const struct v2x_visitor *v, void *ctx)
{
	if (!d || !rec || !v || v->size < VISITOR_SIZE_0)
		return V2X_EINVAL;
	const struct v2x_visitor all = complete(v);
	struct json_writer w;
	json_init_visit(&w, &all, ctx);
	return record_line(d, file, rec, flags, &w);
}

int v2x_decode_walk(struct v2x_decoder *d, const uint8_t *octets, size_t len,
		    const struct v2x_visitor *v, void *ctx)
{
	if (!d || !octets || !v || v->size < VISITOR_SIZE_0)
		return V2X_EINVAL;
	d->err[0] = '\0';
	int r = parse_message(d, octets, len);
	if (r < 0)
		return r;
	struct j2735dec_msg msg;
	enum j2735dec_result res = j2735dec_decode(d->frame.j2735, d->frame.j2735_len, &msg);
	if (res == J2735DEC_OK) {
		const struct v2x_visitor all = complete(v);
		j2735dec_walk(&msg, &all, ctx);
		r = V2X_OK;
	} else {
		snprintf(d->err, sizeof(d->err), "J2735: %s", j2735dec_result_str(res));
		r = res == J2735DEC_MALFORMED ? V2X_EFORMAT : V2X_ENOTSUP;
	}
	j2735dec_free(&msg);
	return r;
}

const char *v2x_decoder_geterr(const struct v2x_decoder *d)
{
	return d ? d->err : "v2x_decoder_geterr: no decoder given";
}

void v2x_decoder_close(struct v2x_decoder *d)
{
	if (!d)
		return;
	v2x_buf_free(&d->out);
	free(d);
}
