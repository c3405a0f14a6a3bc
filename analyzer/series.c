/* The --interval time series of `v2xcap stats` (see series.h): one line, CSV row group or
 * JSON object per interval as the tally closes it. */
#include <inttypes.h>

#include "series.h"

#define NAME 32

void v2xcap_series_begin(struct v2xcap_series_out *o, FILE *out, enum v2xcap_format fmt,
		      int64_t interval_us)
{
	o->out = out;
	o->fmt = fmt;
	if (fmt == V2XCAP_FMT_CSV)
		fprintf(out, "start,type,frames\n");
	else if (fmt == V2XCAP_FMT_JSON) {
		json_init(&o->json, out);
		json_begin_object(&o->json);
		json_double_field(&o->json, "interval_s", (double)interval_us / 1e6, 6);
		json_key(&o->json, "series");
		json_begin_array(&o->json);
	} else
		fprintf(out, "%-24s  %8s  %s\n", "start (UTC)", "frames", "per type");
}

void v2xcap_series_interval(void *series_out, const struct v2x_interval *iv)
{
	struct v2xcap_series_out *o = series_out;
	char name[NAME];
	double start = (double)iv->start_us / 1e6;
	if (o->fmt == V2XCAP_FMT_CSV) {
		fprintf(o->out, "%.6f,all,%" PRIu64 "\n", start, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, "%.6f,%s,%" PRIu64 "\n", start,
				v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
						   sizeof(name)), iv->counts[i]);
	} else if (o->fmt == V2XCAP_FMT_JSON) {
		struct json_writer *w = &o->json;
		json_begin_object(w);
		json_double_field(w, "start", start, 6);
		json_uint_field(w, "frames", iv->total);
		json_key(w, "by_type");
		json_begin_object(w);
		for (size_t i = 0; i < iv->n_types; i++)
			json_uint_field(w, v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
							      sizeof(name)), iv->counts[i]);
		json_end_object(w);
		json_end_object(w);
	} else {
		char t[40];
		v2xcap_format_utc(t, sizeof(t), iv->start_us);
		fprintf(o->out, "%-24s  %8" PRIu64 " ", t, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, " %s:%" PRIu64,
				v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
						   sizeof(name)), iv->counts[i]);
		fputc('\n', o->out);
	}
}

void v2xcap_series_end(struct v2xcap_series_out *o)
{
	if (o->fmt == V2XCAP_FMT_JSON) {
		json_end_array(&o->json);
		json_end_object(&o->json);
		fputc('\n', o->out);
	}
	fflush(o->out);
}
