/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: linux/const.h (and uapi/linux/const.h, vdso/const.h) give
 * constants a C type suffix only when compiled as C.
 * Here: the assembly forms only -- every helper yields the bare number.
 */
#ifndef ZEROING_KCOMPAT_INCLUDE_LINUX_CONST_H
#define ZEROING_KCOMPAT_INCLUDE_LINUX_CONST_H

#if defined(__ASSEMBLY__) || defined(__ASSEMBLER__)

#define _AC(X, Y)	X		/* constant with C suffix Y */
#define _AT(T, X)	X		/* constant cast to type T */
#define _UL(x)		(x)		/* unsigned long constant */
#define _ULL(x)		(x)		/* unsigned long long constant */
#define UL(x)		(x)
#define ULL(x)		(x)
#define _BITUL(x)	(1 << (x))	/* single bit, unsigned long */
#define _BITULL(x)	(1 << (x))	/* single bit, unsigned long long */
#define BIT(nr)		(1 << (nr))	/* linux/bits.h, vdso/bits.h */
#define BIT_ULL(nr)	(1 << (nr))

#endif /* __ASSEMBLY__ */

#endif /* ZEROING_KCOMPAT_INCLUDE_LINUX_CONST_H */
