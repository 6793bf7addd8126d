/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/cpufeature.h brings in the ARM64_* cpucaps. */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUFEATURE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUFEATURE_H

#include <asm/cpucaps.h>

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUFEATURE_H */
