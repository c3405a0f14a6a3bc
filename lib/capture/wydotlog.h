/* WYDOT/JPO ODE deployment logs (lib/wydot.h) as a capture: the whole file, plain or
 * gzip/zlib-compressed, is read at open and each record handed out as one frame of the
 * pseudo link type V2X_LINK_WYDOT, timed by the record's UTC seconds and milliseconds.
 * A file that starts "Version=" is read as USDOT RSU text records instead (lib/rsu.h),
 * each record's text a frame of the pseudo link type V2X_LINK_RSU_TEXT, timed by its
 * DeliveryStart ("MM/DD/YYYY, HH:MM", UTC) or else at 0.
 * capreader.c opens one when a file is neither pcap nor pcapng. */
#ifndef V2X_WYDOTLOG_H
#define V2X_WYDOTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "capreader.h"

struct v2x_wydotlog;

/* head: the octets already read from fd (the rest is read here). NULL with err when the
 * content is no WYDOT log. */
struct v2x_wydotlog *v2x_wydotlog_open(int fd, const uint8_t *head, size_t head_len,
				       const char *name, char *err, size_t errlen);
/* V2X_RD_RECORD or V2X_RD_END (the records were checked at open); V2X_RD_ERROR once,
 * with err, for a last record cut short. */
enum v2x_rd_result v2x_wydotlog_next(struct v2x_wydotlog *l, struct v2x_record *rec,
				     char *err, size_t errlen);
void v2x_wydotlog_close(struct v2x_wydotlog *l);

#endif
