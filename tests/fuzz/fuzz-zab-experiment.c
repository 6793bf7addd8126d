/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: zab's experiment files.  Any bytes: zab_experiment_load()
 * and zab_experiment_check() return (one error line at most) and free
 * everything.  Built and run by scripts/fuzz (clang), not by make check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/model.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	struct zab_experiment e = { .sessions = 1, .repeats = 1 };
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/zab-fuzz.%d", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	if (!zab_experiment_load(&e, path))
		zab_experiment_check(&e);
	zab_experiment_free(&e);
	return 0;
}
