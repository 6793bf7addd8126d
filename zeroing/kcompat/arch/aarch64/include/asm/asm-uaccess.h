/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: helpers for assembly that touches user memory.
 *   USER(l, insn)	insn, with an exception-table entry: fault -> l
 *   USER_CPY(l, w, insn)	the same for copy routines (7.x)
 *   user_ldst l, inst, reg, addr, post_inc
 *			inst reg, [addr] (inst: an unprivileged load/store,
 *			e.g. sttrb), then addr += post_inc; fault -> l
 *   user_ldp / user_stp l, reg1, reg2, addr, post_inc
 *			two unprivileged 64-bit loads/stores at addr and
 *			addr+8, then addr += post_inc; fault -> l
 *   uaccess_ttbr0_enable/disable, uaccess_enable_not_uao/...
 *			switch user-access windows (TTBR0 / PAN): privileged
 * Here: the same code and one cz_kextable entry per faultable
 * instruction; the window switches assemble to nothing.
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_UACCESS_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_UACCESS_H

#include <cz/kconfig.h>
#include <cz/kasm.h>
#include <asm/alternative.h>
#include <asm/asm-extable.h>
#include <asm/assembler.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

.macro cz_user fixup:req, insn:vararg
.Lcz_user\@:
	\insn
	cz_kextable .Lcz_user\@, \fixup
.endm

#define USER(l, x...)			cz_user l, x
#define USER_CPY(l, uaccess_is_write, x...)	cz_user l, x

.macro user_ldst l:req, inst:req, reg:req, addr:req, post_inc:req
.Lcz_uls\@:
	\inst	\reg, [\addr]
	add	\addr, \addr, \post_inc
	cz_kextable .Lcz_uls\@, \l
.endm

.macro user_ldp l:req, reg1:req, reg2:req, addr:req, post_inc:req
.Lcz_ulp1\@:
	ldtr	\reg1, [\addr]
.Lcz_ulp2\@:
	ldtr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	cz_kextable .Lcz_ulp1\@, \l
	cz_kextable .Lcz_ulp2\@, \l
.endm

.macro user_stp l:req, reg1:req, reg2:req, addr:req, post_inc:req
.Lcz_usp1\@:
	sttr	\reg1, [\addr]
.Lcz_usp2\@:
	sttr	\reg2, [\addr, #8]
	add	\addr, \addr, \post_inc
	cz_kextable .Lcz_usp1\@, \l
	cz_kextable .Lcz_usp2\@, \l
.endm

.macro uaccess_ttbr0_enable args:vararg
.endm
.macro uaccess_ttbr0_disable args:vararg
.endm
.macro __uaccess_ttbr0_enable args:vararg
.endm
.macro __uaccess_ttbr0_disable args:vararg
.endm
.macro uaccess_enable_not_uao args:vararg
.endm
.macro uaccess_disable_not_uao args:vararg
.endm

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_UACCESS_H */
