/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload's options, from the command line and from fio job files, through one
 * table so both spell every option alike.  fio's rules (fio(1), "Command line
 * options", "Job file format", "Parameter types"):
 *   - an option is exactly its name: no getopt prefix abbreviations, which
 *     would turn --output into --output-format;
 *   - "--name=VALUE" or "--name VALUE"; booleans take an optional "=1"/"=0";
 *   - options before the first --name are global, each --name starts a job
 *     that starts from them;
 *   - a job file is INI: [global] and one section per job, "key=value" lines,
 *     '#' and ';' comments, ${VAR} from the environment, $pagesize, $ncpus,
 *     $mb_memory; every job section runs at the same time, as fio's do.
 * What zload cannot do is refused by name (and line), never ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts.h"

#define ZL_MAX_QD	4096
#define ZL_MAX_JOBS	64
#define ZL_MAX_BS	(64ULL << 20)
#define ZL_DEFAULT_TIME	5.0
#define ZL_MAX_SECT	64


/* zload's names first, then fio's for the same option. */
static const struct zl_optdef zl_optdefs[] = {
	{ "bs",                         K_VAL,  S_JOB, ZO_BS },
	{ "blocksize",                  K_VAL,  S_JOB, ZO_BS },
	{ "rw",                         K_VAL,  S_JOB, ZO_RW },
	{ "readwrite",                  K_VAL,  S_JOB, ZO_RW },
	{ "qd",                         K_VAL,  S_JOB, ZO_QD },
	{ "iodepth",                    K_VAL,  S_JOB, ZO_QD },
	{ "jobs",                       K_VAL,  S_JOB, ZO_JOBS },
	{ "numjobs",                    K_VAL,  S_JOB, ZO_JOBS },
	{ "time",                       K_VAL,  S_JOB, ZO_TIME },
	{ "runtime",                    K_VAL,  S_JOB, ZO_TIME },
	{ "timeout",                    K_VAL,  S_JOB, ZO_TIME },
	{ "ramp_time",                  K_VAL,  S_JOB, ZO_RAMP },
	{ "size",                       K_VAL,  S_JOB, ZO_SIZE },
	{ "fixedbufs",                  K_BOOL, S_JOB, ZO_FIXEDBUFS },
	{ "registerfiles",              K_BOOL, S_JOB, ZO_REGISTERFILES },
	{ "sqpoll",                     K_BOOL, S_JOB, ZO_SQPOLL },
	{ "sqthread_poll",              K_BOOL, S_JOB, ZO_SQPOLL },
	{ "sqpoll-cpu",                 K_VAL,  S_JOB, ZO_SQPOLL_CPU },
	{ "sqthread_poll_cpu",          K_VAL,  S_JOB, ZO_SQPOLL_CPU },
	{ "nonvectored",                K_BOOL, S_JOB, ZO_NONVECTORED },
	{ "cpu",                        K_VAL,  S_JOB, ZO_CPU },
	{ "cpus_allowed",               K_VAL,  S_JOB, ZO_CPUS_ALLOWED },
	{ "verify",                     K_OPT,  S_JOB, ZO_VERIFY },
	{ "batch-submit",               K_VAL,  S_JOB, ZO_BATCH_SUBMIT },
	{ "iodepth_batch_submit",       K_VAL,  S_JOB, ZO_BATCH_SUBMIT },
	{ "iodepth_batch",              K_VAL,  S_JOB, ZO_BATCH_SUBMIT },
	{ "batch-complete",             K_VAL,  S_JOB, ZO_BATCH_COMPLETE },
	{ "iodepth_batch_complete_min", K_VAL,  S_JOB, ZO_BATCH_COMPLETE },
	{ "iodepth_batch_complete",     K_VAL,  S_JOB, ZO_BATCH_COMPLETE },
	{ "filename",                   K_VAL,  S_JOB, ZO_FILENAME },
	{ "name",                       K_VAL,  S_JOB, ZO_NAME },
	{ "description",                K_VAL,  S_JOB, ZO_DESCRIPTION },
	{ "ioengine",                   K_VAL,  S_JOB, ZO_IOENGINE },
	{ "time_based",                 K_BOOL, S_JOB, ZO_TIME_BASED },
	{ "direct",                     K_BOOL, S_JOB, ZO_DIRECT },
	{ "thread",                     K_BOOL, S_JOB, ZO_THREAD },
	{ "threads",                    K_BOOL, S_JOB, ZO_THREAD },
	{ "rwmixread",                  K_VAL,  S_JOB, ZO_RWMIXREAD },
	{ "rwmixwrite",                 K_VAL,  S_JOB, ZO_RWMIXWRITE },
	{ "bssplit",                    K_VAL,  S_JOB, ZO_BSSPLIT },
	{ "random_distribution",        K_VAL,  S_JOB, ZO_RANDDIST },
	{ "random_generator",           K_VAL,  S_JOB, ZO_RANDGEN },
	{ "rate",                       K_VAL,  S_JOB, ZO_RATE },
	{ "rate_iops",                  K_VAL,  S_JOB, ZO_RATE_IOPS },
	{ "exitall",                    K_BOOL, S_ANY, ZO_EXITALL },
	{ "exit_what",                  K_VAL,  S_ANY, ZO_EXIT_WHAT },
	{ "filesize",                   K_VAL,  S_JOB, ZO_FILESIZE },
	{ "buffered",                   K_BOOL, S_JOB, ZO_BUFFERED },
	{ "zonemode",                   K_VAL,  S_JOB, ZO_ZONEMODE },
	{ "latency_target",             K_VAL,  S_JOB, ZO_LAT_TARGET },
	{ "latency_window",             K_VAL,  S_JOB, ZO_LAT_WINDOW },
	{ "latency_percentile",         K_VAL,  S_JOB, ZO_LAT_PCT },
	{ "cmdprio_percentage",         K_VAL,  S_JOB, ZO_CMDPRIO_PCT },
	{ "cmdprio_class",              K_VAL,  S_JOB, ZO_CMDPRIO_CLASS },
	{ "cmdprio",                    K_VAL,  S_JOB, ZO_CMDPRIO },
	{ "cmdprio_bssplit",            K_VAL,  S_JOB, ZO_CMDPRIO_BSSPLIT },
	{ "log_prio",                   K_BOOL, S_JOB, ZO_LOG_PRIO },
	{ "log_offset",                 K_BOOL, S_JOB, ZO_LOG_OFFSET },
	{ "zonesize",                   K_VAL,  S_JOB, ZO_ZONESIZE },
	{ "zonerange",                  K_VAL,  S_JOB, ZO_ZONERANGE },
	{ "zoneskip",                   K_VAL,  S_JOB, ZO_ZONESKIP },
	{ "read_beyond_wp",             K_VAL,  S_JOB, ZO_READ_BEYOND_WP },
	{ "max_open_zones",             K_VAL,  S_JOB, ZO_MAX_OPEN_ZONES },
	{ "offset",                     K_VAL,  S_JOB, ZO_OFFSET },
	{ "offset_increment",           K_VAL,  S_JOB, ZO_OFFSET_INC },
	{ "io_size",                    K_VAL,  S_JOB, ZO_IO_SIZE },
	{ "io_limit",                   K_VAL,  S_JOB, ZO_IO_SIZE },
	{ "loops",                      K_VAL,  S_JOB, ZO_LOOPS },
	{ "number_ios",                 K_VAL,  S_JOB, ZO_NUMBER_IOS },
	{ "hipri",                      K_BOOL, S_JOB, ZO_HIPRI },
	{ "startdelay",                 K_VAL,  S_JOB, ZO_STARTDELAY },
	{ "thinktime",                  K_VAL,  S_JOB, ZO_THINKTIME },
	{ "stonewall",                  K_BOOL, S_JOB, ZO_STONEWALL },
	{ "wait_for_previous",          K_BOOL, S_JOB, ZO_STONEWALL },
	{ "wait_for",                   K_VAL,  S_JOB, ZO_WAIT_FOR },
	{ "prio",                       K_VAL,  S_JOB, ZO_PRIO },
	{ "prioclass",                  K_VAL,  S_JOB, ZO_PRIOCLASS },
	{ "directory",                  K_VAL,  S_JOB, ZO_DIRECTORY },
	{ "section",                    K_VAL,  S_RUN, ZO_SECTION },
	{ "minimal",                    K_FLAG, S_RUN, ZO_MINIMAL },
	{ "readonly",                   K_FLAG, S_RUN, ZO_READONLY },
	{ "randseed",                   K_VAL,  S_JOB, ZO_RANDSEED },
	{ "percentile_list",            K_VAL,  S_JOB, ZO_PERCENTILES },
	{ "flow",                       K_VAL,  S_JOB, ZO_FLOW },
	{ "steadystate",                K_VAL,  S_JOB, ZO_SS },
	{ "ss",                         K_VAL,  S_JOB, ZO_SS },
	{ "steadystate_duration",       K_VAL,  S_JOB, ZO_SS_DUR },
	{ "ss_dur",                     K_VAL,  S_JOB, ZO_SS_DUR },
	{ "steadystate_ramp_time",      K_VAL,  S_JOB, ZO_SS_RAMP },
	{ "ss_ramp",                    K_VAL,  S_JOB, ZO_SS_RAMP },
	{ "bsrange",                    K_VAL,  S_JOB, ZO_BSRANGE },
	{ "blockalign",                 K_VAL,  S_JOB, ZO_BLOCKALIGN },
	{ "ba",                         K_VAL,  S_JOB, ZO_BLOCKALIGN },
	{ "blocksize_range",            K_VAL,  S_JOB, ZO_BSRANGE },
	{ "flow_id",                    K_VAL,  S_JOB, ZO_FLOW_ID },
	{ "flow_sleep",                 K_VAL,  S_JOB, ZO_FLOW_SLEEP },
	{ "norandommap",                K_BOOL, S_JOB, ZO_NORANDOMMAP },
	{ "randrepeat",                 K_BOOL, S_JOB, ZO_RANDREPEAT },
	{ "write_bw_log",               K_OPT,  S_JOB, ZO_BW_LOG },
	{ "write_lat_log",              K_OPT,  S_JOB, ZO_LAT_LOG },
	{ "write_iops_log",             K_OPT,  S_JOB, ZO_IOPS_LOG },
	{ "write_hist_log",             K_OPT,  S_JOB, ZO_HIST_LOG },
	{ "log_hist_msec",              K_VAL,  S_JOB, ZO_HIST_MSEC },
	{ "log_hist_coarseness",        K_VAL,  S_JOB, ZO_HIST_COARSE },
	{ "log_avg_msec",               K_VAL,  S_JOB, ZO_LOG_AVG },
	{ "group_reporting",            K_BOOL, S_ANY, ZO_GROUP_REPORTING },
	{ "json",                       K_FLAG, S_RUN, ZO_JSON },
	{ "format",                     K_VAL,  S_RUN, ZO_FORMAT },
	{ "output-format",              K_VAL,  S_RUN, ZO_FORMAT },
	{ "output",                     K_VAL,  S_RUN, ZO_OUTPUT },
	{ "status-interval",            K_VAL,  S_RUN, ZO_STATUS_INTERVAL },
	{ "device-share",               K_FLAG, S_RUN, ZO_SHARE },
	{ "help",                       K_FLAG, S_RUN, ZO_HELP },
	{ "version",                    K_FLAG, S_RUN, ZO_VERSION },
};

static void zl_usage(FILE *f)
{
	fprintf(f,
		"Usage: zload [OPTIONS] DEVICE | JOBFILE...\n"
		"I/O to DEVICE (a device or file), fio's engines and options; fio's names in [].\n"
		"A JOBFILE is a fio job file ([global], [job] sections, key=value lines).\n"
		"\n"
		"  --bs SIZE            bytes per read (default 4KB; units B KB MB GB, binary)\n"
		"                       [--blocksize]\n"
		"  --rw MODE            read (default), write, rw, randread, randwrite, randrw,\n"
		"                       with fio's :N [--readwrite]; writes are discarded\n"
		"  --qd N               reads in flight per job (default 1, max %d) [--iodepth]\n"
		"  --jobs N             threads, each with its own ring (default 1) [--numjobs]\n"
		"  --time SEC           run for SEC seconds (default %.0f unless --size; suffixes\n"
		"                       us ms s m h d) [--runtime, --timeout]\n"
		"  --size BYTES         each job reads BYTES (rounded up to --bs) and stops;\n"
		"                       with --time_based, the offsets stay below BYTES instead\n"
		"  --time_based         run for --runtime whatever --size says (default 0)\n"
		"  --ramp_time SEC      run SEC seconds before measuring (not counted in --runtime)\n"
		"  --fixedbufs          register the buffers, use IORING_OP_READ_FIXED\n"
		"  --registerfiles      register the file, use IOSQE_FIXED_FILE\n"
		"  --sqpoll             kernel SQ polling thread (IORING_SETUP_SQPOLL) [--sqthread_poll]\n"
		"  --sqpoll-cpu N       pin the SQ thread to CPU N (needs --sqpoll) [--sqthread_poll_cpu]\n"
		"  --nonvectored        IORING_OP_READ (default 1, as fio's engine where the kernel\n"
		"                       has it); --nonvectored=0 uses IORING_OP_READV\n"
		"  --direct             open with ZO_DIRECT (default 0)\n"
		"  --cpu LIST           pin job i to the i-th CPU of LIST (\"0\", \"0-1\", \"0,2\")\n"
		"  --cpus_allowed LIST  every job may run on any CPU of LIST (fio's shared policy)\n"
		"  --verify             every byte read must be zero (exit 1 naming the offset)\n"
		"  --batch-submit N     prepare at most N reads per submission (default 1, fio's)\n"
		"                       [--iodepth_batch_submit, --iodepth_batch]\n"
		"  --batch-complete N   wait for at least N completions at a time (default 1)\n"
		"                       [--iodepth_batch_complete_min, --iodepth_batch_complete]\n"
		"  --filename DEVICE    DEVICE as an option (fio's way)\n"
		"  --name NAME          start a job called NAME (options before it are global)\n"
		"  --ioengine ENGINE    io_uring (default), sync, psync, pvsync, pvsync2, libaio\n"
		"                       (on io_uring); fio's other job options: zload(1)\n"
		"  --write_bw_log P     fio's logs: P_bw.N.log, P_iops.N.log, P_lat.N.log,\n"
		"  --write_iops_log P   P_clat.N.log, P_slat.N.log (N: job number from 1)\n"
		"  --write_lat_log P\n"
		"  --log_avg_msec MS    average the logs over MS (default 0: a line per read in\n"
		"                       lat logs, per 500 ms in bw and iops logs)\n"
		"  --group_reporting    report all jobs as one\n"
		"  --device-share       when DEVICE is a cusezero device: print on stderr what its\n"
		"                       daemon counted during the run (routine GB/s, the routine's\n"
		"                       share of the daemon's busy time); nothing otherwise\n"
		"  --output FILE        write the report to FILE\n"
		"  --output-format FMT  normal (or default) | simple (bytes/sec only) | json |\n"
		"                       json+ | terse [--format]\n"
		"  --json               same as --output-format=json\n"
		"  --status-interval T  also a full report every T (from each job's start: running\n"
		"                       averages), as fio's; a bare number is seconds, as fio's\n"
		"  -h, --help           this text\n"
		"  -V, --version        the version\n"
		"\n"
		"Options are matched whole (no abbreviations).  Boolean options take an\n"
		"optional =1 or =0, as fio's do.  Bandwidth is printed as fio prints it:\n"
		"MiB/s (2^20 bytes) with MB/s (10^6 bytes) in parentheses.  Setup flags the\n"
		"kernel rejects are dropped with a note.  Exit status: 0 ok, 1 a failed read\n"
		"or --verify mismatch, 2 a bad option.\n",
		ZL_MAX_QD, ZL_DEFAULT_TIME);
}

static char *zl_strdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	return d;
}

static void *zl_grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	return p;
}

static void zl_setstr(char **dst, const char *s)
{
	free(*dst);
	*dst = zl_strdup(s);
}

static void zl_opts_init(struct zl_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bs = 4096;
	o->qd = 1;
	o->jobs = 1;
	o->sqpoll_cpu = -1;
	/* fio's defaults: one read per submission, reap from one, IORING_OP_READ. */
	o->batch_submit = 1;
	o->batch_complete = 1;
	o->nonvectored = true;
	o->cpus.highest = -1;
	o->bs_w = 4096;
	o->rw_dirs = 1;
	o->mix_pct = 50;
	o->rand_nr = 1;
	o->loops = 1;
	o->randrepeat = true;
	o->prio_level = -1;
	o->prio_class = -1;
	o->cmdprio.cls[0] = o->cmdprio.cls[1] = 1;	/* fio's cmdprio_class: real time */
	o->lat_pct = 100;
}

static void zl_opts_free(struct zl_opts *o)
{
	unsigned i;

	free(o->name);
	free(o->path);
	free(o->bw_log);
	free(o->iops_log);
	free(o->lat_log);
	free(o->hist_log);
	free(o->wait_for);
	free(o->directory);
	for (i = 0; i < o->ngiven; i++) {
		free(o->given[i].key);
		free(o->given[i].val);
	}
	free(o->given);
	cz_cpulist_free(&o->cpus);
}

/* A deep copy: a job starts from the global options. */
static void zl_opts_copy(struct zl_opts *d, const struct zl_opts *s)
{
	unsigned i;

	*d = *s;
	d->name = s->name ? zl_strdup(s->name) : NULL;
	d->path = s->path ? zl_strdup(s->path) : NULL;
	d->bw_log = s->bw_log ? zl_strdup(s->bw_log) : NULL;
	d->iops_log = s->iops_log ? zl_strdup(s->iops_log) : NULL;
	d->lat_log = s->lat_log ? zl_strdup(s->lat_log) : NULL;
	d->wait_for = s->wait_for ? zl_strdup(s->wait_for) : NULL;
	d->directory = s->directory ? zl_strdup(s->directory) : NULL;
	d->given = s->ngiven ? zl_grow(NULL, s->ngiven, sizeof(*d->given)) : NULL;
	for (i = 0; i < s->ngiven; i++) {
		d->given[i].key = zl_strdup(s->given[i].key);
		d->given[i].val = zl_strdup(s->given[i].val);
	}
	d->cpus.cpu = NULL;
	if (s->cpus.n) {
		d->cpus.cpu = zl_grow(NULL, s->cpus.n, sizeof(*d->cpus.cpu));
		memcpy(d->cpus.cpu, s->cpus.cpu, s->cpus.n * sizeof(*d->cpus.cpu));
	}
}

/* Remember "key": "value" for fio's "job options" (last one wins). */
static void zl_given_add(struct zl_opts *o, const char *key, const char *val)
{
	unsigned i;

	for (i = 0; i < o->ngiven; i++)
		if (!strcmp(o->given[i].key, key))
			break;
	if (i == o->ngiven) {
		o->given = zl_grow(o->given, o->ngiven + 1, sizeof(*o->given));
		o->given[o->ngiven++].key = zl_strdup(key);
	} else {
		free(o->given[i].val);
	}
	o->given[i].val = zl_strdup(val ? val : "");
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


/* The value options of a job; false when id is not one. */
static bool zl_set_value(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	uint64_t v;

	if (zl_fio_set_value(o, id, opt, arg) || zl_zone_set_value(o, id, opt, arg) ||
	    zl_cmdprio_set_value(o, id, opt, arg))
		return true;
	switch (id) {
	case ZO_BS:
		zl_fio_bs(o, opt, arg);
		return true;
	case ZO_RW:
		zl_fio_rw(o, opt, arg);
		return true;
	case ZO_QD:
		o->qd = cz_opt_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case ZO_JOBS:
		o->jobs = cz_opt_uint(opt, arg, 1, ZL_MAX_JOBS);
		return true;
	case ZO_TIME:
		o->time_sec = zl_parse_time(opt, arg);
		o->have_time = true;
		return true;
	case ZO_RAMP:
		o->ramp_sec = zl_parse_time(opt, arg);
		return true;
	case ZO_SIZE:
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
	case ZO_SQPOLL_CPU:
		o->sqpoll_cpu = (int)cz_opt_uint(opt, arg, 0, CZ_CPU_MAX - 1);
		return true;
	case ZO_CPU:
	case ZO_CPUS_ALLOWED:
		cz_cpulist_free(&o->cpus);
		if (cz_parse_cpulist(arg, &o->cpus))
			cz_usage_die("%s: invalid CPU list '%s' (e.g. 0, 0-1, 0,2; CPUs < %d)",
				     opt, arg, CZ_CPU_MAX);
		o->cpus_shared = id == ZO_CPUS_ALLOWED;
		return true;
	case ZO_BATCH_SUBMIT:
		o->batch_submit = cz_opt_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case ZO_BATCH_COMPLETE:
		o->batch_complete = cz_opt_uint(opt, arg, 1, ZL_MAX_QD);
		return true;
	case ZO_LOG_AVG:
		o->log_avg_msec = cz_opt_uint(opt, arg, 0, 3600000);
		return true;
	case ZO_HIST_MSEC:
		o->hist_msec = cz_opt_uint(opt, arg, 0, 3600000);
		return true;
	case ZO_HIST_COARSE:
		o->hist_coarse = cz_opt_uint(opt, arg, 0, 6);
		return true;
	}
	return false;
}

/* The strings and fio's options zload accepts for what it already does. */
static bool zl_set_string(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	switch (id) {
	case ZO_FILENAME:
		zl_setstr(&o->path, arg);
		return true;
	case ZO_NAME:
		zl_setstr(&o->name, arg);
		return true;
	case ZO_DESCRIPTION:
		return true;
	case ZO_IOENGINE:
		zl_fio_engine(o, opt, arg);
		return true;
	case ZO_RANDGEN:
		if (strcmp(arg, "tausworthe") && strcmp(arg, "lfsr") && strcmp(arg, "tausworthe64"))
			cz_usage_die("%s: invalid value '%s' (tausworthe, lfsr, tausworthe64)", opt, arg);
		zl_note("%s=%s: zload draws offsets with xorshift64* (every block alike on a "
			"zero device)", opt, arg);
		return true;
	case ZO_WAIT_FOR:
		zl_setstr(&o->wait_for, arg);
		return true;
	case ZO_DIRECTORY:
		zl_setstr(&o->directory, arg);
		return true;
	case ZO_BW_LOG:
		zl_setstr(&o->bw_log, arg ? arg : "");
		return true;
	case ZO_IOPS_LOG:
		zl_setstr(&o->iops_log, arg ? arg : "");
		return true;
	case ZO_HIST_LOG:
		zl_setstr(&o->hist_log, arg ? arg : "");
		return true;
	case ZO_LAT_LOG:
		zl_setstr(&o->lat_log, arg ? arg : "");
		return true;
	}
	return false;
}

/* Booleans; fio's that only have zload's behaviour must be 1. */
static void zl_set_bool(struct zl_opts *o, int id, const char *opt, const char *arg)
{
	bool v = zl_parse_bool(opt, arg);

	switch (id) {
	case ZO_FIXEDBUFS:
		o->fixedbufs = v;
		break;
	case ZO_REGISTERFILES:
		o->registerfiles = v;
		break;
	case ZO_SQPOLL:
		o->sqpoll = v;
		break;
	case ZO_NONVECTORED:
		o->nonvectored = v;
		break;
	case ZO_TIME_BASED:
		o->time_based = v;
		break;
	case ZO_DIRECT:
		o->direct = v;
		break;
	case ZO_BUFFERED:
		o->direct = !v;
		break;
	case ZO_HIPRI:
		o->hipri = v;
		break;
	case ZO_LOG_PRIO:
		o->log_prio = v;
		break;
	case ZO_LOG_OFFSET:
		o->log_offset = v;
		break;
	case ZO_STONEWALL:
		o->stonewall = v;
		break;
	case ZO_THREAD:
		/* zload's jobs are threads: thread=0 (processes) is not offered. */
		if (!v)
			cz_usage_die("%s=0: zload's jobs are threads (thread=1 only)", opt);
		break;
	case ZO_NORANDOMMAP:
		/* zload's random offsets are drawn freely, as fio's with norandommap. */
		if (!v)
			cz_usage_die("%s=0: zload keeps no random map (norandommap=1 only)", opt);
		break;
	case ZO_RANDREPEAT:
		o->randrepeat = v;
		break;
	}
}

/* One job option (not --name on the command line: that starts a job). */
static void zl_set(struct zl_opts *o, const struct zl_optdef *d, const char *opt, const char *arg)
{
	if (d->id == ZO_VERIFY)
		zl_fio_verify(o, opt, arg);
	else if (d->kind == K_BOOL)
		zl_set_bool(o, d->id, opt, arg);
	else if (!zl_set_value(o, d->id, opt, arg))
		zl_set_string(o, d->id, opt, arg);
	zl_given_add(o, d->name, arg ? arg : "1");
}

/* fio's --status-interval: a time of 1 ms at least ("status interval too small"). */
static void zl_status_interval(struct zl_run *run, const char *opt, const char *arg)
{
	double v = zl_parse_time(opt, arg);

	if (v < 1e-3)
		cz_usage_die("%s: interval '%s' is too small (1ms at least)", opt, arg);
	run->status_ns = (uint64_t)(v * 1e9 + 0.5);
}

/* The options of the whole run; false for a job option. */
static bool zl_set_run(struct zl_run *run, const struct zl_optdef *d, const char *opt,
		       const char *arg)
{
	static const struct { const char *name; enum zl_format f; } formats[] = {
		{ "normal", ZL_OUT_NORMAL }, { "default", ZL_OUT_NORMAL },
		{ "simple", ZL_OUT_SIMPLE }, { "json", ZL_OUT_JSON },
		{ "json+", ZL_OUT_JSONPLUS }, { "terse", ZL_OUT_TERSE },
	};
	const char *s;
	size_t i, len;

	switch (d->id) {
	case ZO_GROUP_REPORTING:
		run->group_reporting = zl_parse_bool(opt, arg);
		return true;
	case ZO_JSON:
		run->format = ZL_OUT_JSON;
		return true;
	case ZO_MINIMAL:
		run->format = ZL_OUT_TERSE;
		return true;
	case ZO_READONLY:
		run->readonly = true;
		return true;
	case ZO_EXITALL:
		run->exitall = zl_parse_bool(opt, arg);
		return true;
	case ZO_EXIT_WHAT:
		if (strcmp(arg, "group") && strcmp(arg, "all") && strcmp(arg, "stonewall"))
			cz_usage_die("%s: invalid value '%s' (group, stonewall, all)", opt, arg);
		return true;	/* one group: every value stops every job */
	case ZO_SECTION:
		run->sections = zl_grow(run->sections, run->nsections + 1, sizeof(*run->sections));
		run->sections[run->nsections++] = arg;
		return true;
	case ZO_SHARE:
		run->device_share = true;
		return true;
	case ZO_OUTPUT:
		run->output = arg;
		return true;
	case ZO_STATUS_INTERVAL:
		zl_status_interval(run, opt, arg);
		return true;
	case ZO_HELP:
		zl_usage(stdout);
		exit(fflush(stdout) ? CZ_EXIT_FAILURE : CZ_EXIT_OK);
	case ZO_VERSION:
		cz_version_print(stdout, "zload");
		exit(fflush(stdout) ? CZ_EXIT_FAILURE : CZ_EXIT_OK);
	case ZO_FORMAT:
		run->formats = 0;
		for (s = arg; *s; s += len + (s[len] == ',')) {
			len = strcspn(s, ",");
			for (i = 0; i < CZ_ARRAY_SIZE(formats); i++)
				if (strlen(formats[i].name) == len && !strncmp(s, formats[i].name, len))
					break;
			if (i == CZ_ARRAY_SIZE(formats))
				cz_usage_die("%s: unknown format '%.*s' (normal, simple, json, json+, "
					     "terse; several with commas)", opt, (int)len, s);
			run->format = formats[i].f;
			run->formats |= 1u << formats[i].f;
		}
		return true;
	}
	return false;
}

const struct zl_optdef *zl_lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < CZ_ARRAY_SIZE(zl_optdefs); i++)
		if (strlen(zl_optdefs[i].name) == len && !strncmp(zl_optdefs[i].name, name, len))
			return &zl_optdefs[i];
	return NULL;
}

struct zl_opts *zl_new_sect(struct zl_parser *p, const char *name)
{
	struct zl_run *run = p->run;
	struct zl_opts *o;

	if (run->nsect == ZL_MAX_SECT)
		cz_usage_die("more than %d jobs", ZL_MAX_SECT);
	run->sect = zl_grow(run->sect, run->nsect + 1, sizeof(*run->sect));
	o = &run->sect[run->nsect++];
	zl_opts_copy(o, &p->global);
	zl_setstr(&o->name, name);
	return o;
}

/* Apply one option spelled NAME[=VALUE] (job files) or --NAME[=VALUE]. */
void zl_apply(struct zl_parser *p, const struct zl_optdef *d, const char *arg,
		     const struct zl_where *w)
{
	if (d->scope == S_RUN && w->file)
		cz_usage_die("%s: '%s' is a command-line option (as in fio)", w->label, d->name);
	if (d->kind == K_FLAG && arg)
		cz_usage_die("%s: takes no value (got '%s')", w->label, arg);
	if (d->kind == K_VAL && (!arg || (!*arg && d->id != ZO_DESCRIPTION)))
		cz_usage_die("%s: needs a value", w->label);
	if (d->scope != S_JOB) {
		zl_set_run(p->run, d, w->label, arg);
		return;
	}
	if (d->id == ZO_NAME && !w->file) {
		p->cur = zl_new_sect(p, arg);
		zl_given_add(p->cur, "name", arg);
		return;
	}
	zl_set(p->cur, d, w->label, arg);
}

static void zl_parse_cmdline(struct zl_parser *p, int argc, char **argv)
{
	struct zl_where w = { .file = NULL };
	bool opts_done = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *arg = NULL;
		const struct zl_optdef *d;
		size_t len;

		if (opts_done || a[0] != '-' || !a[1]) {
			p->pos = zl_grow(p->pos, p->npos + 1, sizeof(*p->pos));
			p->pos[p->npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		d = NULL;
		if (!strcmp(a, "-h"))
			d = zl_lookup("help", 4);
		else if (!strcmp(a, "-V"))
			d = zl_lookup("version", 7);
		else if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			d = zl_lookup(a + 2, len);
			arg = eq ? eq + 1 : NULL;
		}
		if (!d && a[1] == '-' && zl_fio_moot_arg(a + 2))
			continue;
		if (!d)
			cz_unknown_option(a);
		snprintf(w.label, sizeof(w.label), "--%s", d->name);
		if (d->kind == K_VAL && !arg) {
			if (i + 1 >= argc)
				cz_usage_die("option '%s' needs a value", a);
			arg = argv[++i];
		}
		zl_apply(p, d, arg, &w);
	}
}

/* The fio options whose meaning depends on others, once all are known. */
static void zl_validate_fio(struct zl_opts *o, const struct zl_run *run, const char *n)
{
	char *path;
	unsigned d, i;

	o->rwmix_read = o->rw_dirs == 1 ? 100 : o->rw_dirs == 2 ? 0 : o->mix_pct;
	if (run->readonly && o->rwmix_read < 100)
		cz_usage_die("%s--readonly: this job writes (rw with writes or rwmixwrite)", n);
	zl_zone_validate(o, n);
	if (o->verify_hdr && o->rw_dirs == 3)
		cz_usage_die("%sverify=%s with reads and writes mixed: not implemented (write or "
			     "read jobs only)", n, o->verify_hdr);
	o->bs_max = o->bs > o->bs_w ? o->bs : o->bs_w;
	for (d = 0; d < 2; d++)
		if (o->bsr_hi[d] > o->bs_max)
			o->bs_max = o->bsr_hi[d];
	for (d = 0; d < 2; d++)
		for (i = 0; i < o->bss[d].n; i++)
			if (o->bss[d].bs[i] > o->bs_max)
				o->bs_max = o->bss[d].bs[i];
	if (o->engine >= ZL_ENG_SYNC) {
		if (o->qd > 1)
			zl_note("%sioengine=%s is synchronous: iodepth=%u runs as 1, as in fio", n,
				zl_engine_name(o->engine), o->qd);
		o->qd = 1;
		o->batch_submit = o->batch_complete = 1;
		if (o->sqpoll || o->fixedbufs || o->registerfiles)
			cz_usage_die("%sioengine=%s: sqthread_poll, fixedbufs and registerfiles are "
				     "io_uring's", n, zl_engine_name(o->engine));
	}
	if (o->hipri && o->engine != ZL_ENG_PVSYNC2)
		cz_usage_die("%shipri: zload polls with ioengine=pvsync2 only (RWF_HIPRI); "
			     "io_uring's IOPOLL needs a block device", n);
	/* fio's: prioclass without prio is level 0 (fio's log shows 3/0), prio alone class 2. */
	if (o->prio_level >= 0 || o->prio_class >= 0)
		o->ioprio = ((o->prio_class >= 0 ? o->prio_class : 2) << 13) |
			    (o->prio_level >= 0 ? o->prio_level : 0);
	else
		o->ioprio = -1;
	zl_cmdprio_validate(o, n);
	/* write_*_log without a value: fio's default prefix, the job's name. */
	if (o->bw_log && !*o->bw_log)
		zl_setstr(&o->bw_log, o->name);
	if (o->iops_log && !*o->iops_log)
		zl_setstr(&o->iops_log, o->name);
	if (o->lat_log && !*o->lat_log)
		zl_setstr(&o->lat_log, o->name);
	if (o->hist_log && !*o->hist_log)
		zl_setstr(&o->hist_log, o->name);
	if (o->directory && o->path && o->path[0] != '/') {
		path = zl_grow(NULL, strlen(o->directory) + strlen(o->path) + 2, 1);
		sprintf(path, "%s/%s", o->directory, o->path);
		free(o->path);
		o->path = path;
	}
}

/* Cross-option rules and defaults of one job, after every option is known. */
static void zl_validate(struct zl_opts *o, const struct zl_run *run, bool named)
{
	char n[80] = "";
	unsigned i;

	/* Several jobs: say which one. */
	if (named)
		snprintf(n, sizeof(n), "job '%.64s': ", o->name);
	zl_validate_fio(o, run, n);
	if (o->sqpoll_cpu >= 0 && !o->sqpoll)
		cz_usage_die("%s--sqpoll-cpu %d: needs --sqpoll", n, o->sqpoll_cpu);
	if (o->batch_submit > o->qd)
		cz_usage_die("%s--batch-submit %u: larger than --qd %u", n, o->batch_submit, o->qd);
	if (o->batch_complete > o->qd)
		cz_usage_die("%s--batch-complete %u: larger than --qd %u", n, o->batch_complete,
			     o->qd);
	/* A CPU this process may not run on (offline, or outside taskset's mask). */
	for (i = 0; i < o->cpus.n; i++)
		if (!cz_cpu_allowed(o->cpus.cpu[i]))
			cz_usage_die("%s--cpu: CPU %d is not one this process may run on (see nproc, taskset)",
				     n, o->cpus.cpu[i]);
	if (!o->have_time && (!o->size || o->time_based))
		o->time_sec = ZL_DEFAULT_TIME;
}

/* --section NAME: only the job sections of those names run (fio's). */
static void zl_keep_sections(struct zl_run *run)
{
	unsigned i, k, kept = 0;

	if (!run->nsections)
		return;
	for (i = 0; i < run->nsect; i++) {
		for (k = 0; k < run->nsections; k++)
			if (!strcmp(run->sect[i].name, run->sections[k]))
				break;
		if (k == run->nsections)
			zl_opts_free(&run->sect[i]);
		else
			run->sect[kept++] = run->sect[i];
	}
	if (!kept)
		cz_usage_die("--section %s: no job section of that name", run->sections[0]);
	run->nsect = kept;
}

/* Positional arguments: job files, and at most one DEVICE for jobs without one. */
static void zl_positional(struct zl_parser *p)
{
	const char *dev = NULL;
	bool dev_used = false;
	unsigned i;

	for (i = 0; i < p->npos; i++) {
		if (zl_is_jobfile(p->pos[i])) {
			zl_parse_jobfile(p, p->pos[i]);
			continue;
		}
		if (dev)
			cz_usage_die("unexpected argument '%s' (one DEVICE only)", p->pos[i]);
		dev = p->pos[i];
	}
	zl_keep_sections(p->run);
	if (!p->run->nsect)
		zl_new_sect(p, p->global.name ? p->global.name : "zload");
	for (i = 0; i < p->run->nsect; i++) {
		struct zl_opts *o = &p->run->sect[i];

		if (!o->path && dev) {
			o->path = zl_strdup(dev);
			dev_used = true;
		}
		if (!o->path)
			cz_usage_die("missing DEVICE (a device or file to read; see --help)");
		zl_validate(o, p->run, p->run->nsect > 1);
		p->run->total_jobs += o->jobs;
	}
	if (dev && !dev_used)
		cz_usage_die("unexpected argument '%s' (every job has its --filename)", dev);
	if (p->run->total_jobs > ZL_MAX_JOBS)
		cz_usage_die("%u jobs in all: at most %d", p->run->total_jobs, ZL_MAX_JOBS);
}

void zl_parse_args(int argc, char **argv, struct zl_run *run)
{
	struct zl_parser p = { .run = run };

	memset(run, 0, sizeof(*run));
	run->format = ZL_OUT_NORMAL;
	zl_opts_init(&p.global);
	p.cur = &p.global;
	p.lookup = zl_lookup;
	p.apply = zl_apply;
	p.new_sect = zl_new_sect;
	zl_parse_cmdline(&p, argc, argv);
	zl_positional(&p);
	run->global = p.global.given;
	run->nglobal = p.global.ngiven;
	p.global.given = NULL;
	p.global.ngiven = 0;
	zl_opts_free(&p.global);
	free(p.pos);
}

void zl_run_free(struct zl_run *run)
{
	unsigned i;

	for (i = 0; i < run->nsect; i++)
		zl_opts_free(&run->sect[i]);
	free(run->sect);
	free(run->sections);
	for (i = 0; i < run->nglobal; i++) {
		free(run->global[i].key);
		free(run->global[i].val);
	}
	free(run->global);
}
