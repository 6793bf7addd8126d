/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 build configuration of the compat layer: the only CONFIG_
 * symbols it reads, and their defaults.  Included by linux/linkage.h and
 * by every asm/ header that reads a CONFIG_ symbol; may also be given to
 * gcc as -include cz/kconfig.h (harmless, not required).
 *
 * Setting from the command line (the loader):
 *   numeric  -DCONFIG_X=VALUE
 *   boolean  y: -DCONFIG_X (=1);  n: -DCZ_NO_CONFIG_X (always works;
 *            -UCONFIG_X also works for booleans whose default is n)
 *   unset    the default below.
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_CZ_KCONFIG_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_CZ_KCONFIG_H

#include <linux/kconfig.h>

/* Fixed facts of the target. */
#define CONFIG_ARM64		1
#define CONFIG_64BIT		1
#define CONFIG_CPU_LITTLE_ENDIAN 1

/* Function-start alignment in bytes (kernel default on arm64: 4). */
#ifndef CONFIG_FUNCTION_ALIGNMENT
#define CONFIG_FUNCTION_ALIGNMENT	4
#endif
#if CONFIG_FUNCTION_ALIGNMENT < 4 || \
	(CONFIG_FUNCTION_ALIGNMENT & (CONFIG_FUNCTION_ALIGNMENT - 1))
#error "CONFIG_FUNCTION_ALIGNMENT must be a power of two, at least 4"
#endif

/* log2 of the L1 cache line (kernel default 6: 64-byte lines). */
#ifndef CONFIG_ARM64_L1_CACHE_SHIFT
#define CONFIG_ARM64_L1_CACHE_SHIFT	6
#endif
#if CONFIG_ARM64_L1_CACHE_SHIFT < 4 || CONFIG_ARM64_L1_CACHE_SHIFT > 11
#error "CONFIG_ARM64_L1_CACHE_SHIFT out of range (4..11)"
#endif

/* Page size: 12 (4K, default), 14 (16K) or 16 (64K). */
#ifndef CONFIG_ARM64_PAGE_SHIFT
#ifdef CONFIG_PAGE_SHIFT
#define CONFIG_ARM64_PAGE_SHIFT	CONFIG_PAGE_SHIFT
#else
#define CONFIG_ARM64_PAGE_SHIFT	12
#endif
#endif
#if CONFIG_ARM64_PAGE_SHIFT != 12 && CONFIG_ARM64_PAGE_SHIFT != 14 && \
	CONFIG_ARM64_PAGE_SHIFT != 16
#error "CONFIG_ARM64_PAGE_SHIFT must be 12, 14 or 16"
#endif
#ifndef CONFIG_PAGE_SHIFT		/* 6.12+ spelling */
#define CONFIG_PAGE_SHIFT	CONFIG_ARM64_PAGE_SHIFT
#endif

/*
 * The assembler knows the MOPS (memory copy/set) instructions.  Default y
 * (binutils >= 2.38); kernel files that use them enable them themselves
 * with .arch_extension mops.  n makes 7.x files assemble their non-MOPS
 * path only.
 */
#ifdef CZ_NO_CONFIG_AS_HAS_MOPS
#undef CONFIG_AS_HAS_MOPS
#elif !defined(CONFIG_AS_HAS_MOPS)
#define CONFIG_AS_HAS_MOPS	1
#endif

/*
 * BTI landing pads ("bti c", a hint-space NOP on CPUs without BTI) at the
 * start of every SYM_FUNC_START* function.  The kernel (6.1 .. 7.2) emits
 * them whatever its configuration, so the default here is y too; n drops
 * them.
 */
#ifdef CZ_NO_CONFIG_ARM64_BTI_KERNEL
#undef CONFIG_ARM64_BTI_KERNEL
#elif !defined(CONFIG_ARM64_BTI_KERNEL)
#define CONFIG_ARM64_BTI_KERNEL	1
#endif

/* Booleans are 1 or undefined, as in the kernel's autoconf.h. */
#if defined(CONFIG_AS_HAS_MOPS) && !(CONFIG_AS_HAS_MOPS + 0)
#error "CONFIG_AS_HAS_MOPS must be 1; for n pass -DCZ_NO_CONFIG_AS_HAS_MOPS"
#endif
#if defined(CONFIG_ARM64_BTI_KERNEL) && !(CONFIG_ARM64_BTI_KERNEL + 0)
#error "CONFIG_ARM64_BTI_KERNEL must be 1; for n pass -DCZ_NO_CONFIG_ARM64_BTI_KERNEL"
#endif

/* Refused: kCFI type hashes in front of functions. */
#ifdef CONFIG_CFI_CLANG
#error "CONFIG_CFI_CLANG (kCFI type hashes) is not supported"
#endif

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_CZ_KCONFIG_H */
