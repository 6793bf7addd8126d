/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/page.h includes the page geometry of asm/page_types.h. */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_H

#include <asm/page_types.h>

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_PAGE_H */
