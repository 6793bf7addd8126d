/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exercises every macro of the x86-64 compat headers; assembled by
 * check-assemble.sh, which also checks the records it leaves.
 * Expected: 4 cz_kextable entries, 6 cz_kalt entries (1 + 2 + 3).
 */
#include <linux/linkage.h>
#include <linux/export.h>
#include <linux/const.h>
#include <linux/cfi_types.h>
#include <linux/objtool.h>
#include <linux/init.h>
#include <asm/asm.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <asm/export.h>
#include <asm/smap.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <asm/page.h>

	.text
SYM_FUNC_START(t_global)
	ANNOTATE_NOENDBR
	UNWIND_HINT_FUNC
	UNWIND_HINT_REGS base=%rsp offset=0
	ASM_STAC
	movl	$PAGE_SIZE, %ecx
	movl	$_AC(1, UL) << PAGE_SHIFT, %edx
	movq	$BIT(3) | _BITUL(4), %rax
	/* replacement longer than the site: site padded to 5 bytes */
	ALTERNATIVE "", "call t_extern", ALT_NOT(X86_FEATURE_XMM2)
1:	movq	%rax, (%rdi)
2:	movb	%al, (%rdi)
3:	movl	%eax, (%rdi)
4:	movw	%ax, (%rdi)
	ASM_CLAC
	RET
.Lfix:
	xorl	%eax, %eax
	RET
	_ASM_EXTABLE(1b, .Lfix)
	_ASM_EXTABLE_UA(2b, .Lfix)
	_ASM_EXTABLE_TYPE(3b, .Lfix, EX_TYPE_DEFAULT)
	_ASM_EXTABLE_TYPE_REG(4b, .Lfix, EX_TYPE_UACCESS, %rax)
SYM_FUNC_END(t_global)
EXPORT_SYMBOL(t_global)
EXPORT_SYMBOL_GPL(t_global)
EXPORT_SYMBOL_NS(t_global, NS)
EXPORT_SYMBOL_NS_GPL(t_global, NS)
SYM_FUNC_ALIAS(t_alias, t_global)
SYM_FUNC_ALIAS_LOCAL(t_alias_local, t_global)
SYM_FUNC_ALIAS_WEAK(t_alias_weak, t_global)
SYM_FUNC_ALIAS_MEMFUNC(t_alias_mem, t_global)
SYM_PIC_ALIAS(t_global)

SYM_FUNC_START_LOCAL(t_local)
	ALTERNATIVE_2 "jmp t_local_tail", "", X86_FEATURE_REP_GOOD, \
		      "jmp t_weak", X86_FEATURE_ERMS
	ALTERNATIVE_3 "movl $1, %eax", "movl $2, %eax", X86_FEATURE_ERMS, \
		      "movq $3, %rax", X86_FEATURE_FSRM, \
		      "movabs $0x1122334455667788, %rax", ALT_NOT(X86_FEATURE_FSRS)
SYM_INNER_LABEL(t_inner, SYM_L_GLOBAL)
	nop
SYM_INNER_LABEL_ALIGN(t_inner_aligned, SYM_L_LOCAL)
	nop
t_local_tail:
	JMP_NOSPEC rax
SYM_FUNC_END(t_local)

SYM_FUNC_START_NOALIGN(t_noalign)
	RET
SYM_FUNC_END(t_noalign)
SYM_FUNC_START_LOCAL_NOALIGN(t_local_noalign)
	RET
SYM_FUNC_END(t_local_noalign)
SYM_FUNC_START_WEAK(t_weak)
	RET
SYM_FUNC_END(t_weak)
SYM_FUNC_START_WEAK_NOALIGN(t_weak_noalign)
	RET
SYM_FUNC_END(t_weak_noalign)
SYM_TYPED_FUNC_START(t_typed)
	RET
SYM_FUNC_END(t_typed)

SYM_FUNC_START_ALIAS(t_old_alias)
SYM_FUNC_START(t_old)
	RET
SYM_FUNC_END(t_old)
SYM_FUNC_END_ALIAS(t_old_alias)

ENTRY(t_entry)
	RET
ENDPROC(t_entry)
WEAK(t_weak_entry)
	RET
END(t_weak_entry)
	ALIGN
GLOBAL(t_global_label)
	RET

SYM_CODE_START(t_code)
	UNWIND_HINT_EMPTY
	ret
SYM_CODE_END(t_code)
SYM_CODE_START_LOCAL(t_code_local)
	ret
SYM_CODE_END(t_code_local)
SYM_CODE_START_NOALIGN(t_code_noalign)
	ret
SYM_CODE_END(t_code_noalign)
SYM_CODE_START_LOCAL_NOALIGN(t_code_local_noalign)
	ret
SYM_CODE_END(t_code_local_noalign)
SYM_START(t_raw, SYM_L_GLOBAL, SYM_A_ALIGN)
	ret
SYM_END(t_raw, SYM_T_FUNC)

	.section .rodata, "a"
SYM_DATA_START(t_data)
	.quad 1
SYM_DATA_END_LABEL(t_data, SYM_L_GLOBAL, t_data_end)
SYM_DATA(t_data2, .long 2)
SYM_DATA_LOCAL(t_data3, .long 3)
SYM_DATA_START_LOCAL(t_data4)
	.long 4
SYM_DATA_END(t_data4)
