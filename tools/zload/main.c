/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload - reads of a device or file through io_uring, in the spirit of
 * fio's io_uring engine and fio's t/io_uring, for comparing the cusezero
 * device with the kernel's /dev/zero.
 *
 *   zload [OPTIONS] DEVICE
 *   zload --bs 4KB --qd 32 --time 5 /dev/zero
 *   zload --bs=100k --iodepth=1 --fixedbufs --registerfiles --output-format=json /dev/zero
 *
 * Each job is a thread with its own ring, descriptor and buffers.  Reads are
 * sequential from offset 0 (--rw read) or at random --bs-aligned offsets
 * (--rw randread); offsets stay below the size of a regular file (or block
 * device) rounded down to --bs, below 1 TiB on a character device (a CUSE
 * device always sees pos 0 anyway).  fio's option names are accepted as
 * aliases (fio(1), "I/O depth", "Buffers and memory", io_uring engine
 * options), so a fio command line needs only its fio-only options dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "zload.h"
#include "devstats.h"

#define ZL_MAX_QD	4096
#define ZL_MAX_JOBS	64
#define ZL_MAX_BS	(64ULL << 20)
#define ZL_DEFAULT_TIME	5.0

static volatile sig_atomic_t zl_signalled;

static void zl_usage(FILE *f)
{
	fprintf(f,
		"Usage: zload [OPTIONS] DEVICE\n"
		"Reads of DEVICE (a device or file) through io_uring; fio's names in [].\n"
		"\n"
		"  --bs SIZE            bytes per read (default 4KB; units B KB MB GB, binary)\n"
		"  --rw read|randread   sequential (default) or random offsets, multiples of --bs\n"
		"  --qd N               reads in flight per job (default 1, max %d) [--iodepth]\n"
		"  --jobs N             threads, each with its own ring (default 1) [--numjobs]\n"
		"  --time SEC           run for SEC seconds (default %.0f unless --size; suffixes\n"
		"                       ms s m h) [--runtime]\n"
		"  --size BYTES         each job reads BYTES (rounded up to --bs) and stops\n"
		"  --fixedbufs          register the buffers, use IORING_OP_READ_FIXED\n"
		"  --registerfiles      register the file, use IOSQE_FIXED_FILE\n"
		"  --sqpoll             kernel SQ polling thread (IORING_SETUP_SQPOLL) [--sqthread_poll]\n"
		"  --sqpoll-cpu N       pin the SQ thread to CPU N (needs --sqpoll) [--sqthread_poll_cpu]\n"
		"  --nonvectored        IORING_OP_READ instead of the default IORING_OP_READV\n"
		"                       (fio's engine uses READ when the kernel has it;\n"
		"                       --nonvectored=0 keeps READV, as fio's)\n"
		"  --cpu LIST           pin job i to the i-th CPU of LIST (\"0\", \"0-1\", \"0,2\")\n"
		"  --verify             every byte read must be zero (exit 1 naming the offset)\n"
		"  --device-share       when DEVICE is a cusezero device: print on stderr what its\n"
		"                       daemon counted during the run (routine GB/s, the routine's\n"
		"                       share of the daemon's busy time); nothing otherwise\n"
		"  --batch-submit N     prepare at most N reads per submission (default --qd)\n"
		"                       [--iodepth_batch_submit, --iodepth_batch]\n"
		"  --batch-complete N   wait for at least N completions at a time (default 1)\n"
		"                       [--iodepth_batch_complete_min, --iodepth_batch_complete]\n"
		"  --filename DEVICE    DEVICE as an option (fio's way)\n"
		"  --json               same as --format json\n"
		"  --format FMT         default | simple (bytes/sec only) | json [--output-format]\n"
		"  -h, --help           this text\n"
		"  -V, --version        the version\n"
		"\n"
		"Boolean options take an optional =1 or =0, as fio's do.  Bandwidth is printed\n"
		"as fio prints it: MiB/s (2^20 bytes) with MB/s (10^6 bytes) in parentheses.\n"
		"--time and --size together: whichever ends first.  Setup flags the kernel\n"
		"rejects are dropped with a note.  Exit status: 0 ok, 1 a failed read or\n"
		"--verify mismatch, 2 a bad option.\n",
		ZL_MAX_QD, ZL_DEFAULT_TIME);
}

enum {
	OPT_BS = 256, OPT_RW, OPT_QD, OPT_JOBS, OPT_TIME, OPT_SIZE, OPT_FIXEDBUFS,
	OPT_REGISTERFILES, OPT_SQPOLL, OPT_SQPOLL_CPU, OPT_NONVECTORED, OPT_CPU,
	OPT_VERIFY, OPT_BATCH_SUBMIT, OPT_BATCH_COMPLETE, OPT_JSON, OPT_FORMAT,
	OPT_FILENAME, OPT_SHARE,
};

/* zload's names first, then fio's for the same option. */
static const struct option zl_longopts[] = {
	{ "bs",                         required_argument, NULL, OPT_BS },
	{ "rw",                         required_argument, NULL, OPT_RW },
	{ "qd",                         required_argument, NULL, OPT_QD },
	{ "iodepth",                    required_argument, NULL, OPT_QD },
	{ "jobs",                       required_argument, NULL, OPT_JOBS },
	{ "numjobs",                    required_argument, NULL, OPT_JOBS },
	{ "time",                       required_argument, NULL, OPT_TIME },
	{ "runtime",                    required_argument, NULL, OPT_TIME },
	{ "size",                       required_argument, NULL, OPT_SIZE },
	{ "fixedbufs",                  optional_argument, NULL, OPT_FIXEDBUFS },
	{ "registerfiles",              optional_argument, NULL, OPT_REGISTERFILES },
	{ "sqpoll",                     optional_argument, NULL, OPT_SQPOLL },
	{ "sqthread_poll",              optional_argument, NULL, OPT_SQPOLL },
	{ "sqpoll-cpu",                 required_argument, NULL, OPT_SQPOLL_CPU },
	{ "sqthread_poll_cpu",          required_argument, NULL, OPT_SQPOLL_CPU },
	{ "nonvectored",                optional_argument, NULL, OPT_NONVECTORED },
	{ "cpu",                        required_argument, NULL, OPT_CPU },
	{ "verify",                     no_argument,       NULL, OPT_VERIFY },
	{ "device-share",               no_argument,       NULL, OPT_SHARE },
	{ "batch-submit",               required_argument, NULL, OPT_BATCH_SUBMIT },
	{ "iodepth_batch_submit",       required_argument, NULL, OPT_BATCH_SUBMIT },
	{ "iodepth_batch",              required_argument, NULL, OPT_BATCH_SUBMIT },
	{ "batch-complete",             required_argument, NULL, OPT_BATCH_COMPLETE },
	{ "iodepth_batch_complete_min", required_argument, NULL, OPT_BATCH_COMPLETE },
	{ "iodepth_batch_complete",     required_argument, NULL, OPT_BATCH_COMPLETE },
	{ "filename",                   required_argument, NULL, OPT_FILENAME },
	{ "json",                       no_argument,       NULL, OPT_JSON },
	{ "format",                     required_argument, NULL, OPT_FORMAT },
	{ "output-format",              required_argument, NULL, OPT_FORMAT },
	{ "help",                       no_argument,       NULL, 'h' },
	{ "version",                    no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The option as the user spelled it: "--iodepth", not always "--qd". */
static const char *zl_opt_name(int idx)
{
	static char name[64];

	snprintf(name, sizeof(name), "--%s", zl_longopts[idx].name);
	return name;
}

static unsigned zl_parse_uint(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (cz_parse_u64(arg, min, max, &v))
		cz_usage_die("%s: invalid value '%s' (an integer in %" PRIu64 "..%" PRIu64 ")",
			     opt, arg, min, max);
	return (unsigned)v;
}

/* fio's boolean: absent value = 1; 1/0, true/false, yes/no, on/off. */
static bool zl_parse_bool(const char *opt, const char *arg)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	if (!arg)
		return true;
	for (i = 0; i < CZ_ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(arg, yes[i]))
			return true;
		if (!strcasecmp(arg, no[i]))
			return false;
	}
	cz_usage_die("%s: invalid value '%s' (1 or 0)", opt, arg);
}

/* Seconds, or a number with ms / s / m / h as fio's time options take. */
static double zl_parse_time(const char *opt, const char *arg)
{
	static const struct { const char *suffix; double mul; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	for (i = 0; !errno && end != arg && i < CZ_ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		v *= units[i].mul;
		if (v > 0 && v <= 1e6)
			return v;
		break;
	}
	cz_usage_die("%s: invalid duration '%s' (seconds > 0, or with ms s m h)", opt, arg);
}

/* One option's value into o; false when c is not a value option. */
static bool zl_parse_value(struct zl_opts *o, int c, const char *opt, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_BS:
		if (cz_parse_size(arg, &v) || v == 0 || v > ZL_MAX_BS)
			cz_usage_die("%s: invalid size '%s' (1B..64MB, units B KB MB GB)", opt, arg);
		o->bs = (uint32_t)v;
		return true;
	case OPT_RW:
		if (strcmp(arg, "read") && strcmp(arg, "randread"))
			cz_usage_die("%s: invalid value '%s' (read or randread: zload only reads)", opt, arg);
		o->random = !strcmp(arg, "randread");
		return true;
	case OPT_QD:
		o->qd = zl_parse_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case OPT_JOBS:
		o->jobs = zl_parse_uint(opt, arg, 1, ZL_MAX_JOBS);
		return true;
	case OPT_TIME:
		o->time_sec = zl_parse_time(opt, arg);
		return true;
	case OPT_SIZE:
		if (cz_parse_size(arg, &v) || v == 0)
			cz_usage_die("%s: invalid size '%s' (> 0, units B KB MB GB TB)", opt, arg);
		/*
		 * No file offset goes past 2^63 - 1 (loff_t); above it the count
		 * of reads (size rounded up to --bs) wrapped to 0: no I/O, exit 0.
		 */
		if (v > INT64_MAX)
			cz_usage_die("%s: size '%s' is past the largest file offset (2^63 - 1 bytes)",
				     opt, arg);
		o->size = v;
		return true;
	case OPT_SQPOLL_CPU:
		o->sqpoll_cpu = (int)zl_parse_uint(opt, arg, 0, CZ_CPU_MAX - 1);
		return true;
	case OPT_CPU:
		cz_cpulist_free(&o->cpus);
		if (cz_parse_cpulist(arg, &o->cpus))
			cz_usage_die("%s: invalid CPU list '%s' (e.g. 0, 0-1, 0,2; CPUs < %d)",
				     opt, arg, CZ_CPU_MAX);
		return true;
	case OPT_BATCH_SUBMIT:
		o->batch_submit = zl_parse_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case OPT_BATCH_COMPLETE:
		o->batch_complete = zl_parse_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case OPT_FORMAT:
		if (cz_format_parse(arg, &o->format))
			cz_usage_die("%s: unknown format '%s' (%s)", opt, arg, CZ_FORMAT_NAMES);
		return true;
	}
	return false;
}

/* Flags and the rest; exits on -h, -V and errors. */
static void zl_parse_flag(struct zl_opts *o, int c, const char *opt, char **argv)
{
	switch (c) {
	case OPT_FIXEDBUFS:
		o->fixedbufs = zl_parse_bool(opt, optarg);
		break;
	case OPT_REGISTERFILES:
		o->registerfiles = zl_parse_bool(opt, optarg);
		break;
	case OPT_SQPOLL:
		o->sqpoll = zl_parse_bool(opt, optarg);
		break;
	case OPT_NONVECTORED:
		o->nonvectored = zl_parse_bool(opt, optarg);
		break;
	case OPT_VERIFY:
		o->verify = true;
		break;
	case OPT_SHARE:
		o->device_share = true;
		break;
	case OPT_JSON:
		o->format = CZ_FORMAT_JSON;
		break;
	case OPT_FILENAME:
		if (o->path)
			cz_usage_die("%s %s: one DEVICE only (already %s)", opt, optarg, o->path);
		o->path = optarg;
		break;
	case 'h':
		zl_usage(stdout);
		exit(CZ_EXIT_OK);
	case 'V':
		cz_version_print(stdout, "zload");
		exit(CZ_EXIT_OK);
	case ':':
		cz_usage_die("option '%s' needs a value", argv[optind - 1]);
	default:
		if (optopt)
			cz_usage_die("unknown option '-%c' (see --help)", optopt);
		cz_usage_die("unknown option '%s' (see --help)", argv[optind - 1]);
	}
}

/* Cross-option rules and defaults, after every option is known. */
static void zl_validate(struct zl_opts *o, bool have_time)
{
	unsigned i;

	if (o->sqpoll_cpu >= 0 && !o->sqpoll)
		cz_usage_die("--sqpoll-cpu %d: needs --sqpoll", o->sqpoll_cpu);
	if (!o->batch_submit)
		o->batch_submit = o->qd;
	if (o->batch_submit > o->qd)
		cz_usage_die("--batch-submit %u: larger than --qd %u", o->batch_submit, o->qd);
	if (o->batch_complete > o->qd)
		cz_usage_die("--batch-complete %u: larger than --qd %u", o->batch_complete, o->qd);
	/* A CPU this process may not run on (offline, or outside taskset's mask). */
	for (i = 0; i < o->cpus.n; i++)
		if (!cz_cpu_allowed(o->cpus.cpu[i]))
			cz_usage_die("--cpu: CPU %d is not one this process may run on (see nproc, taskset)",
				     o->cpus.cpu[i]);
	if (!have_time && !o->size)
		o->time_sec = ZL_DEFAULT_TIME;
}

static void zl_parse(int argc, char **argv, struct zl_opts *o)
{
	bool have_time = false;
	int c, idx;

	opterr = 0;
	while ((idx = -1, c = getopt_long(argc, argv, ":hV", zl_longopts, &idx)) != -1) {
		const char *opt = idx >= 0 ? zl_opt_name(idx) : "";

		if (c == OPT_TIME)
			have_time = true;
		if (!zl_parse_value(o, c, opt, optarg))
			zl_parse_flag(o, c, opt, argv);
	}
	if (optind < argc && !o->path)
		o->path = argv[optind++];
	if (optind < argc)
		cz_usage_die("unexpected argument '%s' (one DEVICE only)", argv[optind]);
	if (!o->path)
		cz_usage_die("missing DEVICE (a device or file to read; see --help)");
	zl_validate(o, have_time);
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

/* fio's bw/iops logs: each job's KiB/s and IOPS over the last ZL_SAMPLE_NS. */
static void zl_sample(const struct zl_opts *o, struct zl_job *jobs, uint64_t now)
{
	unsigned i;

	for (i = 0; i < o->jobs; i++) {
		struct zl_job *j = &jobs[i];
		uint64_t ios = __atomic_load_n(&j->live_ios, __ATOMIC_RELAXED);
		uint64_t bytes = __atomic_load_n(&j->live_bytes, __ATOMIC_RELAXED);
		double dt = (double)(now - j->sample_t) / 1e9;

		if (__atomic_load_n(&j->finished, __ATOMIC_ACQUIRE) || dt <= 0)
			continue;
		zl_stat_add(&j->bw, (double)(bytes - j->sample_bytes) / 1024.0 / dt);
		zl_stat_add(&j->iops, (double)(ios - j->sample_ios) / dt);
		j->sample_ios = ios;
		j->sample_bytes = bytes;
		j->sample_t = now;
	}
}

static void zl_progress(const struct zl_opts *o, const struct zl_job *jobs, uint64_t elapsed,
			uint64_t *last_ios, uint64_t *last_bytes, double dt)
{
	uint64_t ios = 0, bytes = 0;
	unsigned i;

	for (i = 0; i < o->jobs; i++) {
		ios += __atomic_load_n(&jobs[i].live_ios, __ATOMIC_RELAXED);
		bytes += __atomic_load_n(&jobs[i].live_bytes, __ATOMIC_RELAXED);
	}
	fprintf(stderr, "\rzload: %5.0fs  %10.0f IOPS  %9.1f MiB/s ", (double)elapsed / 1e9,
		(double)(ios - *last_ios) / dt, (double)(bytes - *last_bytes) / dt / 1048576.0);
	*last_ios = ios;
	*last_bytes = bytes;
}

/* Sleep in short steps: enforce --time, sample bandwidth, draw the progress line. */
static void zl_supervise(const struct zl_opts *o, struct zl_job *jobs)
{
	bool tty = isatty(STDERR_FILENO), drew = false;
	uint64_t start = cz_now_ns(), deadline = UINT64_MAX, last_draw = start;
	uint64_t next_sample = start + ZL_SAMPLE_NS, last_ios = 0, last_bytes = 0;
	unsigned i;

	for (i = 0; i < o->jobs; i++)
		jobs[i].sample_t = start;
	if (o->time_sec > 0)
		deadline = start + (uint64_t)(o->time_sec * 1e9);
	for (;;) {
		uint64_t now = cz_now_ns(), step = 50000000ULL;
		unsigned done = 0;

		for (i = 0; i < o->jobs; i++)
			done += __atomic_load_n(&jobs[i].finished, __ATOMIC_ACQUIRE);
		if (done == o->jobs)
			break;
		if (now >= next_sample) {
			zl_sample(o, jobs, now);
			next_sample += ZL_SAMPLE_NS;
		}
		if (now >= deadline)
			__atomic_store_n(&zl_stop, 1, __ATOMIC_RELAXED);
		else if (deadline - now < step)
			step = deadline - now;
		if (tty && now - last_draw >= 1000000000ULL) {
			zl_progress(o, jobs, now - start, &last_ios, &last_bytes,
				    (double)(now - last_draw) / 1e9);
			last_draw = now;
			drew = true;
		}
		zl_sleep_ns(step);
	}
	if (drew)
		fprintf(stderr, "\r\033[K");
}

/* Start the jobs, report the first set-up failure; 0 or -1 (reported). */
static int zl_start(const struct zl_opts *o, struct zl_job *jobs)
{
	unsigned i;
	int ret;

	pthread_barrier_init(&zl_setup_done, NULL, o->jobs + 1);
	pthread_barrier_init(&zl_go, NULL, o->jobs + 1);
	for (i = 0; i < o->jobs; i++) {
		jobs[i].id = (int)i;
		jobs[i].o = o;
		jobs[i].cpu = o->cpus.n ? o->cpus.cpu[i % o->cpus.n] : -1;
		ret = pthread_create(&jobs[i].thread, NULL, zl_job_main, &jobs[i]);
		if (ret)
			cz_die(CZ_EXIT_FAILURE, "pthread_create: %s", strerror(ret));
	}
	pthread_barrier_wait(&zl_setup_done);
	for (i = 0; i < o->jobs && !zl_abort; i++) {
		struct zl_job *j = &jobs[i];

		if (!j->setup_err)
			continue;
		if (j->setup_msg[0])
			cz_err("%s", j->setup_msg);
		else if (j->cpu >= 0 && !strcmp(j->setup_what, "pin to --cpu"))
			cz_err("--cpu: cannot pin job %u to CPU %d: %s", i, j->cpu,
			       strerror(-j->setup_err));
		else
			cz_err("job %u: %s %s: %s", i, j->setup_what, o->path, strerror(-j->setup_err));
		zl_abort = 1;
	}
	pthread_barrier_wait(&zl_go);
	return zl_abort ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct zl_opts o = {
		.bs = 4096,
		.qd = 1,
		.jobs = 1,
		.sqpoll_cpu = -1,
		.batch_complete = 1,
		.cpus = { .highest = -1 },
		.format = CZ_FORMAT_DEFAULT,
	};
	struct sigaction sa = { .sa_handler = zl_on_signal };
	struct cz_devshare share = { .fd = -1 };
	struct zl_job *jobs;
	int fd, status = CZ_EXIT_OK;
	unsigned i;

	cz_cli_init("zload");
	zl_parse(argc, argv, &o);

	/* Fail on a missing or unreadable DEVICE before starting any thread. */
	fd = open(o.path, O_RDONLY);
	if (fd < 0)
		cz_die(CZ_EXIT_FAILURE, "open %s: %s", o.path, strerror(errno));
	close(fd);

	jobs = calloc(o.jobs, sizeof(*jobs));
	if (!jobs)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (o.device_share)
		cz_devshare_begin(&share, o.path);	/* off when not a cusezero device */
	if (!zl_start(&o, jobs))
		zl_supervise(&o, jobs);
	for (i = 0; i < o.jobs; i++)
		pthread_join(jobs[i].thread, NULL);
	if (zl_abort) {
		status = CZ_EXIT_FAILURE;
	} else {
		zl_report(&o, jobs);
		if (cz_stdout_flush())	/* the report before the device's share on stderr */
			status = CZ_EXIT_FAILURE;
		cz_devshare_end(&share, "zload", stderr);
		if (zl_failures(&o, jobs))
			status = CZ_EXIT_FAILURE;
	}
	cz_cpulist_free(&o.cpus);
	free(jobs);
	return status;
}
