/* The public face of a parsed frame (<v2x/frame.h>): struct v2x_frame stays private, its
 * content is copied out member by member into the caller's struct v2x_frame_info. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "registry.h"

struct v2x_frame *v2x_frame_new(void)
{
	return calloc(1, sizeof(struct v2x_frame));
}

void v2x_frame_free(struct v2x_frame *f)
{
	free(f);
}

int v2x_frame_get_info(const struct v2x_frame *f, struct v2x_frame_info *info)
{
	enum { FIRST = offsetof(struct v2x_frame_info, error_layer) + sizeof(enum v2x_layer) };
	if (!f || !info || info->size < FIRST)
		return V2X_EINVAL;
	struct v2x_frame_info i = {.size = info->size};
	i.layer = f->layer;
	i.error = f->error;
	i.error_layer = f->error_layer;
	i.has_src = f->has_src;
	memcpy(i.src, f->src, sizeof(i.src));
	memcpy(i.dst, f->dst, sizeof(i.dst));
	static const char *const llc[] = {
		[V2X_LLC_NONE] = "none", [V2X_LLC_EPD] = "epd", [V2X_LLC_SNAP] = "snap",
		[V2X_LLC_ETHERNET] = "ethernet",
	};
	i.llc = llc[f->llc];
	i.has_radio = f->rt.has_channel || f->rt.has_rate || f->rt.has_signal;
	i.freq_mhz = f->rt.has_channel ? f->rt.freq : 0;
	i.rate_500kbps = f->rt.has_rate ? f->rt.rate : 0;
	i.has_signal = f->rt.has_signal;
	i.signal_dbm = f->rt.signal_dbm;
	i.encap = v2x_encap_name(f->encap);
	i.ip_version = f->ip_version;
	i.udp_src_port = f->udp_src_port;
	i.udp_dst_port = f->udp_dst_port;
	i.udp_prefix = f->encap_skipped;
	i.has_wsmp = f->has_wsmp;
	if (f->has_wsmp) {
		i.wsmp_version = f->wsmp.version;
		i.has_wsmp_psid = f->wsmp.has_psid;
		i.wsmp_psid = f->wsmp.psid;
	}
	i.has_dot2 = f->has_dot2;
	if (f->has_dot2) {
		i.dot2_content = v2x_dot2_content_name(f->dot2.content);
		i.has_dot2_psid = f->dot2.has_psid;
		i.dot2_psid = f->dot2.psid;
		i.has_generation_time = f->dot2.has_generation_time;
		i.generation_time_us = f->dot2.generation_time;
	}
	i.has_message_id = f->mf.has_msg_id;
	if (f->mf.has_msg_id) {
		i.message_id = f->mf.msg_id;
		i.message_name = v2x_message_name(f->mf.msg_id);
		v2x_frame_message(f, &i.message_len);
		i.message_truncated = f->mf.truncated;
		i.trailing_octets = f->mf.trailing;
	}
	/* what the caller's struct has room for: an older caller's is shorter */
	memcpy(info, &i, info->size < sizeof(i) ? info->size : sizeof(i));
	return V2X_OK;
}

const uint8_t *v2x_frame_message(const struct v2x_frame *f, size_t *len)
{
	bool has = f && f->has_j2735 && f->j2735;
	if (len) /* a MessageFrame cut short: what there is of it */
		*len = !has ? 0 : f->mf.frame_len ? f->mf.frame_len : f->j2735_len;
	return has ? f->j2735 : NULL;
}

const char *v2x_message_name(unsigned message_id)
{
	const struct v2x_msgid *id = message_id <= UINT16_MAX ? v2x_msgid_lookup(message_id)
							      : NULL;
	return id ? id->abbrev : NULL;
}

bool v2x_message_psid(unsigned message_id, uint32_t *psid)
{
	const struct v2x_msgid *id = message_id <= UINT16_MAX ? v2x_msgid_lookup(message_id)
							      : NULL;
	if (!id || !id->psid || !psid)
		return false;
	*psid = id->psid;
	return true;
}
