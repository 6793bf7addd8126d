/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64 routines: prototypes and placement symbols (see asm.h). */
#ifndef ZEROING_AARCH64_ROUTINES_H
#define ZEROING_AARCH64_ROUTINES_H

#include <stdbool.h>
#include <stddef.h>

#define ZR_DECLARE(name)					\
	size_t zr_##name(void *dst, size_t n);			\
	extern const char zr_##name##_loop[], zr_##name##_end[]

/* clear_user.S */
ZR_DECLARE(clear_user_arm64);
ZR_DECLARE(clear_user_arm64_quirk);
ZR_DECLARE(clear_user_arm64_fixed);
ZR_DECLARE(clear_user_arm64_mops);
/* clear_page.S */
ZR_DECLARE(clear_page_dczva);
ZR_DECLARE(clear_page_stnp);
ZR_DECLARE(clear_page_mops);
/* memset.S */
ZR_DECLARE(memset_arm64);
ZR_DECLARE(memset_arm64_mops);

/* usable.c: the registry's usable() predicates. */
bool zr_aarch64_have_mops(const char **why);
bool zr_aarch64_have_dczva(const char **why);

#endif
