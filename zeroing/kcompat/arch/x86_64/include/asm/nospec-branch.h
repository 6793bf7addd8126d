/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: Spectre-v2 / retbleed helpers -- retpoline indirect branches,
 * return-stack stuffing, return thunks, call-depth accounting.
 * Here: indirect branches are plain indirect branches and the mitigation
 * sequences assemble to nothing (they need kernel state or privileged
 * MSRs and change no result).
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_NOSPEC_BRANCH_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_NOSPEC_BRANCH_H

#include <linux/objtool.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

.macro JMP_NOSPEC reg:req
	jmp	*%\reg
.endm
.macro CALL_NOSPEC reg:req
	call	*%\reg
.endm
.macro UNTRAIN_RET args:vararg
.endm
.macro UNTRAIN_RET_VM args:vararg
.endm
.macro UNTRAIN_RET_FROM_CALL args:vararg
.endm
.macro CALL_DEPTH_ACCOUNT args:vararg
.endm
.macro FILL_RETURN_BUFFER args:vararg
.endm
.macro ISSUE_UNBALANCED_RET_GUARD args:vararg
.endm
.macro CLEAR_CPU_BUFFERS args:vararg
.endm
.macro CLEAR_BRANCH_HISTORY args:vararg
.endm

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_NOSPEC_BRANCH_H */
