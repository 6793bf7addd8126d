/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/alternative.h includes the alternative_* assembler macros. */
#ifndef CZ_KCOMPAT_ASM_ALTERNATIVE_H
#define CZ_KCOMPAT_ASM_ALTERNATIVE_H

#include <asm/alternative-macros.h>

#endif /* CZ_KCOMPAT_ASM_ALTERNATIVE_H */
