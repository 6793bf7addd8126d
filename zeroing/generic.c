/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Portable routines (every architecture has at least these):
 *   c_store_loop  a plain C loop of 8-byte stores with byte head/tail
 *   memset        glibc memset, reached through clear_pages() as in the
 *                 2026 arm64 patch ("arm64: clear_page[s] using memset")
 */
#include <string.h>
#include <unistd.h>

#include "generic.h"

/*
 * GCC would turn this loop into a call to memset (loop distribution), which
 * would make it the memset routine under another name.
 *
 * Placement copies a routine's bytes elsewhere, so c_store_loop sits alone
 * in a section of its own: GNU ld defines __start_SECTION and __stop_SECTION
 * for a section whose name is a C identifier (ld manual, "Input Section
 * Example"/orphan sections), which bound exactly its code.  The code must
 * not call out of that range (a copied relative call would land elsewhere):
 * no sanitizer instrumentation, and it calls nothing.  Its loop head is not
 * marked (compiled code has no label there), so it is placed by its entry.
 */
__attribute__((section(ZR_C_STORE_LOOP_SECTION), noinline,
	       no_sanitize("address", "undefined", "thread"),
	       optimize("no-tree-loop-distribute-patterns")))
size_t zr_c_store_loop(void *dst, size_t n)
{
	unsigned char *p = dst, *end = p + n;

	while (p < end && ((uintptr_t)p & 7))
		*p++ = 0;
	for (; end - p >= 8; p += 8)
		*(uint64_t *)(void *)p = 0;
	while (p < end)
		*p++ = 0;
	return 0;
}

#define ZR_PAGE_SIZE 4096u

void zero_clear_pages(void *addr, unsigned int npages)
{
	memset(addr, 0, (size_t)npages * ZR_PAGE_SIZE);
}

size_t zr_memset_clear_pages(void *dst, size_t n)
{
	size_t pages = n / ZR_PAGE_SIZE, tail = n % ZR_PAGE_SIZE;

	if (pages)
		zero_clear_pages(dst, (unsigned int)pages);
	if (tail)
		memset((char *)dst + pages * ZR_PAGE_SIZE, 0, tail);
	return 0;
}
