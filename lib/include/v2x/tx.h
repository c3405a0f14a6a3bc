/* Transmitting on Linux: WSMP (IEEE 1609.3) frames out of an OCB interface through an
 * AF_PACKET socket (EtherType 0x88DC to the broadcast address, as mac80211 sends OCB
 * data), and a BSM built from its core data (no schema needed).
 *
 *   struct v2x_tx *tx = v2x_tx_open("wlan1", 0, errbuf);     // NULL: errbuf says why
 *   struct v2x_bsm_fields b = {.size = sizeof(b), .temp_id = 0x0a0b0c0d, ...};
 *   uint8_t bsm[64];
 *   size_t n;
 *   struct v2x_wsmp_params w = {.size = sizeof(w), .psid = 0x20};
 *   if (v2x_bsm_build(&b, bsm, sizeof(bsm), &n) == V2X_OK &&
 *       v2x_tx_send_wsmp(tx, &w, bsm, n) < 0)
 *           fprintf(stderr, "%s\n", v2x_tx_geterr(tx));
 *   v2x_tx_close(tx);
 */
#ifndef V2X_V2X_TX_H
#define V2X_V2X_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_tx;

/* v2x_tx_open's flags. */
enum {
	/* Send on an interface that is not OCB on a channel too (a loopback for tests, an
	 * Ethernet link to a roadside unit); v2x_tx_get_info's warning says what it is. */
	V2X_TX_ANY_INTERFACE = 1,
};

/* Opens ifname for sending (needs CAP_NET_RAW). Without V2X_TX_ANY_INTERFACE only an OCB
 * interface on a channel (<v2x/ocb.h>) is taken: a frame sent anywhere else does not go
 * on the air as 802.11p, or not at all. NULL with the cause in errbuf ("wlan0 is a
 * managed interface, not OCB: ..."; no such interface; no permission), or for a NULL
 * argument. */
V2X_API struct v2x_tx *v2x_tx_open(const char *ifname, unsigned flags, char *errbuf);

/* What a transmitter sends on. The caller sets size = sizeof(struct v2x_tx_info)
 * (members are only ever added at the end). */
struct v2x_tx_info {
	size_t size;
	uint8_t mac[6];             /* the interface's address: every frame's source */
	uint32_t freq_mhz;          /* an OCB interface's channel (MHz, width); 0 for */
	uint32_t width_mhz;         /* another interface */
	uint64_t sent;              /* frames sent so far */
	const char *warning;        /* why the interface is not what transmitting is for ("a
				     * loopback interface: the frames stay on this host"), NULL
				     * for an OCB interface on a channel; valid until close */
};

/* Fills *info: V2X_OK, or V2X_EINVAL for NULL or a size too small. */
V2X_API int v2x_tx_get_info(const struct v2x_tx *tx, struct v2x_tx_info *info);

/* How a WSM goes out. The caller sets size = sizeof(struct v2x_wsmp_params) (members are
 * only ever added at the end). channel, rate and power are declared in the WSMP v3
 * header's extension elements (Channel Number, Data Rate, Transmit Power Used: IEEE
 * 1609.3 8.3.4) for the receivers; the radio sends at the interface's own settings
 * (mac80211 sends OCB broadcasts at the lowest basic rate). */
struct v2x_wsmp_params {
	size_t size;
	uint32_t psid;              /* the WSM's PSID (0x20: BSM, 0x80: SPaT, MAP ...) */
	bool dot2_unsecured;        /* wrap the payload in IEEE 1609.2 unsecuredData */
	uint8_t channel;            /* 0: no Channel Number element (else e.g. 172, 178) */
	uint8_t rate_500kbps;       /* 0: no Data Rate element (else e.g. 12: 6 Mb/s) */
	bool has_power;
	int8_t power_dbm;           /* with has_power: Transmit Power Used */
};

/* Sends payload (a MessageFrame, or any WSM data) in one WSMP v3 frame: V2X_OK, or a
 * negative status with v2x_tx_geterr: V2X_EINVAL (NULL, a size too small, a PSID above
 * 2^28, a payload too long for one frame), V2X_EIO (the system refused: the interface is
 * down, not joined ...). */
V2X_API int v2x_tx_send_wsmp(struct v2x_tx *tx, const struct v2x_wsmp_params *p,
			     const uint8_t *payload, size_t len);

/* Sends a whole WSMP packet as it is (a captured one replayed): as v2x_tx_send_wsmp. */
V2X_API int v2x_tx_send_packet(struct v2x_tx *tx, const uint8_t *wsmp, size_t len);

/* The cause of the last error on tx; "" when there was none. Never NULL. */
V2X_API const char *v2x_tx_geterr(const struct v2x_tx *tx);

/* Closes the socket and frees tx (NULL: nothing). */
V2X_API void v2x_tx_close(struct v2x_tx *tx);

/* A BSM's core data in J2735 units. The caller sets size = sizeof(struct
 * v2x_bsm_fields); v2x_bsm_fields_init gives every field its "unavailable" value. */
struct v2x_bsm_fields {
	size_t size;
	uint8_t msg_cnt;            /* 0..127 */
	uint32_t temp_id;           /* TemporaryID, its 4 octets big endian */
	uint16_t sec_mark;          /* ms within the minute, 65535 unavailable */
	int32_t lat, lon;           /* 1/10 micro degree; 900000001, 1800000001 unavailable */
	int32_t elev;               /* 0.1 m; -4096 unavailable */
	uint16_t speed;             /* 0.02 m/s; 8191 unavailable */
	uint16_t heading;           /* 0.0125 degree; 28800 unavailable */
	uint16_t width, length;     /* cm; 0 unavailable */
};

/* Sets *f to a BSM whose every field is unavailable (msgCnt and id 0), keeping f->size. */
V2X_API void v2x_bsm_fields_init(struct v2x_bsm_fields *f);

/* The UPER MessageFrame of a BasicSafetyMessage with that core data (no part II) into
 * buf (cap octets), *len its length: V2X_OK, or V2X_EINVAL for NULL, a size too small, a
 * value outside its J2735 range, or a buf too small. */
V2X_API int v2x_bsm_build(const struct v2x_bsm_fields *f, uint8_t *buf, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
