/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Logging for the daemon (see log.h).  The settings are copied in by
 * cz_log_init() rather than read from the options, so that this module
 * depends on nothing and tests link it as it is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "log.h"

static bool cz_log_syslog;
static bool cz_log_debug;

void cz_log_init(bool syslog_too, bool debug)
{
	cz_log_syslog = syslog_too;
	cz_log_debug = debug;
}

static void cz_vlog(const char *fmt, va_list ap)
{
	va_list ap2;

	va_copy(ap2, ap);
	fputs("cusezero: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	if (cz_log_syslog)
		vsyslog(LOG_ERR, fmt, ap2);
	va_end(ap2);
}

void cz_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cz_vlog(fmt, ap);
	va_end(ap);
}

void cz_debug(const char *fmt, ...)
{
	va_list ap;

	if (!cz_log_debug)
		return;
	va_start(ap, fmt);
	cz_vlog(fmt, ap);
	va_end(ap);
}
