/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 build configuration of the compat layer: the only CONFIG_
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
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_CZ_KCONFIG_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_CZ_KCONFIG_H

#include <linux/kconfig.h>

/* Fixed facts of the target. */
#define CONFIG_X86		1
#define CONFIG_X86_64		1
#define CONFIG_64BIT		1

/* Function-start alignment in bytes (kernel default on x86-64: 16). */
#ifndef CONFIG_FUNCTION_ALIGNMENT
#define CONFIG_FUNCTION_ALIGNMENT	16
#endif
#if CONFIG_FUNCTION_ALIGNMENT < 1 || \
	(CONFIG_FUNCTION_ALIGNMENT & (CONFIG_FUNCTION_ALIGNMENT - 1))
#error "CONFIG_FUNCTION_ALIGNMENT must be a power of two"
#endif

/*
 * Straight-line-speculation hardening: an int3 after every ret.  Default
 * n.  6.1 spells it CONFIG_SLS; either name switches it on.
 */
#if defined(CONFIG_SLS) && !defined(CONFIG_MITIGATION_SLS)
#define CONFIG_MITIGATION_SLS	CONFIG_SLS
#endif
#ifdef CZ_NO_CONFIG_MITIGATION_SLS
#undef CONFIG_MITIGATION_SLS
#undef CONFIG_SLS
#endif

/* Indirect branch tracking: an endbr64 at function entries.  Default n. */
#ifdef CZ_NO_CONFIG_X86_KERNEL_IBT
#undef CONFIG_X86_KERNEL_IBT
#endif

/* Booleans are 1 or undefined, as in the kernel's autoconf.h. */
#if defined(CONFIG_MITIGATION_SLS) && !(CONFIG_MITIGATION_SLS + 0)
#error "CONFIG_MITIGATION_SLS/CONFIG_SLS must be 1; for n pass -DCZ_NO_CONFIG_MITIGATION_SLS"
#endif
#if defined(CONFIG_X86_KERNEL_IBT) && !(CONFIG_X86_KERNEL_IBT + 0)
#error "CONFIG_X86_KERNEL_IBT must be 1; for n pass -DCZ_NO_CONFIG_X86_KERNEL_IBT"
#endif

/* Refused: these change code in ways user space cannot run or emulate. */
#if defined(CONFIG_MITIGATION_RETHUNK) || defined(CONFIG_RETHUNK)
#error "CONFIG_MITIGATION_RETHUNK is not supported (returns via __x86_return_thunk)"
#endif
#if defined(CONFIG_CALL_PADDING) || defined(CONFIG_CALL_DEPTH_TRACKING)
#error "CONFIG_CALL_PADDING / call depth tracking is not supported"
#endif
#ifdef CONFIG_CFI_CLANG
#error "CONFIG_CFI_CLANG (kCFI type hashes) is not supported"
#endif

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_CZ_KCONFIG_H */
