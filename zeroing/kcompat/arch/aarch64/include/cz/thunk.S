/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The thunk appended to a kernel file loaded as a routine (arm64): adapts
 * CZ_THUNK_SYM's convention (CZ_THUNK_CONV, cz/records.h) to the registry's
 *     size_t cz_thunk(void *dst, size_t n)   x0 - dst, x1 - n;
 *                                            returns (x0) bytes not cleared.
 * It lives in the file's own text, after the kernel's code, so a placed copy
 * carries it along and its bl stays a relative one.  AAPCS64: x19, x20 are
 * callee-saved, x29/x30 the frame record, sp 16-byte aligned.
 */
#include <cz/records.h>

	.pushsection .text
	.globl cz_thunk
	.type cz_thunk, %function
	.p2align 2
cz_thunk:
#if CZ_THUNK_CONV == CZ_CONV_MEMSET
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x2, x1
	mov	w1, #0
	bl	CZ_THUNK_SYM
	ldp	x29, x30, [sp], #16
	mov	x0, #0
	ret
#elif CZ_THUNK_CONV == CZ_CONV_CLEAR_PAGE
	/* x19 = next byte, x20 = end; bytes up to a page boundary, whole pages, bytes */
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	mov	x19, x0
	add	x20, x0, x1
.Lcz_head:
	tst	x19, #4095
	b.eq	.Lcz_pages
	cmp	x19, x20
	b.hs	.Lcz_done
	strb	wzr, [x19], #1
	b	.Lcz_head
.Lcz_pages:
	sub	x2, x20, x19
	cmp	x2, #4096
	b.lo	.Lcz_tail
	mov	x0, x19
	bl	CZ_THUNK_SYM
	add	x19, x19, #4096
	b	.Lcz_pages
.Lcz_tail:
	cmp	x19, x20
	b.hs	.Lcz_done
	strb	wzr, [x19], #1
	b	.Lcz_tail
.Lcz_done:
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	mov	x0, #0
	ret
#elif CZ_THUNK_CONV == CZ_CONV_CLEAR_USER
	b	CZ_THUNK_SYM	/* not called: the routine's entry is the symbol itself */
#else
#error "cz/thunk.S: unknown CZ_THUNK_CONV"
#endif
	.size cz_thunk, . - cz_thunk
	.popsection
