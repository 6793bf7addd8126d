/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/cpufeature.h brings in the ARM64_* cpucaps. */
#ifndef CZ_KCOMPAT_ASM_CPUFEATURE_H
#define CZ_KCOMPAT_ASM_CPUFEATURE_H

#include <asm/cpucaps.h>

#endif /* CZ_KCOMPAT_ASM_CPUFEATURE_H */
