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
 *   bsm_overflow, bsm_unreadable. */
#ifndef V2X_V2X_STATS_H
#define V2X_V2X_STATS_H

#include <stddef.h>

#include <v2x/base.h>
#include <v2x/capture.h>
#include <v2x/frame.h>

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

/* Frees s; NULL is fine. */
V2X_API void v2x_stats_free(struct v2x_stats *s);

#ifdef __cplusplus
}
#endif

#endif
