/* v2xcap report: IEEE 1609.2 per PSID and sender: unsecured vs signed (signer as digest
 * or certificate), and generationTime against the capture time. */
#include <inttypes.h>
#include <string.h>

#include "report.h"

static const struct rpt_requirement req_unsigned = {
	"security.unsigned", "Safety messages signed",
	"IEEE 1609.2 (SignedData); SAE J2945/1 and the SCMS sign every BSM; unsecuredData or "
	"no 1609.2 envelope is reported per PSID and sender"};
static const struct rpt_requirement req_gen_time = {
	"security.generation-time", "generationTime close to the capture time",
	"IEEE 1609.2 HeaderInfo.generationTime (Time64, TAI since 2004); receivers' relevance "
	"check; limit 1 s is this tool's"};

/* 1609.2 Time64: TAI microseconds since 2004-01-01 00:00:00 UTC, 5 leap seconds ahead of
 * UTC since 2017 (2005, 2008, 2012, 2015, 2016) */
#define UNIX_2004_US INT64_C(1072915200000000)
#define TAI_LEAP_US INT64_C(5000000)

static void who(const struct rpt_sec *g, char *buf, size_t len)
{
	if (g->has_mac)
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x psid 0x%" PRIX32, g->mac[0],
			 g->mac[1], g->mac[2], g->mac[3], g->mac[4], g->mac[5], g->psid);
	else
		snprintf(buf, len, "psid 0x%" PRIX32, g->psid);
}

static int mark(struct report *r, const struct rpt_sec *g,
		const struct rpt_requirement *req, enum rpt_severity sev,
		const struct rpt_where *at)
{
	char name[40];
	who(g, name, sizeof(name));
	struct rpt_finding *f = rpt_finding(&r->findings, sev, req, name);
	if (!f)
		return -1;
	rpt_finding_at(f, at);
	return 0;
}

static struct rpt_sec *sec_group(struct report *r, const struct v2x_frame *f)
{
	for (size_t i = 0; i < r->n_sec_groups; i++) {
		struct rpt_sec *g = &r->sec[i];
		if (g->psid == f->wsmp.psid && g->has_mac == f->has_src &&
		    (!f->has_src || memcmp(g->mac, f->src, 6) == 0))
			return g;
	}
	struct rpt_sec *g = rpt_grow(&r->sec, &r->n_sec_groups, &r->cap_sec_groups, sizeof(*g));
	if (g) {
		g->psid = f->wsmp.psid;
		g->has_mac = f->has_src;
		if (f->has_src)
			memcpy(g->mac, f->src, 6);
	}
	return g;
}

int rpt_security_frame(struct report *r, const struct rpt_where *at, const struct v2x_frame *f)
{
	int64_t ts_us = at->ts_us;
	struct rpt_sec *g = sec_group(r, f);
	if (!g)
		return -1;
	if (!f->has_dot2) {
		g->none++;
		return mark(r, g, &req_unsigned, RPT_INFO, at);
	}
	const struct v2x_dot2 *d = &f->dot2;
	if (d->content == V2X_DOT2_UNSECURED) {
		g->unsecured++;
		return mark(r, g, &req_unsigned, RPT_INFO, at);
	}
	else if (d->content == V2X_DOT2_ENCRYPTED)
		g->encrypted++;
	else if (d->signer == V2X_DOT2_SIGNER_DIGEST)
		g->signed_digest++;
	else if (d->signer == V2X_DOT2_SIGNER_CERTIFICATE)
		g->signed_cert++;
	else
		g->signed_other++;
	if (d->has_generation_time) {
		int64_t gen_unix_us = (int64_t)d->generation_time + UNIX_2004_US - TAI_LEAP_US;
		int64_t delta = (ts_us - gen_unix_us) / 1000;
		if (g->gen_n == 0 || delta < g->gen_delta_min_ms)
			g->gen_delta_min_ms = delta;
		if (g->gen_n == 0 || delta > g->gen_delta_max_ms)
			g->gen_delta_max_ms = delta;
		g->gen_n++;
		if (delta > r->max_gen_delta_ms || delta < -r->max_gen_delta_ms)
			return mark(r, g, &req_gen_time, RPT_WARNING, at);
	}
	return 0;
}

int rpt_check_security(struct report *r)
{
	for (size_t i = 0; i < r->n_sec_groups; i++) {
		const struct rpt_sec *g = &r->sec[i];
		char name[40];
		who(g, name, sizeof(name));
		uint64_t plain = g->none + g->unsecured;
		uint64_t total = plain + g->signed_digest + g->signed_cert + g->signed_other +
				 g->encrypted;
		struct rpt_finding *f;
		if (plain) {
			if (!(f = rpt_finding(&r->findings, RPT_INFO, &req_unsigned, name)))
				return -1;
			snprintf(f->text, sizeof(f->text),
				 "%" PRIu64 " of %" PRIu64 " not signed (%" PRIu64
				 " without 1609.2, %" PRIu64 " unsecuredData)",
				 plain, total, g->none, g->unsecured);
		}
		int64_t worst = g->gen_delta_max_ms > -g->gen_delta_min_ms ? g->gen_delta_max_ms
									    : g->gen_delta_min_ms;
		if (g->gen_n && (worst > r->max_gen_delta_ms || worst < -r->max_gen_delta_ms)) {
			if (!(f = rpt_finding(&r->findings, RPT_WARNING, &req_gen_time, name)))
				return -1;
			snprintf(f->text, sizeof(f->text),
				 "capture time - generationTime from %" PRId64 " to %" PRId64
				 " ms (%" PRIu64 " signed messages)",
				 g->gen_delta_min_ms, g->gen_delta_max_ms, g->gen_n);
		}
	}
	return 0;
}
