/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/cpufeature.h brings in the X86_FEATURE_* numbers. */
#ifndef CZ_KCOMPAT_ASM_CPUFEATURE_H
#define CZ_KCOMPAT_ASM_CPUFEATURE_H

#include <asm/cpufeatures.h>

#endif /* CZ_KCOMPAT_ASM_CPUFEATURE_H */
