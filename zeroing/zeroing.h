/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zeroing: re-implementations of the kernel's clear_user / clear_page /
 * memset variants and glibc memset, in one registry selectable by name at
 * run time (glibc ifunc-impl-list shape, no IFUNC), plus run-time placement
 * of a routine's code at any byte offset.
 *
 * Every routine has the kernel's clear_user contract:
 *     size_t fn(void *dst, size_t n)   returns the number of bytes NOT cleared
 * (0 on success).  Routines flagged ZERO_F_CLEAR_USER are fault-safe once
 * zero_fault_install() has run: a store into an unmapped page is turned into
 * an early return through the routine's exception table, as in the kernel.
 */
#ifndef ZEROING_ZEROING_H
#define ZEROING_ZEROING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "czlimits.h"

typedef size_t (*zero_fn)(void *dst, size_t n);

enum zero_arch {
	ZERO_ARCH_ANY,          /* portable C or libc */
	ZERO_ARCH_X86_64,
	ZERO_ARCH_AARCH64,
};

enum {
	ZERO_F_CLEAR_USER = 1u << 0, /* fault-safe: returns bytes not cleared on a fault */
	ZERO_F_PAGE       = 1u << 1, /* kernel loop clears whole aligned pages; head/tail by a plain loop */
	ZERO_F_NT         = 1u << 2, /* non-temporal stores */
	ZERO_F_QUIRK      = 1u << 3, /* reproduces a layout quirk (e.g. arm64 label-before-padding) */
};

struct zero_routine {
	const char *name;        /* unique, [a-z0-9_], e.g. "clear_user_arm64" */
	const char *desc;        /* one line: what kernel/glibc code it reproduces */
	enum zero_arch arch;
	unsigned flags;          /* ZERO_F_* */
	zero_fn fn;
	/* NULL = always usable; else returns false and sets *why (static string). */
	bool (*usable)(const char **why);
	/*
	 * Placement: [code_start, code_end) is the routine's position-independent
	 * code (its exception-table fixups included); loop_head is the first byte
	 * of its main loop, inside that range (NULL: none is marked, as in compiled
	 * C; only the entry can be placed).  code_start == NULL: not relocatable,
	 * and no_reloc_why says why.
	 */
	const void *code_start, *code_end, *loop_head;
	const char *no_reloc_why;
	/*
	 * The ENTRY point placement aligns, if not code_start (a kernel file's
	 * function inside its file's text); fn may also lie inside the range
	 * (a thunk that adapts the kernel's convention): placed copies keep
	 * both at their offsets.
	 */
	const void *place_entry;
};

/* The registry: every routine built for this architecture, usable or not. */
extern const struct zero_routine zero_routines[];
extern const size_t zero_nroutines;

/*
 * Every routine, built-in then loaded (zero_ksrc_load(), ksrc.h): index
 * 0 .. zero_count() - 1.  zero_index() of a registered routine is stable.
 */
size_t zero_count(void);
const struct zero_routine *zero_at(size_t i);
size_t zero_index(const struct zero_routine *r);

/* Lookup by exact name, built-in or loaded; NULL if unknown. */
const struct zero_routine *zero_lookup(const char *name);
/* Best usable routine on this CPU (what "default" means); never NULL. */
const struct zero_routine *zero_default(void);
/* true if usable on this CPU; else *why (may be NULL) gets the reason. */
bool zero_usable(const struct zero_routine *r, const char **why);
/* Print the "help" listing: name, usable or why not, relocatable, description. */
void zero_print_help(FILE *out);
const char *zero_arch_name(enum zero_arch arch);

/* ---- run-time placement ------------------------------------------------ */

enum zero_point {
	ZERO_POINT_ENTRY,       /* the function's first instruction */
	ZERO_POINT_LOOP,        /* the head of its main loop */
};

/* ZERO_PLACE_MAX_OFFSET, the largest offset, is in czlimits.h (lib/) */
/*
 * Placed points keep instructions aligned: any byte offset on x86-64, a
 * multiple of 4 on arm64 (a misaligned PC faults with SIGBUS).
 */
#if defined(__aarch64__)
#define ZERO_PLACE_ALIGN 4u
#else
#define ZERO_PLACE_ALIGN 1u
#endif

struct zero_placed {
	const struct zero_routine *routine;
	zero_fn fn;              /* call this: entry of the placed copy */
	uintptr_t entry, loop;   /* placed addresses of entry / loop head (loop = 0 if none) */
	enum zero_point point;
	unsigned offset;         /* requested: (point address % 4096) == offset */
	void *map;               /* the mapping (internal) */
	size_t map_len;
};

/*
 * Copy r's code into a fresh executable mapping so that the chosen point
 * lands at an address == offset (mod 4096) -- hence at byte offset % 64 of a
 * cache line.  Writes, then mprotect()s to read+exec (W^X), flushes the
 * I-cache.  Returns 0 or -errno:
 *   -EINVAL   offset > 4095, or not a multiple of ZERO_PLACE_ALIGN, or the
 *             routine has no such point
 *   -ENOTSUP  the routine is not relocatable (r->no_reloc_why says why)
 *   -ENOENT   point is the loop and the routine has none marked
 *   -ENODEV   the routine is not usable on this CPU
 *   -EACCES / -EPERM  the system forbids executable mappings
 */
int zero_place(const struct zero_routine *r, enum zero_point point, unsigned offset,
	       struct zero_placed *out);
void zero_unplace(struct zero_placed *p);
/*
 * A set of code offsets, the syntax of zbench --offsets and zab's
 * placement=sweep:SET / random:SET: comma-separated items, each an offset
 * A, a range A..B or a stepped range A..B:STEP (A, B in 0..4095, numbers by
 * the rule of lib/util.h).  A range without a step holds every offset an
 * instruction can start at (a multiple of ZERO_PLACE_ALIGN) from A rounded
 * up to one, to B; an offset A, or one a step lands on, that no instruction
 * can start at is refused.  Sorted, duplicates dropped, into out[]
 * (ZERO_PLACE_MAX_OFFSET + 1 entries), their number in *n.  0, -EINVAL (not
 * that syntax, or an empty set), -EDOM (an offset that cannot be placed) or
 * -ENOMEM.
 */
int zero_place_parse_set(const char *spec, unsigned *out, size_t *n);
/*
 * The same for a set of at most max offsets (a rotation's): out[max]; *n
 * is the set's size, also when that is -E2BIG (more than max).
 */
int zero_place_parse_small_set(const char *spec, uint16_t *out, size_t max, size_t *n);
/* Human-readable text for zero_place()'s -errno values, naming the routine. */
const char *zero_place_strerror(int err);

/* ---- fault safety (exception tables, as in the kernel) -------------------- */

/*
 * Install a SIGSEGV/SIGBUS handler that, when the faulting instruction is in
 * a routine's exception table (original or placed copy), resumes at its fixup
 * so the routine returns the bytes not cleared.  Other faults are re-raised
 * with the default action.  Idempotent; 0 or -errno.
 */
int zero_fault_install(void);
/*
 * A loaded routine's exception table: pairs of (faulting instruction,
 * fixup) offsets from start, for code at [start, start + len).  At most
 * ZERO_FAULT_MAX_TABLES; 0 or -ENOSPC.  The table must stay valid.
 */
#define ZERO_FAULT_MAX_TABLES 64
int zero_fault_add_table(uintptr_t start, size_t len, const uint32_t (*pairs)[2], size_t n);
void zero_fault_del_table(uintptr_t start);

/* ---- wrappers with other signatures ---------------------------------------- */

/* The 2026 arm64 patch: clear_pages(addr, npages) = memset(addr, 0, npages * PAGE_SIZE). */
void zero_clear_pages(void *addr, unsigned int npages);

/* CPU features, probed once. */
struct zero_cpu {
	bool erms, fsrm, fsrs, avx2, avx512f, avx512bw, clzero;     /* x86-64 */
	bool mops, dczva;                                          /* arm64 */
	unsigned dczva_block;                                      /* bytes, 0 if prohibited */
	char model[128];
};
const struct zero_cpu *zero_cpu(void);

#endif
