/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: UNWIND_HINT_* tell objtool/ORC the stack state.  Here: nothing. */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_UNWIND_HINTS_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_UNWIND_HINTS_H

#include <linux/objtool.h>

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_UNWIND_HINTS_H */
