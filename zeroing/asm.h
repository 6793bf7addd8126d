/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conventions for the routines' assembly (x86_64/ *.S, aarch64/ *.S).
 *
 * A routine NAME defines three global symbols the registry and the
 * placement code use:
 *   zr_NAME        entry (C prototype: size_t zr_NAME(void *dst, size_t n))
 *   zr_NAME_loop   first byte of the main loop (the branch target)
 *   zr_NAME_end    one past its last byte, exception fixups included
 * Everything between zr_NAME and zr_NAME_end must be position-independent
 * (no absolute addresses, no calls or jumps out of the range) so that
 * zero_place() can copy it anywhere.
 *
 * ZR_EXTABLE(insn, fixup) records, as in the kernel's relative exception
 * tables, that a fault at label insn resumes at label fixup.  Entries are two
 * 32-bit offsets relative to the entry itself, so the table needs no dynamic
 * relocation.  zero/fault.c walks __start_zero_extable..__stop_zero_extable.
 */
#ifndef ZEROING_ASM_H
#define ZEROING_ASM_H

#ifdef __aarch64__
#define ZR_FUNC_TYPE %function
#else
#define ZR_FUNC_TYPE @function
#endif

#define ZR_FUNC_START(name)				\
	.globl zr_##name;				\
	.type zr_##name, ZR_FUNC_TYPE;			\
	zr_##name:

#define ZR_LOOP(name)					\
	.globl zr_##name##_loop;			\
	zr_##name##_loop:

#define ZR_FUNC_END(name)				\
	.globl zr_##name##_end;				\
	zr_##name##_end:				\
	.size zr_##name, . - zr_##name

#define ZR_EXTABLE(insn, fixup)				\
	.pushsection zero_extable, "a";			\
	.balign 4;					\
	.long (insn) - .;				\
	.long (fixup) - .;				\
	.popsection

#endif
