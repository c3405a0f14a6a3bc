/* Capture statistics as an object one feeds frames to: counts per message type, PSID,
 * channel, sender and encapsulation (octets, RSSI, 1609.2 security, errors, trailing
 * octets), per BSM sender (rate, inter-arrival, msgCnt loss and duplicates, message age
 * against the capture clock) and the priority messages (<v2x/priority.h>) per kind and
 * sender. Memory stays flat whatever the capture's size (fixed-size tables; what does
 * not fit is counted as overflow).
 *
 *   struct v2x_stats *s = v2x_stats_new(errbuf);
 *   while (v2x_capture_next(c, &rec, &f) > 0)
 *           v2x_stats_add(s, path, rec, f);
 *   const char *json;
 *   if (v2x_stats_json(s, &json, NULL) == V2X_OK)
 *           fputs(json, stdout);      // what `v2xcap stats --format json PATH` prints
 *   v2x_stats_free(s);
 *
 * The JSON document (one object and a newline; fields are added, never renamed or
 * removed):
 *   frames, bytes (captured octets), sliced (frames cut by the snap length), malformed,
 *   wsmp (frames that reached WSMP), filtered_out, filter (null here),
 *   first_time, last_time (Unix seconds, null without frames), span_s,
 *   priority: emergency first (eva, bsm_emergency, rsa, srm, bsm_events), then in the
 *     order first heard, of {kind, sender (TemporaryID for BSMs, source MAC or null),
 *     messages, events (BSM flag names, BSMs only), frames [{file, frame}] (the first
 *     10)}, priority_overflow,
 *   not_wsmp {link_error, not_data, protected, other_ethertype, bad_wsmp, bad_fcs},
 *   encapsulation {NAME: frames} for every encapsulation,
 *   by_type, by_psid, by_channel, by_sender: arrays sorted by frames (descending) of
 *     {key (name: "BSM", "0x20", "5860", "02:00:00:00:00:01", "no-J2735", "-" when the
 *      frame has no such field), value (message id, PSID, MHz, MAC as a 48-bit number;
 *      null for "-"), frames, share (of wsmp), rate_per_s (over the capture span),
 *      bytes {min, mean, max} (WSM payload octets), rssi_dbm {min, mean, max} | null,
 *      signed, unsigned (unsecuredData or no 1609.2), encrypted, errors, trailing,
 *      note (a type the library's schema does not decode in full)},
 *   overflow_type, overflow_psid, overflow_channel, overflow_sender,
 *   by_encap: the encapsulations seen, sorted by frames, of {key, frames, bytes, errors},
 *   bsm_senders: sorted by messages, of {temporary_id (8 hex digits), messages, rate_hz,
 *     rate_ratio_to_10hz, iat_ms {p50, p95, max} (null below two messages), msgcnt_lost,
 *     loss_ratio (lost / (lost + messages)), duplicates, age_ms {min, mean, max} | null,
 *     unsynchronised},
 *   bsm_overflow, bsm_unreadable.
 *
 * The same figures as C structs, without parsing JSON (below): v2x_stats_get_totals, and
 * one entry at a time, in the document's order, v2x_stats_get_group, _get_bsm_sender and
 * _get_priority. The document is written from them, so both always agree. Threads: a
 * handle is used by one thread at a time, readers included (the getters keep the sorted
 * order in s); handles on several threads count at once.
 *
 *   struct v2x_stats_group g = {.size = sizeof(g)};
 *   for (size_t i = 0; v2x_stats_get_group(s, V2X_STATS_BY_TYPE, i, &g) == 1; i++)
 *           printf("%s %llu\n", g.key, (unsigned long long)g.frames); */
#ifndef V2X_V2X_STATS_H
#define V2X_V2X_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>
#include <v2x/capture.h>
#include <v2x/frame.h>
#include <v2x/priority.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_stats;

/* A new, empty set of statistics (about 1 MB of tables). NULL with the cause in errbuf
 * when out of memory, or errbuf is NULL. */
V2X_API struct v2x_stats *v2x_stats_new(char *errbuf);

/* Counts one frame, in capture order: rec for its time and lengths, f as
 * v2x_capture_next parsed it, file the name its priority entries give (copied; NULL:
 * "-"). V2X_OK, V2X_ENOMEM (v2x_stats_geterr; the counts so far stay), or V2X_EINVAL
 * for a NULL s, rec or f. */
V2X_API int v2x_stats_add(struct v2x_stats *s, const char *file, const struct v2x_record *rec,
			  const struct v2x_frame *f);

/* The JSON document above for what was added so far (it can be asked at any time): *json
 * (NUL-terminated, valid until the next call on s) and *len (may be NULL). V2X_OK,
 * V2X_ENOMEM, or V2X_EINVAL for a NULL argument. */
V2X_API int v2x_stats_json(struct v2x_stats *s, const char **json, size_t *len);

/* The cause of the last error on s; "" when there was none. Never NULL. */
V2X_API const char *v2x_stats_geterr(const struct v2x_stats *s);

/* The caps of the tables: frames whose group, sender or priority entry does not fit are
 * counted in the totals and in the overflow counts. */
#define V2X_STATS_MAX_GROUPS 1024        /* per dimension (the encapsulations have fewer) */
#define V2X_STATS_MAX_BSM_SENDERS 4096
#define V2X_STATS_MAX_PRIORITY 1024
#define V2X_STATS_PRIORITY_FRAMES 10     /* frame numbers kept per priority entry */

/* The statistics' totals: the document's top-level counts. The caller sets size = sizeof(struct
 * v2x_stats_totals) (members are only ever added at the end). */
struct v2x_stats_totals {
	size_t size;
	uint64_t frames, bytes, sliced, malformed, wsmp, filtered_out;
	const char *filter;             /* v2xcap's --filter: "type" or "psid"; NULL: none */
	uint32_t filter_value;          /* its message id or PSID */
	int64_t first_us, last_us;      /* capture time, Unix microseconds; 0 without frames */
	double span_s;
	/* not_wsmp: the frames that did not reach WSMP, by cause, and their sum */
	uint64_t not_wsmp_link_error, not_wsmp_not_data, not_wsmp_protected;
	uint64_t not_wsmp_other_ethertype, not_wsmp_bad_wsmp, not_wsmp_bad_fcs;
	uint64_t not_wsmp;
	/* entries of each list (what v2x_stats_get_group and the others hand out), and the
	 * frames or messages that did not fit */
	size_t n_type, n_psid, n_channel, n_sender, n_encap;
	uint64_t overflow_type, overflow_psid, overflow_channel, overflow_sender;
	size_t n_bsm_senders;
	uint64_t bsm_overflow, bsm_unreadable;
	size_t n_priority;
	uint64_t priority_overflow;
	bool priority_files;            /* the priority frames come from more than one file */
	const char *j2735_edition;      /* the schema the groups' notes speak of; NULL: none */
};
/* Fills *t with the counts so far (static strings). V2X_OK, V2X_ENOMEM (v2x_stats_geterr),
 * or V2X_EINVAL for a NULL argument or t->size too small. */
V2X_API int v2x_stats_get_totals(struct v2x_stats *s, struct v2x_stats_totals *t);

/* A group of frames by message type, PSID, channel, sender or encapsulation (the
 * document's by_type, by_psid, by_channel, by_sender, by_encap). */
enum v2x_stats_dim {
	V2X_STATS_BY_TYPE,
	V2X_STATS_BY_PSID,
	V2X_STATS_BY_CHANNEL,
	V2X_STATS_BY_SENDER,
	V2X_STATS_BY_ENCAP,
	V2X_STATS_DIM_N
};
/* n samples of min, mean and max; the three mean nothing when n is 0 (the document's
 * null). */
struct v2x_stats_range {
	uint64_t n;
	int64_t min;
	double mean;
	int64_t max;
};
/* One group: the WSMP frames of one message type, PSID, channel or sender, or every
 * frame of one encapsulation. The caller sets size = sizeof(struct v2x_stats_group). */
struct v2x_stats_group {
	size_t size;
	char key[32];                   /* its name in the document ("BSM", "0x20", "5860",
					 * "02:00:00:00:00:01", "udp_dot2"; "-": no such field) */
	bool has_value;                 /* false for "-" */
	uint64_t value;                 /* message id, PSID, MHz, MAC as a 48-bit number; for
					 * an encapsulation its place in "encapsulation" */
	uint64_t frames;
	double share;                   /* of wsmp (an encapsulation: of frames) */
	double rate_per_s;              /* frames per second of the capture's span */
	struct v2x_stats_range bytes;   /* WSM payload octets */
	struct v2x_stats_range rssi_dbm;
	uint64_t signed_frames, unsigned_frames, encrypted_frames;
	uint64_t errors;                /* frames with a malformed or truncated layer */
	uint64_t trailing;              /* frames with octets after their MessageFrame */
	const char *note;               /* a type the schema does not decode in full; NULL */
	uint64_t octets;                /* an encapsulation's captured octets (by_encap's
					 * "bytes"); 0 in the other dimensions */
};
/* Group i (from 0) of dimension d, sorted as the document is (by frames, descending):
 * 1 with *g filled (note is a static string), 0 when i is past the last group (*g
 * untouched), V2X_ENOMEM (v2x_stats_geterr), or V2X_EINVAL for a NULL s or g, a d not
 * in enum v2x_stats_dim, or g->size too small. Asking group after group costs no sort
 * each: the order is kept until the next v2x_stats_add. */
V2X_API int v2x_stats_get_group(struct v2x_stats *s, enum v2x_stats_dim d, size_t i,
				struct v2x_stats_group *g);

/* A BSM sender (TemporaryID), as the document's bsm_senders. The caller sets size =
 * sizeof(struct v2x_stats_bsm_sender). */
struct v2x_stats_bsm_sender {
	size_t size;
	uint32_t temporary_id;          /* its 4 octets big endian */
	uint64_t messages;
	double rate_hz, rate_ratio_to_10hz;
	bool has_iat;                   /* false below two messages: the iat_ms are 0 */
	double iat_p50_ms, iat_p95_ms, iat_max_ms;
	uint64_t msgcnt_lost;
	double loss_ratio;              /* lost / (lost + messages) */
	uint64_t duplicates;
	struct v2x_stats_range age_ms;  /* capture time - secMark */
	bool unsynchronised;            /* mean |age| beyond a second */
};
/* Sender i (from 0), sorted as the document is (by messages, descending): 1 with *b
 * filled, 0 when i is past the last sender, V2X_ENOMEM (v2x_stats_geterr), or V2X_EINVAL
 * for a NULL s or b or b->size too small. */
V2X_API int v2x_stats_get_bsm_sender(struct v2x_stats *s, size_t i,
				     struct v2x_stats_bsm_sender *b);

/* A priority entry: the messages of one kind from one sender, as the document's
 * priority. The caller sets size = sizeof(struct v2x_stats_priority); a frame of the
 * entry is the file v2x_stats_add was given and the record number. */
struct v2x_stats_frame_ref {
	const char *file;
	uint64_t frame;
};
struct v2x_stats_priority {
	size_t size;
	enum v2x_prio_kind kind;
	char sender[24];                /* TemporaryID (BSMs) or source MAC; "": neither */
	uint64_t messages;
	bool is_bsm;
	uint32_t events;                /* BSMs: the event flags seen (v2x_priority_events_text) */
	unsigned n_frames;              /* the first frames, up to V2X_STATS_PRIORITY_FRAMES */
	struct v2x_stats_frame_ref frames[V2X_STATS_PRIORITY_FRAMES];
};
/* Entry i (from 0), emergency first, then in the order first heard: 1 with *p filled
 * (its file names stay valid until v2x_stats_free), 0 when i is past the last entry,
 * V2X_ENOMEM (v2x_stats_geterr), or V2X_EINVAL for a NULL s or p or p->size too small. */
V2X_API int v2x_stats_get_priority(struct v2x_stats *s, size_t i, struct v2x_stats_priority *p);

/* Frees s; NULL is fine. */
V2X_API void v2x_stats_free(struct v2x_stats *s);

#ifdef __cplusplus
}
#endif

#endif
