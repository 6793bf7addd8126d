/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel and here: x86-64 base pages are 4 KiB. */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_TYPES_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_TYPES_H

#include <linux/const.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_TYPES_H */
