/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload - sequential reads of a device or file through io_uring, in the
 * spirit of fio's io_uring engine and fio's t/io_uring, for comparing the
 * cusezero device with the kernel's /dev/zero.
 *
 *   zload [OPTIONS] DEVICE
 *   zload --bs 4KB --qd 32 --time 5 /dev/zero
 *   zload --bs 100KB --qd 1 --fixedbufs --registerfiles --json /run/cusezero/cusezero/zero
 *
 * Each job is a thread with its own ring, descriptor and buffers.  Reads are
 * sequential from offset 0; on a regular file (or block device) offsets wrap
 * at the size rounded down to --bs, on a character device they run over
 * [0, 1 TiB) (a CUSE device always sees pos 0 anyway).  Completion latency is
 * measured from the submit call to the reaping of the CQE.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "zload.h"

#define ZL_MAX_QD	4096
#define ZL_MAX_JOBS	64
#define ZL_MAX_BS	(64ULL << 20)
#define ZL_DEFAULT_TIME	5.0

static volatile sig_atomic_t zl_signalled;

static void zl_usage(FILE *f)
{
	fprintf(f,
		"Usage: zload [OPTIONS] DEVICE\n"
		"Sequential reads of DEVICE (a device or file) through io_uring.\n"
		"\n"
		"  --bs SIZE            bytes per read (default 4KB; units B KB MB GB, binary)\n"
		"  --qd N               reads in flight per job (default 1, max %d)\n"
		"  --jobs N             threads, each with its own ring (default 1)\n"
		"  --time SEC           run for SEC seconds (default %.0f unless --size)\n"
		"  --size BYTES         each job reads BYTES (rounded up to --bs) and stops\n"
		"  --fixedbufs          register the buffers, use IORING_OP_READ_FIXED\n"
		"  --registerfiles      register the file, use IOSQE_FIXED_FILE\n"
		"  --sqpoll             kernel SQ polling thread (IORING_SETUP_SQPOLL)\n"
		"  --sqpoll-cpu N       pin the SQ thread to CPU N (needs --sqpoll)\n"
		"  --nonvectored        IORING_OP_READ instead of the default IORING_OP_READV\n"
		"                       (fio's io_uring engine uses READ when the kernel has it)\n"
		"  --cpu LIST           pin job i to the i-th CPU of LIST (\"0\", \"0-1\", \"0,2\")\n"
		"  --verify             every byte read must be zero (exit 1 naming the offset)\n"
		"  --batch-submit N     prepare at most N reads per submission (default --qd)\n"
		"  --batch-complete N   wait for at least N completions at a time (default 1)\n"
		"  --json               JSON summary with the counters\n"
		"  --format FMT         normal | simple (bytes/sec only) | json\n"
		"  -h, --help           this text\n"
		"\n"
		"Reads are sequential from offset 0 and wrap at the size of a regular file or\n"
		"block device (rounded down to --bs), at 1 TiB on anything else (/dev/zero and\n"
		"the FUSE zero file ignore offsets; a CUSE device always sees 0).  --time and\n"
		"--size together: whichever ends first.  Setup flags the kernel rejects are\n"
		"dropped with a note.  Exit 1 on a failed read or a --verify mismatch.\n",
		ZL_MAX_QD, ZL_DEFAULT_TIME);
}

__attribute__((format(printf, 1, 2), noreturn))
static void zl_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "zload: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static unsigned zl_parse_uint(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (cz_parse_u64(arg, min, max, &v))
		zl_die("%s: invalid value '%s' (an integer in %" PRIu64 "..%" PRIu64 ")",
		       opt, arg, min, max);
	return (unsigned)v;
}

static void zl_parse(int argc, char **argv, struct zl_opts *o)
{
	enum {
		OPT_BS = 256, OPT_QD, OPT_JOBS, OPT_TIME, OPT_SIZE, OPT_FIXEDBUFS,
		OPT_REGISTERFILES, OPT_SQPOLL, OPT_SQPOLL_CPU, OPT_NONVECTORED, OPT_CPU,
		OPT_VERIFY, OPT_BATCH_SUBMIT, OPT_BATCH_COMPLETE, OPT_JSON, OPT_FORMAT,
	};
	static const struct option longopts[] = {
		{ "bs",             required_argument, NULL, OPT_BS },
		{ "qd",             required_argument, NULL, OPT_QD },
		{ "jobs",           required_argument, NULL, OPT_JOBS },
		{ "time",           required_argument, NULL, OPT_TIME },
		{ "size",           required_argument, NULL, OPT_SIZE },
		{ "fixedbufs",      no_argument,       NULL, OPT_FIXEDBUFS },
		{ "registerfiles",  no_argument,       NULL, OPT_REGISTERFILES },
		{ "sqpoll",         no_argument,       NULL, OPT_SQPOLL },
		{ "sqpoll-cpu",     required_argument, NULL, OPT_SQPOLL_CPU },
		{ "nonvectored",    no_argument,       NULL, OPT_NONVECTORED },
		{ "cpu",            required_argument, NULL, OPT_CPU },
		{ "verify",         no_argument,       NULL, OPT_VERIFY },
		{ "batch-submit",   required_argument, NULL, OPT_BATCH_SUBMIT },
		{ "batch-complete", required_argument, NULL, OPT_BATCH_COMPLETE },
		{ "json",           no_argument,       NULL, OPT_JSON },
		{ "format",         required_argument, NULL, OPT_FORMAT },
		{ "help",           no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_time = false;
	uint64_t v;
	char *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_BS:
			if (cz_parse_size(optarg, &v) || v == 0 || v > ZL_MAX_BS)
				zl_die("--bs: invalid size '%s' (1B..64MB, units B KB MB GB)", optarg);
			o->bs = (uint32_t)v;
			break;
		case OPT_QD:
			o->qd = zl_parse_uint("--qd", optarg, 1, ZL_MAX_QD);
			break;
		case OPT_JOBS:
			o->jobs = zl_parse_uint("--jobs", optarg, 1, ZL_MAX_JOBS);
			break;
		case OPT_TIME:
			errno = 0;
			o->time_sec = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->time_sec > 0) || o->time_sec > 1e6)
				zl_die("--time: invalid duration '%s' (seconds, > 0)", optarg);
			have_time = true;
			break;
		case OPT_SIZE:
			if (cz_parse_size(optarg, &v) || v == 0)
				zl_die("--size: invalid size '%s' (> 0, units B KB MB GB TB)", optarg);
			o->size = v;
			break;
		case OPT_FIXEDBUFS:
			o->fixedbufs = true;
			break;
		case OPT_REGISTERFILES:
			o->registerfiles = true;
			break;
		case OPT_SQPOLL:
			o->sqpoll = true;
			break;
		case OPT_SQPOLL_CPU:
			o->sqpoll_cpu = (int)zl_parse_uint("--sqpoll-cpu", optarg, 0, CPU_SETSIZE - 1);
			break;
		case OPT_NONVECTORED:
			o->nonvectored = true;
			break;
		case OPT_CPU:
			if (cz_parse_cpulist(optarg, &o->cpumask) || !o->cpumask)
				zl_die("--cpu: invalid CPU list '%s' (e.g. 0, 0-1, 0,2; CPUs < 64)", optarg);
			break;
		case OPT_VERIFY:
			o->verify = true;
			break;
		case OPT_BATCH_SUBMIT:
			o->batch_submit = zl_parse_uint("--batch-submit", optarg, 1, ZL_MAX_QD);
			break;
		case OPT_BATCH_COMPLETE:
			o->batch_complete = zl_parse_uint("--batch-complete", optarg, 1, ZL_MAX_QD);
			break;
		case OPT_JSON:
			o->format = ZL_FORMAT_JSON;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "normal") || !strcmp(optarg, "default"))
				o->format = ZL_FORMAT_NORMAL;
			else if (!strcmp(optarg, "simple"))
				o->format = ZL_FORMAT_SIMPLE;
			else if (!strcmp(optarg, "json"))
				o->format = ZL_FORMAT_JSON;
			else
				zl_die("--format: unknown format '%s' (normal, simple, json)", optarg);
			break;
		case 'h':
			zl_usage(stdout);
			exit(0);
		case ':':
			zl_die("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt)
				zl_die("unknown option '-%c' (see --help)", optopt);
			zl_die("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		zl_die("missing DEVICE (a device or file to read; see --help)");
	o->path = argv[optind++];
	if (optind < argc)
		zl_die("unexpected argument '%s' (one DEVICE only)", argv[optind]);

	if (o->sqpoll_cpu >= 0 && !o->sqpoll)
		zl_die("--sqpoll-cpu %d: needs --sqpoll", o->sqpoll_cpu);
	if (!o->batch_submit)
		o->batch_submit = o->qd;
	if (o->batch_submit > o->qd)
		zl_die("--batch-submit %u: larger than --qd %u", o->batch_submit, o->qd);
	if (o->batch_complete > o->qd)
		zl_die("--batch-complete %u: larger than --qd %u", o->batch_complete, o->qd);
	if (!have_time && !o->size)
		o->time_sec = ZL_DEFAULT_TIME;
}

/* First signal: stop issuing, drain, summarize.  Second: a read that never
 * completes must not hold the terminal hostage. */
static void zl_on_signal(int sig)
{
	if (__atomic_exchange_n(&zl_stop, 1, __ATOMIC_RELAXED) && zl_signalled)
		_exit(128 + sig);
	zl_signalled = 1;
}

static void zl_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

struct zl_result {
	struct zl_counters c;
	struct zl_hist hist;
	double seconds;
	unsigned setup_flags, dropped_flags;
	bool sqpoll_on, buffers_registered, files_registered;
};

static void zl_collect(const struct zl_opts *o, struct zl_job *jobs, struct zl_result *r)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	unsigned i;

	for (i = 0; i < o->jobs; i++) {
		const struct zl_job *j = &jobs[i];
		const struct zl_counters *c = &j->c;

		r->c.ios += c->ios;
		r->c.bytes += c->bytes;
		r->c.errors += c->errors;
		r->c.short_reads += c->short_reads;
		r->c.verify_failures += c->verify_failures;
		r->c.ops_readv += c->ops_readv;
		r->c.ops_read += c->ops_read;
		r->c.ops_read_fixed += c->ops_read_fixed;
		r->c.fixed_file_ops += c->fixed_file_ops;
		r->c.submit_calls += c->submit_calls;
		r->c.wait_calls += c->wait_calls;
		r->c.sqpoll_wakeups += c->sqpoll_wakeups;
		r->c.sq_ring_full += c->sq_ring_full;
#define ZL_MAX(f) (r->c.f = c->f > r->c.f ? c->f : r->c.f)
		ZL_MAX(max_inflight);
		ZL_MAX(max_submit_batch);
		ZL_MAX(max_cqe_batch);
#undef ZL_MAX
		zl_hist_merge(&r->hist, &j->hist);
		r->setup_flags |= j->setup_flags;
		r->dropped_flags |= j->dropped_flags;
		r->sqpoll_on |= j->sqpoll_on;
		r->buffers_registered |= j->buffers_registered;
		r->files_registered |= j->files_registered;
		if (j->t_start < t0)
			t0 = j->t_start;
		if (j->t_end > t1)
			t1 = j->t_end;
	}
	r->seconds = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0.0;
}

static void zl_print_json(const struct zl_opts *o, const struct zl_job *jobs,
			  const struct zl_result *r)
{
	unsigned i;
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->hist;
	double bw = r->seconds > 0 ? (double)c->bytes / r->seconds : 0;
	double iops = r->seconds > 0 ? (double)c->ios / r->seconds : 0;
	char flags[256], dropped[256];

	printf("{\"device\":");
	cz_json_string(stdout, o->path);
	printf(",\"op\":\"%s\",\"bs\":%u,\"qd\":%u,\"jobs\":%u,"
	       "\"batch_submit\":%u,\"batch_complete\":%u,\"verify\":%s,",
	       zl_op_name(o), o->bs, o->qd, o->jobs, o->batch_submit, o->batch_complete,
	       o->verify ? "true" : "false");
	printf("\"seconds\":%.6f,\"ios\":%" PRIu64 ",\"bytes\":%" PRIu64
	       ",\"iops\":%.0f,\"bytes_per_sec\":%.0f,",
	       r->seconds, c->ios, c->bytes, iops, bw);
	printf("\"errors\":%" PRIu64 ",\"short_reads\":%" PRIu64 ",\"verify_failures\":%" PRIu64 ",",
	       c->errors, c->short_reads, c->verify_failures);
	printf("\"clat_ns\":{\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64
	       ",\"p99.9\":%" PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.0f,\"samples\":%" PRIu64 "},",
	       zl_hist_percentile(h, 50), zl_hist_percentile(h, 90), zl_hist_percentile(h, 99),
	       zl_hist_percentile(h, 99.9), h->max, h->n ? (double)h->sum / (double)h->n : 0.0, h->n);
	printf("\"job_cpus\":[");
	for (i = 0; i < o->jobs; i++)
		printf("%s%d", i ? "," : "", jobs[i].ran_cpu);
	printf("],");
	printf("\"counters\":{\"max_inflight\":%" PRIu64 ",\"ops_readv\":%" PRIu64
	       ",\"ops_read\":%" PRIu64 ",\"ops_read_fixed\":%" PRIu64 ",\"fixed_file_ops\":%" PRIu64
	       ",\"buffers_registered\":%s,\"files_registered\":%s,\"sqpoll\":%s"
	       ",\"sqpoll_wakeups\":%" PRIu64 ",\"sq_ring_full\":%" PRIu64 ",\"submit_calls\":%" PRIu64 ",\"wait_calls\":%" PRIu64
	       ",\"max_submit_batch\":%" PRIu64 ",\"max_cqe_batch\":%" PRIu64
	       ",\"setup_flags\":\"%s\",\"dropped_setup_flags\":\"%s\"}}\n",
	       c->max_inflight, c->ops_readv, c->ops_read, c->ops_read_fixed, c->fixed_file_ops,
	       r->buffers_registered ? "true" : "false", r->files_registered ? "true" : "false",
	       r->sqpoll_on ? "true" : "false", c->sqpoll_wakeups, c->sq_ring_full,
	       c->submit_calls, c->wait_calls,
	       c->max_submit_batch, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)),
	       zl_setup_flag_names(r->dropped_flags, dropped, sizeof(dropped)));
}

static void zl_print_normal(const struct zl_opts *o, const struct zl_result *r)
{
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->hist;
	double bw = r->seconds > 0 ? (double)c->bytes / r->seconds : 0;
	double iops = r->seconds > 0 ? (double)c->ios / r->seconds : 0;
	char bs[32], flags[256];

	printf("zload: %s: %s bs=%s qd=%u jobs=%u%s%s%s\n", o->path, zl_op_name(o),
	       cz_format_size(o->bs, bs, sizeof(bs)), o->qd, o->jobs,
	       r->files_registered ? " registerfiles" : "", r->sqpoll_on ? " sqpoll" : "",
	       o->verify ? " verify" : "");
	printf("  read: IOPS=%.0f BW=%.2fGB/s (%.0f B/s) %.3fGB in %.3fs\n",
	       iops, bw / 1e9, bw, (double)c->bytes / 1e9, r->seconds);
	printf("  clat (usec): p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f mean=%.2f\n",
	       zl_hist_percentile(h, 50) / 1e3, zl_hist_percentile(h, 90) / 1e3,
	       zl_hist_percentile(h, 99) / 1e3, zl_hist_percentile(h, 99.9) / 1e3,
	       h->max / 1e3, h->n ? (double)h->sum / (double)h->n / 1e3 : 0.0);
	printf("  errors=%" PRIu64 " short_reads=%" PRIu64 " verify_failures=%" PRIu64 "\n",
	       c->errors, c->short_reads, c->verify_failures);
	printf("  max_inflight=%" PRIu64 " submit_calls=%" PRIu64 " wait_calls=%" PRIu64
	       " max_cqe_batch=%" PRIu64 " setup=%s\n",
	       c->max_inflight, c->submit_calls, c->wait_calls, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)));
}

/* Sleep in short steps: enforce --time, draw the progress line, notice the end. */
static void zl_supervise(const struct zl_opts *o, struct zl_job *jobs)
{
	bool tty = isatty(STDERR_FILENO);
	uint64_t start = cz_now_ns(), deadline = UINT64_MAX, last_draw = start;
	uint64_t last_ios = 0, last_bytes = 0;
	bool drew = false;

	if (o->time_sec > 0)
		deadline = start + (uint64_t)(o->time_sec * 1e9);
	for (;;) {
		uint64_t now = cz_now_ns(), step = 100000000ULL;
		unsigned i, done = 0;

		for (i = 0; i < o->jobs; i++)
			done += __atomic_load_n(&jobs[i].finished, __ATOMIC_ACQUIRE);
		if (done == o->jobs)
			break;
		if (now >= deadline)
			__atomic_store_n(&zl_stop, 1, __ATOMIC_RELAXED);
		else if (deadline - now < step)
			step = deadline - now;
		if (tty && now - last_draw >= 1000000000ULL) {
			uint64_t ios = 0, bytes = 0;
			double dt = (double)(now - last_draw) / 1e9;

			for (i = 0; i < o->jobs; i++) {
				ios += __atomic_load_n(&jobs[i].live_ios, __ATOMIC_RELAXED);
				bytes += __atomic_load_n(&jobs[i].live_bytes, __ATOMIC_RELAXED);
			}
			fprintf(stderr, "\rzload: %5.0fs  %10.0f IOPS  %7.2f GB/s ",
				(double)(now - start) / 1e9, (double)(ios - last_ios) / dt,
				(double)(bytes - last_bytes) / dt / 1e9);
			last_ios = ios;
			last_bytes = bytes;
			last_draw = now;
			drew = true;
		}
		zl_sleep_ns(step);
	}
	if (drew)
		fprintf(stderr, "\r\033[K");
}

int main(int argc, char **argv)
{
	struct zl_opts o = {
		.bs = 4096,
		.qd = 1,
		.jobs = 1,
		.sqpoll_cpu = -1,
		.batch_complete = 1,
		.format = ZL_FORMAT_NORMAL,
	};
	struct sigaction sa = { .sa_handler = zl_on_signal };
	struct zl_result *r;
	struct zl_job *jobs;
	int cpus[64], ncpus = 0, fd, ret, status = 0;
	unsigned i;

	zl_parse(argc, argv, &o);

	/* Fail on a missing or unreadable DEVICE before starting any thread. */
	fd = open(o.path, O_RDONLY);
	if (fd < 0)
		zl_die("open %s: %s", o.path, strerror(errno));
	close(fd);

	for (i = 0; i < 64; i++)
		if (o.cpumask & (1ULL << i))
			cpus[ncpus++] = (int)i;

	jobs = calloc(o.jobs, sizeof(*jobs));
	r = calloc(1, sizeof(*r));
	if (!jobs || !r)
		zl_die("out of memory");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	pthread_barrier_init(&zl_setup_done, NULL, o.jobs + 1);
	pthread_barrier_init(&zl_go, NULL, o.jobs + 1);
	for (i = 0; i < o.jobs; i++) {
		jobs[i].id = (int)i;
		jobs[i].o = &o;
		jobs[i].cpu = ncpus ? cpus[i % (unsigned)ncpus] : -1;
		ret = pthread_create(&jobs[i].thread, NULL, zl_job_main, &jobs[i]);
		if (ret)
			zl_die("pthread_create: %s", strerror(ret));
	}
	pthread_barrier_wait(&zl_setup_done);
	for (i = 0; i < o.jobs; i++) {
		struct zl_job *j = &jobs[i];

		if (!j->setup_err)
			continue;
		if (j->setup_msg[0])
			fprintf(stderr, "zload: %s\n", j->setup_msg);
		else if (j->cpu >= 0 && !strcmp(j->setup_what, "pin to --cpu"))
			fprintf(stderr, "zload: --cpu: cannot pin job %u to CPU %d: %s\n",
				i, j->cpu, strerror(-j->setup_err));
		else
			fprintf(stderr, "zload: job %u: %s %s: %s\n", i, j->setup_what, o.path,
				strerror(-j->setup_err));
		zl_abort = 1;
		break;
	}
	pthread_barrier_wait(&zl_go);
	if (!zl_abort)
		zl_supervise(&o, jobs);
	for (i = 0; i < o.jobs; i++)
		pthread_join(jobs[i].thread, NULL);
	if (zl_abort) {
		free(jobs);
		free(r);
		return 1;
	}

	zl_collect(&o, jobs, r);
	switch (o.format) {
	case ZL_FORMAT_NORMAL:
		zl_print_normal(&o, r);
		break;
	case ZL_FORMAT_SIMPLE:
		printf("%.0f\n", r->seconds > 0 ? (double)r->c.bytes / r->seconds : 0.0);
		break;
	case ZL_FORMAT_JSON:
		zl_print_json(&o, jobs, r);
		break;
	}
	if (r->c.verify_failures || r->c.errors)
		status = 1;
	free(jobs);
	free(r);
	return status;
}
