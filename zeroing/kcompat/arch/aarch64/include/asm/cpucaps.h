/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: ARM64_* cpucaps are numbers generated at build time
 * (arch/arm64/tools/cpucaps) naming CPU capabilities that alternatives
 * test.
 * Here: the capabilities cusezero's loader can decide, mapped to its own
 * numbers (cz/records.h).  A cap not listed stays an unknown name and is
 * refused when an alternative uses it.
 */
#ifndef ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUCAPS_H
#define ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUCAPS_H

#include <cz/records.h>

#define ARM64_ALWAYS_BOOT	CZ_KF_ALWAYS	/* always true */
#define ARM64_ALWAYS_SYSTEM	CZ_KF_ALWAYS
#define ARM64_HAS_MOPS		CZ_KF_ARM64_HAS_MOPS	/* FEAT_MOPS */
#define ARM64_HAS_UAO		CZ_KF_ARM64_HAS_UAO	/* never here */
#define ARM64_HAS_PAN		CZ_KF_ARM64_HAS_PAN	/* never here */
#define ARM64_HAS_DCPOP		CZ_KF_ARM64_HAS_DCPOP	/* dc cvap */
#define ARM64_HAS_DCPODP	CZ_KF_ARM64_HAS_DCPODP	/* dc cvadp */

#endif /* ZEROING_KCOMPAT_ARCH_AARCH64_INCLUDE_ASM_CPUCAPS_H */
