/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel and here: __stringify(x) turns x, macro-expanded, into a string. */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_STRINGIFY_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_STRINGIFY_H */
