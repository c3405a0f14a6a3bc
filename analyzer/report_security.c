/* v2xcap report: IEEE 1609.2 per PSID and sender: unsecured vs signed (signer as digest
 * or certificate), the certificate's PSID and SSP against the WSMP PSID, and
 * generationTime against the capture time. */
#include <inttypes.h>
#include <string.h>

#include "bsm.h"
#include "report.h"

static const struct rpt_requirement req_unsigned = {
	"security.unsigned", "Safety messages signed",
	"IEEE 1609.2 (SignedData); SAE J2945/1 and the SCMS sign every BSM; unsecuredData or "
	"no 1609.2 envelope is reported per PSID and sender"};
static const struct rpt_requirement req_gen_time = {
	"security.generation-time", "generationTime close to the capture time",
	"IEEE 1609.2 HeaderInfo.generationTime (Time64, TAI since 2004); receivers' relevance "
	"check; limit 1 s is this tool's"};

static const struct rpt_requirement req_cert_psid = {
	"security.cert-psid", "The signer's certificate permits the WSMP PSID",
	"IEEE 1609.2 ToBeSignedCertificate.appPermissions (SequenceOfPsidSsp): the PSIDs "
	"the certificate may sign for; checked where the frame carries the certificate"};
static const struct rpt_requirement req_cert_ssp = {
	"security.cert-ssp", "The SSP the signer's certificate grants with the WSMP PSID",
	"IEEE 1609.2 PsidSsp.ssp (ServiceSpecificPermissions: opaque or bitmapSsp), shown per "
	"PSID and sender. What an SSP permits is defined per PSID by its application: for the "
	"J2735 PSIDs (BSM 0x20, SPaT/MAP 0x82, TIM 0x83, ...) in SAE J2945/5 and the J2945/x "
	"documents, which are not public, so the SSP's meaning for these PSIDs is not "
	"publicly defined and the message content was not checked against it (ETSI's public "
	"CAM/DENM SSPs, EN 302 637-2/-3, are for ITS-AIDs 36/37, not decoded here)"};
#define PRIVACY_SOURCE                                                                  \
	"The TemporaryID and the 1609.2 pseudonym certificate (the signer's HashedId8) "    \
	"change together, or the one links the vehicle across a change of the other: "     \
	"USDOT CVRIA (the identifier is changed to prevent tracking; "                     \
	"local.iteris.com/cvria/html/dataflows3/df6209.html), ETSI TR 103 415 (pseudonym " \
	"change management); SAE J2945/1's clause is not available here"
static const struct rpt_requirement req_id_alone = {
	"privacy.temporary-id", "TemporaryID changes with the signer", PRIVACY_SOURCE};
static const struct rpt_requirement req_signer_alone = {
	"privacy.signer", "Signer (certificate) changes with the TemporaryID", PRIVACY_SOURCE};

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

/* The entry of key in links (temp_id or signer), NULL when new; from the newest. */
static struct rpt_link *link_of(struct rpt_link *l, size_t n, uint32_t id, const uint8_t *signer)
{
	for (size_t i = n; i-- > 0;)
		if (signer ? memcmp(l[i].signer, signer, 8) == 0 : l[i].temp_id == id)
			return &l[i];
	return NULL;
}

static int privacy_finding(struct report *r, const struct rpt_requirement *req, uint32_t id,
			   const struct rpt_where *at, const char *text)
{
	char name[12];
	snprintf(name, sizeof(name), "%08x", id);
	return rpt_note(&r->findings, RPT_WARNING, req, name, at, text);
}

/* A signed BSM: its TemporaryID against its signer, both ways. */
static int privacy_frame(struct report *r, const struct rpt_where *at, const struct v2x_frame *f)
{
	struct v2x_bsm_head h;
	uint8_t signer[8];
	if (f->layer != V2X_LAYER_J2735 || f->mf.msg_id != V2X_BSM_MSG_ID || !f->mf.value ||
	    v2x_bsm_head_read(f->mf.value, f->mf.value_len, &h) < 0 ||
	    !v2x_dot2_signer_id(&f->dot2, signer))
		return 0;
	struct rpt_link *by_id = link_of(r->by_id, r->n_by_id, h.id, NULL);
	struct rpt_link *by_signer = link_of(r->by_signer, r->n_by_signer, 0, signer);
	char text[160];
	if (by_signer && by_signer->temp_id != h.id) {
		snprintf(text, sizeof(text),
			 "TemporaryID %08x -> %08x, signer %02x%02x%02x%02x%02x%02x%02x%02x kept",
			 by_signer->temp_id, h.id, signer[0], signer[1], signer[2], signer[3],
			 signer[4], signer[5], signer[6], signer[7]);
		if (privacy_finding(r, &req_id_alone, h.id, at, text) < 0)
			return -1;
	}
	if (by_id && memcmp(by_id->signer, signer, 8) != 0) {
		const uint8_t *o = by_id->signer;
		snprintf(text, sizeof(text),
			 "signer %02x%02x%02x%02x%02x%02x%02x%02x -> "
			 "%02x%02x%02x%02x%02x%02x%02x%02x, TemporaryID kept",
			 o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], signer[0], signer[1],
			 signer[2], signer[3], signer[4], signer[5], signer[6], signer[7]);
		if (privacy_finding(r, &req_signer_alone, h.id, at, text) < 0)
			return -1;
	}
	if (!by_id && !(by_id = rpt_grow(&r->by_id, &r->n_by_id, &r->cap_by_id, sizeof(*by_id))))
		return -1;
	if (!by_signer && !(by_signer = rpt_grow(&r->by_signer, &r->n_by_signer,
						 &r->cap_by_signer, sizeof(*by_signer))))
		return -1;
	*by_id = (struct rpt_link){.temp_id = h.id, .at = *at};
	memcpy(by_id->signer, signer, 8);
	*by_signer = *by_id;
	return 0;
}

/* The certificate in the frame: does it permit the PSID the WSM carries? */
static int cert_psid_frame(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
			   const struct v2x_frame *f)
{
	const struct v2x_dot2 *d = &f->dot2;
	if (!f->wsmp.has_psid || d->signer != V2X_DOT2_SIGNER_CERTIFICATE ||
	    v2x_dot2_cert_permits(d, f->wsmp.psid))
		return 0;
	char name[40];
	who(g, name, sizeof(name));
	struct rpt_finding *fi = rpt_finding(&r->findings, RPT_ERROR, &req_cert_psid, name);
	if (!fi)
		return -1;
	if (!fi->count) {
		int n = snprintf(fi->text, sizeof(fi->text), "appPermissions");
		for (unsigned i = 0; i < d->n_app_psids && n > 0 && (size_t)n < sizeof(fi->text); i++)
			n += snprintf(fi->text + n, sizeof(fi->text) - (size_t)n, " 0x%" PRIX32,
				      d->app_psids[i]);
		if (n > 0 && (size_t)n < sizeof(fi->text))
			snprintf(fi->text + n, sizeof(fi->text) - (size_t)n,
				 " lack the WSMP PSID 0x%" PRIX32, f->wsmp.psid);
	}
	rpt_finding_at(fi, at);
	return 0;
}

/* An SSP's octets in hex ("..." past the RPT_SSP_MAX kept) */
const char *rpt_ssp_hex(const uint8_t *ssp, size_t len, char *buf, size_t size)
{
	size_t n = 0, kept = len < RPT_SSP_MAX ? len : RPT_SSP_MAX;
	buf[0] = 0;
	for (size_t i = 0; i < kept && n + 3 <= size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", ssp[i]);
	if (kept < len && n + 4 <= size)
		snprintf(buf + n, size - n, "...");
	return buf;
}

/* A bitmapSsp's bits, most significant first, octets apart */
const char *rpt_ssp_bits(const uint8_t *ssp, size_t len, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < len && i < RPT_SSP_MAX && n + 10 <= size; i++) {
		if (i)
			buf[n++] = ' ';
		for (int b = 7; b >= 0; b--)
			buf[n++] = (char)('0' + ((ssp[i] >> b) & 1));
		buf[n] = 0;
	}
	return buf;
}

/* The SSP the frame's certificate grants with the WSMP PSID: kept per group (the first
 * one; the frames granting another counted), a finding when there is one, as its
 * meaning is not publicly defined for the PSIDs this tool decodes. */
static int cert_ssp_frame(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
			  const struct v2x_frame *f)
{
	const struct v2x_dot2_ssp *s;
	if (!f->wsmp.has_psid || f->dot2.signer != V2X_DOT2_SIGNER_CERTIFICATE ||
	    !(s = v2x_dot2_cert_ssp(&f->dot2, f->wsmp.psid)))
		return 0;
	size_t kept = s->len < RPT_SSP_MAX ? s->len : RPT_SSP_MAX;
	if (!g->has_ssp) {
		g->has_ssp = true;
		g->ssp_kind = s->kind;
		g->ssp_len = s->len;
		if (kept)
			memcpy(g->ssp, s->octets, kept);
	} else if (g->ssp_kind != s->kind || g->ssp_len != s->len ||
		   (kept && memcmp(g->ssp, s->octets, kept) != 0)) {
		g->ssp_other++;
	}
	if (s->kind == V2X_DOT2_SSP_NONE)
		return 0;
	char name[40], hex[2 * RPT_SSP_MAX + 4], text[sizeof(((struct rpt_finding *)0)->text)];
	who(g, name, sizeof(name));
	if (s->kind == V2X_DOT2_SSP_OTHER)
		snprintf(text, sizeof(text), "certificate grants an SSP alternative after "
			 "bitmapSsp (not read) with PSID 0x%" PRIX32 "; not checked", f->wsmp.psid);
	else
		snprintf(text, sizeof(text), "certificate grants %s SSP %s (%u octets) with PSID "
			 "0x%" PRIX32 "; its meaning is not publicly defined: not checked",
			 v2x_dot2_ssp_kind_name(s->kind),
			 rpt_ssp_hex(s->octets, s->len, hex, sizeof(hex)), s->len, f->wsmp.psid);
	return rpt_note(&r->findings, RPT_INFO, &req_cert_ssp, name, at, text);
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
	if (d->content == V2X_DOT2_SIGNED) {
		char name[40];
		who(g, name, sizeof(name));
		if (privacy_frame(r, at, f) < 0 || cert_psid_frame(r, g, at, f) < 0 ||
		    cert_ssp_frame(r, g, at, f) < 0 ||
		    (!r->no_verify && rpt_verify_frame(r, g, at, f, name) < 0))
			return -1;
	}
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
		if (g->sig_failed) { /* found when its frames came: never new here */
			if (!(f = rpt_finding(&r->findings, RPT_ERROR, &rpt_req_signature, name)))
				return -1;
			if (!f->text[0])
				snprintf(f->text, sizeof(f->text),
					 "%" PRIu64 " of %" PRIu64 " signatures checked do not "
					 "verify with the certificate's key",
					 g->sig_failed, g->sig_failed + g->sig_verified);
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
