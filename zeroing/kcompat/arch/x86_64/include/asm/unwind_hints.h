/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: UNWIND_HINT_* tell objtool/ORC the stack state.  Here: nothing. */
#ifndef CZ_KCOMPAT_ASM_UNWIND_HINTS_H
#define CZ_KCOMPAT_ASM_UNWIND_HINTS_H

#include <linux/objtool.h>

#endif /* CZ_KCOMPAT_ASM_UNWIND_HINTS_H */
