/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Non-temporal stores (ZERO_F_NT): movnti, as the kernel's *_nocache copy
 * routines and the proposed clear_page_nocache use, then sfence to order the
 * weakly-ordered stores before the return.
 *
 * size_t zr_nt(void *dst, size_t n)
 *   rdi - dest, rsi - count, rdx - end; returns (rax) 0.
 *   n >= 64:
 *     head   8 plain movq cover [dst, dst + 64) -- this includes everything
 *            up to the first 64-byte boundary after dst;
 *     middle from that boundary, whole 64-byte lines of 8 x movnti (one full
 *            write-combining line per iteration, never a partial one);
 *     tail   8 plain movq cover [end - 64, end), overlapping the rest;
 *     sfence.
 *   n < 64: plain overlapping stores (8-byte loop, then 4/2/1), no NT.
 * Not fault-safe.
 */
#include "asm.h"

	.text

/* 16-byte function alignment, like the kernel's SYM_FUNC_START. */
	.p2align 4
ZR_FUNC_START(nt)
	xorl	%eax, %eax
	leaq	(%rdi,%rsi), %rdx		/* end */
	cmpq	$64, %rsi
	jb	.Lnt_small
	movq	%rax, (%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 24(%rdi)
	movq	%rax, 32(%rdi)
	movq	%rax, 40(%rdi)
	movq	%rax, 48(%rdi)
	movq	%rax, 56(%rdi)
	addq	$64, %rdi
	andq	$-64, %rdi			/* first line not wholly covered */
	leaq	-64(%rdx), %rcx			/* start of the tail */
	cmpq	%rcx, %rdi
	jae	.Lnt_tail
/* The movnti loop on a 16-byte boundary. */
	.p2align 4
ZR_LOOP(nt)
.Lnt_loop:
	movnti	%rax, (%rdi)
	movnti	%rax, 8(%rdi)
	movnti	%rax, 16(%rdi)
	movnti	%rax, 24(%rdi)
	movnti	%rax, 32(%rdi)
	movnti	%rax, 40(%rdi)
	movnti	%rax, 48(%rdi)
	movnti	%rax, 56(%rdi)
	addq	$64, %rdi
	cmpq	%rcx, %rdi
	jb	.Lnt_loop
	sfence
.Lnt_tail:
	movq	%rax, (%rcx)
	movq	%rax, 8(%rcx)
	movq	%rax, 16(%rcx)
	movq	%rax, 24(%rcx)
	movq	%rax, 32(%rcx)
	movq	%rax, 40(%rcx)
	movq	%rax, 48(%rcx)
	movq	%rax, 56(%rcx)
	ret

.Lnt_small:					/* n < 64 */
	cmpl	$8, %esi
	jb	.Lnt_lt8
	leaq	-8(%rdx), %rcx			/* last quadword, overlapping */
.Lnt_q:
	movq	%rax, (%rdi)
	addq	$8, %rdi
	cmpq	%rcx, %rdi
	jb	.Lnt_q
	movq	%rax, (%rcx)
	ret
.Lnt_lt8:
	cmpl	$4, %esi
	jb	.Lnt_lt4
	movl	%eax, (%rdi)
	movl	%eax, -4(%rdx)
	ret
.Lnt_lt4:
	cmpl	$2, %esi
	jb	.Lnt_lt2
	movw	%ax, (%rdi)
	movw	%ax, -2(%rdx)
	ret
.Lnt_lt2:
	testl	%esi, %esi
	jz	.Lnt_done
	movb	%al, (%rdi)
.Lnt_done:
	ret
ZR_FUNC_END(nt)

	.section .note.GNU-stack, "", @progbits
