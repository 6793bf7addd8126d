/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command-line conventions every cusezero program shares, in one place:
 *
 *   exit status  0 ok, 1 failure (a read, the device, a benchmark), 2 usage
 *                (a bad option or value: nothing was run).  zbench memset and
 *                mmap keep perf bench's statuses where they mirror perf
 *                (129 for an unknown option, 1 for a bad value), see zbench(1).
 *   errors       one line on stderr, "PROG: WHAT 'VALUE': WHY".
 *   formats      --format default|simple|json (perf bench's names; "normal",
 *                fio's, is accepted too); JSON is alone on stdout, every note
 *                and error goes to stderr.
 *   --version    "PROG (cusezero) VERSION", plus "git DESCRIBE" in a build
 *                from a git checkout (generated at build time: lib/cz-version.h).
 *   output       a result that was not written is a failure: standard output
 *                is flushed and checked at exit (cz_cli_init registers it),
 *                and a failed write -- now or earlier -- is one error line
 *                and exit status 1.
 */
#ifndef LIB_CLI_H
#define LIB_CLI_H

#include <stdint.h>
#include <stdio.h>

enum {
	CZ_EXIT_OK = 0,
	CZ_EXIT_FAILURE = 1,
	CZ_EXIT_USAGE = 2,
};

enum cz_format {
	CZ_FORMAT_DEFAULT,	/* human-readable lines */
	CZ_FORMAT_SIMPLE,	/* one number (perf bench --format simple) */
	CZ_FORMAT_JSON,		/* one JSON document, nothing else on stdout */
};

/*
 * The name every message starts with (default "cusezero"); also registers
 * the check of standard output at exit (see cz_stdout_flush).  Every
 * program calls it first thing in main().
 */
void cz_cli_init(const char *prog);
/*
 * Flush standard output and check every write made to it so far: 0, or -1
 * after one error line "PROG: standard output: WHY" (printed once, however
 * often this is called).  At exit a failure makes the status 1.
 */
int cz_stdout_flush(void);
const char *cz_prog(void);

/* "PROG: MESSAGE\n" on stderr. */
__attribute__((format(printf, 1, 2)))
void cz_err(const char *fmt, ...);
/* cz_err, then exit(status). */
__attribute__((format(printf, 2, 3), noreturn))
void cz_die(int status, const char *fmt, ...);
/* cz_err, then exit(CZ_EXIT_USAGE). */
__attribute__((format(printf, 1, 2), noreturn))
void cz_usage_die(const char *fmt, ...);
/* An option's integer in [min, max], else one line naming opt and arg and CZ_EXIT_USAGE. */
unsigned cz_opt_uint(const char *opt, const char *arg, uint64_t min, uint64_t max);
/* The same, but -1 after that line (the caller picks the exit status), else 0 and *out. */
int cz_opt_uint_parse(const char *opt, const char *arg, uint64_t min, uint64_t max, unsigned *out);

/*
 * The one unknown-option message of every program, on one line:
 * "PROG: unknown option 'OPT' (see PROG --help)", then exit(CZ_EXIT_USAGE).
 */
__attribute__((noreturn))
void cz_unknown_option(const char *opt);
/* The same line without the exit, for perf's 129 (zbench memset/mmap). */
void cz_err_unknown_option(const char *opt);
/* getopt's '?': the option it stopped at, "-x" or argv[optind - 1]. */
const char *cz_getopt_bad(char **argv, int optind, int optopt, char *buf, size_t len);

/* "default" (or "normal"), "simple", "json": 0, or -EINVAL. */
int cz_format_parse(const char *s, enum cz_format *out);
#define CZ_FORMAT_NAMES "default, simple, json"

/* "0.1" or "0.1 (git 1a2b3c4-dirty)". */
const char *cz_version(void);
/* "PROG (cusezero) 0.1 (git ...)\n" on out. */
void cz_version_print(FILE *out, const char *prog);
/* The one-line hook for a program with its own parser: when argv[1] is
 * --version or -V, print the version and exit 0. */
void cz_version_arg(int argc, char **argv, const char *prog);

#endif
