/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Minimal TAP producer for C tests (run by build-aux/tap-driver.sh).
 * Every failure prints one diagnostic line naming the step and the value.
 */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Weak: one counter pair for a program built from several files (tests/common). */
__attribute__((weak)) unsigned tap_n, tap_failed;

static inline void tap_plan(unsigned n)
{
	printf("1..%u\n", n);
	fflush(stdout);
}

/* Plan printed at the end (when the count is data-dependent). */
static inline int tap_done(void)
{
	printf("1..%u\n", tap_n);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %u - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("ok %u # SKIP ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Skip the whole test program (plan 0 with a reason). */
__attribute__((format(printf, 1, 2), noreturn))
static inline void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(0);
}

#endif
