/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 clear_page (arch/arm64/lib/clear_page.S before 2026), re-implemented
 * from the algorithm, one routine per path the kernel can take:
 *
 * size_t zr_clear_page_dczva(void *dst, size_t n)
 *   DC ZVA per DCZID_EL0 block (4 << DCZID.BS bytes) until page-aligned.
 *   usable() only when DCZID_EL0.DZP is clear (and the block fits a page).
 * size_t zr_clear_page_stnp(void *dst, size_t n)
 *   4x "stnp xzr, xzr" = 64 bytes per iteration until page-aligned: what the
 *   kernel does when DZP is set.  Non-temporal.
 * size_t zr_clear_page_mops(void *dst, size_t n)
 *   setpn/setmn/seten with n = PAGE_SIZE (non-temporal MOPS).  usable() only
 *   with HWCAP2_MOPS.
 *
 *   x0 - dest, x1 - count; returns (x0) 0: these are not fault-safe (the
 *   kernel's clear_page has no exception table either).
 *
 * The registry contract is "any (dst, n)", but clear_page assumes one whole
 * aligned 4 KiB page.  So each routine runs the kernel's page loop on every
 * whole aligned page inside [dst, dst + n) and clears the head (dst up to the
 * first page boundary) and the tail (last page boundary up to dst + n) with
 * plain stores, in the clear_user scheme: 8-byte stores plus one overlapping
 * 8-byte store at the end, 4/2/1-byte stores below 8 bytes.  A range that
 * holds no whole page is cleared by plain stores only.
 *   x2 - end (dst + n), x3 - first page boundary >= dst (the page cursor),
 *   x4 - last page boundary <= end; x5-x7 scratch.
 * zr_NAME_loop is the head of the kernel's per-page loop.
 */
#include "asm.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1 << PAGE_SHIFT)

	.arch_extension mops
	.text

/* Clear [\start, \end) with plain stores; clobbers \p and \t. */
	.macro	zero_range start, end, p, t
	mov	\p, \start
	sub	\t, \end, \start
	subs	\t, \t, #8
	b.mi	92f
91:	str	xzr, [\p], #8
	subs	\t, \t, #8
	b.hi	91b
	stur	xzr, [\end, #-8]
	b	95f
92:	tbz	\t, #2, 93f
	str	wzr, [\p]
	stur	wzr, [\end, #-4]
	b	95f
93:	tbz	\t, #1, 94f
	strh	wzr, [\p]
94:	tbz	\t, #0, 95f
	sturb	wzr, [\end, #-1]
95:
	.endm

/*
 * Split [x0, x0 + x1) into head, whole pages [x3, x4) and tail; with no
 * whole page, clear it all with plain stores and return.
 */
	.macro	page_split
	add	x2, x0, x1
	add	x3, x0, #PAGE_SIZE - 1
	and	x3, x3, #~(PAGE_SIZE - 1)
	and	x4, x2, #~(PAGE_SIZE - 1)
	cmp	x3, x4
	b.lo	96f
	zero_range x0, x2, x5, x6
	mov	x0, #0
	ret
96:	zero_range x0, x3, x5, x6
	.endm

	.macro	page_tail
	zero_range x4, x2, x5, x6
	mov	x0, #0
	ret
	.endm

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on most configs. */
	.p2align 4
ZR_FUNC_START(clear_page_dczva)
	page_split
1:	mrs	x5, dczid_el0		// per page, as clear_page does
	and	w5, w5, #0xf
	mov	x6, #4
	lsl	x6, x6, x5		// block size in bytes
ZR_LOOP(clear_page_dczva)
2:	dc	zva, x3
	add	x3, x3, x6
	tst	x3, #(PAGE_SIZE - 1)
	b.ne	2b
	cmp	x3, x4
	b.lo	1b
	page_tail
ZR_FUNC_END(clear_page_dczva)

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on most configs. */
	.p2align 4
ZR_FUNC_START(clear_page_stnp)
	page_split
ZR_LOOP(clear_page_stnp)
1:	stnp	xzr, xzr, [x3]
	stnp	xzr, xzr, [x3, #16]
	stnp	xzr, xzr, [x3, #32]
	stnp	xzr, xzr, [x3, #48]
	add	x3, x3, #64
	tst	x3, #(PAGE_SIZE - 1)
	b.ne	1b			// next 64 bytes of this page
	cmp	x3, x4
	b.lo	1b			// next page
	page_tail
ZR_FUNC_END(clear_page_stnp)

/* 16-byte function alignment, like the kernel's SYM_FUNC_START on most configs. */
	.p2align 4
ZR_FUNC_START(clear_page_mops)
	page_split
ZR_LOOP(clear_page_mops)
1:	mov	x5, #PAGE_SIZE
	setpn	[x3]!, x5!, xzr		// x3 ends at the next page
	setmn	[x3]!, x5!, xzr
	seten	[x3]!, x5!, xzr
	cmp	x3, x4
	b.lo	1b
	page_tail
ZR_FUNC_END(clear_page_mops)

	.section .note.GNU-stack, "", %progbits
