/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-time code placement: "how fast is this loop when it sits at offset K
 * of a cache line?"  A relocatable routine's bytes [code_start, code_end)
 * are copied into a fresh anonymous mapping so that the chosen point (entry
 * or loop head) lands at an address == K (mod 4096).  The mapping is written
 * while read+write, then switched to read+exec (W^X), and the I-cache is
 * synchronised (a no-op on x86-64, required on arm64).
 *
 * Each placed copy is recorded in placed_regions[] so that the fault handler
 * (fault.c) can map a PC inside a copy back to the original code and find the
 * exception-table fixup.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "zeroing.h"
#include "placement.h"
#include "util.h"

struct placed_region placed_regions[ZR_MAX_PLACED];

static int region_add(uintptr_t start, size_t len, uintptr_t orig)
{
	size_t i;

	for (i = 0; i < ZR_MAX_PLACED; i++) {
		uintptr_t expected = 0;

		/* Claim a free slot; publish start last so the handler never sees a half entry. */
		if (!atomic_compare_exchange_strong(&placed_regions[i].claim, &expected, 1))
			continue;
		placed_regions[i].len = len;
		placed_regions[i].orig = orig;
		atomic_store(&placed_regions[i].start, start);
		return 0;
	}
	return -ENOSPC;
}

/* The region of the copy inside the mapping [map, map + len). */
static void region_del(uintptr_t map, size_t len)
{
	size_t i;

	for (i = 0; i < ZR_MAX_PLACED; i++) {
		uintptr_t s = atomic_load(&placed_regions[i].start);

		if (!s || s < map || s >= map + len)
			continue;
		atomic_store(&placed_regions[i].start, 0);
		atomic_store(&placed_regions[i].claim, 0);
		return;
	}
}

int zero_place(const struct zero_routine *r, enum zero_point point, unsigned offset,
	       struct zero_placed *out)
{
	const uintptr_t page = 4096;
	uintptr_t start, end, pt, delta, copy_off, dst;
	size_t len, map_len;
	void *map;
	int ret;

	memset(out, 0, sizeof(*out));
	if (offset > ZERO_PLACE_MAX_OFFSET || offset % ZERO_PLACE_ALIGN)
		return -EINVAL;
	if (!r->code_start)
		return -ENOTSUP;
	if (!zero_usable(r, NULL))
		return -ENODEV;
	if (point == ZERO_POINT_LOOP && !r->loop_head)
		return -ENOENT;
	start = (uintptr_t)r->code_start;
	end = (uintptr_t)r->code_end;
	pt = point == ZERO_POINT_LOOP ? (uintptr_t)r->loop_head :
	     r->place_entry ? (uintptr_t)r->place_entry : start;
	if (!pt || pt < start || pt >= end || end <= start)
		return -EINVAL;
	len = end - start;
	delta = pt - start;
	/* copy_off + delta == offset (mod page) */
	copy_off = (offset + page - (delta % page)) % page;
	map_len = (copy_off + len + page - 1) / page * page;

	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	/* Fill with a trap so a stray jump out of the copied range faults loudly. */
#if defined(__x86_64__)
	memset(map, 0xcc, map_len);          /* int3 */
#else
	memset(map, 0, map_len);             /* udf #0 on arm64 */
#endif
	dst = (uintptr_t)map + copy_off;
	memcpy((void *)dst, r->code_start, len);
	if (mprotect(map, map_len, PROT_READ | PROT_EXEC)) {
		ret = -errno;
		munmap(map, map_len);
		return ret;
	}
	__builtin___clear_cache((char *)dst, (char *)dst + len);
	ret = region_add(dst, len, start);
	if (ret) {
		munmap(map, map_len);
		return ret;
	}
	out->routine = r;
	/* fn and the entry keep their offsets in the copy (a kernel file's thunk, its function) */
	out->fn = (zero_fn)(dst + ((uintptr_t)r->fn - start < len ? (uintptr_t)r->fn - start : 0));
	out->entry = dst + (r->place_entry ? (uintptr_t)r->place_entry - start : 0);
	out->loop = r->loop_head ? dst + ((uintptr_t)r->loop_head - start) : 0;
	out->point = point;
	out->offset = offset;
	out->map = map;
	out->map_len = map_len;
	return 0;
}

void zero_unplace(struct zero_placed *p)
{
	if (!p->map)
		return;
	region_del((uintptr_t)p->map, p->map_len);
	munmap(p->map, p->map_len);
	memset(p, 0, sizeof(*p));
}

const char *zero_place_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return ZERO_PLACE_ALIGN > 1 ?
		       "offset out of range 0..4095 or not instruction-aligned, or the routine has no such point" :
		       "offset out of range 0..4095, or the routine has no such point";
	case -ENOTSUP:
		return "routine is not relocatable";
	case -ENOENT:
		return "routine has no loop head to place (compiled C, or no loop): place its entry";
	case -ENODEV:
		return "routine is not usable on this CPU";
	case -EACCES:
	case -EPERM:
		return "the system forbids executable mappings (SELinux execmem, noexec, seccomp?)";
	case -ENOSPC:
		return "too many placed copies at once";
	}
	return strerror(-err);
}

/* One item of a set into seen[]: 0, -EINVAL or -EDOM. */
static int parse_set_item(char *item, bool *seen)
{
	char *dots, *colon = strchr(item, ':');
	uint64_t a, b, step = ZERO_PLACE_ALIGN;

	if (colon) {
		*colon = '\0';
		if (cz_parse_u64(colon + 1, 1, ZERO_PLACE_MAX_OFFSET + 1, &step))
			return -EINVAL;
	}
	dots = strstr(item, "..");
	if (dots) {
		*dots = '\0';
		if (cz_parse_u64(item, 0, ZERO_PLACE_MAX_OFFSET, &a) ||
		    cz_parse_u64(dots + 2, a, ZERO_PLACE_MAX_OFFSET, &b))
			return -EINVAL;
		if (!colon)
			a = (a + ZERO_PLACE_ALIGN - 1) / ZERO_PLACE_ALIGN * ZERO_PLACE_ALIGN;
	} else if (colon || cz_parse_u64(item, 0, ZERO_PLACE_MAX_OFFSET, &a)) {
		return -EINVAL;
	} else {
		b = a;
	}
	for (; a <= b; a += step) {
		if (a % ZERO_PLACE_ALIGN)
			return -EDOM;
		seen[a] = true;
	}
	return 0;
}

int zero_place_parse_set(const char *spec, unsigned *out, size_t *n)
{
	char *copy = strdup(spec), *item, *save = NULL;
	bool *seen = calloc(ZERO_PLACE_MAX_OFFSET + 1, sizeof(*seen));
	size_t i;
	int ret = 0;

	*n = 0;
	if (!copy || !seen) {
		free(copy);
		free(seen);
		return -ENOMEM;
	}
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = parse_set_item(item, seen);
	for (i = 0; i <= ZERO_PLACE_MAX_OFFSET; i++)
		if (seen[i])
			out[(*n)++] = (unsigned)i;
	free(copy);
	free(seen);
	return ret ? ret : *n ? 0 : -EINVAL;
}

int zero_place_parse_small_set(const char *spec, uint16_t *out, size_t max, size_t *n)
{
	unsigned *all = malloc((ZERO_PLACE_MAX_OFFSET + 1) * sizeof(*all));
	size_t i;
	int ret;

	*n = 0;
	if (!all)
		return -ENOMEM;
	ret = zero_place_parse_set(spec, all, n);
	if (!ret && *n > max)
		ret = -E2BIG;
	for (i = 0; !ret && i < *n; i++)
		out[i] = (uint16_t)all[i];
	free(all);
	return ret;
}
