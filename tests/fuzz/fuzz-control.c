/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the daemon's control text (the FUSE `control` file and
 * what zeroctl sends) and, when the input starts with 0xff, the rest as an
 * ioctl argument (SET_CONFIG, SET_ALIGN, SET_CHUNK), then reads of
 * 1 B .. 1 MiB through the read path: whatever a client sends, the call
 * returns (0 or -errno), a refused change leaves the settings as they were,
 * and every byte read is zero.  Built and run by scripts/fuzz (clang).
 */
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "cusezero.h"
#include "readpath.h"
#include "util.h"

/* The text, or (first byte 0xff) an ioctl: 0 or -errno. */
static int fuzz_call(const unsigned char *data, size_t size)
{
	static const unsigned int cmds[] = {
		CUSEZERO_IOC_SET_CONFIG, CUSEZERO_IOC_SET_ALIGN, CUSEZERO_IOC_SET_CHUNK,
		CUSEZERO_IOC_SET_ROUTINE,
	};
	size_t out_len;

	if (size < 2 || data[0] != 0xff)
		return ctl_command(0, (const char *)data, size);
	return ctl_ioctl(0, cmds[data[1] % 4], data + 2, size - 2, NULL, 0, &out_len);
}

static void fuzz_settings(const unsigned char *data, size_t size)
{
	struct cusezero_stats before, after;
	int ret;

	rp_get_stats(&before);
	ret = fuzz_call(data, size);
	rp_get_stats(&after);
	if (ret && (strcmp(before.routine, after.routine) || before.align != after.align ||
		    before.point != after.point || before.chunk != after.chunk))
		abort();	/* refused, yet something changed */
	if (after.align == CUSEZERO_ALIGN_NONE && after.point != CUSEZERO_POINT_LOOP)
		abort();	/* a point without an offset */
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const size_t sizes[] = { 1, 4095, 4097, 100 * 1024, 1 << 20 };
	static struct cusezero_stats st;
	static int inited;
	size_t i;

	if (!inited) {
		if (rp_init(NULL, CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP, 4096, 1, true) ||
		    rp_thread_attach(0))
			abort();
		inited = 1;
	}
	fuzz_settings(data, size);
	rp_get_stats(&st);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const unsigned char *p;

		/* chunk=1B makes a 1 MiB read a million routine calls: keep runs fast */
		if (sizes[i] / st.chunk > 65536)
			continue;
		p = rp_read(sizes[i]);
		if (cz_first_nonzero(p, sizes[i]) != sizes[i])
			abort();
	}
	return 0;
}
