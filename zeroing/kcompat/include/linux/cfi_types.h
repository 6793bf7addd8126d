/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: with CONFIG_CFI_CLANG (kCFI), SYM_TYPED_FUNC_START places a
 * type hash in front of an indirectly-callable function.
 * Here: no CFI -- SYM_TYPED_FUNC_START is defined in linux/linkage.h and
 * just starts a global function (plus the arch entry pad: ENDBR / BTI).
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_CFI_TYPES_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_CFI_TYPES_H

#include <linux/linkage.h>

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_CFI_TYPES_H */
