/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86-64 kernel's unrolled movq loops (arch/x86/lib/clear_page_64.S).
 *
 * size_t zr_clear_page_orig(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) 0.
 *   clear_page_orig's loop -- 8 x "movq %rax, k*8(%rdi)", 64 bytes per
 *   iteration, "decl %ecx" first and "jnz" after the "leaq 64(%rdi)" -- run
 *   on the whole 64-byte blocks of the range.  The kernel only ever calls
 *   it on one page-aligned page; to accept any (dst, n) (ZERO_F_PAGE):
 *     head   bytes from dst up to the next 64-byte boundary (0..63), or all
 *            of n if the range ends before it: a plain byte loop;
 *     middle (n - head) / 64 blocks of 64 bytes, all 64-byte aligned: the
 *            kernel loop (counter widened to 64 bits: decq);
 *     tail   the remaining (n - head) % 64 bytes: the same byte loop.
 *   A page-aligned 4 KiB chunk is therefore exactly clear_page_orig.
 *   Not fault-safe (the kernel never lets clear_page fault).
 *
 * size_t zr_rep_stos_alternative(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) bytes not cleared.
 *   The kernel's rep_stos_alternative (x86 __clear_user without FSRS, 6.2+):
 *   its own convention is rdi - dest, rcx - count, rax - 0, result in rcx;
 *   the two moves on entry and the final "movq %rcx, %rax" adapt it to the
 *   registry's C contract.  n >= 64: unrolled loop of 8 x movq (64 bytes);
 *   then an 8-byte loop; then a byte loop.  A fault on any quadword store
 *   restarts at the byte loop from the unchanged rdi, which stores byte by
 *   byte up to the faulting byte: the count returned is EXACT.
 */
#include "asm.h"

	.text

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, like the kernel's SYM_FUNC_START. */
	.p2align 4
ZR_FUNC_START(clear_page_orig)
	xorl	%eax, %eax
	movl	%edi, %ecx
	negl	%ecx
	andl	$63, %ecx			/* head = -dst & 63 */
	cmpq	%rsi, %rcx
	jae	.Lcpo_all_bytes			/* range ends before the boundary */
	subq	%rcx, %rsi
	testl	%ecx, %ecx
	jz	.Lcpo_middle
.Lcpo_head:
	movb	%al, (%rdi)
	incq	%rdi
	decl	%ecx
	jnz	.Lcpo_head
.Lcpo_middle:
	movq	%rsi, %rcx
	shrq	$6, %rcx			/* 64-byte blocks */
	jz	.Lcpo_tail
/* The kernel aligns this loop to 16 bytes (.p2align 4). */
	.p2align 4
ZR_LOOP(clear_page_orig)
.Lcpo_loop:
	decq	%rcx
	movq	%rax, (%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 24(%rdi)
	movq	%rax, 32(%rdi)
	movq	%rax, 40(%rdi)
	movq	%rax, 48(%rdi)
	movq	%rax, 56(%rdi)
	leaq	64(%rdi), %rdi
	jnz	.Lcpo_loop
	nop					/* as in the kernel */
.Lcpo_tail:
	movl	%esi, %ecx
	andl	$63, %ecx
	jmp	.Lcpo_bytes
.Lcpo_all_bytes:
	movl	%esi, %ecx			/* n < 64 here */
.Lcpo_bytes:
	testl	%ecx, %ecx
	jz	.Lcpo_done
.Lcpo_byte:
	movb	%al, (%rdi)
	incq	%rdi
	decl	%ecx
	jnz	.Lcpo_byte
.Lcpo_done:
	ret
ZR_FUNC_END(clear_page_orig)

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, like the kernel's SYM_FUNC_START. */
	.p2align 4
ZR_FUNC_START(rep_stos_alternative)
	movq	%rsi, %rcx			/* kernel convention: rcx = count */
	xorl	%eax, %eax			/*                    rax = 0 */
	cmpq	$64, %rcx
	jae	.Lrsa_unrolled

	cmpl	$8, %ecx
	jae	.Lrsa_word

	testl	%ecx, %ecx
	je	.Lrsa_exit

.Lrsa_tail:
.Lrsa_st1:
	movb	%al, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lrsa_tail
.Lrsa_exit:
	movq	%rcx, %rax			/* kernel: result in rcx */
	ret

.Lrsa_word:
.Lrsa_st8:
	movq	%rax, (%rdi)
	addq	$8, %rdi
	subl	$8, %ecx
	je	.Lrsa_exit
	cmpl	$8, %ecx
	jae	.Lrsa_word
	jmp	.Lrsa_tail

/* The kernel aligns the unrolled loop to 16 bytes. */
	.p2align 4
ZR_LOOP(rep_stos_alternative)
.Lrsa_unrolled:
.Lrsa_u0:	movq	%rax, (%rdi)
.Lrsa_u1:	movq	%rax, 8(%rdi)
.Lrsa_u2:	movq	%rax, 16(%rdi)
.Lrsa_u3:	movq	%rax, 24(%rdi)
.Lrsa_u4:	movq	%rax, 32(%rdi)
.Lrsa_u5:	movq	%rax, 40(%rdi)
.Lrsa_u6:	movq	%rax, 48(%rdi)
.Lrsa_u7:	movq	%rax, 56(%rdi)
	addq	$64, %rdi
	subq	$64, %rcx
	cmpq	$64, %rcx			/* the kernel's compare, byte for byte */
	jae	.Lrsa_unrolled
	cmpl	$8, %ecx
	jae	.Lrsa_word
	testl	%ecx, %ecx
	jne	.Lrsa_tail
	ret					/* rax == 0 */
ZR_FUNC_END(rep_stos_alternative)
/*
 * A faulting byte store ends the call with rcx = bytes left (exact).  A
 * faulting quadword store goes to the byte loop, which re-clears from rdi
 * byte by byte until the faulting byte -- "might end up clearing some bytes
 * twice. Don't care." (kernel comment).
 */
ZR_EXTABLE(.Lrsa_st1, .Lrsa_exit)
ZR_EXTABLE(.Lrsa_st8, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u0, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u1, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u2, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u3, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u4, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u5, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u6, .Lrsa_tail)
ZR_EXTABLE(.Lrsa_u7, .Lrsa_tail)

	.section .note.GNU-stack, "", @progbits
