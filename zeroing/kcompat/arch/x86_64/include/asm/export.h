/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel (<= 6.5): asm/export.h gave assembly the EXPORT_SYMBOL* forms. */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXPORT_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXPORT_H

#include <linux/export.h>

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXPORT_H */
