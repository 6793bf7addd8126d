/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Assembler macros shared by both architectures' compat headers: they
 * write the records described in cz/records.h.  Assembly only.
 *
 *   cz_kextable insn, fixup
 *	one cz_kextable entry: a fault at insn resumes at fixup.
 *   cz_kfeature_check feature
 *	stops assembly unless feature is a known, non-zero feature number
 *	(an unknown X86_FEATURE_* / ARM64_* name is left as a name by cpp
 *	and is refused here by name).
 *   cz_kalt_record site, repl, feature, site_len, repl_len
 *	one cz_kalt entry.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_CZ_KASM_H
#define ZEROING_KCOMPAT_INCLUDE_CZ_KASM_H

#include <cz/records.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

.macro cz_kextable insn:req, fixup:req
	.pushsection cz_kextable, "a"
	.balign 8
	.quad (\insn)
	.quad (\fixup)
	.popsection
.endm

.macro cz_kfeature_check feature:req
	/*
	 * After cpp a known feature is digits and ( | ) only; a name left
	 * over (it has an underscore) is a feature this layer does not know.
	 */
	.set .Lcz_kf_unknown, 0
	.irpc c, \feature
	.ifc \c, _
	.set .Lcz_kf_unknown, 1
	.endif
	.endr
	.if .Lcz_kf_unknown
	.error "cz: unknown alternative feature \feature (not mapped in asm/cpufeatures.h or asm/cpucaps.h)"
	.elseif (((\feature) & ~CZ_KF_NOT) == 0) || (((\feature) & ~(CZ_KF_NOT | 0x7fff)) != 0)
	.error "cz: alternative feature \feature is not a cusezero feature number"
	.endif
.endm

.macro cz_kalt_record site:req, repl:req, feature:req, site_len:req, repl_len:req
	cz_kfeature_check \feature
	.pushsection cz_kalt, "a"
	.balign 8
	.quad (\site)
	.quad (\repl)
	.short (\feature)
	.byte (\site_len)
	.byte (\repl_len)
	.long 0
	.popsection
.endm

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_INCLUDE_CZ_KASM_H */
