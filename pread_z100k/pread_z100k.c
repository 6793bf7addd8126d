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
#include <stdarg.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "util.h"

#define PZ_DEFAULT_SIZE		(100 * 1024)
#define PZ_DEFAULT_COUNT	1000000
#define PZ_MAX_SIZE		(1ULL << 30)
#define PZ_FILL			0xA5

enum pz_format { PZ_FORMAT_DEFAULT, PZ_FORMAT_SIMPLE, PZ_FORMAT_JSON };

struct pz_params {
	const char *path;
	size_t size;
	uint64_t count;
	int cpu;		/* -1: do not pin */
	bool verify;
	enum pz_format format;
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
		"  -h, --help           this text\n",
		prog, PZ_FILL);
}

__attribute__((format(printf, 1, 2), noreturn))
static void pz_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void pz_parse(int argc, char **argv, struct pz_params *p)
{
	enum { OPT_CPU = 256, OPT_VERIFY, OPT_JSON, OPT_FORMAT };
	static const struct option longopts[] = {
		{ "size",   required_argument, NULL, 's' },
		{ "count",  required_argument, NULL, 'n' },
		{ "cpu",    required_argument, NULL, OPT_CPU },
		{ "verify", no_argument,       NULL, OPT_VERIFY },
		{ "json",   no_argument,       NULL, OPT_JSON },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			ret = cz_parse_size(optarg, &v);
			if (ret || v == 0 || v > PZ_MAX_SIZE)
				pz_die("-s: invalid size '%s' (1B..1GB, units B KB MB GB)", optarg);
			p->size = v;
			break;
		case 'n':
			if (cz_parse_u64(optarg, 1, UINT64_MAX, &v))
				pz_die("-n: invalid count '%s' (a positive integer)", optarg);
			p->count = v;
			break;
		case OPT_CPU:
			if (cz_parse_u64(optarg, 0, CPU_SETSIZE - 1, &v))
				pz_die("--cpu: invalid CPU '%s'", optarg);
			p->cpu = (int)v;
			break;
		case OPT_VERIFY:
			p->verify = true;
			break;
		case OPT_JSON:
			p->format = PZ_FORMAT_JSON;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "default") || !strcmp(optarg, "normal"))
				p->format = PZ_FORMAT_DEFAULT;
			else if (!strcmp(optarg, "simple"))
				p->format = PZ_FORMAT_SIMPLE;
			else if (!strcmp(optarg, "json"))
				p->format = PZ_FORMAT_JSON;
			else
				pz_die("--format: unknown format '%s' (default, simple, json)", optarg);
			break;
		case 'h':
			pz_usage(stdout);
			exit(0);
		case ':':
			pz_die("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt)
				pz_die("unknown option '-%c' (see --help)", optopt);
			pz_die("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		p->path = argv[optind++];
	if (optind < argc)
		pz_die("unexpected argument '%s' (one DEVICE only)", argv[optind]);
}

static void pz_print_json(const struct pz_params *p, double secs)
{
	double bytes = (double)p->size * (double)p->count;

	printf("{\"seconds\":%.6f,\"bytes\":%.0f,\"bytes_per_sec\":%.0f,"
	       "\"ns_per_call\":%.1f,\"calls\":%" PRIu64 ",\"size\":%zu,\"device\":",
	       secs, bytes, secs > 0 ? bytes / secs : 0.0,
	       secs * 1e9 / (double)p->count, p->count, p->size);
	cz_json_string(stdout, p->path);
	printf("}\n");
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

int main(int argc, char **argv)
{
	struct pz_params p = {
		.path = "/dev/zero",
		.size = PZ_DEFAULT_SIZE,
		.count = PZ_DEFAULT_COUNT,
		.cpu = -1,
		.format = PZ_FORMAT_DEFAULT,
	};
	double t1, t2;
	uint64_t i;
	char *buf;
	int fd, ret;

	pz_parse(argc, argv, &p);

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

	if (!p.verify) {
		t1 = pz_now_sec();
		for (i = 0; i < p.count; i++) {
			ssize_t r = pread(fd, buf, p.size, 0);

			if (r != (ssize_t)p.size)
				pz_bad_read(&p, i, r);
		}
		t2 = pz_now_sec();
	} else {
		t1 = pz_now_sec();
		for (i = 0; i < p.count; i++) {
			ssize_t r;
			size_t off;

			/* Stale zeros from the previous call must not pass. */
			memset(buf, PZ_FILL, p.size);
			r = pread(fd, buf, p.size, 0);
			if (r != (ssize_t)p.size)
				pz_bad_read(&p, i, r);
			off = cz_first_nonzero(buf, p.size);
			if (off < p.size)
				pz_die("verify: call %" PRIu64 ": byte at offset %zu = %#04x, expected 0",
				       i + 1, off, (unsigned char)buf[off]);
		}
		t2 = pz_now_sec();
	}

	switch (p.format) {
	case PZ_FORMAT_DEFAULT:
		printf("%.6f\n", t2 - t1);
		break;
	case PZ_FORMAT_SIMPLE:
		printf("%.0f\n", t2 > t1 ? (double)p.size * (double)p.count / (t2 - t1) : 0.0);
		break;
	case PZ_FORMAT_JSON:
		pz_print_json(&p, t2 - t1);
		break;
	}
	close(fd);
	free(buf);
	return 0;
}
