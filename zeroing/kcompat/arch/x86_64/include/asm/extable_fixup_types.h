/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel: the x86 exception-table entry carries a fixup type that says
 * what the fault handler does besides resuming at the fixup address.
 * Here: only the types whose whole meaning is "resume at the fixup" are
 * accepted -- EX_TYPE_DEFAULT and EX_TYPE_UACCESS.  The others named
 * below (they also write a register, e.g. the trap number into %eax) are
 * refused at assembly time; unnamed ones fail as unknown symbols.
 */
#ifndef ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXTABLE_FIXUP_TYPES_H
#define ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXTABLE_FIXUP_TYPES_H

#define EX_TYPE_NONE		0
#define EX_TYPE_DEFAULT		1	/* resume at fixup */
#define EX_TYPE_FAULT		2	/* resume, %eax = trap number: refused */
#define EX_TYPE_UACCESS		3	/* user access: resume at fixup */
#define EX_TYPE_COPY		4	/* copy fault, %eax = trap: refused */

#endif /* ZEROING_KCOMPAT_ARCH_X86_64_INCLUDE_ASM_EXTABLE_FIXUP_TYPES_H */
