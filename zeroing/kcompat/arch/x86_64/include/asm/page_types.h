/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel and here: x86-64 base pages are 4 KiB. */
#ifndef CZ_KCOMPAT_ASM_PAGE_TYPES_H
#define CZ_KCOMPAT_ASM_PAGE_TYPES_H

#include <linux/const.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif /* CZ_KCOMPAT_ASM_PAGE_TYPES_H */
