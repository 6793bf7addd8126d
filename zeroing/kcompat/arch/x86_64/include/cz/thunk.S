/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The thunk appended to a kernel file loaded as a routine (x86-64): adapts
 * CZ_THUNK_SYM's convention (CZ_THUNK_CONV, cz/records.h) to the registry's
 *     size_t cz_thunk(void *dst, size_t n)   rdi - dst, rsi - n;
 *                                            returns (rax) bytes not cleared.
 * It lives in the file's own text, after the kernel's code, so a placed copy
 * carries it along and its call stays a relative one.  The ABI facts used:
 * rbx, r12 are callee-saved; the callee sees rsp + 8 16-byte aligned.
 */
#include <cz/records.h>

	.pushsection .text
	.globl cz_thunk
	.type cz_thunk, @function
	.p2align 4
cz_thunk:
#if CZ_THUNK_CONV == CZ_CONV_X86_RCX
	/* the inline clear_user's register contract (asm/uaccess_64.h) */
	subq	$8, %rsp
	movq	%rsi, %rcx
	xorl	%eax, %eax
	call	CZ_THUNK_SYM
	addq	$8, %rsp
	movq	%rcx, %rax
	ret
#elif CZ_THUNK_CONV == CZ_CONV_MEMSET
	subq	$8, %rsp
	movq	%rsi, %rdx
	xorl	%esi, %esi
	call	CZ_THUNK_SYM
	addq	$8, %rsp
	xorl	%eax, %eax
	ret
#elif CZ_THUNK_CONV == CZ_CONV_CLEAR_PAGE
	/* rbx = next byte, r12 = end; bytes up to a page boundary, whole pages, bytes */
	pushq	%rbx
	pushq	%r12
	subq	$8, %rsp
	movq	%rdi, %rbx
	leaq	(%rdi,%rsi), %r12
.Lcz_head:
	testl	$4095, %ebx
	jz	.Lcz_pages
	cmpq	%r12, %rbx
	jae	.Lcz_done
	movb	$0, (%rbx)
	incq	%rbx
	jmp	.Lcz_head
.Lcz_pages:
	movq	%r12, %rax
	subq	%rbx, %rax
	cmpq	$4096, %rax
	jb	.Lcz_tail
	movq	%rbx, %rdi
	call	CZ_THUNK_SYM
	addq	$4096, %rbx
	jmp	.Lcz_pages
.Lcz_tail:
	cmpq	%r12, %rbx
	jae	.Lcz_done
	movb	$0, (%rbx)
	incq	%rbx
	jmp	.Lcz_tail
.Lcz_done:
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	xorl	%eax, %eax
	ret
#elif CZ_THUNK_CONV == CZ_CONV_X86_PAGES
	/* rbx = next byte, r12 = end; bytes up to a page boundary, one call for the whole pages, bytes */
	pushq	%rbx
	pushq	%r12
	subq	$8, %rsp
	movq	%rdi, %rbx
	leaq	(%rdi,%rsi), %r12
.Lcz_phead:
	testl	$4095, %ebx
	jz	.Lcz_pmid
	cmpq	%r12, %rbx
	jae	.Lcz_pdone
	movb	$0, (%rbx)
	incq	%rbx
	jmp	.Lcz_phead
.Lcz_pmid:
	movq	%r12, %rcx
	subq	%rbx, %rcx
	andq	$-4096, %rcx
	jz	.Lcz_ptail
	movq	%rbx, %rdi
	addq	%rcx, %rbx
	xorl	%eax, %eax
	call	CZ_THUNK_SYM
.Lcz_ptail:
	cmpq	%r12, %rbx
	jae	.Lcz_pdone
	movb	$0, (%rbx)
	incq	%rbx
	jmp	.Lcz_ptail
.Lcz_pdone:
	addq	$8, %rsp
	popq	%r12
	popq	%rbx
	xorl	%eax, %eax
	ret
#elif CZ_THUNK_CONV == CZ_CONV_CLEAR_USER
	jmp	CZ_THUNK_SYM	/* not called: the routine's entry is the symbol itself */
#else
#error "cz/thunk.S: unknown CZ_THUNK_CONV"
#endif
	.size cz_thunk, . - cz_thunk
	.popsection
