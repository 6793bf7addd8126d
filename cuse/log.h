/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's one-line messages (cz_log) and -d output (cz_debug): always
 * on stderr with a "cusezero: " prefix, and to syslog once the daemon runs
 * in the background (its stderr is /dev/null then).  A leaf module: it
 * includes nothing of the daemon, so every module may use it.
 */
#ifndef CUSE_LOG_H
#define CUSE_LOG_H

#include <stdbool.h>

/* Called once after option parsing: syslog too (background), -d on. */
void cz_log_init(bool syslog_too, bool debug);

__attribute__((format(printf, 1, 2))) void cz_log(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void cz_debug(const char *fmt, ...);

#endif
