/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: run-time code placement.  Every usable relocatable routine
 * is placed with its entry and, separately, its loop head at offsets
 * 0..127 and a few up to 4095.  For each copy:
 *   - the placed point really is at address % 4096 == offset,
 *   - the copied bytes equal the original code,
 *   - it clears correctly (sizes 0..72, around 128/256/4096, 100 KiB, at
 *     misalignments 0 and 5; canaries and return value checked as in
 *     routines),
 *   - for ZERO_F_CLEAR_USER routines, a partial fault inside the copy is
 *     recovered and returns exactly what the original returns.
 * Errors: offset 4096 -> -EINVAL; a non-relocatable routine -> -ENOTSUP.
 */
#include <errno.h>
#include <stdlib.h>

#include "util.h"
#include "zeroing.h"
#include "../tap.h"
#include "zt.h"

static const unsigned far_offsets[] = { 128, 200, 1000, 2048, 2049, 4032, 4092, 4095 };
static const size_t fault_k[] = { 0, 1, 5, 8, 13, 63, 64, 100 };
static const size_t fault_d[] = { 1, 3, 8, 9, 64, 100 };

static size_t sizes[128];
static size_t nsizes;

static void sizes_init(void)
{
	static const size_t extra[] = { 127, 128, 129, 255, 256, 257, 4095, 4096, 4097, 102400 };
	size_t i;

	for (i = 0; i <= 72; i++)
		sizes[nsizes++] = i;
	for (i = 0; i < CZ_ARRAY_SIZE(extra); i++)
		sizes[nsizes++] = extra[i];
}

static int check_copy(const struct zero_placed *p, const struct zt_buf *b, char *msg, size_t len)
{
	const struct zero_routine *r = p->routine;
	size_t code_len = (size_t)((const char *)r->code_end - (const char *)r->code_start);
	uintptr_t pt = p->point == ZERO_POINT_LOOP ? p->loop : p->entry, copy;
	static const unsigned mis[] = { 0, 5 };
	char why[160];
	size_t i, j;

	if (pt % 4096 != p->offset) {
		snprintf(msg, len, "placed point at %#lx: %% 4096 = %lu", (unsigned long)pt,
			 (unsigned long)(pt % 4096));
		return 0;
	}
	/* entry, fn (a kernel file's thunk) and loop keep their offsets in the copy */
	copy = p->entry - ((r->place_entry ? (uintptr_t)r->place_entry : (uintptr_t)r->code_start) -
			   (uintptr_t)r->code_start);
	if ((uintptr_t)p->fn - copy != (uintptr_t)r->fn - (uintptr_t)r->code_start ||
	    (r->loop_head && p->loop - copy != (uintptr_t)r->loop_head - (uintptr_t)r->code_start)) {
		snprintf(msg, len, "fn/entry/loop inconsistent");
		return 0;
	}
	if (memcmp((const void *)copy, r->code_start, code_len)) {
		snprintf(msg, len, "placed bytes differ from the original code");
		return 0;
	}
	for (i = 0; i < nsizes; i++) {
		for (j = 0; j < CZ_ARRAY_SIZE(mis); j++) {
			unsigned char *dst = zt_dst(b, sizes[i], mis[j]);
			size_t ret;

			zt_fill(b, dst);
			ret = p->fn(dst, sizes[i]);
			if (ret) {
				snprintf(msg, len, "n=%zu misalign=%u: returned %zu", sizes[i], mis[j], ret);
				return 0;
			}
			if (!zt_check(b, dst, sizes[i], sizes[i], 1, why, sizeof(why))) {
				snprintf(msg, len, "n=%zu misalign=%u: %s", sizes[i], mis[j], why);
				return 0;
			}
		}
	}
	if (!(r->flags & ZERO_F_CLEAR_USER))
		return 1;
	for (i = 0; i < CZ_ARRAY_SIZE(fault_k); i++) {
		for (j = 0; j < CZ_ARRAY_SIZE(fault_d); j++) {
			unsigned char *dst = b->guard - fault_k[i];
			size_t n = fault_k[i] + fault_d[j], want, got;

			zt_fill(b, dst);
			zt_fault_call();
			want = r->fn(dst, n);
			zt_fill(b, dst);
			zt_fault_call();
			got = p->fn(dst, n);
			if (got != want || got < fault_d[j]) {
				snprintf(msg, len, "fault k=%zu n=%zu: copy returned %zu, original %zu",
					 fault_k[i], n, got, want);
				return 0;
			}
			if (!zt_check(b, dst, n, n - got, 0, why, sizeof(why))) {
				snprintf(msg, len, "fault k=%zu n=%zu: %s", fault_k[i], n, why);
				return 0;
			}
		}
	}
	return 1;
}

/* Place r at every test offset for one point; 1 ok, 0 failed (msg), -1 skip-all (msg). */
static int place_sweep(const struct zero_routine *r, enum zero_point point,
		       const struct zt_buf *b, char *msg, size_t len)
{
	unsigned offsets[128 + CZ_ARRAY_SIZE(far_offsets)];
	size_t noff = 0, i;

	/* arm64: instructions are 4-byte aligned, so are placed points (ZERO_PLACE_ALIGN). */
	for (i = 0; i < 128; i += ZERO_PLACE_ALIGN)
		offsets[noff++] = (unsigned)i;
	for (i = 0; i < CZ_ARRAY_SIZE(far_offsets); i++)
		if (far_offsets[i] % ZERO_PLACE_ALIGN == 0)
			offsets[noff++] = far_offsets[i];

	for (i = 0; i < noff; i++) {
		struct zero_placed p;
		char why[200];
		int ret, ok;

		ret = zero_place(r, point, offsets[i], &p);
		if (ret == -EACCES || ret == -EPERM) {
			snprintf(msg, len, "%s", zero_place_strerror(ret));
			return -1;
		}
		if (ret) {
			snprintf(msg, len, "offset %u: zero_place = %d (%s)", offsets[i], ret,
				 zero_place_strerror(ret));
			return 0;
		}
		ok = check_copy(&p, b, why, sizeof(why));
		zero_unplace(&p);
		if (!ok) {
			snprintf(msg, len, "offset %u: %s", offsets[i], why);
			return 0;
		}
	}
	return 1;
}

/* zero_place_parse_small_set(): a rotation's set, its bound, the errors of the set syntax. */
static void small_sets(void)
{
	const unsigned A = ZERO_PLACE_ALIGN;
	uint16_t out[64];
	char spec[64];
	size_t n = 0;
	int ret;

	snprintf(spec, sizeof(spec), "%u..%u:%u", 0, 15 * 4 * A, 4 * A);
	ret = zero_place_parse_small_set(spec, out, 16, &n);
	tap_ok(!ret && n == 16 && out[0] == 0 && out[15] == 60 * A, "small set %s: %d, %zu offsets, last %u",
	       spec, ret, n, n ? out[n - 1] : 0);
	ret = zero_place_parse_small_set(spec, out, 15, &n);
	tap_ok(ret == -E2BIG && n == 16, "small set %s, at most 15: %d (-E2BIG), size %zu", spec, ret,
	       n);
	snprintf(spec, sizeof(spec), "%u,%u,%u", 8 * A, 0, 8 * A);
	ret = zero_place_parse_small_set(spec, out, 64, &n);
	tap_ok(!ret && n == 2 && out[0] == 0 && out[1] == 8 * A, "small set %s: sorted, duplicate dropped (%zu)",
	       spec, n);
	ret = zero_place_parse_small_set("0,4096", out, 64, &n);
	tap_ok(ret == -EINVAL, "small set 0,4096: %d (-EINVAL)", ret);
	ret = zero_place_parse_small_set("", out, 64, &n);
	tap_ok(ret == -EINVAL, "small set \"\": %d (-EINVAL)", ret);
}

int main(int argc, char **argv)
{
	size_t first, count = zt_routines(argc, argv, &first);
	const struct zero_routine *reloc = NULL, *fixed = NULL;
	struct zero_placed p;
	struct zt_buf b;
	size_t i;
	int ret;

	sizes_init();
	ret = zt_buf_init(&b, 102400, 1);
	if (ret) {
		printf("Bail out! mmap/mprotect of the test buffer: %s\n", strerror(-ret));
		return 1;
	}
	ret = zero_fault_install();
	if (!ret)
		ret = zt_fault_bound();	/* a fixup that faults forever ends the test */
	if (ret) {
		printf("Bail out! zero_fault_install: %s\n", strerror(-ret));
		return 1;
	}

	for (i = first; i < count; i++) {
		const struct zero_routine *r = zero_at(i);
		const char *why = NULL;
		char msg[300] = "";
		int ok;

		if (!r->code_start) {
			if (!fixed)
				fixed = r;
			continue;
		}
		if (!zero_usable(r, &why)) {
			tap_skip("%s: %s", r->name, why);
			ret = zero_place(r, ZERO_POINT_ENTRY, 0, &p);
			tap_ok(ret == -ENODEV, "%s: zero_place on an unusable routine = %d (-ENODEV)",
			       r->name, ret);
			continue;
		}
		reloc = r;
		ok = place_sweep(r, ZERO_POINT_ENTRY, &b, msg, sizeof(msg));
		if (ok < 0)
			tap_skip_all("%s", msg);
		tap_ok(ok, "%s: entry placed at offsets 0..127 step %u + far ones%s%s", r->name,
		       ZERO_PLACE_ALIGN, ok ? "" : ": ", msg);
		if (!r->loop_head) {
			/* compiled C, or a kernel file's function without a loop (rep stosb) */
			ret = zero_place(r, ZERO_POINT_LOOP, 0, &p);
			tap_ok(ret == -ENOENT, "%s: no loop head: placing it = %d (-ENOENT)", r->name, ret);
			if (!ret)
				zero_unplace(&p);
			continue;
		}
		ok = place_sweep(r, ZERO_POINT_LOOP, &b, msg, sizeof(msg));
		tap_ok(ok, "%s: loop head placed at offsets 0..127 step %u + far ones%s%s", r->name,
		       ZERO_PLACE_ALIGN, ok ? "" : ": ", msg);
	}

	if (reloc) {
		ret = zero_place(reloc, ZERO_POINT_LOOP, ZERO_PLACE_MAX_OFFSET + 1, &p);
		tap_ok(ret == -EINVAL, "%s: offset %u -> %d (-EINVAL)", reloc->name,
		       ZERO_PLACE_MAX_OFFSET + 1, ret);
		if (!ret)
			zero_unplace(&p);
#if ZERO_PLACE_ALIGN > 1
		ret = zero_place(reloc, ZERO_POINT_LOOP, 2049, &p);
		tap_ok(ret == -EINVAL, "%s: offset 2049 (not a multiple of %u) -> %d (-EINVAL)",
		       reloc->name, ZERO_PLACE_ALIGN, ret);
		if (!ret)
			zero_unplace(&p);
#endif
	} else {
		tap_skip("offset 4096 -> -EINVAL: no usable relocatable routine");
	}
	if (fixed) {
		ret = zero_place(fixed, ZERO_POINT_ENTRY, 0, &p);
		tap_ok(ret == -ENOTSUP, "%s: not relocatable -> %d (-ENOTSUP)", fixed->name, ret);
		if (!ret)
			zero_unplace(&p);
	} else {
		tap_skip("-ENOTSUP: every routine is relocatable");
	}
	tap_ok(zero_lookup("no_such_routine") == NULL, "zero_lookup of an unknown name is NULL");
	small_sets();
	zt_buf_free(&b);
	return tap_done();
}
