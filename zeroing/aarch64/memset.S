/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 kernel memset (arch/arm64/lib/memset.S, the generic non-MOPS path),
 * re-implemented from the algorithm and specialised for the value zero
 * (every store writes xzr/wzr, so the value-replication prologue and the
 * "value != 0" branch are gone); and the MOPS memset.
 *
 * size_t zr_memset_arm64(void *dst, size_t n)
 *   x0 - dest (the cursor), x1 - count (remaining bytes), x2 - end;
 *   x3-x6 scratch.  Returns (x0) 0; not fault-safe (memset is not clear_user).
 *   n <= 15:  bit tests: 8, 4, 2, 1-byte stores.
 *   n >= 16:  one unaligned 16-byte stp at dst, then advance dst to the next
 *             16-byte boundary (those bytes are already written).
 *   n >= 128 after aligning, DCZID_EL0.DZP clear and the ZVA block a
 *             multiple of 64 (and not larger than what remains): 64-byte stp
 *             groups up to block alignment (overrunning into the first block,
 *             which DC ZVA clears anyway), then "dc zva" per block; the
 *             remainder below one block goes to the 64-byte loop / tail.
 *   n >= 64:  the main loop, 4x stp = 64 bytes per iteration, aligned to 64
 *             so that it sits in one I-cache line; dst is pre-biased by -16
 *             so the last stp can write back.
 *   < 64 left: 0-3 stp of 16 bytes by bits 5 and 4 of the count, then one
 *             overlapping 16-byte stp ending at the end of the buffer.
 *
 * size_t zr_memset_arm64_mops(void *dst, size_t n)
 *   setp/setm/sete with value xzr.  usable() only with HWCAP2_MOPS.
 */
#include "asm.h"

	.arch_extension mops
	.text

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on most configs. */
	.p2align 4
ZR_FUNC_START(memset_arm64)
	add	x2, x0, x1
	cmp	x1, #15
	b.hi	.Lover15
	tbz	x1, #3, 1f
	str	xzr, [x0], #8
1:	tbz	x1, #2, 2f
	str	wzr, [x0], #4
2:	tbz	x1, #1, 3f
	strh	wzr, [x0], #2
3:	tbz	x1, #0, .Lret
	strb	wzr, [x0]
.Lret:
	mov	x0, #0
	ret

.Lover15:
	neg	x3, x0
	ands	x3, x3, #15		// bytes up to the next 16-byte boundary
	b.eq	.Laligned
	stp	xzr, xzr, [x0]		// unaligned: covers them all
	sub	x1, x1, x3
	add	x0, x0, x3
.Laligned:
	cmp	x1, #128
	b.hs	.Lzero_by_block
.Lmaybe_long:
	cmp	x1, #64
	b.hs	.Lloop64

	/* Below 64 bytes; only bits 5..0 of x1 matter here. */
.Ltail63:
	tbz	x1, #5, 1f
	stp	xzr, xzr, [x0]
	stp	xzr, xzr, [x0, #16]
	add	x0, x0, #32
1:	tbz	x1, #4, 2f
	stp	xzr, xzr, [x0], #16
2:	tst	x1, #15
	b.eq	.Lret
	stp	xzr, xzr, [x2, #-16]	// overlapping: the buffer is >= 16 bytes
	b	.Lret

.Lzero_by_block:
	mrs	x4, dczid_el0
	tbnz	x4, #4, .Lloop64	// DZP: DC ZVA prohibited
	and	w4, w4, #0xf
	mov	x5, #4
	lsl	x5, x5, x4		// ZVA block size
	tst	x5, #63
	b.ne	.Lloop64		// smaller than 64: not worth it
	cmp	x1, x5
	b.lo	.Lloop64
	sub	x6, x5, #1
	neg	x3, x0
	ands	x3, x3, x6		// bytes up to the next block boundary
	b.eq	.Lzva
	sub	x4, x1, x3
	cmp	x4, x5
	b.lo	.Lloop64		// not one whole block after aligning
	mov	x1, x4
3:	stp	xzr, xzr, [x0]
	stp	xzr, xzr, [x0, #16]
	stp	xzr, xzr, [x0, #32]
	stp	xzr, xzr, [x0, #48]
	add	x0, x0, #64
	subs	x3, x3, #64
	b.gt	3b
	add	x0, x0, x3		// x3 in (-64, 0]: back to the block boundary
.Lzva:
	dc	zva, x0
	add	x0, x0, x5
	sub	x1, x1, x5
	cmp	x1, x5
	b.hs	.Lzva
	cbz	x1, .Lret
	b	.Lmaybe_long

/*
 * The main loop starts a 64-byte line (L1_CACHE_SHIFT = 6): with the two
 * set-up instructions in front it spans line offsets 8..31.
 */
	.p2align 6
.Lloop64:
	sub	x0, x0, #16		// pre-bias for the write-back stp
	sub	x1, x1, #64
ZR_LOOP(memset_arm64)
4:	stp	xzr, xzr, [x0, #16]
	stp	xzr, xzr, [x0, #32]
	stp	xzr, xzr, [x0, #48]
	stp	xzr, xzr, [x0, #64]!
	subs	x1, x1, #64
	b.ge	4b
	add	x0, x0, #16
	tst	x1, #63
	b.ne	.Ltail63
	b	.Lret
ZR_FUNC_END(memset_arm64)

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on most configs. */
	.p2align 4
ZR_FUNC_START(memset_arm64_mops)
	setp	[x0]!, x1!, xzr
ZR_LOOP(memset_arm64_mops)
	setm	[x0]!, x1!, xzr
	sete	[x0]!, x1!, xzr
	mov	x0, #0
	ret
ZR_FUNC_END(memset_arm64_mops)

	.section .note.GNU-stack, "", %progbits
