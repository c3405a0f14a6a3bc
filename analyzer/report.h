/* v2xcap report: what the capture's messages say (read once from the asn1c decode, in
 * report_fields.c), the checks run over them, and the findings the outputs show. */
#ifndef V2XCAP_REPORT_H
#define V2XCAP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frame.h"
#include "j2735_de.h"
#include "priority.h"
#include "stats.h"

/* Where a message was heard: file index (command-line order) and 1-based frame number */
struct rpt_where {
	uint32_t file;
	uint64_t frame;
	int64_t ts_us;
};

/* ---- report_fields.c: the decoded fields the checks use ---- */

struct rpt_bsm {
	uint8_t msg_cnt;
	uint32_t id;
	uint16_t sec_mark;
	int32_t lat, lon, elev;   /* 1/10 micro degree, 0.1 m */
	uint16_t semi_major, semi_minor; /* 0.05 m, 255 unavailable */
	bool brakes_unavailable;  /* BrakeAppliedStatus' "unavailable" bit */
	uint16_t speed, heading;
	uint16_t width, length;   /* cm */
	bool has_path_history, has_path_prediction;
	unsigned ph_points;
	double ph_distance_m;     /* from the current position along the crumbs */
	/* the crumbs as sent: OffsetLL-B18 (1/10 micro degree, see rpt_ph_point), timeOffset
	 * (10 ms back from secMark; 65535 unavailable) */
	struct {
		int32_t dlat, dlon;
		uint16_t time_offset;
	} ph[V2X_DE_PATH_HISTORY_MAX_POINTS];
};

/* Path history point i of b (1/10 micro degree). The offset is the current position minus
 * the point's: so the open J2945/1 implementation cited in report_bsm.c computes it
 * (anchor - target), and so the WYDOT OBUs' and the IEEE 1609 examples' BSMs carry it
 * (their points then lie on the sender's own earlier positions, behind its heading). */
static inline void rpt_ph_point(const struct rpt_bsm *b, unsigned i, int32_t *lat,
				int32_t *lon)
{
	*lat = b->lat - b->ph[i].dlat;
	*lon = b->lon - b->ph[i].dlon;
}

#define RPT_MAX_NODES 64
#define RPT_MAX_CONNECTS 8

struct rpt_lane {
	long id;
	unsigned n_nodes;
	double lat[RPT_MAX_NODES], lon[RPT_MAX_NODES]; /* degrees */
	unsigned n_connects;
	long connecting_lane[RPT_MAX_CONNECTS];
	long signal_group[RPT_MAX_CONNECTS];   /* -1 when none */
	bool remote[RPT_MAX_CONNECTS];         /* connects to another intersection */
};

struct rpt_intersection {
	long id;
	long revision;
	double ref_lat, ref_lon;
	bool has_ref;
	unsigned n_lanes;
	struct rpt_lane *lanes;
};

struct rpt_map {
	unsigned n;
	struct rpt_intersection *x;
};

#define RPT_MAX_GROUPS 64
#define RPT_EVENT_NAME 28 /* the longest MovementPhaseState name and its NUL */
struct rpt_spat_state {
	long id;                  /* intersection */
	long moy, timestamp_ms;   /* MinuteOfTheYear, DSecond; -1 when absent */
	unsigned n_groups;
	long group[RPT_MAX_GROUPS];
	/* the current MovementEvent's TimeChangeDetails, TimeMark (1/10 s in the hour); -1
	 * when absent */
	long min_end[RPT_MAX_GROUPS], max_end[RPT_MAX_GROUPS];
	/* the current MovementEvent's eventState (MovementPhaseState name), "" when absent */
	char event[RPT_MAX_GROUPS][RPT_EVENT_NAME];
};

struct rpt_spat {
	unsigned n;
	struct rpt_spat_state *x;
};

/* Decoded fields of the J2735 message a frame holds (p, len: the MessageFrame). Each
 * returns 0, or -1 when the message does not decode (or no decoder was built). */
int rpt_read_bsm(const uint8_t *p, size_t len, struct rpt_bsm *b);
int rpt_read_map(const uint8_t *p, size_t len, struct rpt_map *m);
void rpt_map_free(struct rpt_map *m);
int rpt_read_spat(const uint8_t *p, size_t len, struct rpt_spat *s);
void rpt_spat_free(struct rpt_spat *s);

#define RPT_MAX_TIM_FRAMES 8
struct rpt_tim {
	unsigned n;               /* TravelerDataFrames read (the first RPT_MAX_TIM_FRAMES) */
	struct {
		long start_year;      /* DYear, -1 when absent */
		long start_time;      /* MinuteOfTheYear */
		long duration_min;    /* MinutesDuration */
	} f[RPT_MAX_TIM_FRAMES];
};
int rpt_read_tim(const uint8_t *p, size_t len, struct rpt_tim *t);
/* Metres between two points (degrees), flat-earth over the short distances of a capture */
double rpt_distance_m(double lat1, double lon1, double lat2, double lon2);

/* ---- report_findings.c ---- */

enum rpt_severity { RPT_PRIORITY, RPT_ERROR, RPT_WARNING, RPT_INFO };

/* One requirement a check applies, with where it comes from. */
struct rpt_requirement {
	const char *id;           /* e.g. "bsm.msgcnt" */
	const char *title;
	const char *source;       /* clause or public source */
};

#define RPT_MAX_FRAMES 20
struct rpt_finding {
	enum rpt_severity severity;
	const struct rpt_requirement *req;
	char sender[40];          /* TemporaryID, MAC and PSID, intersection, or "" */
	char text[200];
	uint64_t count;           /* occurrences */
	unsigned n_where;         /* the first RPT_MAX_FRAMES occurrences */
	struct rpt_where where[RPT_MAX_FRAMES];
	bool has_pos;
	double lat, lon;
};

struct rpt_findings {
	size_t n, cap;
	struct rpt_finding *f;
};

/* The finding of (req, sender), created with severity and text when new; NULL on OOM. */
struct rpt_finding *rpt_finding(struct rpt_findings *fs, enum rpt_severity sev,
				const struct rpt_requirement *req, const char *sender);
void rpt_finding_at(struct rpt_finding *f, const struct rpt_where *w);
/* One occurrence at w of the finding of (req, sender), the first one's text kept; 0, or -1
 * on OOM. */
int rpt_note(struct rpt_findings *fs, enum rpt_severity sev, const struct rpt_requirement *req,
	     const char *sender, const struct rpt_where *w, const char *text);
/* Priority first, then errors, warnings, info; stable within a severity. */
void rpt_findings_sort(struct rpt_findings *fs);
void rpt_findings_free(struct rpt_findings *fs);
const char *rpt_severity_name(enum rpt_severity s);

/* ---- the capture as the report keeps it ---- */

struct rpt_bsm_sample {
	struct rpt_where at;
	uint8_t msg_cnt;
	int32_t age_raw_ms;       /* capture time minus secMark (mod 1 min), -1e9: none */
	int32_t lat, lon;
	uint16_t missing;         /* RPT_MISSING_* bits: what this BSM lacks */
	bool has_rssi;
	int8_t rssi_dbm;
};

enum {
	RPT_MISSING_PH = 1, RPT_MISSING_PP = 2, RPT_MISSING_ACC = 4, RPT_MISSING_ELEV = 8,
	RPT_MISSING_HEADING = 16, RPT_MISSING_SPEED = 32, RPT_MISSING_SIZE = 64,
	RPT_MISSING_BRAKES = 128, RPT_MISSING_ACC_PLAUSIBLE = 256, /* lacks: a plausible one */
	RPT_MISSING_N = 9
};

/* Coverage: BSMs received and expected (from msgCnt) in one distance bin, their RSSI */
struct rpt_cov_bin {
	uint64_t received, expected;
	int64_t rssi_sum;
	uint64_t rssi_n;
};

struct rpt_sender {
	uint32_t id;
	size_t n, cap;
	struct rpt_bsm_sample *s;
	/* after rpt_check_bsm: */
	uint64_t gaps, lost, repeats, wraps, stale;
	double rate_hz;           /* (received + lost) / span: the sender's transmit rate */
	unsigned ph_points_max;
	double ph_distance_max;
	/* path history checks as the BSMs come (report_bsm.c): the distance the heard
	 * positions cover (counted from the last position counted), the newest path history
	 * point whose chord was checked (ms on the sender's clock from its first BSM) */
	double heard_m;
	int32_t heard_lat, heard_lon;
	bool has_heard, has_ph_checked;
	double ph_checked_ms;
	struct rpt_cov_bin *cov;  /* after rpt_coverage: r->cov_n bins, NULL without --rx-pos */
};

#define RPT_SSP_MAX 32 /* a bitmapSsp's 31 octets, and as much of an opaque one */
struct rpt_sec {
	uint32_t psid;
	uint8_t mac[6];
	bool has_mac;
	uint64_t none, unsecured, signed_digest, signed_cert, signed_other, encrypted;
	int64_t gen_delta_min_ms, gen_delta_max_ms; /* capture minus generationTime */
	uint64_t gen_n;
	uint64_t sig_verified, sig_failed, sig_unverified; /* report_verify.c */
	/* The SSP the signer certificates grant with the WSMP PSID (report_security.c): the
	 * first one heard (kind: enum v2x_dot2_ssp_kind; ssp_len octets, the first
	 * RPT_SSP_MAX kept), and how many frames' certificates granted another */
	bool has_ssp;
	uint8_t ssp_kind;
	uint16_t ssp_len;
	uint8_t ssp[RPT_SSP_MAX];
	uint64_t ssp_other;
};

/* A signer certificate heard in the capture: its HashedId8, the hash of its canonical
 * encoding, and its verification key (an OpenSSL EVP_PKEY; NULL when not a point) */
#define RPT_CERT_CACHE 64
struct rpt_cert_key {
	uint8_t id[8];
	uint8_t cert_hash[32];
	void *key;
};

/* A TemporaryID and the signer (HashedId8) of its BSMs, as last heard together */
struct rpt_link {
	uint32_t temp_id;
	uint8_t signer[8];
	struct rpt_where at;
};

struct rpt_map_seen {
	struct rpt_where at;
	struct rpt_intersection x; /* owns lanes */
};

struct rpt_spat_seen {
	struct rpt_where at;
	long id;
	unsigned n_groups;
	long group[RPT_MAX_GROUPS];
};

/* The last phase heard of one signal group (report_mapspat.c) */
struct rpt_phase_seen {
	long id, group;
	char event[RPT_EVENT_NAME];
	struct rpt_where at;
};

#define RPT_MIX_MAX_TYPES 8
#define RPT_MIX_MAX_BINS 2048 /* the mix plot's points at most */
#define RPT_MAP_HASHES 32
struct report {
	char *const *files;
	size_t n_files;
	struct v2x_tally stats;   /* counts per type/PSID/sender (stats.c) */
	int64_t first_us, last_us;
	uint64_t frames, j2735, undecodable;
	/* message counts by type in bins of mix_bin_us from the first frame (one second,
	 * doubled as often as the capture's span needs to stay within RPT_MIX_MAX_BINS:
	 * a log of several years is a few thousand bins, not a row per second) */
	int64_t mix_origin_us, mix_bin_us;
	size_t n_bins, cap_bins;
	uint32_t (*mix)[RPT_MIX_MAX_TYPES + 1]; /* last column: other types */
	uint16_t mix_types[RPT_MIX_MAX_TYPES];
	unsigned n_mix_types;
	size_t n_senders, cap_senders;
	struct rpt_sender *senders;
	size_t n_sec_groups, cap_sec_groups;
	struct rpt_sec *sec;
	size_t n_maps, cap_maps;
	struct rpt_map_seen *maps;
	/* the MAP messages decoded last, by a hash of their octets: a MAP repeats unchanged
	 * every second or so, and its decode is the report's dearest */
	uint64_t map_hash[RPT_MAP_HASHES];
	unsigned n_map_hash;
	/* report_security.c: the last signer of each TemporaryID, the last TemporaryID of
	 * each signer */
	size_t n_by_id, cap_by_id, n_by_signer, cap_by_signer;
	struct rpt_link *by_id, *by_signer;
	size_t n_spats, cap_spats;
	struct rpt_spat_seen *spats;
	size_t n_phases, cap_phases;
	struct rpt_phase_seen *phases;
	bool no_verify;           /* --no-verify */
	unsigned n_certs, next_cert;
	struct rpt_cert_key certs[RPT_CERT_CACHE];
	int32_t clock_offset_ms;  /* receiver clock minus senders' (estimated) */
	bool has_clock_offset;
	struct rpt_findings findings;
	/* coverage (--rx-pos, or a MAP's reference point: rx_map true, rx_map_id): bins of
	 * cov_bin_m metres from the receiver */
	bool has_rx, rx_map;
	long rx_map_id;
	double rx_lat, rx_lon;
	double cov_bin_m;
	size_t cov_n;
	struct rpt_cov_bin *cov;  /* every sender's BSMs */
	struct rpt_requirement prio_reqs[V2X_PRIO_N]; /* report_priority.c */
	int64_t max_age_ms, max_gen_delta_ms;
};

/* report_collect.c: one frame in; at the end, the checks */
int rpt_init(struct report *r, char *const *files, size_t n_files);
int rpt_add(struct report *r, const struct rpt_where *at, const struct v2x_frame *f,
	    uint32_t caplen, uint32_t wirelen);
void rpt_free(struct report *r);

/* Grows the array *p (n used, cap allocated, elements of size) by one zeroed element;
 * NULL out of memory. */
void *rpt_grow(void *p, size_t *n, size_t *cap, size_t size);
/* report_security.c: the frame's 1609.2 envelope counted per PSID and sender */
int rpt_security_frame(struct report *r, const struct rpt_where *at, const struct v2x_frame *f);

/* report_security.c: an SSP's octets as hex ("..." past RPT_SSP_MAX) and as bits (a
 * bitmapSsp's: most significant first, octets apart) into buf */
const char *rpt_ssp_hex(const uint8_t *ssp, size_t len, char *buf, size_t size);
const char *rpt_ssp_bits(const uint8_t *ssp, size_t len, char *buf, size_t size);

/* report_verify.c: the signature of a signedData frame verified, or why it cannot be
 * (sender: the name of g's findings); -1 out of memory */
int rpt_verify_frame(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
		     const struct v2x_frame *f, const char *sender);
void rpt_verify_free(struct report *r);
extern const struct rpt_requirement rpt_req_signature;

/* report_priority.c: the frames priority.c classifies become priority findings; 0, or -1
 * out of memory. */
void rpt_priority_init(struct report *r);
int rpt_priority_frame(struct report *r, const struct rpt_where *at, const struct v2x_frame *f);

/* report_mapspat.c, as the messages come: a SPaT's timing against its time, a MAP
 * repeated (same intersection and revision: same content?) or of a new revision (kept:
 * the revision heard before), a TIM's frames against the capture time; -1 out of memory */
int rpt_spat_timing(struct report *r, const struct rpt_where *at,
		    const struct rpt_spat_state *x);
/* Each signal group's eventState against the one heard before (report_mapspat.c) */
int rpt_spat_phases(struct report *r, const struct rpt_where *at,
		    const struct rpt_spat_state *x);
int rpt_map_repeat(struct report *r, const struct rpt_where *at,
		   const struct rpt_intersection *kept, const struct rpt_intersection *x);
int rpt_map_revision(struct report *r, const struct rpt_where *at,
		     const struct rpt_intersection *kept, const struct rpt_intersection *x);
int rpt_tim_window(struct report *r, const struct rpt_where *at, const char *sender,
		   const struct rpt_tim *t);

/* report_bsm.c, report_mapspat.c, report_security.c: findings of each check */
int rpt_check_bsm(struct report *r);
int rpt_check_mapspat(struct report *r);
int rpt_check_security(struct report *r);
/* The path history checks of the BSM b just added as s's last sample; -1 out of memory */
int rpt_bsm_path_history(struct report *r, struct rpt_sender *s, const struct rpt_bsm *b);
/* The receiver's clock offset estimate and one BSM's age after removing it */
int32_t rpt_bsm_age_ms(const struct report *r, const struct rpt_bsm_sample *s);

/* report_coverage.c: with the receiver's position (has_rx; without it, the reference
 * point of the first MAP intersection heard), each sender's BSMs by their distance:
 * received, expected from msgCnt, RSSI; -1 out of memory */
int rpt_coverage(struct report *r);
/* received / expected of a bin; < 0 when nothing was expected */
double rpt_cov_pdr(const struct rpt_cov_bin *b);

/* report_json.c, report_geojson.c, report_html.c */
int rpt_write_json(const struct report *r, FILE *out);
int rpt_write_geojson(const struct report *r, FILE *out);
int rpt_write_html(const struct report *r, FILE *out);
/* A finding's members into an open JSON object (report_json.c; GeoJSON properties too) */
struct json_writer;
void rpt_json_finding(struct json_writer *w, const struct report *r,
		      const struct rpt_finding *f);
/* "file:frame" or "frame" (one file) into buf */
const char *rpt_where_str(const struct report *r, const struct rpt_where *w, char *buf,
			  size_t len);

#endif
