/* USDOT RSU specification text records (see rsu.h): one pass over the lines, the values
 * that are numbers read, the payload's hex decoded. */
#include "rsu.h"

#include <string.h>

#include "cursor.h"
#include "hex.h"
#include "psid.h"

static const char *const key_names[V2X_RSU_KEY_COUNT] = {
	[V2X_RSU_VERSION] = "Version",         [V2X_RSU_TYPE] = "Type",
	[V2X_RSU_PSID] = "PSID",               [V2X_RSU_PRIORITY] = "Priority",
	[V2X_RSU_TXMODE] = "TxMode",           [V2X_RSU_TXCHANNEL] = "TxChannel",
	[V2X_RSU_TXINTERVAL] = "TxInterval",   [V2X_RSU_DELIVERY_START] = "DeliveryStart",
	[V2X_RSU_DELIVERY_STOP] = "DeliveryStop", [V2X_RSU_SIGNATURE] = "Signature",
	[V2X_RSU_ENCRYPTION] = "Encryption",   [V2X_RSU_PAYLOAD] = "Payload",
};

const char *v2x_rsu_key_name(enum v2x_rsu_key k)
{
	return (unsigned)k < V2X_RSU_KEY_COUNT ? key_names[k] : "?";
}

bool v2x_rsu_starts(const uint8_t *buf, size_t len)
{
	return len >= 8 && memcmp(buf, "Version=", 8) == 0;
}

/* A number of at most max_digits digits in base 10 or 16 (the whole value) */
static bool number(const uint8_t *p, size_t n, unsigned base, size_t max_digits, uint32_t *out)
{
	if (n == 0 || n > max_digits)
		return false;
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int d = v2x_hex_digit(p[i]);
		if (d < 0 || (unsigned)d >= base)
			return false;
		v = v * base + (uint32_t)d;
	}
	*out = v;
	return true;
}

static int key_of(const uint8_t *p, size_t n)
{
	for (int k = 0; k < V2X_RSU_KEY_COUNT; k++)
		if (strlen(key_names[k]) == n && memcmp(p, key_names[k], n) == 0)
			return k;
	return -1;
}

/* The values that are numbers, and the payload */
static int read_values(const uint8_t *buf, struct v2x_rsu_rec *r, const char **why)
{
	const struct v2x_rsu_span *s = r->field;
	const struct v2x_rsu_span *psid = &s[V2X_RSU_PSID], *pay = &s[V2X_RSU_PAYLOAD];
	if (!psid->present) {
		*why = "RSU record without a PSID line";
		return -1;
	}
	const uint8_t *p = buf + psid->off;
	size_t n = psid->len;
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	uint32_t raw;
	if (!number(p, n, 16, 8, &raw)) {
		*why = "RSU record PSID is not a hex number";
		return -1;
	}
	/* the PSID's p-encoding in hex (0x20 BSM, 0x8002 SPaT/MAP, 0x8003 TIM), read as
	 * octets without leading zeros */
	uint8_t oct[4];
	unsigned k = raw > 0xFFFFFF ? 4 : raw > 0xFFFF ? 3 : raw > 0xFF ? 2 : 1, got;
	for (unsigned i = 0; i < k; i++)
		oct[i] = (uint8_t)(raw >> 8 * (k - 1 - i));
	struct v2x_cursor c;
	v2x_cur_init(&c, oct, k);
	r->psid = v2x_psid_read(&c, &got);
	if (c.err || got != k) {
		*why = "RSU record PSID is not a p-encoded PSID";
		return -1;
	}
	uint32_t v;
	const struct v2x_rsu_span *ch = &s[V2X_RSU_TXCHANNEL], *pri = &s[V2X_RSU_PRIORITY],
				  *iv = &s[V2X_RSU_TXINTERVAL];
	if (ch->present && ch->len) {
		if (!number(buf + ch->off, ch->len, 10, 3, &v) || v == 0 || v > 255) {
			*why = "RSU record TxChannel is not a channel number";
			return -1;
		}
		r->has_channel = true;
		r->channel = (uint8_t)v;
	}
	if (pri->present && pri->len) {
		if (!number(buf + pri->off, pri->len, 10, 3, &v) || v > 255) {
			*why = "RSU record Priority is not a number";
			return -1;
		}
		r->has_priority = true;
		r->priority = (uint8_t)v;
	}
	if (iv->present && iv->len) {
		if (!number(buf + iv->off, iv->len, 10, 9, &r->interval)) {
			*why = "RSU record TxInterval is not a number";
			return -1;
		}
		r->has_interval = true;
	}
	if (pay->len == 0 || pay->len % 2 || pay->len / 2 > V2X_RSU_PAYLOAD_MAX) {
		*why = pay->len == 0 ? "RSU record payload empty"
		       : pay->len % 2 ? "RSU record payload is not whole octets of hex"
				      : "RSU record payload longer than 2048 octets";
		return -1;
	}
	size_t bad;
	if (v2x_hex_decode((const char *)buf + pay->off, pay->len, r->payload, sizeof r->payload,
			   &bad) != (long)(pay->len / 2)) {
		*why = "RSU record payload is not hex";
		return -1;
	}
	r->payload_len = (uint16_t)(pay->len / 2);
	return 0;
}

int v2x_rsu_parse(const uint8_t *buf, size_t len, struct v2x_rsu_rec *r, const char **why)
{
	memset(r, 0, offsetof(struct v2x_rsu_rec, payload));
	r->text = buf;
	if (!v2x_rsu_starts(buf, len)) {
		*why = "not an RSU record (no Version line first)";
		return -1;
	}
	if (len > UINT32_MAX)
		len = UINT32_MAX;
	size_t pos = 0;
	while (pos < len) {
		const uint8_t *line = buf + pos;
		const uint8_t *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t next = pos + n + (nl != NULL);
		if (n && line[n - 1] == '\r')
			n--;
		const uint8_t *eq = memchr(line, '=', n);
		if (!eq) {
			*why = "RSU record line without '='";
			return -1;
		}
		int k = key_of(line, (size_t)(eq - line));
		if (k >= 0) {
			struct v2x_rsu_span *s = &r->field[k];
			if (s->present) {
				*why = "RSU record key given twice";
				return -1;
			}
			s->present = true;
			s->line_off = (uint32_t)pos;
			s->off = (uint32_t)(eq + 1 - buf);
			s->len = (uint32_t)(line + n - (eq + 1));
		}
		pos = next;
		if (k == V2X_RSU_PAYLOAD) {
			r->len = (uint32_t)pos;
			return read_values(buf, r, why);
		}
	}
	*why = "RSU record without a Payload line";
	return -1;
}
