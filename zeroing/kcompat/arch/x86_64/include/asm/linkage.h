/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: x86's asm/linkage.h sets the function alignment (NOP-filled),
 * the ENDBR landing pad of indirect branch tracking, RET (with the SLS
 * int3 or a return thunk) and a few x86-only SYM_* forms.
 * Here:
 *   CZ_FUNC_ALIGN	.balign CONFIG_FUNCTION_ALIGNMENT, filled with 0x90
 *   ENDBR		endbr64 if CONFIG_X86_KERNEL_IBT, else nothing
 *   CZ_FUNC_ENTRY	ENDBR (6.1 and 6.12 put ENDBR after every
 *			SYM_FUNC_START*; 7.2 only after SYM_TYPED_FUNC_START --
 *			this layer follows 6.x; it only matters with IBT on)
 *   RET		ret, plus int3 if CONFIG_MITIGATION_SLS
 *   SYM_FUNC_ALIAS_MEMFUNC	a global alias (the kernel's non-UML form)
 *   SYM_PIC_ALIAS(sym)	a global alias __pi_<sym> of sym (7.2)
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_LINKAGE_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_LINKAGE_H

#include <cz/kconfig.h>

#define CZ_FUNC_ALIGN	.balign CONFIG_FUNCTION_ALIGNMENT, 0x90

#ifdef CONFIG_X86_KERNEL_IBT
#define ENDBR		endbr64
#else
#define ENDBR
#endif

#define CZ_FUNC_ENTRY	ENDBR

#ifdef CONFIG_MITIGATION_SLS
#define RET		ret; int3
#else
#define RET		ret
#endif

#define SYM_FUNC_ALIAS_MEMFUNC	SYM_FUNC_ALIAS
#define SYM_PIC_ALIAS(sym)	SYM_ALIAS(__pi_ ## sym, sym, SYM_L_GLOBAL)

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_LINKAGE_H */
