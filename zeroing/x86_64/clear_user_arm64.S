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

/*
 * One body for the three layouts (arm64 keeps its three the same way, in
 * zeroing/aarch64/clear_user.S).  quirk=0: loop head aligned to 16 with the
 * label AFTER the padding, so the padding runs once.  quirk=1: the kernel's
 * "1: .p2align 4": the label takes the address BEFORE the padding and the
 * backward branch lands on it.  The entry is 12 bytes (xorl 2, leaq 4,
 * subq 4, js 2), so in the original placement the padding is 4 bytes, which
 * gas fills with ONE 4-byte NOP ("nopl 0x0(%rax)"; arm64 needs up to three
 * separate 4-byte NOPs), executed on every iteration: the loop is then
 * 1 NOP + 4 instructions = 17 bytes.  zero_place() copies these bytes
 * verbatim, so a placed copy executes the same NOP at any offset.
 * Local labels follow the kernel's: 1 loop, 2-5 short path, 7-9 fixups.
 */
	.macro	clear_user_body name, quirk
	xorl	%eax, %eax			/* xzr */
	leaq	(%rdi,%rsi), %rdx		/* add  x2, x0, x1 */
	subq	$8, %rsi			/* subs x1, x1, #8 */
	js	2f				/* b.mi 2f */

	.if \quirk
	.globl	zr_\name\()_loop
zr_\name\()_loop:
1:	.p2align 4				/* the quirk: padding after the label */
	.else
	.p2align 4				/* loop head on 16, label after the padding */
	.globl	zr_\name\()_loop
zr_\name\()_loop:
1:
	.endif
14:	movq	%rax, (%rdi)			/* sttr xzr, [x0] */
	ZR_EXTABLE(14b, 9f)
	addq	$8, %rdi			/* add  x0, x0, #8 */
	subq	$8, %rsi			/* subs x1, x1, #8 */
	ja	1b				/* b.hi 1b */
15:	movq	%rax, -8(%rdx)			/* sttr xzr, [x2, #-8] */
	ZR_EXTABLE(15b, 9f)
	ret					/* mov x0, #0; ret (rax == 0) */

2:	testb	$4, %sil			/* tbz x1, #2, 3f */
	jz	3f
16:	movl	%eax, (%rdi)			/* sttr wzr, [x0] */
	ZR_EXTABLE(16b, 9f)
17:	movl	%eax, -4(%rdx)			/* sttr wzr, [x2, #-4] */
	ZR_EXTABLE(17b, 8f)
	ret
3:	testb	$2, %sil			/* tbz x1, #1, 4f */
	jz	4f
18:	movw	%ax, (%rdi)			/* sttrh wzr, [x0] */
	ZR_EXTABLE(18b, 9f)
4:	testb	$1, %sil			/* tbz x1, #0, 5f */
	jz	5f
19:	movb	%al, -1(%rdx)			/* sttrb wzr, [x2, #-1] */
	ZR_EXTABLE(19b, 7f)
5:	ret

	/* exception fixups (kernel labels 7, 8, 9) */
7:	leaq	-5(%rdx), %rdi			/* sub x0, x2, #5 */
8:	addq	$4, %rdi			/* add x0, x0, #4 */
9:	movq	%rdx, %rax			/* sub x0, x2, x0 */
	subq	%rdi, %rax
	ret
	.endm

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on x86. */
	.p2align 4
ZR_FUNC_START(clear_user_arm64)
	clear_user_body clear_user_arm64, 0
ZR_FUNC_END(clear_user_arm64)

/* 16-byte function alignment, as above: the loop's padding is 4 bytes here. */
	.p2align 4
ZR_FUNC_START(clear_user_arm64_quirk)
	clear_user_body clear_user_arm64_quirk, 1
ZR_FUNC_END(clear_user_arm64_quirk)

/* The 2025 fix: 64-byte (I-cache line) alignment before the function.  The
 * quirky loop is unchanged (the fix did not touch the label): its NOP still
 * runs every iteration, but the 17-byte loop now always sits in bytes 12..28
 * of one 64-byte line. */
	.p2align 6
ZR_FUNC_START(clear_user_arm64_fixed)
	clear_user_body clear_user_arm64_fixed, 1
ZR_FUNC_END(clear_user_arm64_fixed)

	.section .note.GNU-stack, "", @progbits
