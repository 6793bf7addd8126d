/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 "rep stos" routines.
 *
 * size_t zr_rep_stosb(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) bytes not cleared.
 *   What the kernel's __clear_user does on CPUs with FSRS, and clear_page_erms.
 *   On a fault rep stosb stops with rcx = bytes not yet stored.
 */
#include "asm.h"

	.text

/* 16-byte alignment, like the kernel's SYM_FUNC_START. */
	.p2align 4
ZR_FUNC_START(rep_stosb)
	movq	%rsi, %rcx
	xorl	%eax, %eax
ZR_LOOP(rep_stosb)
.Lstosb:
	rep stosb
	/* rcx == 0 on success */
.Lstosb_fixup:
	movq	%rcx, %rax
	ret
ZR_FUNC_END(rep_stosb)
ZR_EXTABLE(.Lstosb, .Lstosb_fixup)

	.section .note.GNU-stack, "", @progbits
