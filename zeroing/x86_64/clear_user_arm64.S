/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The arm64 kernel's __arch_clear_user (arch/arm64/lib/clear_user.S, the
 * non-MOPS path) ported instruction for instruction to x86-64, in the three
 * layouts whose speed differs on arm64:
 *
 *   clear_user_arm64        loop head aligned to 16 with the label AFTER
 *                           the padding (what the source meant)
 *   clear_user_arm64_quirk  "1: .p2align 4": the label sits BEFORE the
 *                           padding, so the backward branch lands on the
 *                           padding NOPs and they execute every iteration
 *   clear_user_arm64_fixed  the 2025 fix: ".p2align 6" before the function,
 *                           loop unchanged (label still before its padding)
 *
 * size_t zr_clear_user_arm64(void *dst, size_t n)   (and _quirk, _fixed)
 *   rdi - dest (x0), rsi - count (x1), rdx - end = dest + count (x2);
 *   returns (rax) the bytes NOT cleared.
 *
 * Register and instruction map (arm64 -> x86-64):
 *   xzr / wzr           %rax / %eax / %ax / %al, zeroed once on entry: x86
 *                       has no zero register.  Being 0 it is also the
 *                       "mov x0, #0" return value, so that instruction
 *                       disappears from the success paths.
 *   add x2, x0, x1      leaq (%rdi,%rsi), %rdx
 *   subs x1, x1, #8     subq $8, %rsi           (flags as subs)
 *   b.mi / b.hi         js / ja                 (ja = no borrow and not zero,
 *                                               exactly arm64's "hi" after subs)
 *   tbz x1, #b, L       testb $(1<<b), %sil; jz L
 *   sttr{,h,b} [x0]     movq/movl/movw/movb to (%rdi) or -k(%rdx)
 *
 * The loop is 4 instructions and 13 bytes (arm64: 4 instructions, 16 bytes)
 * (+ the 4-byte NOP in the quirk layouts) and stores 8 bytes per iteration; the tail is one 8-byte store ending at
 * x2 that overlaps the loop's last store.
 *
 * Faults: every store has an exception-table entry; the fixups are the
 * kernel's labels 7/8/9 and compute the bytes not cleared as x2 - x0:
 *   9: loop store, tail store, first 4-byte store, 2-byte store -> x2 - x0
 *   8: second (overlapping) 4-byte store: x0 + 4 first       -> x2 - x0 - 4
 *   7: final byte store: x0 = x2 - 5, then 8 adds 4          -> 1
 * x86 does not partially perform a store that crosses into an unmapped
 * page, so the result over-counts the exact number by less than the store
 * width (8 bytes; 4 for the short path) -- as on arm64.
 */
#include "asm.h"

	.text

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, like the kernel's SYM_FUNC_START on x86. */
	.p2align 4
ZR_FUNC_START(clear_user_arm64)
	xorl	%eax, %eax			/* xzr */
	leaq	(%rdi,%rsi), %rdx		/* add  x2, x0, x1 */
	subq	$8, %rsi			/* subs x1, x1, #8 */
	js	.Lcua_short			/* b.mi 2f */

/* Loop head on a 16-byte boundary, label AFTER the padding: the padding
 * NOPs run once, never inside the loop. */
	.p2align 4
ZR_LOOP(clear_user_arm64)
.Lcua_loop:
.Lcua_st8:
	movq	%rax, (%rdi)			/* sttr xzr, [x0] */
	addq	$8, %rdi			/* add  x0, x0, #8 */
	subq	$8, %rsi			/* subs x1, x1, #8 */
	ja	.Lcua_loop			/* b.hi 1b */
.Lcua_tail8:
	movq	%rax, -8(%rdx)			/* sttr xzr, [x2, #-8] */
	ret					/* mov x0, #0; ret (rax == 0) */

.Lcua_short:					/* 2: */
	testb	$4, %sil			/* tbz x1, #2, 3f */
	jz	.Lcua_bit1
.Lcua_st4a:
	movl	%eax, (%rdi)			/* sttr wzr, [x0] */
.Lcua_st4b:
	movl	%eax, -4(%rdx)			/* sttr wzr, [x2, #-4] */
	ret
.Lcua_bit1:					/* 3: */
	testb	$2, %sil			/* tbz x1, #1, 4f */
	jz	.Lcua_bit0
.Lcua_st2:
	movw	%ax, (%rdi)			/* sttrh wzr, [x0] */
.Lcua_bit0:					/* 4: */
	testb	$1, %sil			/* tbz x1, #0, 5f */
	jz	.Lcua_done
.Lcua_st1:
	movb	%al, -1(%rdx)			/* sttrb wzr, [x2, #-1] */
.Lcua_done:					/* 5: */
	ret

	/* Exception fixups (kernel labels 7, 8, 9) */
.Lcua_fix7:
	leaq	-5(%rdx), %rdi			/* sub x0, x2, #5 */
.Lcua_fix8:
	addq	$4, %rdi			/* add x0, x0, #4 */
.Lcua_fix9:
	movq	%rdx, %rax			/* sub x0, x2, x0 */
	subq	%rdi, %rax
	ret
ZR_FUNC_END(clear_user_arm64)
ZR_EXTABLE(.Lcua_st8, .Lcua_fix9)
ZR_EXTABLE(.Lcua_tail8, .Lcua_fix9)
ZR_EXTABLE(.Lcua_st4a, .Lcua_fix9)
ZR_EXTABLE(.Lcua_st4b, .Lcua_fix8)
ZR_EXTABLE(.Lcua_st2, .Lcua_fix9)
ZR_EXTABLE(.Lcua_st1, .Lcua_fix7)

/* ------------------------------------------------------------------------ */
/* 16-byte function alignment, as above.  The entry is 12 bytes (xorl 2,
 * leaq 4, subq 4, js 2), so the loop's .p2align 4 below emits 4 bytes of
 * padding in this (original) placement. */
	.p2align 4
ZR_FUNC_START(clear_user_arm64_quirk)
	xorl	%eax, %eax
	leaq	(%rdi,%rsi), %rdx
	subq	$8, %rsi
	js	.Lcuq_short

ZR_LOOP(clear_user_arm64_quirk)
.Lcuq_loop:					/* "1:" takes the address BEFORE the padding */
/* The quirk: pad to 16 AFTER the label.  Here the padding is 4 bytes, which
 * gas fills with ONE 4-byte NOP ("nopl 0x0(%rax)"; arm64 would need up to 3
 * separate 4-byte NOPs), executed on every iteration: the loop is then
 * 1 NOP + 4 instructions = 17 bytes.  zero_place() copies these bytes
 * verbatim, so a placed copy executes the same NOP at any offset. */
	.p2align 4
.Lcuq_st8:
	movq	%rax, (%rdi)
	addq	$8, %rdi
	subq	$8, %rsi
	ja	.Lcuq_loop
.Lcuq_tail8:
	movq	%rax, -8(%rdx)
	ret

.Lcuq_short:
	testb	$4, %sil
	jz	.Lcuq_bit1
.Lcuq_st4a:
	movl	%eax, (%rdi)
.Lcuq_st4b:
	movl	%eax, -4(%rdx)
	ret
.Lcuq_bit1:
	testb	$2, %sil
	jz	.Lcuq_bit0
.Lcuq_st2:
	movw	%ax, (%rdi)
.Lcuq_bit0:
	testb	$1, %sil
	jz	.Lcuq_done
.Lcuq_st1:
	movb	%al, -1(%rdx)
.Lcuq_done:
	ret

.Lcuq_fix7:
	leaq	-5(%rdx), %rdi
.Lcuq_fix8:
	addq	$4, %rdi
.Lcuq_fix9:
	movq	%rdx, %rax
	subq	%rdi, %rax
	ret
ZR_FUNC_END(clear_user_arm64_quirk)
ZR_EXTABLE(.Lcuq_st8, .Lcuq_fix9)
ZR_EXTABLE(.Lcuq_tail8, .Lcuq_fix9)
ZR_EXTABLE(.Lcuq_st4a, .Lcuq_fix9)
ZR_EXTABLE(.Lcuq_st4b, .Lcuq_fix8)
ZR_EXTABLE(.Lcuq_st2, .Lcuq_fix9)
ZR_EXTABLE(.Lcuq_st1, .Lcuq_fix7)

/* ------------------------------------------------------------------------ */
/* The 2025 fix: 64-byte (I-cache line) alignment before the function.  The
 * quirky loop is unchanged: its NOP still runs every iteration, but the
 * 17-byte loop now always sits in bytes 12..28 of one 64-byte line. */
	.p2align 6
ZR_FUNC_START(clear_user_arm64_fixed)
	xorl	%eax, %eax
	leaq	(%rdi,%rsi), %rdx
	subq	$8, %rsi
	js	.Lcuf_short

ZR_LOOP(clear_user_arm64_fixed)
.Lcuf_loop:
/* Same label-before-padding as the quirk (the fix did not touch it):
 * the same 4-byte NOP is executed on every iteration. */
	.p2align 4
.Lcuf_st8:
	movq	%rax, (%rdi)
	addq	$8, %rdi
	subq	$8, %rsi
	ja	.Lcuf_loop
.Lcuf_tail8:
	movq	%rax, -8(%rdx)
	ret

.Lcuf_short:
	testb	$4, %sil
	jz	.Lcuf_bit1
.Lcuf_st4a:
	movl	%eax, (%rdi)
.Lcuf_st4b:
	movl	%eax, -4(%rdx)
	ret
.Lcuf_bit1:
	testb	$2, %sil
	jz	.Lcuf_bit0
.Lcuf_st2:
	movw	%ax, (%rdi)
.Lcuf_bit0:
	testb	$1, %sil
	jz	.Lcuf_done
.Lcuf_st1:
	movb	%al, -1(%rdx)
.Lcuf_done:
	ret

.Lcuf_fix7:
	leaq	-5(%rdx), %rdi
.Lcuf_fix8:
	addq	$4, %rdi
.Lcuf_fix9:
	movq	%rdx, %rax
	subq	%rdi, %rax
	ret
ZR_FUNC_END(clear_user_arm64_fixed)
ZR_EXTABLE(.Lcuf_st8, .Lcuf_fix9)
ZR_EXTABLE(.Lcuf_tail8, .Lcuf_fix9)
ZR_EXTABLE(.Lcuf_st4a, .Lcuf_fix9)
ZR_EXTABLE(.Lcuf_st4b, .Lcuf_fix8)
ZR_EXTABLE(.Lcuf_st2, .Lcuf_fix9)
ZR_EXTABLE(.Lcuf_st1, .Lcuf_fix7)

	.section .note.GNU-stack, "", @progbits
