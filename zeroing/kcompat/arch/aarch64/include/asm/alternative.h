/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/alternative.h includes the alternative_* assembler macros. */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_H

#include <asm/alternative-macros.h>

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_H */
