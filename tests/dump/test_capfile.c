/* The capture iterator v2xcap's commands share (lib/capture/capfile.h), over the sample
 * captures: frame fields, pcapng, progress, and errors that name file and frame. */
#include <stdlib.h>
#include <sys/stat.h>

#include "capfile.h"
#include "unit.h"

#define CAP(name) V2X_CAPTURES_DIR "/" name

TEST(capfile_frame_fields_from_pcap)
{
	char *files[] = {CAP("udp2-radiotap.pcap")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_FRAME);
	CHECK_STR(fr.file, files[0]);
	CHECK_INT(fr.number, 1);
	CHECK_INT(fr.ts_ns, 1700000000000000000LL); /* udp2-radiotap.expect.json time_us */
	CHECK_INT(fr.linktype, 127);
	CHECK_INT(fr.caplen, fr.origlen);
	CHECK(fr.data != NULL && fr.data[0] == 0); /* radiotap version 0 */
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	v2x_capfile_close(cf);
}

TEST(capfile_reads_pcapng)
{
	char *files[] = {CAP("bsm-80211-epd.pcapng")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_FRAME);
	CHECK_INT(fr.linktype, 105);
	CHECK_INT(fr.ts_ns, 1700000000000000000LL);
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	v2x_capfile_close(cf);
}

TEST(capfile_frame_numbers_per_file)
{
	char *files[] = {CAP("bsm-128.pcap")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	uint64_t n = 0;
	int64_t last_ts = 0;
	while (v2x_capfile_next(cf, &fr) == V2X_CAP_FRAME) {
		n++;
		CHECK_INT(fr.number, n);
		last_ts = fr.ts_ns;
	}
	CHECK_INT(n, 128);
	CHECK_INT(last_ts, 1700000000000000000LL + 127 * 100000000LL); /* 0.1 s apart */
	v2x_capfile_close(cf);
}

TEST(capfile_progress_reaches_file_size)
{
	char *files[] = {CAP("bsm-128.pcap")};
	struct stat st;
	CHECK_INT(stat(files[0], &st), 0);
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	uint64_t done, total, prev = 0;
	while (v2x_capfile_next(cf, &fr) == V2X_CAP_FRAME) {
		v2x_capfile_progress(cf, &done, &total);
		CHECK(done >= prev && done <= total);
		prev = done;
	}
	v2x_capfile_progress(cf, &done, &total);
	CHECK_INT(total, st.st_size);
	CHECK_INT(done, st.st_size);
	v2x_capfile_close(cf);
}

TEST(capfile_truncated_file_names_file_and_frame)
{
	char *files[] = {CAP("bad/truncated.pcap")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_ERROR);
	const char *err = v2x_capfile_error(cf);
	CHECK(strstr(err, "bad/truncated.pcap: frame 1: truncated capture") != NULL);
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	v2x_capfile_close(cf);
}

TEST(capfile_unsupported_link_type_reported_once_then_next_file)
{
	char *files[] = {CAP("bad/linktype-228.pcap"), CAP("udp2-radiotap.pcap")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 2);
	struct v2x_capframe fr;
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_ERROR);
	CHECK(strstr(v2x_capfile_error(cf), "linktype-228.pcap: unsupported link type 228"));
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_FRAME);
	CHECK_STR(fr.file, files[1]);
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	v2x_capfile_close(cf);
}

TEST(capfile_missing_file_is_an_error_not_the_end)
{
	char *files[] = {CAP("no-such.pcap")};
	struct v2x_capfile *cf = v2x_capfile_open(files, 1);
	struct v2x_capframe fr;
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_ERROR);
	CHECK(strstr(v2x_capfile_error(cf), "no-such.pcap: No such file") != NULL);
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	v2x_capfile_close(cf);
}
