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

#include <jansson.h>

#include "devspawn.h"
#include "results/result.h"

struct zab_variant;

/* A device variant's daemon in this session. */
struct daemon {
	struct cz_dev dev;
	bool up;
	bool has_fd;
	int fd;              /* the device, open for the counters (GET_STATS) */
	char *error;         /* start failed: why */
};

/* The session's daemons, one per variant (index: the variant), and the folder of their mounts. */
extern struct daemon zab_daemons[CZRES_MAX_ITEMS];
extern char *zab_tmpdir;
/*
 * Start v's daemon (variant vi) for session on cpu (>= 0: co-located):
 * d up with its device open, its facts into info; else d->error says why.
 */
void zab_daemon_start(struct daemon *d, const struct zab_variant *v, size_t vi, unsigned session,
		      const char *cusezero, int cpu, json_t *info);
void zab_daemon_stop(struct daemon *d);
void zab_daemons_stop_all(void);
/* Remove zab_tmpdir (empty by then) and forget it. */
void zab_tmpdir_remove(void);


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
