/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the daemon's control text (the FUSE `control` file and
 * what zeroctl sends), then reads of 1 B .. 1 MiB through the read path:
 * whatever a client writes, ctl_command() returns (0 or -errno) and every
 * byte read is zero.  Built and run by scripts/fuzz (clang), not by make check.
 */
#include <stdlib.h>

#include "control.h"
#include "readpath.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const size_t sizes[] = { 1, 4095, 4097, 100 * 1024, 1 << 20 };
	static int inited;
	size_t i, j;

	if (!inited) {
		if (rp_init(NULL, CUSEZERO_ALIGN_NONE, ZERO_POINT_LOOP, 4096, 1, true) ||
		    rp_thread_attach(0))
			abort();
		inited = 1;
	}
	ctl_command(0, (const char *)data, size);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const unsigned char *p = rp_read(sizes[i]);

		for (j = 0; j < sizes[i]; j++)
			if (p[j])
				abort();
	}
	return 0;
}
