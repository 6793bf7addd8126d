/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: __INIT / __FINIT / __HEAD / __REF switch assembly into the
 * sections the kernel frees after boot or keeps for early boot.
 * Here: the same section switches, so an object can still be read; the
 * loader must accept code in these sections (.init.text, .head.text,
 * .ref.text) like .text.  No kernel file cusezero uses needs them.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_INIT_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_INIT_H

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)
#define __INIT		.section ".init.text", "ax"
#define __FINIT		.previous
#define __INITDATA	.section ".init.data", "aw"
#define __INITRODATA	.section ".init.rodata", "a"
#define __FINITDATA	.previous
#define __HEAD		.section ".head.text", "ax"
#define __REF		.section ".ref.text", "ax"
#define __REFDATA	.section ".ref.data", "aw"
#endif

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_INIT_H */
