/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: arm64's asm/assembler.h is a large collection of assembler
 * helpers (it also pulls in alternatives, the exception table, page and
 * cpucap definitions).
 * Here: those includes, plus the small helpers a zeroing/copy routine may
 * use:
 *   nops n		n NOP instructions (defined in asm/alternative-macros.h)
 *   CPU_LE(code) / CPU_BE(code)	code for little / big endian only
 *			(the target is little endian)
 *   SYM_FUNC_START_PI(x), SYM_FUNC_START_WEAK_PI(x), SYM_FUNC_END_PI(x)
 *			(5.x) function x with a second global name __pi_x
 * Everything else of the kernel's file (system-register, MMU, cache
 * maintenance, per-cpu helpers) is deliberately missing: it needs kernel
 * state or privilege, and using it fails with an unknown-macro error.
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASSEMBLER_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASSEMBLER_H

#include <cz/kconfig.h>
#include <linux/const.h>
#include <linux/export.h>
#include <asm/alternative.h>
#include <asm/asm-extable.h>
#include <asm/cpucaps.h>
#include <asm/page.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

#define CPU_LE(code...)		code
#define CPU_BE(code...)

#define SYM_FUNC_START_PI(x)					\
	SYM_FUNC_START_ALIAS(__pi_##x) ASM_NL SYM_FUNC_START(x)
#define SYM_FUNC_START_WEAK_PI(x)				\
	SYM_FUNC_START_ALIAS(__pi_##x) ASM_NL SYM_FUNC_START_WEAK(x)
#define SYM_FUNC_END_PI(x)					\
	SYM_FUNC_END(x) ASM_NL SYM_FUNC_END_ALIAS(__pi_##x)

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASSEMBLER_H */
