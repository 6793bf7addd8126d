/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The records cusezero's kernel compatibility headers leave in an object
 * assembled from a kernel source file, and the feature numbers they use.
 * Included by the compat headers (assembly, __ASSEMBLY__ defined) and by
 * the loader (zeroing/ksrc.c, C).  Everything here is cusezero's own
 * format: the kernel's .altinstructions / __ex_table layouts are not
 * reproduced, only their meaning.
 *
 * cz_kextable   one entry per exception-table use (_ASM_EXTABLE_UA, USER(),
 *               _asm_extable_uaccess, ...): a fault at address `insn` resumes
 *               at `fixup`.
 *                   .quad insn, fixup                          (16 bytes)
 * cz_kalt       one entry per alternative site (x86 ALTERNATIVE,
 *               ALTERNATIVE_2 (two entries, applied in order), arm64
 *               alternative_if / alternative_if_not / ALTERNATIVE):
 *                   .quad site, repl          the in-line code, the replacement
 *                   .short feature            CZ_KF_*, | CZ_KF_NOT = when absent
 *                   .byte site_len, repl_len  bytes
 *                   .long 0                   (24 bytes, 8-aligned)
 *               When the feature holds, repl_len bytes from `repl` replace
 *               the site's first bytes and the rest of the site becomes
 *               NOPs.  site_len >= repl_len always (x86: the site is padded
 *               with NOPs; arm64: both sides are the same length).
 * cz_kaltinstr  the replacement bytes (allocatable, not executable: the
 *               loader copies them into the site, applying the relocations
 *               of this section as if the bytes sat at the site).
 *
 * Addresses are plain 64-bit relocations (R_X86_64_64, R_AARCH64_ABS64)
 * against the text sections; the loader resolves them itself.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_CZ_RECORDS_H
#define ZEROING_KCOMPAT_INCLUDE_CZ_RECORDS_H

#define CZ_KEXTABLE_ENTRY_SIZE 16
#define CZ_KALT_ENTRY_SIZE     24

/* Feature numbers of alternative sites; 0 is never used. */
#define CZ_KF_NOT              0x8000  /* or-ed in: apply when the feature is ABSENT */
#define CZ_KF_ALWAYS           1       /* always applied (X86_FEATURE_ALWAYS, ARM64_ALWAYS_*) */
#define CZ_KF_NEVER            2       /* never applied */
/* x86-64: CPUID bits, as the kernel's X86_FEATURE_* of the same name */
#define CZ_KF_X86_REP_GOOD     16      /* a kernel-synthesised flag: see ksrc.c */
#define CZ_KF_X86_ERMS         17
#define CZ_KF_X86_FSRM         18
#define CZ_KF_X86_FSRS         19
#define CZ_KF_X86_XMM2         20
#define CZ_KF_X86_AVX2         21
#define CZ_KF_X86_AVX512F      22
#define CZ_KF_X86_CLZERO       23
#define CZ_KF_X86_SMAP         24      /* stac/clac: never in user space */
/* arm64: cpucaps, as the kernel's ARM64_* of the same name */
#define CZ_KF_ARM64_HAS_MOPS   48
#define CZ_KF_ARM64_HAS_UAO    49      /* never in user space */
#define CZ_KF_ARM64_HAS_PAN    50      /* never in user space */
#define CZ_KF_ARM64_HAS_DCPOP  51
#define CZ_KF_ARM64_HAS_DCPODP 52


/*
 * Calling conventions of kernel routines, adapted to the registry's
 * size_t fn(void *dst, size_t n) -> bytes not cleared by the thunk
 * cz/thunk.S appends to the loaded file (the thunk is the routine's entry,
 * CZ_THUNK_SYM the kernel symbol it calls; placed with the file's text).
 */
#define CZ_CONV_CLEAR_USER  1  /* fn(dst, n) -> bytes not cleared: the C ABI, no thunk */
#define CZ_CONV_X86_RCX     2  /* rdi = dst, rcx = n, rax = 0 -> rcx = bytes not cleared */
#define CZ_CONV_MEMSET      3  /* memset(dst, 0, n) -> dst; the thunk returns 0 */
#define CZ_CONV_CLEAR_PAGE  4  /* clear_page(page): each whole aligned page; head/tail by bytes */
#define CZ_CONV_X86_PAGES   5  /* x86 7.x __clear_pages_unrolled: rdi = page-aligned dst,
				  rcx = bytes (whole pages), rax = 0; head/tail by bytes */

#endif
