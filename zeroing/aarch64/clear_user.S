/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 __arch_clear_user (arch/arm64/lib/clear_user.S), re-implemented from
 * the algorithm, in four layouts:
 *
 * size_t zr_clear_user_arm64(void *dst, size_t n)
 * size_t zr_clear_user_arm64_quirk(void *dst, size_t n)
 * size_t zr_clear_user_arm64_fixed(void *dst, size_t n)
 * size_t zr_clear_user_arm64_mops(void *dst, size_t n)
 *   x0 - dest, x1 - count; returns (x0) bytes not cleared.
 *   x2 - end of the buffer (dest + count), kept for the tail store and the
 *   exception fixups.  Every store has a ZR_EXTABLE entry, so with
 *   zero_fault_install() a store into an unmapped page returns the bytes
 *   not cleared, as the kernel does.
 *
 * Stores are sttr/sttrh/sttrb as in the kernel.  At EL0 an unprivileged
 * store is an ordinary store (same permission checks, same encoding size),
 * so the code is byte-for-byte the kernel's shape.
 *
 * Algorithm (non-MOPS path):  x2 = x0 + n;  n -= 8;  n < 0: short path.
 *   loop: sttr xzr,[x0]; add x0,x0,#8; subs x1,x1,#8; b.hi loop
 *   then one 8-byte store ending at x2 (it overlaps the last loop store);
 *   short path (n < 8): bit 2 -> two overlapping 4-byte stores [x0], [x2-4];
 *   else bit 1 -> 2-byte store at [x0], then bit 0 -> 1 byte at [x2-1].
 *
 * The four layouts:
 *   clear_user_arm64        the algorithm alone, loop head aligned to 16
 *                           with the label AFTER the padding: no NOP runs
 *                           inside the loop.
 *   clear_user_arm64_quirk  the kernel's layout (CONFIG_AS_HAS_MOPS, CPU
 *                           without MOPS): the "bti c" landing pad that
 *                           arch/arm64/include/asm/linkage.h puts at every
 *                           SYM_FUNC_START (unconditionally, 5.10 .. 7.x),
 *                           "b .Lno_mops" over the five MOPS instructions,
 *                           and the source's "1: .p2align 4": the label
 *                           takes the address BEFORE the padding, so the
 *                           backward branch lands on the padding NOPs.  The
 *                           loop label sits at function offset 40, so
 *                           .p2align 4 inserts 2 NOPs (offsets 40, 44) that
 *                           execute on every 8-byte iteration.  Placed here
 *                           at 16 bytes past a 64-byte boundary, the branch
 *                           target is at line offset 56 and the loop body at
 *                           64..79: the 6-instruction loop straddles two
 *                           I-cache lines, as in the regressed kernel (6.9 s
 *                           -> 9.0 s in the report).  tests/zeroing/ksrc.sh
 *                           compares this loop with Linux 7.2's own file.
 *   clear_user_arm64_fixed  the 2025 fix: the same code after ".p2align 6":
 *                           still 2 NOPs in the loop (offsets 40..47), loop
 *                           body at 48..63, all in one 64-byte line.
 *   clear_user_arm64_mops   the same kernel layout on a CPU with MOPS: the
 *                           alternative is patched to a NOP and the
 *                           setpt/setmt/setet sequence clears the buffer.
 *                           usable() is false without HWCAP2_MOPS (QEMU 7.2
 *                           does not emulate FEAT_MOPS).
 * zero_place() moves any of them; the NOP count of the quirk is fixed at
 * assembly time (2), so a placed copy keeps executing 2 NOPs per iteration.
 *
 * Exception fixups (the kernel's):
 *   9: x0 = x2 - x0: everything from the faulting store's address to the end
 *   8: the second 4-byte store faulted: the first 4 bytes were written
 *   7: the final byte faulted: 1 byte not cleared
 *   6: a MOPS main/epilogue fault: option B (C set) has x0 = current address;
 *      option A has x0 = end, x1 = -remaining, so x0 + x1 is the current one.
 */
#include "asm.h"

	.arch_extension mops
	.text

/*
 * clear_user_body NAME, MOPS_BLOCK, MOPS, QUIRK
 *   MOPS_BLOCK=1 emits the kernel's MOPS alternative (a branch over it when
 *   MOPS=0, a NOP in front of it when MOPS=1); QUIRK=1 puts the loop label
 *   before ".p2align 4".  zr_NAME_loop is ZR_LOOP(NAME) spelled out: cpp
 *   cannot paste a gas macro argument.  It marks the branch target of the
 *   store loop, or setmt for the MOPS layout.
 */
	.macro	store_loop_label name, mops
	.if !\mops
	.globl	zr_\name\()_loop
zr_\name\()_loop:
	.endif
	.endm

	.macro	clear_user_body name, mops_block, mops, quirk
	.if \mops_block
	bti	c			// the kernel's SYM_FUNC_START landing pad
	.endif
	add	x2, x0, x1
	.if \mops_block
	.if \mops
	nop				// alternative patched: the CPU has MOPS
	.else
	b	10f			// alternative_if_not ARM64_HAS_MOPS
	.endif
11:	setpt	[x0]!, x1!, xzr
	ZR_EXTABLE(11b, 9f)
	.if \mops
	.globl	zr_\name\()_loop
zr_\name\()_loop:
	.endif
12:	setmt	[x0]!, x1!, xzr
	ZR_EXTABLE(12b, 6f)
13:	setet	[x0]!, x1!, xzr
	ZR_EXTABLE(13b, 6f)
	mov	x0, #0
	ret
10:
	.endif

	subs	x1, x1, #8
	b.mi	2f

	.if \quirk
/*
 * The kernel's "1: .p2align 4": label first, so the loop branch lands on the
 * (here 2) padding NOPs in front of the 16-byte-aligned store.
 */
1:	store_loop_label \name, \mops
	.p2align 4
	.else
/* Loop head aligned to 16 with the label after the padding: no NOP in the loop. */
	.p2align 4
1:	store_loop_label \name, \mops
	.endif
14:	sttr	xzr, [x0]
	ZR_EXTABLE(14b, 9f)
	add	x0, x0, #8
	subs	x1, x1, #8
	b.hi	1b
15:	sttr	xzr, [x2, #-8]
	ZR_EXTABLE(15b, 9f)
	mov	x0, #0
	ret

2:	tbz	x1, #2, 3f
16:	sttr	wzr, [x0]
	ZR_EXTABLE(16b, 9f)
17:	sttr	wzr, [x2, #-4]
	ZR_EXTABLE(17b, 8f)
	mov	x0, #0
	ret

3:	tbz	x1, #1, 4f
18:	sttrh	wzr, [x0]
	ZR_EXTABLE(18b, 9f)
4:	tbz	x1, #0, 5f
19:	sttrb	wzr, [x2, #-1]
	ZR_EXTABLE(19b, 7f)
5:	mov	x0, #0
	ret

	/* exception fixups */
6:	b.cs	9f
	add	x0, x0, x1
	b	9f
7:	sub	x0, x2, #5
8:	add	x0, x0, #4
9:	sub	x0, x2, x0
	ret
	.endm

/* 16-byte function alignment (the kernel's is 4; 16 keeps the NOP-free layout stable). */
	.p2align 4
ZR_FUNC_START(clear_user_arm64)
	clear_user_body clear_user_arm64, 0, 0, 0
ZR_FUNC_END(clear_user_arm64)

/*
 * 64-byte boundary + 16: the loop's branch target lands at line offset 56,
 * its body at 64..79 -- the straddling layout of the regressed kernel.
 */
	.p2align 6
	.skip	16, 0
ZR_FUNC_START(clear_user_arm64_quirk)
	clear_user_body clear_user_arm64_quirk, 1, 0, 1
ZR_FUNC_END(clear_user_arm64_quirk)

/* The fix: ".p2align 6" before the function (2^6 = 64-byte I-cache line). */
	.p2align 6
ZR_FUNC_START(clear_user_arm64_fixed)
	clear_user_body clear_user_arm64_fixed, 1, 0, 1
ZR_FUNC_END(clear_user_arm64_fixed)

/* Same 64-byte alignment as the fixed kernel; the loop head here is setmt. */
	.p2align 6
ZR_FUNC_START(clear_user_arm64_mops)
	clear_user_body clear_user_arm64_mops, 1, 1, 1
ZR_FUNC_END(clear_user_arm64_mops)

	.section .note.GNU-stack, "", %progbits
