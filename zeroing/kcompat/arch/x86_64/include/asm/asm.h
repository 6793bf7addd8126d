/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: asm/asm.h has the x86 word-size helpers and the exception-table
 * forms _ASM_EXTABLE*(from, to[, type]): "a fault at `from` is handled by
 * continuing at `to`".
 * Here: each _ASM_EXTABLE* use writes one cz_kextable entry (cz/records.h)
 * {from, to}.  The type must be EX_TYPE_DEFAULT or EX_TYPE_UACCESS (see
 * asm/extable_fixup_types.h); anything else stops assembly.
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ASM_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ASM_H

#include <cz/kconfig.h>
#include <cz/kasm.h>
#include <asm/extable_fixup_types.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

/* Word-size helpers (x86-64 forms). */
#define _ASM_PTR	.quad
#define _ASM_ALIGN	.balign 8
#define _ASM_MOV	movq
#define _ASM_INC	incq
#define _ASM_DEC	decq
#define _ASM_ADD	addq
#define _ASM_SUB	subq
#define _ASM_SP		%rsp
#define _ASM_BP		%rbp
#define _ASM_AX		%rax
#define _ASM_BX		%rbx
#define _ASM_CX		%rcx
#define _ASM_DX		%rdx
#define _ASM_SI		%rsi
#define _ASM_DI		%rdi

.macro cz_x86_extable from:req, to:req, type:req
	.if ((\type) != EX_TYPE_DEFAULT) && ((\type) != EX_TYPE_UACCESS)
	.error "cz: exception-table type other than EX_TYPE_DEFAULT/EX_TYPE_UACCESS is not supported"
	.endif
	cz_kextable \from, \to
.endm

#define _ASM_EXTABLE_TYPE(from, to, type)	cz_x86_extable from, to, type
#define _ASM_EXTABLE_TYPE_REG(from, to, type, reg) \
						cz_x86_extable from, to, type
#define _ASM_EXTABLE(from, to)		_ASM_EXTABLE_TYPE(from, to, EX_TYPE_DEFAULT)
#define _ASM_EXTABLE_UA(from, to)	_ASM_EXTABLE_TYPE(from, to, EX_TYPE_UACCESS)
#define _ASM_EXTABLE_CPY(from, to)	_ASM_EXTABLE_TYPE(from, to, EX_TYPE_COPY)
#define _ASM_EXTABLE_FAULT(from, to)	_ASM_EXTABLE_TYPE(from, to, EX_TYPE_FAULT)

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ASM_H */
