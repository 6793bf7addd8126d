/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload's option parser, inside: opts.c (the table, the command line, the
 * checks), jobfile.c (fio's job files), fioopt.c (fio's value syntaxes and
 * the fio options a zero device makes moot or impossible).
 */
#ifndef TOOLS_ZLOAD_OPTS_H
#define TOOLS_ZLOAD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zload.h"

enum zl_kind {
	K_VAL,		/* needs a value */
	K_BOOL,		/* optional =1 / =0 */
	K_FLAG,		/* no value */
	K_OPT,		/* optional value */
};

enum zl_scope {
	S_JOB,		/* per job, command line and job files */
	S_RUN,		/* the whole run, command line only (fio's too) */
	S_ANY,		/* the whole run, anywhere */
};

/* The options, one id per meaning (several names may share one). */
enum {
	ZO_BS, ZO_RAMP, ZO_RW, ZO_QD, ZO_JOBS, ZO_TIME, ZO_SIZE, ZO_FIXEDBUFS, ZO_REGISTERFILES,
	ZO_SQPOLL, ZO_SQPOLL_CPU, ZO_NONVECTORED, ZO_CPU, ZO_CPUS_ALLOWED, ZO_VERIFY,
	ZO_BATCH_SUBMIT, ZO_BATCH_COMPLETE, ZO_FILENAME, ZO_NAME, ZO_DESCRIPTION,
	ZO_IOENGINE, ZO_TIME_BASED, ZO_DIRECT, ZO_THREAD, ZO_NORANDOMMAP, ZO_RANDREPEAT,
	ZO_BW_LOG, ZO_LAT_LOG, ZO_IOPS_LOG, ZO_LOG_AVG, ZO_GROUP_REPORTING,
	ZO_JSON, ZO_FORMAT, ZO_OUTPUT, ZO_SHARE, ZO_HELP, ZO_VERSION,
	ZO_RWMIXREAD, ZO_RWMIXWRITE, ZO_BSSPLIT, ZO_RANDDIST, ZO_RANDGEN, ZO_RATE, ZO_RATE_IOPS,
	ZO_EXITALL, ZO_EXIT_WHAT, ZO_FILESIZE, ZO_BUFFERED, ZO_ZONEMODE, ZO_OFFSET, ZO_OFFSET_INC,
	ZO_IO_SIZE, ZO_LOOPS, ZO_NUMBER_IOS, ZO_HIPRI, ZO_STARTDELAY, ZO_THINKTIME, ZO_STONEWALL,
	ZO_WAIT_FOR, ZO_PRIO, ZO_PRIOCLASS, ZO_DIRECTORY, ZO_SECTION, ZO_MINIMAL, ZO_READONLY,
	ZO_SS, ZO_SS_DUR, ZO_SS_RAMP,
	ZO_RANDSEED, ZO_PERCENTILES, ZO_BSRANGE, ZO_BLOCKALIGN, ZO_FLOW, ZO_FLOW_ID, ZO_FLOW_SLEEP,
	ZO_ZONESIZE, ZO_ZONERANGE, ZO_ZONESKIP, ZO_READ_BEYOND_WP, ZO_MAX_OPEN_ZONES,
	ZO_CMDPRIO_PCT, ZO_CMDPRIO_CLASS, ZO_CMDPRIO, ZO_CMDPRIO_BSSPLIT, ZO_LOG_PRIO, ZO_LOG_OFFSET,
	ZO_LAT_TARGET, ZO_LAT_WINDOW, ZO_LAT_PCT, ZO_HIST_LOG, ZO_HIST_MSEC, ZO_HIST_COARSE,
	ZO_STATUS_INTERVAL,
};

struct zl_optdef {
	const char *name;
	enum zl_kind kind;
	enum zl_scope scope;
	int id;
};

/* Where a value comes from: "--bs" or "job.fio:3: bs" (for messages). */
struct zl_where {
	char label[320];
	const char *file;
	unsigned line;
};

/* What the parser builds: the global options, the jobs, the positional args. */
struct zl_parser {
	struct zl_run *run;
	struct zl_opts global;
	struct zl_opts *cur;		/* &global, or the job being read */
	char **pos;
	unsigned npos;
	unsigned depth;			/* include nesting */
	/* opts.c's, for jobfile.c (which links against nothing of opts.c). */
	const struct zl_optdef *(*lookup)(const char *name, size_t len);
	void (*apply)(struct zl_parser *p, const struct zl_optdef *d, const char *arg,
		      const struct zl_where *w);
	struct zl_opts *(*new_sect)(struct zl_parser *p, const char *name);
};

const struct zl_optdef *zl_lookup(const char *name, size_t len);
void zl_apply(struct zl_parser *p, const struct zl_optdef *d, const char *arg,
	      const struct zl_where *w);
struct zl_opts *zl_new_sect(struct zl_parser *p, const char *name);

double zl_parse_time(const char *opt, const char *arg);

/* jobfile.c */
void zl_parse_jobfile(struct zl_parser *p, const char *path);
bool zl_is_jobfile(const char *path);

/* fioopt.c: each returns with the value set in o, or exits naming it. */
/* The fio value options of zl_set_value's id; false when id is not one. */
bool zl_fio_set_value(struct zl_opts *o, int id, const char *opt, const char *arg);
void zl_fio_rw(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_bs(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_bssplit(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_bsrange(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_randdist(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_rate(uint64_t out[2], const char *opt, const char *arg);
void zl_fio_engine(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_ss(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_verify(struct zl_opts *o, const char *opt, const char *arg);
void zl_fio_pct(struct zl_opts *o, const char *opt, const char *arg);
/* zone.c: fio's zone options (false when id is not one); their rules. */
bool zl_zone_set_value(struct zl_opts *o, int id, const char *opt, const char *arg);
void zl_zone_validate(struct zl_opts *o, const char *n);
/* cmdprio.c: the same for fio's cmdprio options and log_prio. */
bool zl_cmdprio_set_value(struct zl_opts *o, int id, const char *opt, const char *arg);
void zl_cmdprio_validate(struct zl_opts *o, const char *n);
/* --NAME[=VALUE] of zl_fio_moot's tables: true when accepted (exits when refused). */
bool zl_fio_moot_arg(const char *a);
/* fio options with no effect on a zero device (true, after a note) or refused (exits). */
bool zl_fio_moot(const char *key, const char *arg, const char *label);
/* "zload: note: ..." on stderr, each text once per run. */
__attribute__((format(printf, 1, 2)))
void zl_note(const char *fmt, ...);

#endif
