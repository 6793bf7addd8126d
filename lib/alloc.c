/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation and string helpers: out of memory is a one-line error and exit
 * status 2, so no caller checks.  A leaf: results, statistics, reports and
 * the store, and every zab module use it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"

void *cz_xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		cz_err("out of memory");
		exit(2);
	}
	return p;
}

void *cz_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		cz_err("out of memory");
		exit(2);
	}
	return p;
}

char *cz_xstrdup(const char *s)
{
	return s ? strcpy(cz_xmalloc(strlen(s) + 1), s) : NULL;
}

char *cz_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = cz_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
