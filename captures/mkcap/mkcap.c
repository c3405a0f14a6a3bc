/* mkcap: command line of the sample-capture builder. Options before a PAYLOAD apply to
 * it and to the payloads after it (--repeat, --msgcnt, --slice only to the next one), so one
 * run can mix message types, senders and envelopes. Output is deterministic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "j2735.h"
#include "mkcap.h"
#include "pcap_write.h"
#include "registry.h"

#define SNAPLEN 65535u

static const char usage[] =
	"usage: mkcap -o OUT [--format pcap|pcapng|rsu]\n"
	"             [--link radiotap|80211|ether|sll|sll2|udp|udp6|c2p|c2p-cv2x|tzsp|pc5|\n"
	"                     pc5-ether|rsu]\n"
	"             [--start EPOCH] [--interval MS] FRAME-OPTIONS... PAYLOAD...\n"
	"frame options (apply to the following payloads):\n"
	"  --llc snap|epd  --wsmp 3|2|raw (raw: PAYLOAD is a whole WSMP packet)\n"
	"  --psid HEX  --psid-raw HEX  --tpid 0-5  --port N  --lpp HEX (TPID 4/5)\n"
	"  --prefix HEX (--link udp, udp6: octets before the payload, as some forwarders)\n"
	"  --ext none|chan=N,rate=N,power=DBM,load=N,ID:HEX  --dot2 none|unsecured|signed\n"
	"  --freq MHZ  --width 5|10|20  --rate N(500kb/s)  --rssi DBM  --fcs|--no-fcs\n"
	"  --bad-fcs|--no-bad-fcs (radiotap flags: FCS check failed)\n"
	"  --src MAC  --wsm-len N (a lying WSM length)  --split|--no-split (concatenated\n"
	"  MessageFrames)  --repeat N  --msgcnt N,N,... (one BSM per value, msgCnt rewritten)\n"
	"  --slice OFF,LEN (only these octets of the next payload)\n"
	"  --c2p rx|tx (--link c2p, c2p-cv2x: a DSRC or C-V2X RX record with --rssi and --rate,\n"
	"  or TX with --ext power)\n"
	"--format rsu: a file of RSU text records (one per payload), no capture\n"
	"PAYLOAD: HEX | @file.hex | @file.bin | @file.uper | @file.xml (jpo-ode <asn1>)\n";

/* Options that apply to the next PAYLOAD only */
struct once {
	unsigned repeat;
	long msgcnt[128];
	size_t n_msgcnt;
	long slice_off, slice_len; /* slice_len -1: the whole payload */
};

static const struct once once_default = {.repeat = 1, .slice_len = -1};

/* parse_*_option: 0 done, -1 error (printed), NOT_MINE when a is not theirs */
enum { NOT_MINE = 1 };

struct run {
	const char *out_path;
	bool pcapng;
	bool rsu_text;          /* --format rsu: the records only */
	enum link link;
	uint64_t start_us;
	uint64_t interval_us;
	unsigned frames;
	struct v2x_buf file;
};

/* Prints "mkcap: SUBJECT: PROBLEM" (or only one of them) and returns -1. */
static int fail(const char *subject, const char *problem)
{
	fprintf(stderr, "mkcap: %s%s%s\n", subject, *subject && *problem ? ": " : "", problem);
	return -1;
}

static int parse_num(const char *s, int base, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, base);
	if (errno || end == s || *end || v < min || v > max)
		return fail(s, "bad number");
	*out = v;
	return 0;
}

static int parse_hexbytes(const char *s, uint8_t *out, size_t max, size_t *n)
{
	struct v2x_buf b = {0};
	char err[200];
	int rc = payload_load(s, &b, err, sizeof err);
	if (rc == 0 && (b.len == 0 || b.len > max))
		rc = fail(s, "bad length of hex value");
	else if (rc < 0)
		fail(err, "");
	if (rc == 0) {
		memcpy(out, b.p, b.len);
		*n = b.len;
	}
	v2x_buf_free(&b);
	return rc;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char tail;
	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &tail) != 6)
		return fail(s, "bad MAC address");
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

static int add_ext(struct frame_opts *o, uint8_t id, const uint8_t *val, size_t n)
{
	if (o->n_ext == MAX_EXT)
		return fail("--ext", "too many extension elements");
	struct v2x_wsmp_element *e = &o->ext[o->n_ext++];
	e->id = id;
	e->len = (uint8_t)n;
	memcpy(e->value, val, n);
	return 0;
}

/* One --ext item: name=value for the known elements, ID:HEX for any other. */
static int parse_ext_item(struct frame_opts *o, const char *item)
{
	static const struct { const char *name; uint8_t id; long min, max; } known[] = {
		{"chan", V2X_WEID_CHANNEL, 0, 255},
		{"rate", V2X_WEID_DATA_RATE, 0, 255},
		{"power", V2X_WEID_TX_POWER, -128, 127},
		{"load", V2X_WEID_CHANNEL_LOAD, 0, 255},
	};
	const char *eq = strchr(item, '=');
	const char *colon = strchr(item, ':');
	if (colon && !eq) {
		long id;
		uint8_t val[V2X_WSMP_ELEMENT_MAX];
		size_t n = 0; /* set by parse_hexbytes; gcc -O2 cannot tell */
		char idtext[8];
		size_t idlen = (size_t)(colon - item);
		if (idlen == 0 || idlen >= sizeof idtext)
			return fail(item, "bad extension element");
		memcpy(idtext, item, idlen);
		idtext[idlen] = 0;
		if (parse_num(idtext, 10, 0, 255, &id) < 0 ||
		    parse_hexbytes(colon + 1, val, sizeof val, &n) < 0)
			return -1;
		return add_ext(o, (uint8_t)id, val, n);
	}
	for (size_t i = 0; eq && i < sizeof known / sizeof known[0]; i++) {
		if (strlen(known[i].name) != (size_t)(eq - item) ||
		    strncmp(item, known[i].name, (size_t)(eq - item)) != 0)
			continue;
		long v;
		if (parse_num(eq + 1, 10, known[i].min, known[i].max, &v) < 0)
			return -1;
		uint8_t octet = (uint8_t)(int8_t)v;
		if (add_ext(o, known[i].id, &octet, 1) < 0)
			return -1;
		o->ext[o->n_ext - 1].dbm = known[i].id == V2X_WEID_TX_POWER;
		return 0;
	}
	return fail(item, "bad extension element");
}

/* Ends the item at the first comma; returns the next item or NULL. */
static char *cut_at_comma(char *s)
{
	char *comma = strchr(s, ',');
	if (!comma)
		return NULL;
	*comma = 0;
	return comma + 1;
}

static int parse_ext(struct frame_opts *o, const char *list)
{
	o->n_ext = 0;
	if (strcmp(list, "none") == 0)
		return 0;
	char copy[256];
	if (strlen(list) >= sizeof copy)
		return fail(list, "extension list too long");
	strcpy(copy, list);
	for (char *item = copy, *next; item; item = next) {
		next = cut_at_comma(item);
		if (parse_ext_item(o, item) < 0)
			return -1;
	}
	return 0;
}

/* Returns the index of s in names[], or -1. */
static int pick(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return fail(s, "unknown value");
}

static void emit_frame(struct run *r, const struct frame_opts *o, const uint8_t *payload,
		       size_t n)
{
	struct frame_ctx f = {
		.ts_us = r->start_us + r->frames * r->interval_us,
		.tsft = 1000000u + r->frames * r->interval_us,
		.seq = (uint16_t)r->frames,
	};
	struct v2x_buf wsm = {0}, body = {0}, frame = {0};
	dot2_wrap(&wsm, o, &f, payload, n);
	if (r->link == LINK_UDP || r->link == LINK_UDP6 || r->link == LINK_RSU ||
	    o->wsmp_version == 0)
		v2x_put(&body, wsm.p, wsm.len);
	else
		wsmp_wrap(&body, o, wsm.p, wsm.len);
	if (r->rsu_text) {
		rsu_record(&r->file, o, body.p, body.len);
	} else {
		link_wrap(&frame, r->link, o, &f, body.p, body.len);
		v2x_pcap_write_record(&r->file, r->pcapng, (int64_t)f.ts_us, frame.p,
				      (uint32_t)frame.len, (uint32_t)frame.len);
	}
	r->file.err |= wsm.err || body.err || frame.err;
	v2x_buf_free(&wsm);
	v2x_buf_free(&body);
	v2x_buf_free(&frame);
	r->frames++;
}

/* One payload (or MessageFrame of a split payload): a frame per --msgcnt value. */
static int emit_piece(struct run *r, const struct frame_opts *o, const struct once *once,
		      const char *arg, uint8_t *p, size_t n)
{
	if (!once->n_msgcnt) {
		emit_frame(r, o, p, n);
		return 0;
	}
	for (size_t m = 0; m < once->n_msgcnt; m++) {
		if (bsm_set_msgcnt(p, n, (unsigned)once->msgcnt[m]) < 0)
			return fail(arg, "--msgcnt needs a BSM MessageFrame");
		emit_frame(r, o, p, n);
	}
	return 0;
}

static int emit_payload(struct run *r, const struct frame_opts *o, const struct once *once,
			bool split, const char *arg, struct v2x_buf *p)
{
	if (once->slice_len >= 0) {
		if ((size_t)once->slice_off + (size_t)once->slice_len > p->len)
			return fail(arg, "--slice goes past the end of the payload");
		memmove(p->p, p->p + once->slice_off, (size_t)once->slice_len);
		p->len = (size_t)once->slice_len;
	}
	for (unsigned k = 0; k < once->repeat; k++) {
		if (!split) {
			if (emit_piece(r, o, once, arg, p->p, p->len) < 0)
				return -1;
			continue;
		}
		for (size_t off = 0, n; off < p->len; off += n) {
			struct v2x_msgframe mf;
			const char *why;
			if (v2x_msgframe_parse(p->p + off, p->len - off, &mf, &why) < 0)
				return fail(arg, "not a sequence of MessageFrames");
			n = mf.frame_len;
			if (emit_piece(r, o, once, arg, p->p + off, n) < 0)
				return -1;
		}
	}
	return 0;
}

static int write_file(const char *path, const struct v2x_buf *b)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return fail(path, strerror(errno));
	size_t w = fwrite(b->p, 1, b->len, f);
	if (fclose(f) != 0 || w != b->len)
		return fail(path, "write error");
	return 0;
}

/* Options of the whole capture; only before the first payload. */
static int parse_capture_option(struct run *r, const char *a, const char *v)
{
	static const char *const formats[] = {"pcap", "pcapng", "rsu"};
	static const char *const links[] = {"radiotap", "80211", "ether", "sll", "sll2", "udp",
					    "c2p", "tzsp", "udp6", "pc5", "pc5-ether", "rsu",
					    "c2p-cv2x"};
	long num = 0; /* set by parse_num before use; gcc -O2 cannot tell */
	int k, rc = 0;
	if (!strcmp(a, "-o")) {
		r->out_path = v;
	} else if (!strcmp(a, "--format")) {
		if ((k = pick(v, formats, 3)) < 0)
			return -1;
		r->pcapng = k == 1;
		r->rsu_text = k == 2;
		if (r->rsu_text)
			r->link = LINK_RSU;
	} else if (!strcmp(a, "--link")) {
		if ((k = pick(v, links, 13)) < 0)
			return -1;
		r->link = (enum link)k;
	} else if (!strcmp(a, "--start")) {
		rc = parse_num(v, 10, 0, 4000000000L, &num);
		r->start_us = (uint64_t)num * 1000000u;
	} else if (!strcmp(a, "--interval")) {
		rc = parse_num(v, 10, 0, 3600000L, &num);
		r->interval_us = (uint64_t)num * 1000u;
	} else {
		return NOT_MINE;
	}
	if (r->frames || r->file.len)
		return fail(a, "must come before the first payload");
	return rc;
}

static int parse_frame_option(struct frame_opts *o, const char *a, const char *v)
{
	static const char *const llcs[] = {"snap", "epd"};
	static const char *const dot2s[] = {"none", "unsecured", "signed"};
	static const char *const c2ps[] = {"rx", "tx"};
	long num = 0;
	int k, rc = 0;
	if (!strcmp(a, "--llc")) {
		if ((k = pick(v, llcs, 2)) < 0)
			return -1;
		o->llc = (enum llc)k;
	} else if (!strcmp(a, "--wsmp")) {
		rc = strcmp(v, "raw") ? parse_num(v, 10, 2, 3, &num) : 0; /* 0: raw */
		o->wsmp_version = (unsigned)num;
	} else if (!strcmp(a, "--psid")) {
		rc = parse_num(v, 16, 0, 0x7FFFFFFFL, &num);
		o->psid = (uint32_t)num;
		o->psid_raw_len = 0;
	} else if (!strcmp(a, "--psid-raw")) {
		rc = parse_hexbytes(v, o->psid_raw, sizeof o->psid_raw, &o->psid_raw_len);
	} else if (!strcmp(a, "--tpid")) {
		rc = parse_num(v, 10, 0, 5, &num);
		o->tpid = (unsigned)num;
	} else if (!strcmp(a, "--lpp")) {
		rc = parse_num(v, 16, 0, 0x7FFFFFFFL, &num);
		o->lpp = (uint32_t)num;
	} else if (!strcmp(a, "--port")) {
		rc = parse_num(v, 10, 0, 65535, &num);
		o->udp_port = (uint16_t)num;
	} else if (!strcmp(a, "--prefix")) {
		rc = parse_hexbytes(v, o->udp_prefix, sizeof o->udp_prefix, &o->udp_prefix_len);
	} else if (!strcmp(a, "--ext")) {
		rc = parse_ext(o, v);
	} else if (!strcmp(a, "--dot2")) {
		if ((k = pick(v, dot2s, 3)) < 0)
			return -1;
		o->dot2 = (enum dot2)k;
	} else if (!strcmp(a, "--c2p")) {
		if ((k = pick(v, c2ps, 2)) < 0)
			return -1;
		o->c2p = (enum c2p_record)k;
	} else if (!strcmp(a, "--freq")) {
		rc = parse_num(v, 10, 1, 65535, &num);
		o->freq = (uint16_t)num;
	} else if (!strcmp(a, "--width")) {
		rc = parse_num(v, 10, 5, 20, &num);
		o->width = (unsigned)num;
	} else if (!strcmp(a, "--rate")) {
		rc = parse_num(v, 10, 1, 255, &num);
		o->rate = (uint8_t)num;
	} else if (!strcmp(a, "--rssi")) {
		rc = parse_num(v, 10, -128, 127, &num);
		o->rssi = (int8_t)num;
	} else if (!strcmp(a, "--src")) {
		rc = parse_mac(v, o->src);
	} else if (!strcmp(a, "--wsm-len")) {
		rc = parse_num(v, 10, -1, 16383, &o->wsm_len);
	} else {
		return NOT_MINE;
	}
	return rc;
}

/* N,N,... into out[0..max); returns the count or -1. */
static long parse_list(const char *v, long *out, size_t max, long lo, long hi)
{
	char copy[1024];
	size_t n = 0;
	if (strlen(v) >= sizeof copy)
		return fail(v, "list too long");
	strcpy(copy, v);
	for (char *t = copy, *next; t; t = next) {
		next = cut_at_comma(t);
		if (n == max)
			return fail(v, "too many values");
		if (parse_num(t, 10, lo, hi, &out[n++]) < 0)
			return -1;
	}
	return (long)n;
}

static int parse_once_option(struct once *once, const char *a, const char *v)
{
	long n, slice[2];
	if (!strcmp(a, "--repeat")) {
		if (parse_num(v, 10, 1, 100000, &n) < 0)
			return -1;
		once->repeat = (unsigned)n;
	} else if (!strcmp(a, "--msgcnt")) {
		n = parse_list(v, once->msgcnt, sizeof once->msgcnt / sizeof once->msgcnt[0], 0,
			       127);
		if (n < 0)
			return -1;
		once->n_msgcnt = (size_t)n;
	} else if (!strcmp(a, "--slice")) {
		if (parse_list(v, slice, 2, 0, 1000000) != 2)
			return fail(v, "--slice needs OFF,LEN");
		once->slice_off = slice[0];
		once->slice_len = slice[1];
	} else {
		return NOT_MINE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = {.link = LINK_RADIOTAP,
			.start_us = 1700000000ull * 1000000u, .interval_us = 100000};
	struct frame_opts o = {.llc = LLC_SNAP, .wsmp_version = 3, .psid = V2X_PSID_BSM,
			       .dot2 = DOT2_NONE, .freq = 5860, .width = 10, .rate = 12,
			       .rssi = -60, .src = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01},
			       .wsm_len = -1, .udp_port = 47347};
	struct once once = once_default;
	bool split = false;
	int rc = 0;

	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--fcs") || !strcmp(a, "--no-fcs")) {
			o.fcs = !strcmp(a, "--fcs");
		} else if (!strcmp(a, "--bad-fcs") || !strcmp(a, "--no-bad-fcs")) {
			o.bad_fcs = !strcmp(a, "--bad-fcs");
		} else if (!strcmp(a, "--split") || !strcmp(a, "--no-split")) {
			split = !strcmp(a, "--split");
		} else if (a[0] == '-') {
			const char *v = argv[++i];
			if (!v)
				rc = fail(a, "needs a value");
			else if ((rc = parse_capture_option(&r, a, v)) == NOT_MINE &&
				 (rc = parse_frame_option(&o, a, v)) == NOT_MINE &&
				 (rc = parse_once_option(&once, a, v)) == NOT_MINE)
				rc = fail(a, "unknown option");
		} else if (!r.out_path) {
			rc = fail("-o OUT", "must come before the first payload");
		} else {
			struct v2x_buf p = {0};
			char err[256];
			if (!r.file.len && !r.rsu_text)
				v2x_pcap_write_header(&r.file, &(struct v2x_pcap_conf){
					.pcapng = r.pcapng, .linktype = link_dlt(r.link),
					.snaplen = SNAPLEN});
			if (payload_load(a, &p, err, sizeof err) < 0)
				rc = fail(err, "");
			else
				rc = emit_payload(&r, &o, &once, split, a, &p);
			v2x_buf_free(&p);
			once = once_default;
		}
	}
	if (rc == 0 && !r.frames) {
		fputs(usage, stderr);
		return 2;
	}
	if (rc == 0 && r.file.err)
		rc = fail("", "out of memory");
	if (rc == 0)
		rc = write_file(r.out_path, &r.file);
	v2x_buf_free(&r.file);
	return rc == 0 ? 0 : 1;
}
