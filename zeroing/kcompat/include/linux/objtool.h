/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: objtool annotations -- they only leave notes (in .discard.* /
 * .annotate_insn sections) for the objtool checker and change no code.
 * Here: no objtool, so every annotation assembles to nothing.  They are
 * assembler macros, so the bare form, positional arguments and the
 * kernel's named arguments (UNWIND_HINT_REGS base=... offset=...,
 * ANNOTATE type=...) all work.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_OBJTOOL_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_OBJTOOL_H

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

.macro ANNOTATE type=0
.endm
.macro ANNOTATE_NOENDBR args:vararg
.endm
.macro ANNOTATE_NOENDBR_SYM args:vararg
.endm
.macro ANNOTATE_RETPOLINE_SAFE args:vararg
.endm
.macro ANNOTATE_INTRA_FUNCTION_CALL args:vararg
.endm
.macro ANNOTATE_UNRET_SAFE args:vararg
.endm
.macro ANNOTATE_UNRET_BEGIN args:vararg
.endm
.macro ANNOTATE_IGNORE_ALTERNATIVE args:vararg
.endm
.macro ANNOTATE_REACHABLE args:vararg
.endm
.macro ANNOTATE_NOCFI_SYM args:vararg
.endm
.macro ANNOTATE_DATA_SPECIAL args:vararg
.endm
.macro ANNOTATE_NOINSTR_BEGIN args:vararg
.endm
.macro ANNOTATE_NOINSTR_END args:vararg
.endm
.macro STACK_FRAME_NON_STANDARD func=0
.endm
.macro STACK_FRAME_NON_STANDARD_FP func=0
.endm
.macro UNWIND_HINT type=0 sp_reg=0 sp_offset=0 signal=0 end=0
.endm
.macro UNWIND_HINT_UNDEFINED args:vararg
.endm
.macro UNWIND_HINT_END_OF_STACK args:vararg
.endm
.macro UNWIND_HINT_EMPTY args:vararg
.endm
.macro UNWIND_HINT_FUNC args:vararg
.endm
.macro UNWIND_HINT_SAVE args:vararg
.endm
.macro UNWIND_HINT_RESTORE args:vararg
.endm
.macro UNWIND_HINT_REGS base=0 offset=0 indirect=0 extra=1 partial=0 signal=1
.endm
.macro UNWIND_HINT_IRET_REGS base=0 offset=0 signal=1
.endm
.macro UNWIND_HINT_IRET_ENTRY base=0 offset=0 signal=1
.endm
.macro UNWIND_HINT_ENTRY args:vararg
.endm
.macro UNWIND_HINT_RET_OFFSET args:vararg
.endm

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_OBJTOOL_H */
