/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: X86_FEATURE_* are bit numbers in the kernel's CPU capability
 * words (CPUID bits plus flags the kernel synthesises, e.g. REP_GOOD).
 * Here: the features cusezero's loader can decide, mapped to its own
 * numbers (cz/records.h).  A feature not listed stays an unknown name and
 * is refused when an alternative uses it.
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURES_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURES_H

#include <cz/records.h>

#define X86_FEATURE_ALWAYS	CZ_KF_ALWAYS	/* always true */
#define X86_FEATURE_REP_GOOD	CZ_KF_X86_REP_GOOD /* rep movs/stos is fast */
#define X86_FEATURE_ERMS	CZ_KF_X86_ERMS	/* enhanced rep movsb/stosb */
#define X86_FEATURE_FSRM	CZ_KF_X86_FSRM	/* fast short rep movsb */
#define X86_FEATURE_FSRS	CZ_KF_X86_FSRS	/* fast short rep stosb */
#define X86_FEATURE_XMM2	CZ_KF_X86_XMM2	/* SSE2 */
#define X86_FEATURE_AVX2	CZ_KF_X86_AVX2
#define X86_FEATURE_AVX512F	CZ_KF_X86_AVX512F
#define X86_FEATURE_CLZERO	CZ_KF_X86_CLZERO /* AMD clzero */
#define X86_FEATURE_SMAP	CZ_KF_X86_SMAP	/* stac/clac (never here) */

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_CPUFEATURES_H */
