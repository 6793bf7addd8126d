/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel: asm/page.h includes the page geometry of asm/page_types.h. */
#ifndef CZ_KCOMPAT_ASM_PAGE_H
#define CZ_KCOMPAT_ASM_PAGE_H

#include <asm/page_types.h>

#endif /* CZ_KCOMPAT_ASM_PAGE_H */
