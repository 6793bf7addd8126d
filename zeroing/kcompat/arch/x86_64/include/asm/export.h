/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel (<= 6.5): asm/export.h gave assembly the EXPORT_SYMBOL* forms. */
#ifndef CZ_KCOMPAT_ASM_EXPORT_H
#define CZ_KCOMPAT_ASM_EXPORT_H

#include <linux/export.h>

#endif /* CZ_KCOMPAT_ASM_EXPORT_H */
