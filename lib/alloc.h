/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation and string helpers (alloc.c). */
#ifndef LIB_ALLOC_H
#define LIB_ALLOC_H

#include <stddef.h>

/* Allocation: out of memory is one line and exit status 2, so no caller checks. */
void *cz_xmalloc(size_t n);
void *cz_xrealloc(void *p, size_t n);
char *cz_xstrdup(const char *s);
__attribute__((format(printf, 1, 2))) char *cz_xasprintf(const char *fmt, ...);

#endif
