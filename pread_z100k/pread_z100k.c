/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pread_z100k - the /dev/zero read reproducer from the arm64 clear_user
 * alignment report (doc/sources.md, "The clear_user report"), with options on top.
 *
 * With no arguments it does exactly what the report's program does: pread
 * 100 KiB from /dev/zero at offset 0, 1,000,000 times, and print the elapsed
 * wall-clock seconds (gettimeofday) as "%.6f\n" and nothing else, so its
 * output compares with the published 6.9 s (good) / 9.0 s (bad) figures.
 *
 *   pread_z100k [OPTIONS] [DEVICE]
 *
 * DEVICE defaults to /dev/zero; it may be any readable file (a cusezero CUSE
 * node, the FUSE front end's MOUNTPOINT/zero, a regular file).  Every call
 * reads at offset 0, as the reproducer does.
 *
 * Unlike the reproducer, a failed or short pread is not followed by a time:
 * it prints one line naming the call, the size and errno and exits 1, so a
 * broken device can never produce a plausible-looking number.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "devstats.h"
#include "jsonout.h"
#include "util.h"

#define PZ_DEFAULT_SIZE		(100 * 1024)
#define PZ_DEFAULT_COUNT	1000000
#define PZ_MAX_SIZE		(1ULL << 30)
#define PZ_FILL			0xA5

/* Progress on a terminal once a run has taken this long (then twice a second). */
#define PZ_PROGRESS_AFTER	2.0
#define PZ_PROGRESS_EVERY	0.5
/* Calls between two looks at the clock: a few ms even at 1 us per call. */
#define PZ_PROGRESS_MASK	1023

struct pz_params {
	const char *path;
	size_t size;
	uint64_t count;
	int cpu;		/* -1: do not pin */
	bool verify;
	enum cz_format format;
	bool progress;		/* default format and stderr is a terminal */
	bool share;		/* --device-share */
};

static const char *prog = "pread_z100k";

/* The reproducer's clock, kept so the numbers compare with the report. */
static double pz_now_sec(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static void pz_usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTIONS] [DEVICE]\n"
		"pread SIZE bytes at offset 0 of DEVICE (default /dev/zero) COUNT times and\n"
		"print the elapsed seconds (\"%%.6f\"). No arguments = the seed reproducer.\n"
		"\n"
		"  -s, --size SIZE      bytes per pread (default 100KB; units B KB MB GB, binary)\n"
		"  -n, --count N        number of preads (default 1000000)\n"
		"      --cpu N          pin to CPU N before opening the device\n"
		"      --verify         fill the buffer with 0x%02X before each call and check\n"
		"                       that every byte returned is zero (exit 1 otherwise)\n"
		"      --json           print seconds, bytes, bytes_per_sec, ns_per_call, ...\n"
		"      --format FMT     default | simple (bytes/sec only) | json\n"
		"      --device-share   when DEVICE is a cusezero device: print on stderr what its\n"
		"                       daemon counted during the run (routine GB/s, the routine's\n"
		"                       share of the daemon's busy time); nothing otherwise\n"
		"  -h, --help           this text\n"
		"  -V, --version        the version\n"
		"\n"
		"On a terminal, a run longer than 2 s shows its progress on stderr (default\n"
		"format only).  Exit status: 0 ok, 1 a failed or short read or a --verify\n"
		"mismatch, 2 a bad option.\n",
		prog, PZ_FILL);
}

/* A failure of the run (exit 1); bad options go through cz_usage_die (exit 2). */
#define pz_die(...) cz_die(CZ_EXIT_FAILURE, __VA_ARGS__)

static void pz_parse(int argc, char **argv, struct pz_params *p)
{
	enum { OPT_CPU = 256, OPT_VERIFY, OPT_JSON, OPT_FORMAT, OPT_SHARE };
	static const struct option longopts[] = {
		{ "size",   required_argument, NULL, 's' },
		{ "count",  required_argument, NULL, 'n' },
		{ "cpu",    required_argument, NULL, OPT_CPU },
		{ "verify", no_argument,       NULL, OPT_VERIFY },
		{ "json",   no_argument,       NULL, OPT_JSON },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "device-share", no_argument, NULL, OPT_SHARE },
		{ "help",   no_argument,       NULL, 'h' },
		{ "version", no_argument,      NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:n:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			ret = cz_parse_size(optarg, &v);
			if (ret || v == 0 || v > PZ_MAX_SIZE)
				cz_usage_die("-s: invalid size '%s' (1B..1GB, units B KB MB GB)", optarg);
			p->size = v;
			break;
		case 'n':
			if (cz_parse_u64(optarg, 1, UINT64_MAX, &v))
				cz_usage_die("-n: invalid count '%s' (a positive integer)", optarg);
			p->count = v;
			break;
		case OPT_CPU:
			if (cz_parse_u64(optarg, 0, CZ_CPU_MAX - 1, &v))
				cz_usage_die("--cpu: invalid CPU '%s' (0..%d)", optarg, CZ_CPU_MAX - 1);
			p->cpu = (int)v;
			break;
		case OPT_VERIFY:
			p->verify = true;
			break;
		case OPT_JSON:
			p->format = CZ_FORMAT_JSON;
			break;
		case OPT_SHARE:
			p->share = true;
			break;
		case OPT_FORMAT:
			if (cz_format_parse(optarg, &p->format))
				cz_usage_die("--format: unknown format '%s' (%s)", optarg, CZ_FORMAT_NAMES);
			break;
		case 'h':
			pz_usage(stdout);
			exit(CZ_EXIT_OK);
		case 'V':
			cz_version_print(stdout, prog);
			exit(CZ_EXIT_OK);
		case ':':
			cz_usage_die("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt)
				cz_usage_die("unknown option '-%c' (see %s --help)", optopt, prog);
			cz_unknown_option(argv[optind - 1]);
		}
	}
	if (optind < argc)
		p->path = argv[optind++];
	if (optind < argc)
		cz_usage_die("unexpected argument '%s' (one DEVICE only)", argv[optind]);
}

/* One line naming the call, the size and errno (or the short count). */
__attribute__((noreturn))
static void pz_bad_read(const struct pz_params *p, uint64_t call, ssize_t r)
{
	int err = errno;

	if (r < 0)
		pz_die("call %" PRIu64 ": pread of %zu bytes at offset 0 failed: errno %d (%s)",
		       call + 1, p->size, err, strerror(err));
	pz_die("call %" PRIu64 ": short read: %zd of %zu bytes at offset 0",
	       call + 1, r, p->size);
}

/*
 * The progress line: calls done, elapsed, rate, estimated time left.  Looked
 * at every PZ_PROGRESS_MASK + 1 calls, drawn once the run is 2 s old; stderr
 * only, so stdout keeps the reproducer's one line.
 */
static void pz_progress(const struct pz_params *p, uint64_t done, double t0, double *next)
{
	double now = pz_now_sec(), el = now - t0, rate;

	if (now < *next)
		return;
	*next = now + PZ_PROGRESS_EVERY;
	rate = el > 0 ? (double)done / el : 0;
	fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " calls (%.0f%%) %.1f s, %.1f MiB/s, %.0f s left ",
		prog, done, p->count, 100.0 * (double)done / (double)p->count, el,
		rate * (double)p->size / 1048576.0, rate > 0 ? (double)(p->count - done) / rate : 0.0);
}

/* The timed loop (the reproducer's, plus the optional verify and progress). */
static double pz_run(const struct pz_params *p, int fd, char *buf)
{
	double t1, t2, next = 0;
	uint64_t i;

	t1 = pz_now_sec();
	next = t1 + PZ_PROGRESS_AFTER;
	for (i = 0; i < p->count; i++) {
		ssize_t r;
		size_t off;

		if (p->progress && !(i & PZ_PROGRESS_MASK))
			pz_progress(p, i, t1, &next);
		if (!p->verify) {
			r = pread(fd, buf, p->size, 0);
			if (r != (ssize_t)p->size)
				pz_bad_read(p, i, r);
			continue;
		}
		/* Stale zeros from the previous call must not pass. */
		memset(buf, PZ_FILL, p->size);
		r = pread(fd, buf, p->size, 0);
		if (r != (ssize_t)p->size)
			pz_bad_read(p, i, r);
		off = cz_first_nonzero(buf, p->size);
		if (off < p->size)
			pz_die("verify: call %" PRIu64 ": byte at offset %zu = %#04x, expected 0",
			       i + 1, off, (unsigned char)buf[off]);
	}
	t2 = pz_now_sec();
	if (p->progress && t2 >= t1 + PZ_PROGRESS_AFTER)
		fputs("\r\033[K", stderr);
	return t2 - t1;
}

static void pz_print_json(const struct pz_params *p, double secs)
{
	double bytes = (double)p->size * (double)p->count;

	json_t *o = cz_jobj();

	cz_jset(o, "seconds", cz_jfixed(secs, 6));
	cz_jset(o, "bytes", cz_jfixed(bytes, 0));
	cz_jset(o, "bytes_per_sec", cz_jfixed(secs > 0 ? bytes / secs : 0.0, 0));
	cz_jset(o, "ns_per_call", cz_jfixed(secs * 1e9 / (double)p->count, 1));
	cz_jset(o, "calls", cz_juint(p->count));
	cz_jset(o, "size", cz_juint(p->size));
	cz_jset(o, "device", cz_jstr(p->path));
	cz_json_dump(stdout, o, CZ_JSON_COMPACT);	/* a failed write: cz_stdout_flush() */
	json_decref(o);
	cz_stdout_flush();
}

int main(int argc, char **argv)
{
	struct pz_params p = {
		.path = "/dev/zero",
		.size = PZ_DEFAULT_SIZE,
		.count = PZ_DEFAULT_COUNT,
		.cpu = -1,
		.format = CZ_FORMAT_DEFAULT,
	};
	struct cz_devshare share = { .fd = -1 };
	double secs;
	static char *buf;	/* static: still reachable when pz_die() exits (LeakSanitizer) */
	int fd, ret;

	cz_cli_init(prog);
	pz_parse(argc, argv, &p);
	p.progress = p.format == CZ_FORMAT_DEFAULT && isatty(STDERR_FILENO);

	if (p.cpu >= 0) {
		ret = cz_pin_cpu(p.cpu);
		if (ret)
			pz_die("--cpu: cannot pin to CPU %d: %s", p.cpu, strerror(-ret));
	}
	fd = open(p.path, O_RDONLY);
	if (fd < 0)
		pz_die("open %s: %s", p.path, strerror(errno));
	/* malloc, not an aligned allocation: the reproducer's buffer. */
	buf = malloc(p.size);
	if (!buf)
		pz_die("malloc %zu bytes: %s", p.size, strerror(errno));

	if (p.share)
		cz_devshare_begin(&share, p.path);	/* off when not a cusezero device */
	secs = pz_run(&p, fd, buf);
	switch (p.format) {
	case CZ_FORMAT_DEFAULT:
		printf("%.6f\n", secs);
		break;
	case CZ_FORMAT_SIMPLE:
		printf("%.0f\n", secs > 0 ? (double)p.size * (double)p.count / secs : 0.0);
		break;
	case CZ_FORMAT_JSON:
		pz_print_json(&p, secs);
		break;
	}
	ret = cz_stdout_flush();	/* the result before the device's share on stderr */
	cz_devshare_end(&share, prog, stderr);
	close(fd);
	free(buf);
	return ret ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
}
