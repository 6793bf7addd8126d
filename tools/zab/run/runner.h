/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside run/ only: what the run loop (run.c) takes from the benchmark's
 * process (proc.c) and the order (order.c).  Other folders use run.h.
 */
#ifndef TOOLS_ZAB_RUN_RUNNER_H
#define TOOLS_ZAB_RUN_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


struct proc_out {
	int status;          /* waitpid status, or -errno if it could not start */
	double secs;         /* wall-clock time from fork to its end */
	char *out, *err;
};

/* The signal that stops the run (0: none); the last run's timeout fired. */
extern volatile sig_atomic_t zab_stop, zab_timed_out;
/* SIGINT, SIGTERM, SIGHUP stop the run (its child's group gets SIGTERM); SIGALRM its timeout. */
void zab_signals_install(void);
/*
 * Run cmd with env (NAME=VALUE strings) added, pinned to cpu when >= 0,
 * killed after timeout seconds (0: none); po's output malloc'd (zab_proc_free).
 */
void zab_proc_run(const char *cmd, char **env, size_t nenv, unsigned timeout, int cpu,
		  struct proc_out *po);
void zab_proc_free(struct proc_out *po);
/* All of fd (from its start, at most max bytes), closed; NUL-ended, malloc'd. */
char *zab_proc_read(int fd, size_t max);
/* s on one line: newlines -> " | ", at most max bytes (malloc'd). */
char *zab_one_line(const char *s, size_t max);
/* What a wait status (or -errno) says, e.g. "exited with status 1" (malloc'd). */
char *zab_status_text(int st);
/* s past blanks and "#" lines (perf style headers): what a benchmark printed besides them. */
const char *zab_skip_comments(const char *s);
/* The one number a benchmark prints (besides "#" lines); false if there is anything else. */
bool zab_parse_output(const char *s, double *x);
/* The next of the stream s (splitmix64). */
uint64_t zab_splitmix64(uint64_t *s);

#endif /* TOOLS_ZAB_RUN_RUNNER_H */
