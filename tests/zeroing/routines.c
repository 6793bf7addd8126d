/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: every usable routine in the registry clears exactly
 * [dst, dst + n) and returns 0, for
 *   - every size 0..4160 x every destination misalignment 0..63, and
 *   - large sizes (8 KiB, 64 KiB, 100 KiB, 1 MiB + 13, ...) x misalignments
 *     {0, 1, 7, 8, 31, 32, 33, 63}.
 * The 4160 x 64 sweep covers every path of every routine (short paths,
 * loop entry/exit, head/tail around 64-byte and 4 KiB boundaries) at every
 * alignment; large sizes only exercise longer loop runs, so a handful of
 * misalignments (both sides of 8/32/64) suffices and keeps the test well
 * under 2 minutes under qemu-aarch64 and ASan.
 *
 * Buffer: canary 0xA5 everywhere; the range ends 0..63 bytes before a
 * PROT_NONE guard page (exactly at it for one misalignment of each size), so
 * an overrun either faults or hits checked canary bytes; the 64 bytes before
 * dst are checked too.  Unusable routines: "# SKIP <routine>: <reason>".
 */
#include <stdlib.h>

#include "util.h"
#include "zeroing.h"
#include "../tap.h"
#include "zt.h"

#define SMALL_MAX 4160u

static const size_t large_sizes[] = {
	8192, 12345, 65536, 65536 + 7, 102400, 102400 + 63, 1048576 + 13,
};
static const unsigned large_mis[] = { 0, 1, 7, 8, 31, 32, 33, 63 };

static int run_one(const struct zero_routine *r, const struct zt_buf *b, size_t n,
		   unsigned mis, char *msg, size_t msglen)
{
	unsigned char *dst = zt_dst(b, n, mis);
	char why[160];
	size_t ret;

	snprintf(zt_step, sizeof(zt_step), "%s n=%zu misalign=%u", r->name, n, mis);
	zt_fill(b, dst);
	ret = r->fn(dst, n);
	if (ret != 0) {
		snprintf(msg, msglen, "n=%zu misalign=%u: returned %zu, expected 0", n, mis, ret);
		return 0;
	}
	if (!zt_check(b, dst, n, n, 1, why, sizeof(why))) {
		snprintf(msg, msglen, "n=%zu misalign=%u: %s", n, mis, why);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	size_t first, count = zt_routines(argc, argv, &first);
	size_t max_large = 0, i, k;
	struct zt_buf b;
	int ret;

	for (i = 0; i < CZ_ARRAY_SIZE(large_sizes); i++)
		if (large_sizes[i] > max_large)
			max_large = large_sizes[i];
	ret = zt_buf_init(&b, max_large, 1);
	if (ret) {
		printf("Bail out! mmap/mprotect of the test buffer: %s\n", strerror(-ret));
		return 1;
	}
	zt_crash_install();
	tap_diag("CPU: %s", zero_cpu()->model[0] ? zero_cpu()->model : "unknown");

	for (i = first; i < count; i++) {
		const struct zero_routine *r = zero_at(i);
		const char *why = NULL;
		char msg[256] = "";
		int ok = 1;
		unsigned mis;
		size_t n;

		if (!zero_usable(r, &why)) {
			tap_skip("%s: %s", r->name, why);
			tap_skip("%s: %s", r->name, why);
			continue;
		}
		for (mis = 0; ok && mis < 64; mis++)
			for (n = 0; ok && n <= SMALL_MAX; n++)
				ok = run_one(r, &b, n, mis, msg, sizeof(msg));
		tap_ok(ok, "%s: sizes 0..%u x misalign 0..63%s%s", r->name, SMALL_MAX,
		       ok ? "" : ": ", msg);

		ok = 1;
		for (k = 0; ok && k < CZ_ARRAY_SIZE(large_sizes); k++)
			for (mis = 0; ok && mis < CZ_ARRAY_SIZE(large_mis); mis++)
				ok = run_one(r, &b, large_sizes[k], large_mis[mis], msg, sizeof(msg));
		tap_ok(ok, "%s: large sizes 8 KiB..1 MiB+13 x %zu misalignments%s%s", r->name,
		       CZ_ARRAY_SIZE(large_mis), ok ? "" : ": ", msg);
	}
	zt_buf_free(&b);
	return tap_done();
}
