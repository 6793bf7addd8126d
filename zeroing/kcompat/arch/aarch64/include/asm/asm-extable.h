/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: arm64 exception-table forms -- "a fault at insn continues at
 * fixup" (the _UACCESS variants are for user-memory accesses).
 * Here: each writes one cz_kextable entry {insn, fixup} (cz/records.h):
 *   _asm_extable insn, fixup		(pre-5.16 name)
 *   _asm_extable_uaccess insn, fixup
 *   _asm_extable_uaccess_cpy insn, fixup, is_write  (7.x; the kernel also
 *	checks which side faulted; here any fault resumes at fixup)
 *   _cond_uaccess_extable insn, fixup	an entry only if fixup is given
 *   _ASM_EXTABLE_UACCESS(insn, fixup)	C-macro spelling
 * Refused (not defined): the forms that also write registers
 * (_ASM_EXTABLE_*_ERR*, _ASM_EXTABLE_LOAD_UNALIGNED_ZEROPAD).
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_EXTABLE_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_EXTABLE_H

#include <cz/kasm.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

.macro _asm_extable insn:req, fixup:req
	cz_kextable \insn, \fixup
.endm

.macro _asm_extable_uaccess insn:req, fixup:req
	cz_kextable \insn, \fixup
.endm

.macro _asm_extable_uaccess_cpy insn:req, fixup:req, uaccess_is_write
	cz_kextable \insn, \fixup
.endm

.macro _cond_uaccess_extable insn:req, fixup
	.ifnb \fixup
	cz_kextable \insn, \fixup
	.endif
.endm

#define _ASM_EXTABLE_UACCESS(insn, fixup)	_asm_extable_uaccess insn, fixup

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ASM_EXTABLE_H */
