/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/page.h includes the page geometry of asm/page-def.h. */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_H

#include <asm/page-def.h>

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_PAGE_H */
