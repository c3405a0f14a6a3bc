/* Real units and "unavailable" sentinels for the key J2735 types (BASE_CUSTOM formatters):
 * the raw integer stays the field's value, the label shows what it means. */
#include <epan/proto.h>

#include "j2735_de.h"
#include "packet-j2735.h"

static void fmt_degrees(gchar *s, gint32 v, gint32 unavailable)
{
	if (v == unavailable)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%d)", v);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%.7f\xc2\xb0 (%d)", v / 1e7, v);
}

void j2735_fmt_latitude(gchar *s, gint32 v)
{
	fmt_degrees(s, v, V2X_DE_LATITUDE_UNAVAILABLE);
}

void j2735_fmt_longitude(gchar *s, gint32 v)
{
	fmt_degrees(s, v, V2X_DE_LONGITUDE_UNAVAILABLE);
}

void j2735_fmt_elevation(gchar *s, gint32 v)
{
	if (v == V2X_DE_ELEVATION_UNAVAILABLE)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%d)", v);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%.1f m (%d)", v / 10.0, v);
}

void j2735_fmt_speed(gchar *s, guint32 v)
{
	if (v == V2X_DE_SPEED_UNAVAILABLE)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%u)", v);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%.2f m/s, %.1f km/h (%u)", v * 0.02,
			 v * 0.02 * 3.6, v);
}

void j2735_fmt_heading(gchar *s, guint32 v)
{
	if (v == V2X_DE_HEADING_UNAVAILABLE)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%u)", v);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%.4f\xc2\xb0 (%u)", v * 0.0125, v);
}

void j2735_fmt_dsecond(gchar *s, guint32 v)
{
	if (v == V2X_DE_DSECOND_UNAVAILABLE)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%u)", v);
	else if (v >= V2X_DE_DSECOND_RESERVED)
		snprintf(s, ITEM_LABEL_LENGTH, "reserved (%u)", v);
	else if (v >= V2X_DE_DSECOND_LEAP_SECOND)
		snprintf(s, ITEM_LABEL_LENGTH, "%u ms (leap second, %.3f s)", v, v / 1000.0);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%u ms (%.3f s)", v, v / 1000.0);
}

void j2735_fmt_timemark(gchar *s, guint32 v)
{
	if (v == V2X_DE_TIMEMARK_UNKNOWN)
		snprintf(s, ITEM_LABEL_LENGTH, "unavailable (%u)", v);
	else if (v == V2X_DE_TIMEMARK_LEAP_SECOND)
		snprintf(s, ITEM_LABEL_LENGTH, "leap second (%u)", v);
	else
		snprintf(s, ITEM_LABEL_LENGTH, "%u:%04.1f past the hour (%u)", v / 600,
			 (v % 600) / 10.0, v);
}
