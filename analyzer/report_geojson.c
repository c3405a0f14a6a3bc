/* v2xcap export --geojson: sender tracks (LineString per TemporaryID), MAP lanes
 * (LineString per lane) and findings that have a position (Point), for QGIS or kepler.gl. */
#include <stdlib.h>

#include "json.h"
#include "report.h"

static void feature_begin(struct json_writer *w, const char *kind)
{
	json_begin_object(w);
	json_string_field(w, "type", "Feature");
	json_key(w, "properties");
	json_begin_object(w);
	json_string_field(w, "kind", kind);
}

static void geometry_begin(struct json_writer *w, const char *type)
{
	json_end_object(w); /* properties */
	json_key(w, "geometry");
	json_begin_object(w);
	json_string_field(w, "type", type);
	json_key(w, "coordinates");
}

static void point(struct json_writer *w, double lat, double lon)
{
	json_begin_array(w);
	json_double(w, lon, 7);
	json_double(w, lat, 7);
	json_end_array(w);
}

static void feature_end(struct json_writer *w)
{
	json_end_object(w); /* geometry */
	json_end_object(w);
}

static void tracks(struct json_writer *w, const struct report *r)
{
	for (size_t i = 0; i < r->n_senders; i++) {
		const struct rpt_sender *s = &r->senders[i];
		size_t n = 0;
		for (size_t k = 0; k < s->n; k++)
			n += s->s[k].lat != V2X_DE_LATITUDE_UNAVAILABLE && s->s[k].lon != V2X_DE_LONGITUDE_UNAVAILABLE;
		if (n < 2)
			continue; /* a LineString needs two positions */
		char id[12];
		snprintf(id, sizeof(id), "%08x", s->id);
		feature_begin(w, "track");
		json_string_field(w, "sender", id);
		json_uint_field(w, "bsms", s->n);
		geometry_begin(w, "LineString");
		json_begin_array(w);
		for (size_t k = 0; k < s->n; k++)
			if (s->s[k].lat != V2X_DE_LATITUDE_UNAVAILABLE && s->s[k].lon != V2X_DE_LONGITUDE_UNAVAILABLE)
				point(w, s->s[k].lat / 1e7, s->s[k].lon / 1e7);
		json_end_array(w);
		feature_end(w);
	}
}

static void lanes(struct json_writer *w, const struct report *r)
{
	for (size_t i = 0; i < r->n_maps; i++) {
		const struct rpt_intersection *x = &r->maps[i].x;
		for (unsigned k = 0; k < x->n_lanes; k++) {
			const struct rpt_lane *l = &x->lanes[k];
			if (l->n_nodes < 2)
				continue;
			feature_begin(w, "lane");
			json_int_field(w, "intersection", x->id);
			json_int_field(w, "lane", l->id);
			geometry_begin(w, "LineString");
			json_begin_array(w);
			for (unsigned n = 0; n < l->n_nodes; n++)
				point(w, l->lat[n], l->lon[n]);
			json_end_array(w);
			feature_end(w);
		}
	}
}

int rpt_write_geojson(const struct report *r, FILE *out)
{
	struct json_writer *w = malloc(sizeof(*w));
	if (!w)
		return -1;
	json_init_held(w, out);
	json_begin_object(w);
	json_string_field(w, "type", "FeatureCollection");
	json_key(w, "features");
	json_begin_array(w);
	tracks(w, r);
	lanes(w, r);
	for (size_t i = 0; i < r->findings.n; i++) {
		const struct rpt_finding *f = &r->findings.f[i];
		if (!f->has_pos)
			continue;
		feature_begin(w, "finding");
		rpt_json_finding(w, r, f);
		geometry_begin(w, "Point");
		point(w, f->lat, f->lon);
		feature_end(w);
	}
	json_end_array(w);
	json_end_object(w);
	json_end_line(w);
	int rc = json_flush(w);
	free(w);
	return rc;
}
