/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"
/* Generated at build time from `git describe` (see lib/local.am). */
#include "cz-version.h"

static const char *cz_prog_name = PACKAGE_NAME;
static bool cz_stdout_reported;

int cz_stdout_flush(void)
{
	int err;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	/* A write that failed before (buffer already dropped) left no errno. */
	err = errno;
	if (!cz_stdout_reported)
		cz_err("standard output: %s", err ? strerror(err) : "write error");
	cz_stdout_reported = true;
	return -1;
}

/*
 * Output goes through stdio, whose buffer is written when it fills or at
 * exit: a program cannot see an ENOSPC or EIO at its printf.  Checking once
 * here, on every way out (return from main, exit() after an error), means no
 * program can forget it.  _exit: the exit handlers already ran or are
 * running; the status becomes 1 whatever it was going to be.
 */
static void cz_stdout_at_exit(void)
{
	if (cz_stdout_flush())
		_exit(CZ_EXIT_FAILURE);
}

void cz_cli_init(const char *prog)
{
	static bool registered;

	cz_prog_name = prog;
	if (!registered && !atexit(cz_stdout_at_exit))
		registered = true;
}

const char *cz_prog(void)
{
	return cz_prog_name;
}

static void cz_verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cz_prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cz_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cz_verr(fmt, ap);
	va_end(ap);
}

void cz_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cz_verr(fmt, ap);
	va_end(ap);
	exit(status);
}

void cz_usage_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cz_verr(fmt, ap);
	va_end(ap);
	exit(CZ_EXIT_USAGE);
}

void cz_err_unknown_option(const char *opt)
{
	cz_err("unknown option '%s' (see %s --help)", opt, cz_prog_name);
}

void cz_unknown_option(const char *opt)
{
	cz_err_unknown_option(opt);
	exit(CZ_EXIT_USAGE);
}

const char *cz_getopt_bad(char **argv, int optind, int optopt, char *buf, size_t len)
{
	/* A short option inside "-abc" is named alone; a long one as written. */
	if (optopt) {
		snprintf(buf, len, "-%c", optopt);
		return buf;
	}
	return argv[optind - 1];
}

int cz_format_parse(const char *s, enum cz_format *out)
{
	if (!strcmp(s, "default") || !strcmp(s, "normal"))
		*out = CZ_FORMAT_DEFAULT;
	else if (!strcmp(s, "simple"))
		*out = CZ_FORMAT_SIMPLE;
	else if (!strcmp(s, "json"))
		*out = CZ_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

const char *cz_version(void)
{
#ifdef CZ_GIT_DESCRIBE
	return PACKAGE_VERSION " (git " CZ_GIT_DESCRIBE ")";
#else
	return PACKAGE_VERSION;
#endif
}

void cz_version_print(FILE *out, const char *prog)
{
	fprintf(out, "%s (%s) %s\n", prog, PACKAGE_NAME, cz_version());
}

void cz_version_arg(int argc, char **argv, const char *prog)
{
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		cz_version_print(stdout, prog);
		exit(cz_stdout_flush() ? CZ_EXIT_FAILURE : CZ_EXIT_OK);
	}
}

int cz_opt_uint_parse(const char *opt, const char *arg, uint64_t min, uint64_t max, unsigned *out)
{
	uint64_t v;

	if (cz_parse_u64(arg, min, max, &v)) {
		cz_err("%s: invalid value '%s' (an integer in %llu..%llu)", opt, arg,
		       (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

unsigned cz_opt_uint(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	unsigned v;

	if (cz_opt_uint_parse(opt, arg, min, max, &v))
		exit(CZ_EXIT_USAGE);
	return v;
}
