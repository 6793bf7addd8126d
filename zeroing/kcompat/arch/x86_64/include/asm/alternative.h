/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: ALTERNATIVE "old", "new", feature assembles "old" in line and
 * keeps "new" aside; at boot, on CPUs with the feature, "new" is copied
 * over the site (the site is NOP-padded to the longest side).
 * ALTERNATIVE_2/_3 give two/three replacements tried in order, a later
 * one that applies winning.  ALT_NOT(feature) applies when the feature
 * is absent.
 * Here: the same site (old code + 0x90 padding up to the longest
 * replacement), each replacement written to cz_kaltinstr, and one cz_kalt
 * entry per replacement, in order, all naming the same site
 * (cz/records.h).  An empty replacement ("") has repl_len 0: the whole
 * site becomes NOPs.
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ALTERNATIVE_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ALTERNATIVE_H

#include <cz/kconfig.h>
#include <cz/kasm.h>
#include <asm/cpufeatures.h>

#define ALT_NOT(feature)	(CZ_KF_NOT|(feature))

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

/*
 * cz_x86_pad_to have, want: NOP bytes (0x90) so that a site now `have`
 * bytes long becomes at least `want` bytes.  Lengths may stay unknown
 * until gas relaxes jumps; (d > 0) is -1 (all ones) when true in gas.
 */
.macro cz_x86_pad_to have:req, want:req
	.skip (((\want) - (\have)) & (((\want) - (\have)) > 0)), 0x90
.endm

/*
 * Every macro below: site label, the old code, the padding (it refers
 * forward to the replacements, so gas sizes it after relaxation), then
 * the replacements in cz_kaltinstr, then one cz_kalt record per
 * replacement.
 */
.macro ALTERNATIVE oldinstr, newinstr, feature:req
.Lcz_xs\@:
	\oldinstr
.Lcz_xo\@:
	cz_x86_pad_to .Lcz_xo\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
.Lcz_xe\@:
	.pushsection cz_kaltinstr, "a"
.Lcz_x1\@:
	\newinstr
.Lcz_x1e\@:
	.popsection
	cz_kalt_record .Lcz_xs\@, .Lcz_x1\@, \feature, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
.endm

.macro ALTERNATIVE_2 oldinstr, newinstr1, feature1:req, newinstr2, feature2:req
.Lcz_xs\@:
	\oldinstr
.Lcz_xo\@:
	cz_x86_pad_to .Lcz_xo\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
.Lcz_xp1\@:
	cz_x86_pad_to .Lcz_xp1\@-.Lcz_xs\@, .Lcz_x2e\@-.Lcz_x2\@
.Lcz_xe\@:
	.pushsection cz_kaltinstr, "a"
.Lcz_x1\@:
	\newinstr1
.Lcz_x1e\@:
.Lcz_x2\@:
	\newinstr2
.Lcz_x2e\@:
	.popsection
	cz_kalt_record .Lcz_xs\@, .Lcz_x1\@, \feature1, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
	cz_kalt_record .Lcz_xs\@, .Lcz_x2\@, \feature2, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x2e\@-.Lcz_x2\@
.endm

.macro ALTERNATIVE_3 oldinstr, newinstr1, feature1:req, newinstr2, feature2:req, newinstr3, feature3:req
.Lcz_xs\@:
	\oldinstr
.Lcz_xo\@:
	cz_x86_pad_to .Lcz_xo\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
.Lcz_xp1\@:
	cz_x86_pad_to .Lcz_xp1\@-.Lcz_xs\@, .Lcz_x2e\@-.Lcz_x2\@
.Lcz_xp2\@:
	cz_x86_pad_to .Lcz_xp2\@-.Lcz_xs\@, .Lcz_x3e\@-.Lcz_x3\@
.Lcz_xe\@:
	.pushsection cz_kaltinstr, "a"
.Lcz_x1\@:
	\newinstr1
.Lcz_x1e\@:
.Lcz_x2\@:
	\newinstr2
.Lcz_x2e\@:
.Lcz_x3\@:
	\newinstr3
.Lcz_x3e\@:
	.popsection
	cz_kalt_record .Lcz_xs\@, .Lcz_x1\@, \feature1, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x1e\@-.Lcz_x1\@
	cz_kalt_record .Lcz_xs\@, .Lcz_x2\@, \feature2, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x2e\@-.Lcz_x2\@
	cz_kalt_record .Lcz_xs\@, .Lcz_x3\@, \feature3, .Lcz_xe\@-.Lcz_xs\@, .Lcz_x3e\@-.Lcz_x3\@
.endm

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_ALTERNATIVE_H */
