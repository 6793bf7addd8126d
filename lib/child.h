/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a program as a child process (child.c): argv, never a shell;
 * its stdout captured or passed through; its stderr passed through or
 * kept as a bounded excerpt (its first or last line); waitpid retried on
 * EINTR; an optional timeout after which it is killed.
 */
#ifndef LIB_CHILD_H
#define LIB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

enum {
	CZ_CHILD_OUT = 1,        /* stdout into out (NUL-ended), else inherited */
	CZ_CHILD_ERR = 2,        /* stderr into the excerpt err, else inherited */
	CZ_CHILD_ERR_LAST = 4,   /* err: stderr's last non-empty line (else its first line) */
	CZ_CHILD_NULL_IN = 8,    /* stdin from /dev/null, else inherited */
	CZ_CHILD_NULL_OUT = 16,  /* stdout and stderr to /dev/null when not captured */
};

/* What a captured stdout may hold: more is read and dropped. */
#define CZ_CHILD_OUT_MAX (256u << 20)

struct cz_child {
	/* in */
	const char *const *argv;   /* argv[0] looked up in PATH (execvp) */
	unsigned flags;            /* CZ_CHILD_* */
	unsigned timeout;          /* seconds; 0: none */
	/* out */
	char *out;                 /* CZ_CHILD_OUT: malloc'd, NUL-ended; else NULL */
	size_t len;
	char err[512];             /* CZ_CHILD_ERR: the excerpt, one line; else "" */
	bool timed_out;            /* killed (SIGKILL) at the timeout */
	struct rusage ru;          /* the child's CPU times (wait4) */
	int wstatus;               /* its wait status (WIFEXITED ...) */
};

/*
 * Run c->argv and wait for it: its exit status, 128 + the signal that
 * ended it, or -errno when it could not be started (a program that is
 * not found exits 127, "PROG: why" on its stderr).
 */
int cz_child_run(struct cz_child *c);

#endif /* LIB_CHILD_H */
