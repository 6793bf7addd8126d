/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel and here: the L1 cache line size the code aligns hot loops to,
 * log2 in L1_CACHE_SHIFT (CONFIG_ARM64_L1_CACHE_SHIFT, default 6).
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CACHE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CACHE_H

#include <cz/kconfig.h>

#define L1_CACHE_SHIFT		(CONFIG_ARM64_L1_CACHE_SHIFT)
#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CACHE_H */
