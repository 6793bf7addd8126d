/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64 routines: prototypes and placement symbols (see asm.h). */
#ifndef ZEROING_AARCH64_ROUTINES_H
#define ZEROING_AARCH64_ROUTINES_H

#include <stdbool.h>
#include <stddef.h>

#define ZR_DECLARE(name)					\
	size_t zr_##name(void *dst, size_t n);			\
	extern const char zr_##name##_loop[], zr_##name##_end[]

/* Every routine of registry.inc (its one list of names). */
#define ZR_ROUTINE(name, desc, flags, usable) ZR_DECLARE(name);
#include "registry.inc"
#undef ZR_ROUTINE

/* usable.c: the registry's usable() predicates. */
bool zr_aarch64_have_mops(const char **why);
bool zr_aarch64_have_dczva(const char **why);

#endif
