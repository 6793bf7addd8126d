/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel and here: the base page size, from the configured page shift. */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_DEF_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_DEF_H

#include <cz/kconfig.h>
#include <linux/const.h>

#define PAGE_SHIFT	CONFIG_ARM64_PAGE_SHIFT
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_DEF_H */
