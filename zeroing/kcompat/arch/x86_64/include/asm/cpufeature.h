/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/cpufeature.h brings in the X86_FEATURE_* numbers. */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURE_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURE_H

#include <asm/cpufeatures.h>

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURE_H */
