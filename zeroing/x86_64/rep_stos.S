/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 "rep stos" routines.
 *
 * size_t zr_rep_stosb(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) bytes not cleared.
 *   What the kernel's __clear_user does on CPUs with FSRS, and clear_page_erms.
 *   On a fault rep stosb stops with rcx = bytes not yet stored.
 *
 * size_t zr_rep_stosq(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) bytes not cleared.
 *   clear_page_rep's "rep stosq" on n / 8 quadwords, then "rep stosb" on the
 *   n % 8 tail: the shape of x86 __clear_user before 6.2.  On a fault in the
 *   stosq part, rcx = quadwords not stored: bytes not cleared = rcx * 8 +
 *   tail (the kernel's EX_TYPE_UCOPY_LEN8 fixup).  A quadword that crosses
 *   into an unmapped page is not stored at all, so the count exceeds the
 *   exact one by at most 7.
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

/* 16-byte alignment, like the kernel's SYM_FUNC_START. */
	.p2align 4
ZR_FUNC_START(rep_stosq)
	movq	%rsi, %rcx
	movl	%esi, %edx
	andl	$7, %edx			/* tail bytes */
	shrq	$3, %rcx			/* quadwords */
	xorl	%eax, %eax
ZR_LOOP(rep_stosq)
.Lstosq:
	rep stosq
	movl	%edx, %ecx
.Lstosq_tail:
	rep stosb
.Lstosq_tail_fixup:
	movq	%rcx, %rax			/* 0 on success */
	ret
.Lstosq_fixup:
	leaq	(%rdx,%rcx,8), %rax		/* quadwords left * 8 + tail */
	ret
ZR_FUNC_END(rep_stosq)
ZR_EXTABLE(.Lstosq, .Lstosq_fixup)
ZR_EXTABLE(.Lstosq_tail, .Lstosq_tail_fixup)

	.section .note.GNU-stack, "", @progbits
