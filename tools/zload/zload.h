/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload - read load generator on io_uring (liburing 2.3 API), fio-like.
 * opts.c parses options (zload's names and fio's) from the command line and
 * from fio job files, main.c runs the jobs, job.c runs one ring per thread,
 * report.c prints the summaries (text, simple, fio's JSON, json+ and terse),
 * log.c writes fio's bw/iops/lat logs, hist.c is the latency histogram.
 */
#ifndef TOOLS_ZLOAD_ZLOAD_H
#define TOOLS_ZLOAD_ZLOAD_H

#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "cli.h"
#include "hist.h"
#include "util.h"

/* fio's bw_avg_time / iops_avg_time default: one bandwidth sample per 500 ms. */
#define ZL_SAMPLE_NS	500000000ULL

/* --output-format: fio's names plus zload's "simple". */
enum zl_format {
	ZL_OUT_NORMAL,
	ZL_OUT_SIMPLE,
	ZL_OUT_JSON,
	ZL_OUT_JSONPLUS,		/* json with the clat histogram's bins */
	ZL_OUT_TERSE,			/* fio's terse version 3 */
};

/* An option as the user gave it, for fio's "job options" object. */
struct zl_given {
	char *key, *val;
};

/* One job section (fio's [name] or --name=): numjobs threads share it. */
struct zl_opts {
	char *name;			/* jobname in the reports */
	char *path;
	uint32_t bs;
	unsigned qd;
	unsigned jobs;
	bool random;			/* --rw randread */
	double time_sec;		/* 0: no time limit */
	double ramp_sec;		/* fio's ramp_time: run, then measure */
	uint64_t size;			/* bytes per job, 0: no size limit */
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	int sqpoll_cpu;			/* -1: not pinned */
	bool nonvectored;
	struct cz_cpulist cpus;		/* .n == 0: jobs not pinned */
	bool cpus_shared;		/* --cpus_allowed: any CPU of cpus, every job */
	bool verify;
	bool device_share;	/* --device-share: the cusezero daemon's counters over the run */
	unsigned batch_submit;		/* SQEs prepared per submission */
	unsigned batch_complete;	/* completions waited for per wait */
	bool direct;			/* O_DIRECT */
	bool time_based;		/* --size bounds the offsets, not the run */
	bool have_time;			/* --runtime given */
	char *bw_log, *iops_log, *lat_log;	/* fio's log file prefixes */
	unsigned log_avg_msec;		/* 0: lat logs per read, bw/iops per 500 ms */
	struct zl_given *given;
	unsigned ngiven;
};

/* The whole run: the sections and what applies to all of them. */
struct zl_run {
	struct zl_opts *sect;
	unsigned nsect;
	unsigned total_jobs;
	enum zl_format format;
	const char *output;		/* --output: the report goes there */
	bool group_reporting;
	bool device_share;	/* --device-share: the cusezero daemon's counters over the run */
};

/* opts.c: the command line (and the job files it names) into run; exits on errors. */
void zl_parse_args(int argc, char **argv, struct zl_run *run);
void zl_run_free(struct zl_run *run);

/* One fio log entry: ms since the job's start, a value. */
struct zl_log_ent {
	uint32_t ms;
	uint32_t bs;			/* 0 in averaged entries, as fio */
	uint64_t val;
};

struct zl_log {
	struct zl_log_ent *e;
	size_t n, cap;
};

/* Per-job log state: windows of log_avg_msec, or every read. */
struct zl_logs {
	struct zl_log bw, iops, lat, clat, slat;
	uint64_t win_start;		/* ns, start of the current window */
	uint64_t win_ios, win_bytes;
	double win_lat, win_clat, win_slat;
	uint64_t lost;			/* entries dropped: no memory */
};

/* Counters that make every option's effect observable (printed by --json). */
struct zl_counters {
	uint64_t ios, bytes, errors, short_reads, verify_failures;
	uint64_t ops_readv, ops_read, ops_read_fixed, fixed_file_ops;
	uint64_t submit_calls, wait_calls, sqpoll_wakeups;
	uint64_t max_inflight, max_submit_batch, max_cqe_batch;
	uint64_t sq_ring_full;		/* waits for SQ space (SQPOLL) */
};

struct zl_job {
	int id;
	unsigned sect;			/* index of its section in run->sect */
	int cpu;			/* -1: not pinned */
	int ran_cpu;			/* sched_getcpu() after the run */
	const struct zl_opts *o;
	pthread_t thread;

	int fd;
	struct io_uring ring;
	bool ring_ready;
	unsigned setup_flags;		/* accepted by the kernel */
	unsigned dropped_flags;		/* rejected and dropped */
	bool sqpoll_on, buffers_registered, files_registered;
	uint64_t wrap;			/* offsets run over [0, wrap) */
	uint64_t rand_state;		/* --rw randread: xorshift64* state */

	int setup_err;			/* -errno, with setup_what naming the step */
	const char *setup_what;
	char setup_msg[256];		/* when set, the whole message */

	uint64_t t_start, t_end;	/* ns, CLOCK_MONOTONIC */
	struct rusage ru_start, ru_end;	/* RUSAGE_THREAD around the run */
	struct zl_counters c;
	uint64_t live_ios, live_bytes;	/* published for the progress line and samples */
	bool finished;
	struct zl_hist hist;		/* clat: submit call -> reap */
	struct zl_hist lat;		/* lat: preparation -> reap */
	struct zl_stat slat;		/* preparation -> submit call */
	/* Bandwidth (KiB/s) and IOPS per ZL_SAMPLE_NS, taken by main's supervisor. */
	struct zl_stat bw, iops;
	uint64_t sample_ios, sample_bytes, sample_t;
	int stop;			/* this job's --runtime is over */
	uint64_t ramp_end;		/* ns; 0: measuring */
	int ramped;			/* the ramp is over (the supervisor samples) */
	uint64_t ramp_ios, ramp_bytes;	/* done during the ramp (live counters) */
	struct zl_logs logs;
	bool logging;
};

/* Shared between the jobs and main. */
extern int zl_stop;			/* set: stop issuing, drain, exit */
extern int zl_abort;			/* set before the start barrier: exit now */
extern pthread_barrier_t zl_setup_done, zl_go;

void *zl_job_main(void *arg);
/* "readv", "read" or "read_fixed": the opcode the options select. */
const char *zl_op_name(const struct zl_opts *o);
/* "CQSIZE|SQPOLL|..." for the IORING_SETUP_* bits in flags. */
const char *zl_setup_flag_names(unsigned flags, char *buf, size_t len);

/* report.c: the summary in run->format on stdout. */
void zl_report(const struct zl_run *run, const struct zl_job *jobs);
/* Bytes and errors of all jobs (the exit status). */
uint64_t zl_failures(const struct zl_run *run, const struct zl_job *jobs);

/* log.c: a completion (and the window it closes) into the job's logs. */
void zl_log_io(struct zl_job *j, uint64_t now, uint64_t slat, uint64_t clat, unsigned bytes);
/* Close the last window, write the job's files; 0 or -1 (reported). */
int zl_log_write(struct zl_job *j);
void zl_log_free(struct zl_job *j);

#endif
