/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Vector (temporal) store loops, the shape of glibc's memset-vec-unaligned:
 * an unrolled loop of 4 unaligned vector stores, a one-vector loop, then one
 * overlapping vector store that ends exactly at dst + n; sizes below one
 * vector use overlapping stores of halving width.  Not fault-safe.
 *
 * size_t zr_avx2(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) 0.  32-byte vmovdqu (ymm0 = 0),
 *   128 bytes per loop iteration; vzeroupper before returning.
 *
 * size_t zr_avx512(void *dst, size_t n)
 *   rdi - dest, rsi - count; returns (rax) 0.  64-byte vmovdqu64 of zmm0 = 0
 *   (AVX-512F only: the 32/16-byte small-size stores use the VEX forms on
 *   ymm0/xmm0, so AVX-512VL is not required), 256 bytes per loop
 *   iteration; vzeroupper before returning.
 */
#include "asm.h"

	.text

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, like glibc's ENTRY. */
	.p2align 4
ZR_FUNC_START(avx2)
	vpxor	%xmm0, %xmm0, %xmm0		/* VEX: clears all of ymm0 */
	xorl	%eax, %eax
	cmpq	$32, %rsi
	jb	.Lavx2_small
	leaq	-32(%rdi,%rsi), %rdx		/* last vector, overlapping */
	cmpq	$128, %rsi
	jb	.Lavx2_vec
/* Main loop on a 16-byte boundary (the loop-stream/uop-cache fetch unit). */
	.p2align 4
ZR_LOOP(avx2)
.Lavx2_loop:
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, 32(%rdi)
	vmovdqu	%ymm0, 64(%rdi)
	vmovdqu	%ymm0, 96(%rdi)
	subq	$-128, %rdi
	addq	$-128, %rsi
	cmpq	$128, %rsi
	jae	.Lavx2_loop
.Lavx2_vec:					/* 0..127 bytes left, n >= 32 */
	cmpq	$32, %rsi
	jbe	.Lavx2_last
	vmovdqu	%ymm0, (%rdi)
	addq	$32, %rdi
	subq	$32, %rsi
	jmp	.Lavx2_vec
.Lavx2_last:
	vmovdqu	%ymm0, (%rdx)
	vzeroupper
	ret
.Lavx2_small:					/* n < 32 */
	cmpl	$16, %esi
	jb	.Lavx2_lt16
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm0, -16(%rdi,%rsi)
	vzeroupper
	ret
.Lavx2_lt16:
	vzeroupper
	cmpl	$8, %esi
	jb	.Lavx2_lt8
	movq	%rax, (%rdi)
	movq	%rax, -8(%rdi,%rsi)
	ret
.Lavx2_lt8:
	cmpl	$4, %esi
	jb	.Lavx2_lt4
	movl	%eax, (%rdi)
	movl	%eax, -4(%rdi,%rsi)
	ret
.Lavx2_lt4:
	cmpl	$2, %esi
	jb	.Lavx2_lt2
	movw	%ax, (%rdi)
	movw	%ax, -2(%rdi,%rsi)
	ret
.Lavx2_lt2:
	testl	%esi, %esi
	jz	.Lavx2_done
	movb	%al, (%rdi)
.Lavx2_done:
	ret
ZR_FUNC_END(avx2)

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, like glibc's ENTRY. */
	.p2align 4
ZR_FUNC_START(avx512)
	vpxor	%xmm0, %xmm0, %xmm0		/* VEX: clears all of zmm0 */
	xorl	%eax, %eax
	cmpq	$64, %rsi
	jb	.Lavx512_small
	leaq	-64(%rdi,%rsi), %rdx		/* last vector, overlapping */
	cmpq	$256, %rsi
	jb	.Lavx512_vec
/* Main loop on a 16-byte boundary. */
	.p2align 4
ZR_LOOP(avx512)
.Lavx512_loop:
	vmovdqu64 %zmm0, (%rdi)
	vmovdqu64 %zmm0, 64(%rdi)
	vmovdqu64 %zmm0, 128(%rdi)
	vmovdqu64 %zmm0, 192(%rdi)
	addq	$256, %rdi
	subq	$256, %rsi
	cmpq	$256, %rsi
	jae	.Lavx512_loop
.Lavx512_vec:					/* 0..255 bytes left, n >= 64 */
	cmpq	$64, %rsi
	jbe	.Lavx512_last
	vmovdqu64 %zmm0, (%rdi)
	addq	$64, %rdi
	subq	$64, %rsi
	jmp	.Lavx512_vec
.Lavx512_last:
	vmovdqu64 %zmm0, (%rdx)
	vzeroupper
	ret
.Lavx512_small:					/* n < 64 */
	cmpl	$32, %esi
	jb	.Lavx512_lt32
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, -32(%rdi,%rsi)
	vzeroupper
	ret
.Lavx512_lt32:
	cmpl	$16, %esi
	jb	.Lavx512_lt16
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm0, -16(%rdi,%rsi)
	vzeroupper
	ret
.Lavx512_lt16:
	vzeroupper
	cmpl	$8, %esi
	jb	.Lavx512_lt8
	movq	%rax, (%rdi)
	movq	%rax, -8(%rdi,%rsi)
	ret
.Lavx512_lt8:
	cmpl	$4, %esi
	jb	.Lavx512_lt4
	movl	%eax, (%rdi)
	movl	%eax, -4(%rdi,%rsi)
	ret
.Lavx512_lt4:
	cmpl	$2, %esi
	jb	.Lavx512_lt2
	movw	%ax, (%rdi)
	movw	%ax, -2(%rdi,%rsi)
	ret
.Lavx512_lt2:
	testl	%esi, %esi
	jz	.Lavx512_done
	movb	%al, (%rdi)
.Lavx512_done:
	ret
ZR_FUNC_END(avx512)

	.section .note.GNU-stack, "", @progbits
