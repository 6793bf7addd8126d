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
#include <sys/uio.h>

#include "cli.h"
#include "hist.h"
#include "util.h"

#define ZL_FILL		0xA5	/* read buffers before a --verify read */
#define ZL_MAX_ERR_LINES 10

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

/* --ioengine: io_uring, libaio (run on io_uring, noted), fio's synchronous family. */
enum zl_engine {
	ZL_ENG_URING,
	ZL_ENG_LIBAIO,
	ZL_ENG_SYNC,			/* read(2) / write(2) after lseek(2) */
	ZL_ENG_PSYNC,			/* pread(2) / pwrite(2) */
	ZL_ENG_PVSYNC,			/* preadv(2) / pwritev(2) */
	ZL_ENG_PVSYNC2,			/* preadv2(2) / pwritev2(2), RWF_HIPRI with hipri */
};

#define ZL_DIR_READ	0
#define ZL_DIR_WRITE	1

/* fio's bssplit of one direction: sizes and their percentages (sum 100). */
#define ZL_MAX_BSS	64
struct zl_bss {
	unsigned n;
	uint32_t bs[ZL_MAX_BSS];
	unsigned pct[ZL_MAX_BSS];
};

/* fio's random_distribution=zoned: pct of the I/O in size_pct of the file. */
/* fio's latency_target depth search (latency.c). */
struct zl_lt {
	unsigned low, high;		/* the depths known good and known bad */
	bool end_run;			/* the last window, at the depth found */
	uint64_t ts;			/* ns: this window started */
	uint64_t ios, failed;		/* ... its I/Os and those over the target */
};
enum { ZL_LT_NONE, ZL_LT_RESET, ZL_LT_DONE, ZL_LT_FATAL };

/* fio's cmdprio options (cmdprio.c), per direction. */
struct zl_cmdprio_bs {
	uint32_t bs;
	unsigned pct;
	int cls, lvl;			/* -1: cmdprio_class / cmdprio */
};
struct zl_cmdprio {
	bool have_pct, have_bss;
	unsigned pct[2];		/* cmdprio_percentage */
	int cls[2], lvl[2];		/* cmdprio_class, cmdprio */
	struct zl_cmdprio_bs bss[2][ZL_MAX_BSS];
	unsigned nbss[2];
};

/* The fio release whose output formats zload writes: JSON "fio version", terse field 2. */
#define ZL_FIO_FORMAT	"fio-3.33"

/* fio's zonemode. */
enum { ZL_ZONE_UNSET, ZL_ZONE_NONE, ZL_ZONE_STRIDED, ZL_ZONE_ZBD };

#define ZL_MAX_ZONES	64
struct zl_zones {
	unsigned n;
	unsigned pct[ZL_MAX_ZONES], size_pct[ZL_MAX_ZONES];
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
	bool random;			/* --rw randread, randwrite, randrw */
	enum zl_engine engine;
	uint32_t bs_w;			/* bs=R,W: the writes' size */
	uint32_t bs_max;		/* the largest size of any I/O (the buffers) */
	struct zl_bss bss[2];		/* bssplit per direction, .n == 0: bs */
	uint32_t bsr_lo[2], bsr_hi[2];	/* bsrange per direction, hi 0: none */
	uint32_t blockalign;		/* random offsets' alignment, 0: the I/O's size */
	struct zl_zones zones;		/* random_distribution=zoned, .n == 0: uniform */
	unsigned zonemode;		/* ZL_ZONE_* (fio's zonemode) */
	uint64_t zone_size, zone_range, zone_skip;	/* zonesize, zonerange, zoneskip */
	bool read_beyond_wp;
	bool zbd_empty;			/* zonemode=zbd: nothing written, nothing to read */
	unsigned rwmix_read;		/* % of reads: 100 read only, 0 write only */
	unsigned rw_dirs;		/* rw: 1 reads, 2 writes, 3 both */
	unsigned mix_pct;		/* rwmixread (default 50), for rw_dirs 3 */
	int prio_level, prio_class;	/* prio, prioclass; -1: not given */
	uint64_t randseed;
	bool have_seed;
	double pct[32];			/* percentile_list, npct == 0: fio's default */
	unsigned npct;
	char *directory;
	int64_t seq_add;		/* rw=read:-8k: added to the offset after each I/O */
	unsigned rand_nr;		/* rw=randread:N: a new random offset every N I/Os */
	uint64_t offset;		/* first byte of the region */
	uint64_t offset_inc;		/* offset_increment: job i starts i times further */
	uint64_t filesize;		/* 0: the file's */
	uint64_t io_size;		/* io_size: bytes per job, 0: size (times loops) */
	unsigned loops;
	uint64_t number_ios;		/* 0: no limit */
	uint64_t rate[2];		/* bytes/s per direction, 0: none */
	uint64_t rate_iops[2];
	bool hipri;
	double startdelay;		/* seconds */
	uint64_t thinktime_us;
	unsigned flow;			/* fio's flow weight, 0: none */
	unsigned flow_id;
	uint64_t flow_sleep_us;
	bool randrepeat;		/* the same offsets every run (fio's default) */
	bool stonewall;			/* wait for the jobs before it (stonewall, new_group) */
	char *wait_for;			/* a section name whose jobs must finish first */
	int ioprio;			/* -1: unchanged; else IOPRIO_PRIO_VALUE */
	uint16_t prio_default;		/* an I/O's ioprio without cmdprio: ioprio or 0 */
	struct zl_cmdprio cmdprio;
	bool log_prio;			/* logs: the ioprio value, not 1 for real time */
	bool log_offset;		/* logs: an offset column */
	unsigned ss_kind;		/* ZL_SS_* bits, 0: no steady-state check */
	double ss_limit;
	bool ss_pct;			/* ss_limit is a % of the mean */
	double ss_dur, ss_ramp;		/* seconds */
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
	uint64_t lat_target_ns;		/* fio's latency_target, 0: none */
	uint64_t lat_window_us;		/* latency_window */
	double lat_pct;			/* latency_percentile (100) */
	const char *verify_hdr;		/* fio's verify=crc32c, md5, ...: NULL none */
	bool device_share;	/* --device-share: the cusezero daemon's counters over the run */
	unsigned batch_submit;		/* SQEs prepared per submission */
	unsigned batch_complete;	/* completions waited for per wait */
	bool direct;			/* O_DIRECT */
	bool time_based;		/* --size bounds the offsets only, not the run */
	bool have_time;			/* --runtime given */
	char *bw_log, *iops_log, *lat_log;	/* fio's log file prefixes */
	char *hist_log;			/* write_hist_log */
	unsigned hist_msec, hist_coarse;	/* log_hist_msec, log_hist_coarseness */
	unsigned log_avg_msec;		/* 0: lat logs per read, bw/iops per 500 ms */
	struct zl_given *given;
	unsigned ngiven;
};

/* fio's disk_util (diskutil.c): /sys/block/NAME/stat before and after. */
#define ZL_DU_MAX	8
struct zl_du_dev {
	char dir[256], name[64];
	uint64_t s0[11], s1[11];
};
struct zl_du {
	unsigned n;
	struct zl_du_dev d[ZL_DU_MAX];
	uint64_t t0, t1;
};

/* The whole run: the sections and what applies to all of them. */
struct zl_run {
	struct zl_opts *sect;
	unsigned nsect;
	unsigned total_jobs;
	enum zl_format format;
	const char *output;		/* --output: the report goes there */
	bool group_reporting;
	bool exitall;			/* a job that finishes stops them all */
	bool readonly;			/* --readonly: a job that writes is refused */
	unsigned formats;		/* 1 << enum zl_format for each format asked for */
	struct zl_given *global;		/* fio's "global options" */
	unsigned nglobal;
	const char **sections;		/* --section: only these job sections run */
	unsigned nsections;
	bool device_share;	/* --device-share: the cusezero daemon's counters over the run */
	uint64_t status_ns;		/* --status-interval, 0: one report, at the end */
	struct zl_du du;		/* filled by main around the run */
};

/* diskutil.c: the block devices under the jobs' files; the counters after; the JSON array. */
void zl_du_start(struct zl_du *du, const struct zl_run *run);
void zl_du_stop(struct zl_du *du);
void *zl_du_json(const struct zl_du *du);

/* opts.c: the command line (and the job files it names) into run; exits on errors. */
void zl_parse_args(int argc, char **argv, struct zl_run *run);
void zl_run_free(struct zl_run *run);

/* One fio log entry: ms since the job's start, a value. */
struct zl_log_ent {
	uint32_t ms;
	uint32_t bs;			/* 0 in averaged entries, as fio */
	uint64_t val;
	uint64_t off;			/* from the file's start; 0 in averaged entries */
	uint16_t prio;			/* the I/O's ioprio */
	uint8_t dir;
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

/* fio's histogram log (hlog.c): fio's bins, a window per direction. */
#define ZL_HLOG_BINS	1856
struct zl_hlog {
	uint64_t *e;			/* entries: ms | dir << 32 | bs << 33, then the bins */
	size_t n, cap;
	uint64_t win[2][ZL_HLOG_BINS];
	uint32_t last_ms[2];
};

/* Counters that make every option's effect observable (printed by --json). */
struct zl_counters {
	uint64_t ios, bytes, errors, short_reads, verify_failures;
	uint64_t ops_readv, ops_read, ops_read_fixed, fixed_file_ops;
	uint64_t submit_calls, wait_calls, sqpoll_wakeups;
	uint64_t max_inflight, max_submit_batch, max_cqe_batch;
	uint64_t sq_ring_full;		/* waits for SQ space (SQPOLL) */
	/* fio's IO depths / submit / complete maps: 1 2 4 8 16 32 >=64, 0 4 8 16 32 64 >=64. */
	uint64_t depth[7], submit[7], complete[7];
};

/* fio's steady state: ss=iops|bw[_slope]:LIMIT[%]. */
#define ZL_SS_IOPS	1u
#define ZL_SS_BW	2u
#define ZL_SS_SLOPE	4u
#define ZL_SS_MAX	600		/* ss_dur samples kept, at most */
struct zl_ss {
	double iops[ZL_SS_MAX], bw[ZL_SS_MAX];	/* bw in bytes/s */
	unsigned n, head;
	uint64_t last_t, last_ios, last_bytes;
	bool attained;
	double dev, slope, crit;	/* the last check: as fio's JSON "steadystate" */
};

/* What one direction did (the write side; reads are the totals minus it). */
struct zl_dirstat {
	uint64_t ios, bytes, short_ios;
	struct zl_hist clat, lat;
	struct zl_stat slat;
};

/*
 * --status-interval: what the report reads of a running job, copied by the
 * job's own thread (status.c) when it sees a new tick, under lock.
 */
struct zl_snap {
	pthread_mutex_t lock;
	unsigned seq;			/* the tick copied last (atomic) */
	bool valid;			/* copied at least once */
	struct zl_counters c;
	struct zl_dirstat wr;
	struct zl_hist hist, lat;
	struct zl_stat slat;
	struct rusage ru_start, ru_now;	/* RUSAGE_THREAD at the start, at the copy */
	uint64_t t_start, t_now;
	unsigned qd_now;
	int cpu;
};

struct zl_job {
	int id;
	unsigned sect;			/* index of its section in run->sect */
	unsigned id_in_sect;		/* 0 .. numjobs - 1 */
	const struct zl_run *run;
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
	uint64_t mix_state;		/* rwmix and bssplit draws */
	uint64_t base;			/* offset (+ offset_increment) of this job */
	uint64_t zone_start;		/* zonemode=strided: the zone's first byte (from base) */
	uint64_t zone_bytes;		/* ... and the bytes sent to it */
	unsigned qd_now;		/* the depth kept: iodepth, or latency_target's */
	struct zl_lt lt;
	uint64_t verify_off;		/* the first block written (verify_hdr) */
	uint32_t verify_len;
	uint64_t t_go;			/* ns: the job started (after waits and startdelay) */
	int wait_first, wait_n;		/* jobs that must finish before it starts */
	struct zl_dirstat wr;
	struct zl_ss ss;
	struct zl_hlog hlog;

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
	uint64_t t_stop;		/* ns: the job's own end (runtime + ramp); 0: none */
	uint64_t ramp_end;		/* ns; 0: measuring */
	int ramped;			/* the ramp is over (the supervisor samples) */
	uint64_t ramp_ios, ramp_bytes;	/* done during the ramp (live counters) */
	struct zl_logs logs;
	bool logging;
	struct zl_snap *snap;		/* --status-interval only, else NULL */
	unsigned snap_seen;		/* the last tick this thread copied for */
};

/* Shared between the jobs and main. */
extern int zl_stop;			/* set: stop issuing, drain, exit */
extern int zl_abort;			/* set before the start barrier: exit now */
extern pthread_barrier_t zl_setup_done, zl_go;

void *zl_job_main(void *arg);
/* io.c, for job.c and sync.c: the per-I/O steps shared by every engine. */
struct zl_slot {
	uint64_t offset;
	uint64_t t_prep;		/* preparation started (slat from here) */
	uint64_t t_submit;		/* the submit call (clat from here) */
	uint32_t len;
	int dir;			/* ZL_DIR_READ or ZL_DIR_WRITE */
	uint16_t ioprio;		/* IOPRIO_PRIO_VALUE, 0: none */
	struct iovec iov;
};
struct zl_seq {
	uint64_t next_off[2];		/* sequential position per direction */
	uint64_t left[2];		/* rand_nr: sequential I/Os left before a new draw */
};
void zl_next_io(struct zl_job *j, struct zl_seq *q, struct zl_slot *s);
/* hlog.c: one I/O's clat into fio's histogram log; drop it; write it. */
void zl_hlog_io(struct zl_job *j, const struct zl_slot *s, uint64_t now, uint64_t clat);
void zl_hlog_reset(struct zl_job *j);
int zl_hlog_write(const struct zl_job *j);
/* latency.c: start the search (qd_now); after each I/O, what io.c must do. */
void zl_lt_init(struct zl_job *j, uint64_t now);
int zl_lt_complete(struct zl_job *j, uint64_t lat_ns, uint64_t now);
/* verify.c: fio's header verify of a block read; the verify phase. */
bool zl_verify_hdr(struct zl_job *j, const struct zl_slot *s, const unsigned char *b, size_t res);
void zl_verify_phase(struct zl_job *j, char *buf, bool stopped);
/* cmdprio.c: the ioprio of an I/O of direction d and size len, r in [0, 100). */
uint16_t zl_cmdprio_pick(const struct zl_opts *o, int d, uint32_t len, unsigned r);
void zl_complete(struct zl_job *j, struct zl_slot *s, int res, uint64_t now);
/* Sleep for rate / rate_iops / thinktime before the next I/O. */
void zl_throttle(struct zl_job *j);
/* ramp_time is over: drop what was measured, the clock starts at now. */
void zl_ramp_done(struct zl_job *j, uint64_t now);
/* ss.c: one second's steady-state sample; stops the job once it is steady. */
void zl_ss_tick(struct zl_job *j, uint64_t now);
/* fio's JSON "steadystate" object of a job with ss (a json_t *). */
void *zl_ss_json(const struct zl_opts *o, const struct zl_ss *s);
/* io.c: sleep ns (restarted after signals). */
void zl_nap(uint64_t ns);
/* sync.c: the synchronous engines' loop (depth 1). */
int zl_run_sync(struct zl_job *j, struct zl_slot *slot, uint64_t limit_bytes, uint64_t limit_ios);
const char *zl_engine_name(enum zl_engine e);
/* Count an I/O depth (map 0) or a submit / complete batch (map 1) as fio's maps do. */
void zl_map_add(uint64_t *map, unsigned v, bool batch);
/* "readv", "read" or "read_fixed": the opcode the options select. */
const char *zl_op_name(const struct zl_opts *o);
/* "CQSIZE|SQPOLL|..." for the IORING_SETUP_* bits in flags. */
const char *zl_setup_flag_names(unsigned flags, char *buf, size_t len);

/* --status-interval.  snap.c: main's tick number, the job side (cheap when
 * nothing is due); status.c, main's side: set up, a dump of every job, free. */
extern unsigned zl_status_seq;
extern uint64_t zl_status_epoch;	/* ns: the ticks count from here (main's start) */
extern uint64_t zl_status_tick;		/* ns: the tick of main's last dump (atomic) */
void zl_status_copy(struct zl_job *j);
static inline void zl_status_poll(struct zl_job *j)
{
	if (j->snap && __atomic_load_n(&zl_status_seq, __ATOMIC_RELAXED) != j->snap_seen)
		zl_status_copy(j);
}
void zl_status_init(const struct zl_run *run, struct zl_job *jobs);
bool zl_status_pending(const struct zl_job *j, uint64_t now);
/*
 * A job ends its --runtime itself, at the I/O that crosses it (fio's
 * runtime_exceeded() in its thread's loop): not seconds later because main
 * is busy (a --status-interval dump among many jobs on few CPUs).  The one
 * wait: the last status tick before its end, at most ZL_STATUS_GRACE_NS
 * (status.c), so that the dump of the run's last interval shows it running.
 * main's supervisor still sets stop for a job that waits (throttled, a slow
 * device).
 */
static inline void zl_time_check(struct zl_job *j, uint64_t now)
{
	if (j->t_stop && now >= j->t_stop && !(j->snap && zl_status_pending(j, now)))
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
}
void zl_status_dump(const struct zl_run *run, const struct zl_job *jobs, uint64_t tick);
void zl_status_free(const struct zl_run *run, struct zl_job *jobs);

/* report.c: the summary in run->format on stdout. */
void zl_report(const struct zl_run *run, const struct zl_job *jobs);
/* Bytes and errors of all jobs (the exit status). */
uint64_t zl_failures(const struct zl_run *run, const struct zl_job *jobs);

/* log.c: a completion (and the window it closes) into the job's logs. */
void zl_log_io(struct zl_job *j, const struct zl_slot *s, uint64_t now, uint64_t slat,
	       uint64_t clat, unsigned bytes);
/* Close the last window, write the job's files; 0 or -1 (reported). */
int zl_log_write(struct zl_job *j);
void zl_log_free(struct zl_job *j);

#endif
