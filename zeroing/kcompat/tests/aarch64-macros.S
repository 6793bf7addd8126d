/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exercises every macro of the arm64 compat headers; assembled by
 * check-assemble.sh, which also checks the records it leaves.
 * Expected: 10 cz_kextable entries, 4 cz_kalt entries.
 */
#include <linux/linkage.h>
#include <linux/export.h>
#include <linux/const.h>
#include <linux/cfi_types.h>
#include <asm/assembler.h>
#include <asm/asm-uaccess.h>
#include <asm/alternative.h>
#include <asm/cache.h>
#include <asm/page.h>

	.text
SYM_FUNC_START(t_global)
	uaccess_ttbr0_enable x1, x2, x3
	/* alternative_if: in line = the else block, replacement = first */
alternative_if ARM64_HAS_DCPOP
	dc	civac, x0
	b	t_extern
alternative_else
	dc	cvac, x0
	nop
alternative_endif
alternative_if_not ARM64_HAS_MOPS
	b	t_local
alternative_else_nop_endif
alternative_if ARM64_ALWAYS_SYSTEM
	nop
alternative_else_nop_endif
	ALTERNATIVE("nop", "dc civac, x0", ARM64_HAS_DCPODP)
	ALTERNATIVE("nop", "dc civac, x0", ARM64_HAS_DCPODP, CONFIG_CZ_TEST_UNSET)
USER(9f, sttr	xzr, [x0])
USER_CPY(9f, 1, sttrb	wzr, [x0, #1])
	user_ldst 9f, sttrb, wzr, x0, 1
	user_ldp 9f, x2, x3, x1, 16
	user_stp 9f, x2, x3, x0, 16
8:	ldtr	x4, [x1]
	_asm_extable_uaccess 8b, 9f
	_asm_extable 8b, 9f
	_cond_uaccess_extable 8b, 9f
	_cond_uaccess_extable 8b
	uaccess_ttbr0_disable x1, x2
	nops	2
CPU_LE(	rev	x5, x5	)
CPU_BE(	rev	x6, x6	)
	mov	x1, #PAGE_SIZE
	tst	x1, #(PAGE_SIZE - 1)
	mov	x1, #L1_CACHE_BYTES
	.p2align L1_CACHE_SHIFT
9:	mov	x0, #BIT(2)
	ret
SYM_FUNC_END(t_global)
EXPORT_SYMBOL(t_global)
SYM_FUNC_ALIAS(t_alias, t_global)
SYM_FUNC_ALIAS_LOCAL(t_alias_local, t_global)
SYM_FUNC_ALIAS_WEAK(t_alias_weak, t_global)

SYM_FUNC_START_LOCAL(t_local)
	ret
SYM_FUNC_END(t_local)
SYM_FUNC_START_NOALIGN(t_noalign)
	ret
SYM_FUNC_END(t_noalign)
SYM_FUNC_START_WEAK(t_weak)
	ret
SYM_FUNC_END(t_weak)
SYM_TYPED_FUNC_START(t_typed)
	ret
SYM_FUNC_END(t_typed)
SYM_FUNC_START_PI(t_pi)
	ret
SYM_FUNC_END_PI(t_pi)
SYM_CODE_START(t_code)
	ret
SYM_CODE_END(t_code)
SYM_CODE_START_LOCAL(t_code_local)
	ret
SYM_CODE_END(t_code_local)
ENTRY(t_entry)
	ret
ENDPROC(t_entry)
