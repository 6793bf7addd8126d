/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: linux/linkage.h holds the SYM_* annotations that open and close
 * functions and data in assembly (Documentation/core-api/asm-annotations.rst).
 * Here: the same annotations, giving the same ELF symbols:
 *  - global / weak symbols get .globl / .weak; local ones get nothing and
 *    stay as ordinary local symbols in the object's symbol table (the
 *    loader looks functions up there by name; nothing is made .hidden);
 *  - *_END gives the symbol its ELF type and its size (start to here);
 *  - an alias is a second name for the same address, linked as asked;
 *  - functions start aligned (CZ_FUNC_ALIGN) unless *_NOALIGN, and
 *    SYM_FUNC_START* / SYM_TYPED_FUNC_START add the architecture's entry
 *    pad CZ_FUNC_ENTRY (x86: ENDBR, arm64: BTI landing pad); SYM_CODE_*
 *    add none.
 * The architecture's asm/linkage.h defines CZ_FUNC_ALIGN, CZ_FUNC_ENTRY
 * and may pre-define any SYM_* it spells differently.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_LINKAGE_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_LINKAGE_H

#include <cz/kconfig.h>
#include <linux/stringify.h>
#include <linux/export.h>
#include <asm/linkage.h>

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

#ifndef ASM_NL
#define ASM_NL		;	/* statement separator inside one macro */
#endif

/* ALIGN: the function-start alignment directive. */
#ifndef __ALIGN
#define __ALIGN		CZ_FUNC_ALIGN
#define __ALIGN_STR	__stringify(CZ_FUNC_ALIGN)
#endif
#define ALIGN		__ALIGN
#define ALIGN_STR	__ALIGN_STR

/* Symbol types, alignments and linkages taken by SYM_START/SYM_END. */
#define SYM_T_FUNC		STT_FUNC
#define SYM_T_OBJECT		STT_OBJECT
#define SYM_T_NONE		STT_NOTYPE
#define SYM_A_ALIGN		ALIGN
#define SYM_A_NONE
#define SYM_L_GLOBAL(name)	.globl name
#define SYM_L_WEAK(name)	.weak name
#define SYM_L_LOCAL(name)

/* Generic building blocks: start (link, align, label), end, alias. */
#ifndef SYM_ENTRY
#define SYM_ENTRY(name, linkage, align...)				\
	align ASM_NL linkage(name) ASM_NL name:
#endif
#ifndef SYM_START
#define SYM_START(name, linkage, align...)				\
	SYM_ENTRY(name, linkage, align)
#endif
#ifndef SYM_END
#define SYM_END(name, sym_type)						\
	.type name, sym_type ASM_NL .size name, . - name
#endif
#ifndef SYM_ALIAS
#define SYM_ALIAS(alias, name, linkage)					\
	linkage(alias) ASM_NL .set alias, name
#endif

/* Labels inside a function. */
#ifndef SYM_INNER_LABEL_ALIGN
#define SYM_INNER_LABEL_ALIGN(name, linkage)				\
	.type name, SYM_T_NONE ASM_NL SYM_ENTRY(name, linkage, SYM_A_ALIGN)
#endif
#ifndef SYM_INNER_LABEL
#define SYM_INNER_LABEL(name, linkage)					\
	.type name, SYM_T_NONE ASM_NL SYM_ENTRY(name, linkage, SYM_A_NONE)
#endif

/* C-callable functions. */
#ifndef SYM_FUNC_START
#define SYM_FUNC_START(name)						\
	SYM_START(name, SYM_L_GLOBAL, SYM_A_ALIGN) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_START_NOALIGN
#define SYM_FUNC_START_NOALIGN(name)					\
	SYM_START(name, SYM_L_GLOBAL, SYM_A_NONE) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_START_LOCAL
#define SYM_FUNC_START_LOCAL(name)					\
	SYM_START(name, SYM_L_LOCAL, SYM_A_ALIGN) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_START_LOCAL_NOALIGN
#define SYM_FUNC_START_LOCAL_NOALIGN(name)				\
	SYM_START(name, SYM_L_LOCAL, SYM_A_NONE) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_START_WEAK
#define SYM_FUNC_START_WEAK(name)					\
	SYM_START(name, SYM_L_WEAK, SYM_A_ALIGN) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_START_WEAK_NOALIGN
#define SYM_FUNC_START_WEAK_NOALIGN(name)				\
	SYM_START(name, SYM_L_WEAK, SYM_A_NONE) ASM_NL CZ_FUNC_ENTRY
#endif
/* kCFI is not supported: a typed function is a plain global function. */
#ifndef SYM_TYPED_START
#define SYM_TYPED_START(name, linkage, align...)			\
	SYM_START(name, linkage, align)
#endif
#ifndef SYM_TYPED_FUNC_START
#define SYM_TYPED_FUNC_START(name)					\
	SYM_TYPED_START(name, SYM_L_GLOBAL, SYM_A_ALIGN) ASM_NL CZ_FUNC_ENTRY
#endif
#ifndef SYM_FUNC_END
#define SYM_FUNC_END(name)	SYM_END(name, SYM_T_FUNC)
#endif

/* Second names for a function (same address, type and size). */
#ifndef SYM_FUNC_ALIAS
#define SYM_FUNC_ALIAS(alias, name)	SYM_ALIAS(alias, name, SYM_L_GLOBAL)
#endif
#ifndef SYM_FUNC_ALIAS_LOCAL
#define SYM_FUNC_ALIAS_LOCAL(alias, name) SYM_ALIAS(alias, name, SYM_L_LOCAL)
#endif
#ifndef SYM_FUNC_ALIAS_WEAK
#define SYM_FUNC_ALIAS_WEAK(alias, name) SYM_ALIAS(alias, name, SYM_L_WEAK)
#endif
/* x86 (6.x+): the alias for memset/memcpy; weak only under UML. */
#ifndef SYM_FUNC_ALIAS_MEMFUNC
#define SYM_FUNC_ALIAS_MEMFUNC	SYM_FUNC_ALIAS
#endif

/*
 * Pre-5.19 spellings of aliases: a second start label at the same place,
 * closed by its own end.
 */
#ifndef SYM_FUNC_START_ALIAS
#define SYM_FUNC_START_ALIAS(name)	SYM_START(name, SYM_L_GLOBAL, SYM_A_ALIGN)
#endif
#ifndef SYM_FUNC_START_LOCAL_ALIAS
#define SYM_FUNC_START_LOCAL_ALIAS(name) SYM_START(name, SYM_L_LOCAL, SYM_A_ALIGN)
#endif
#ifndef SYM_FUNC_START_WEAK_ALIAS
#define SYM_FUNC_START_WEAK_ALIAS(name)	SYM_START(name, SYM_L_WEAK, SYM_A_ALIGN)
#endif
#ifndef SYM_FUNC_END_ALIAS
#define SYM_FUNC_END_ALIAS(name)	SYM_END(name, SYM_T_FUNC)
#endif

/* Non-C code: no entry pad, and its end gives no function type. */
#ifndef SYM_CODE_START
#define SYM_CODE_START(name)		SYM_START(name, SYM_L_GLOBAL, SYM_A_ALIGN)
#endif
#ifndef SYM_CODE_START_NOALIGN
#define SYM_CODE_START_NOALIGN(name)	SYM_START(name, SYM_L_GLOBAL, SYM_A_NONE)
#endif
#ifndef SYM_CODE_START_LOCAL
#define SYM_CODE_START_LOCAL(name)	SYM_START(name, SYM_L_LOCAL, SYM_A_ALIGN)
#endif
#ifndef SYM_CODE_START_LOCAL_NOALIGN
#define SYM_CODE_START_LOCAL_NOALIGN(name) SYM_START(name, SYM_L_LOCAL, SYM_A_NONE)
#endif
#ifndef SYM_CODE_END
#define SYM_CODE_END(name)		SYM_END(name, SYM_T_NONE)
#endif

/* Data objects. */
#ifndef SYM_DATA_START
#define SYM_DATA_START(name)		SYM_START(name, SYM_L_GLOBAL, SYM_A_NONE)
#endif
#ifndef SYM_DATA_START_LOCAL
#define SYM_DATA_START_LOCAL(name)	SYM_START(name, SYM_L_LOCAL, SYM_A_NONE)
#endif
#ifndef SYM_DATA_END
#define SYM_DATA_END(name)		SYM_END(name, SYM_T_OBJECT)
#endif
#ifndef SYM_DATA_END_LABEL
#define SYM_DATA_END_LABEL(name, linkage, label)			\
	linkage(label) ASM_NL .type label, SYM_T_OBJECT ASM_NL label: ASM_NL \
	SYM_END(name, SYM_T_OBJECT)
#endif
#ifndef SYM_DATA
#define SYM_DATA(name, data...)						\
	SYM_DATA_START(name) ASM_NL data ASM_NL SYM_DATA_END(name)
#endif
#ifndef SYM_DATA_LOCAL
#define SYM_DATA_LOCAL(name, data...)					\
	SYM_DATA_START_LOCAL(name) ASM_NL data ASM_NL SYM_DATA_END(name)
#endif

/* Old (deprecated in the kernel) spellings. */
#ifndef GLOBAL
#define GLOBAL(name)	.globl name ASM_NL name:
#endif
#ifndef ENTRY
#define ENTRY(name)	SYM_FUNC_START(name)
#endif
#ifndef WEAK
#define WEAK(name)	SYM_FUNC_START_WEAK(name)
#endif
#ifndef END
#define END(name)	.size name, . - name
#endif
#ifndef ENDPROC
#define ENDPROC(name)	SYM_FUNC_END(name)
#endif

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_LINKAGE_H */
