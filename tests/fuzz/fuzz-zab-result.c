/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: zab's result files (what report and compare read).  Any
 * bytes: czres_json_load() (jansson, strict, no duplicate key, no NUL byte)
 * and czres_result_from_json() return (one error line at most) and everything
 * is freed.  Built and run by scripts/fuzz (clang), not by make check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/model.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	struct czres_result r;
	json_t *doc;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/zab-fuzz-result.%d", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	doc = czres_json_load(path, "");
	if (doc) {
		czres_result_from_json(&r, doc, path);	/* r owns doc, also on error */
		czres_result_free(&r);
	}
	return 0;
}
