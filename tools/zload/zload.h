/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload - read load generator on io_uring (liburing 2.3 API), fio-like.
 * main.c parses options (zload's names and fio's), job.c runs one ring per
 * thread, report.c prints the summaries (text, simple, fio-like JSON),
 * hist.c is the latency histogram.
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

struct zl_opts {
	const char *path;
	uint32_t bs;
	unsigned qd;
	unsigned jobs;
	bool random;			/* --rw randread */
	double time_sec;		/* 0: no time limit */
	uint64_t size;			/* bytes per job, 0: no size limit */
	bool fixedbufs;
	bool registerfiles;
	bool sqpoll;
	int sqpoll_cpu;			/* -1: not pinned */
	bool nonvectored;
	struct cz_cpulist cpus;		/* .n == 0: jobs not pinned */
	bool verify;
	bool device_share;	/* --device-share: the cusezero daemon's counters over the run */
	unsigned batch_submit;		/* SQEs prepared per submission */
	unsigned batch_complete;	/* completions waited for per wait */
	enum cz_format format;
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

/* report.c: the summary in o->format on stdout. */
void zl_report(const struct zl_opts *o, const struct zl_job *jobs);
/* Bytes and errors of all jobs (the exit status). */
uint64_t zl_failures(const struct zl_opts *o, const struct zl_job *jobs);

#endif
