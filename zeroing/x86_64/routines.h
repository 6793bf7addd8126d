/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-64 routines: prototypes and placement symbols (see asm.h). */
#ifndef ZEROING_X86_64_ROUTINES_H
#define ZEROING_X86_64_ROUTINES_H

#include <stddef.h>

#define ZR_DECLARE(name)					\
	size_t zr_##name(void *dst, size_t n);			\
	extern const char zr_##name##_loop[], zr_##name##_end[]

ZR_DECLARE(rep_stosb);

#endif
