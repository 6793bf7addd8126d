/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: ASM_STAC / ASM_CLAC open and close user-memory access windows
 * under SMAP (stac/clac, patched in only on SMAP CPUs).
 * Here: empty -- stac/clac are privileged, and a user-space "user
 * pointer" is ordinary memory.
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_SMAP_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_SMAP_H

#define ASM_STAC
#define ASM_CLAC
#define ASM_STAC_UNSAFE
#define ASM_CLAC_UNSAFE

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_SMAP_H */
