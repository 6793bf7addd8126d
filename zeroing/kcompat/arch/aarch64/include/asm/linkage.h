/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: arm64's asm/linkage.h sets the function alignment and puts a
 * BTI "call" landing pad at the start of every SYM_FUNC_START* and
 * SYM_TYPED_FUNC_START function.
 * Here:
 *   CZ_FUNC_ALIGN	.balign CONFIG_FUNCTION_ALIGNMENT (NOP-filled in code)
 *   CZ_FUNC_ENTRY	bti c if CONFIG_ARM64_BTI_KERNEL (default y), else
 *			nothing
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_LINKAGE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_LINKAGE_H

#include <cz/kconfig.h>

#define CZ_FUNC_ALIGN	.balign CONFIG_FUNCTION_ALIGNMENT

#ifdef CONFIG_ARM64_BTI_KERNEL
#define CZ_FUNC_ENTRY	bti c
#else
#define CZ_FUNC_ENTRY
#endif

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_LINKAGE_H */
