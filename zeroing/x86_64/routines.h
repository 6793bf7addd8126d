/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-64 routines: prototypes, placement symbols (see asm.h), usable() predicates. */
#ifndef ZEROING_X86_64_ROUTINES_H
#define ZEROING_X86_64_ROUTINES_H

#include <stdbool.h>
#include <stddef.h>

#include "zeroing.h"

#define ZR_DECLARE(name)					\
	size_t zr_##name(void *dst, size_t n);			\
	extern const char zr_##name##_loop[], zr_##name##_end[]

/* Every routine of registry.inc (its one list of names). */
#define ZR_ROUTINE(name, desc, flags, usable) ZR_DECLARE(name);
#include "registry.inc"
#undef ZR_ROUTINE


/* usable() predicates for registry.inc (registry.c is their only user). */
static inline bool zr_x86_has_avx2(const char **why)
{
	if (zero_cpu()->avx2)
		return true;
	*why = "CPU or OS lacks AVX2 (CPUID.7.EBX[5], XCR0 YMM state)";
	return false;
}

static inline bool zr_x86_has_avx512f(const char **why)
{
	if (zero_cpu()->avx512f)
		return true;
	*why = "CPU or OS lacks AVX-512F (CPUID.7.EBX[16], XCR0 ZMM state)";
	return false;
}

#endif
