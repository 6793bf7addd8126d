/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: arm64 alternatives.  Code written in line is replaced at boot by
 * another sequence of exactly the same length when a CPU capability is
 * present:
 *   alternative_if_not CAP / A / alternative_else / B / alternative_endif
 *	A in line; B replaces it when CAP is present.
 *   alternative_if CAP / B / alternative_else / A / alternative_endif
 *	the same with the two blocks written the other way round.
 *   alternative_else_nop_endif
 *	alternative_else + as many NOPs as the first block + alternative_endif.
 *   alternative_insn A, B, CAP[, enable]	one-line form; nothing at all
 *	is assembled when enable is 0.
 *   ALTERNATIVE("A", "B", CAP[, CONFIG_X])	C-macro spelling of the same;
 *	the site is dropped when CONFIG_X is not enabled.
 * Here: the same code in line; the replacement goes to cz_kaltinstr
 * (4-aligned) and one cz_kalt entry {site, repl, CAP, len, len} is written
 * (cz/records.h).  The feature is CAP itself -- "apply when present" --
 * for both spellings.  Unequal lengths stop assembly.
 * Refused: alternative_cb / ALTERNATIVE_CB (patching by a kernel
 * callback).
 *
 * The blocks cannot nest, so the macros share the local labels
 * 7701 (first block) 7702 (its end) 7703 (second block) 7704 (its end).
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_MACROS_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_MACROS_H

#include <cz/kconfig.h>
#include <cz/kasm.h>
#include <linux/const.h>
#include <asm/cpucaps.h>

#define AARCH64_INSN_SIZE	4

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

/* nops n: n NOP instructions (kernel: asm/assembler.h). */
.macro nops num:req
	.rept \num
	nop
	.endr
.endm

/* In line: first block; replacement: second block. */
.macro alternative_if_not cap:req
	.set .Lcz_alt_inline_first, 1
	cz_kalt_record 7701f, 7703f, \cap, 7702f-7701f, 7704f-7703f
7701:
.endm

/* Replacement: first block; in line: second block. */
.macro alternative_if cap:req
	.set .Lcz_alt_inline_first, 0
	cz_kalt_record 7703f, 7701f, \cap, 7704f-7703f, 7702f-7701f
	.pushsection cz_kaltinstr, "a"
	.balign AARCH64_INSN_SIZE
7701:
.endm

.macro alternative_else
7702:
	.if .Lcz_alt_inline_first
	.pushsection cz_kaltinstr, "a"
	.balign AARCH64_INSN_SIZE
	.else
	.popsection
	.endif
7703:
.endm

.macro alternative_endif
7704:
	.if (7704b-7703b) != (7702b-7701b)
	.error "cz: alternative: the two blocks must be the same length"
	.endif
	.if .Lcz_alt_inline_first
	.popsection
	.endif
.endm

.macro alternative_else_nop_endif
	alternative_else
	nops (7702b-7701b) / AARCH64_INSN_SIZE
	alternative_endif
.endm

.macro alternative_insn insn1:req, insn2:req, cap:req, enable=1
	.if \enable
	alternative_if_not \cap
	\insn1
	alternative_else
	\insn2
	alternative_endif
	.endif
.endm

.macro alternative_cb args:vararg
	.error "cz: alternative_cb (callback patching) is not supported"
.endm
.macro alternative_cb_end
.endm

#define CZ_ALT_CFG(insn1, insn2, cap, cfg, ...)			\
	alternative_insn insn1, insn2, cap, IS_ENABLED(cfg)
#define ALTERNATIVE(insn1, insn2, ...)				\
	CZ_ALT_CFG(insn1, insn2, __VA_ARGS__, 1)

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_ALTERNATIVE_MACROS_H */
