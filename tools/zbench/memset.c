/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench memset: a drop-in for `perf bench mem memset` whose functions are
 * the registry's zeroing routines (plus perf's own names as aliases), so that
 * scripts written for perf run unchanged:
 *
 *   zbench memset -s 1MB -f rep_stosb -l 100
 *   zbench memset -s 1GB -k 4KB -f x86-64-stosb --format simple
 *
 * Same options, same output lines, same errors and exit codes as perf
 * (tools/perf/bench/mem-functions.c).  Differences: the clock is
 * CLOCK_MONOTONIC_RAW (perf: gettimeofday, microseconds), --cycles reads the
 * TSC / CNTVCT_EL0 (perf: a PMU event, which this VM does not have), and
 * --json prints every sample (one per loop).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbench.h"
#include "util.h"

struct memset_params {
	const char *size_str, *chunk_str, *function;
	uint64_t size, chunk;
	unsigned nr_loops;
	bool cycles;
	enum zb_format format;
	enum zb_huge huge;
	bool json_first;	/* no function printed yet (JSON commas) */
};

static void memset_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench memset <options>\n\n"
		"    -c, --cycles          Use the CPU's cycle counter (%s)\n"
		"                          instead of CLOCK_MONOTONIC_RAW\n"
		"    -f, --function <all>  Specify the function to run, \"all\" runs all available functions, \"help\" lists them\n"
		"    -k, --chunk <0>       Specify the chunk-size for each invocation. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"    -l, --nr_loops <n>    Specify the number of loops to run. (default: 1)\n"
		"    -s, --size <1MB>      Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"        --format <fmt>    default | simple (perf's formats) | json (every sample)\n"
		"        --json            same as --format json\n"
		"        --hugepages <sz>  2MB (hugetlb pool, else transparent huge pages) or 1GB (hugetlb)\n\n"
		" Functions: every zeroing routine in the registry, and perf's names as aliases:\n"
		" default = memset (glibc), x86-64-stosb = rep_stosb, x86-64-stosq = rep_stosq,\n"
		" x86-64-unrolled = clear_page_orig (when those routines are built).  GB = 2^30 bytes, as perf.\n",
		zb_ticks_name());
}

static void list_functions(void)
{
	size_t i;

	printf("Available functions:\n");
	for (i = 0; i < zero_nroutines; i++) {
		const struct zero_routine *r = &zero_routines[i];
		const char *why = NULL;

		if (zero_usable(r, &why))
			printf("\t%s ... %s\n", r->name, r->desc);
		else
			printf("\t%s ... %s [unusable here: %s]\n", r->name, r->desc, why);
	}
	for (i = 0; i < zb_naliases; i++) {
		const struct zero_routine *r = zb_alias_target(&zb_aliases[i]);

		if (r)
			printf("\t%s ... perf's name for %s\n", zb_aliases[i].perf_name, r->name);
	}
}

/* Untimed: fault the pages in, warm the routine, and check that it zeroes. */
static int prefault_and_check(const struct zero_routine *r, char *p, size_t size)
{
	size_t left, i;

	memset(p, 0xff, size);
	left = r->fn(p, size);
	if (left) {
		fprintf(stderr, "zbench memset: %s left %zu of %zu bytes not cleared\n",
			r->name, left, size);
		return -EIO;
	}
	for (i = 0; i < size; i++) {
		if (p[i]) {
			fprintf(stderr, "zbench memset: %s: byte %zu = %#x after clearing %zu bytes\n",
				r->name, i, (unsigned char)p[i], size);
			return -EIO;
		}
	}
	return 0;
}

/* One pass of perf's inner loop: the buffer in chunk-sized calls. */
static size_t clear_chunked(zero_fn fn, char *p, size_t size, size_t chunk)
{
	size_t off, left = 0;

	for (off = 0; off < size; off += chunk)
		left |= fn(p + off, size - off < chunk ? size - off : chunk);
	return left;
}

static int run_function(struct memset_params *mp, const char *name, const struct zero_routine *r)
{
	size_t size = mp->size, chunk = mp->chunk;
	uint64_t *samples = NULL, total = 0, t0;
	double total_bytes = (double)size * mp->nr_loops, result;
	struct zb_buf buf;
	char why[512], desc[512];
	size_t left = 0;
	unsigned i;
	int ret;

	if (r->name == name || !strcmp(r->name, name))
		snprintf(desc, sizeof(desc), "%s", r->desc);
	else
		snprintf(desc, sizeof(desc), "%s: %s", r->name, r->desc);
	if (mp->format != ZB_FORMAT_JSON)
		printf("# function '%s' (%s)\n", name, desc);

	ret = zb_buf_alloc(&buf, size, mp->huge, true, why, sizeof(why));
	if (ret) {
		if (mp->format != ZB_FORMAT_JSON)
			printf("# Memory allocation failed - maybe size (%s) %s?\n", mp->size_str,
			       mp->huge != ZB_HUGE_NONE ? "has insufficient hugepages" : "is too large");
		fflush(stdout);
		fprintf(stderr, "zbench memset: %s\n", why);
		return ret;
	}
	if (mp->huge != ZB_HUGE_NONE && mp->format != ZB_FORMAT_JSON)
		fprintf(stderr, "# zbench: buffer backed by %s\n", buf.backing);
	ret = prefault_and_check(r, buf.p, size);
	if (ret)
		goto out;

	if (mp->format == ZB_FORMAT_DEFAULT)
		printf("# Copying %s bytes ...\n\n", mp->size_str);
	fflush(stdout);

	if (mp->format == ZB_FORMAT_JSON) {
		/* One clock pair per loop, so each sample costs one extra clock read. */
		samples = calloc(mp->nr_loops, sizeof(*samples));
		if (!samples) {
			fprintf(stderr, "zbench memset: no memory for %u samples\n", mp->nr_loops);
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < mp->nr_loops; i++) {
			t0 = zb_clock(mp->cycles);
			left |= clear_chunked(r->fn, buf.p, size, chunk);
			samples[i] = zb_clock(mp->cycles) - t0;
			total += samples[i];
		}
	} else {
		/* perf's shape: one clock pair around all loops. */
		t0 = zb_clock(mp->cycles);
		for (i = 0; i < mp->nr_loops; i++)
			left |= clear_chunked(r->fn, buf.p, size, chunk);
		total = zb_clock(mp->cycles) - t0;
	}
	if (left) {
		fprintf(stderr, "zbench memset: %s reported bytes not cleared while timing\n", r->name);
		ret = -EIO;
		goto out;
	}

	result = mp->cycles ? (double)total / total_bytes : total_bytes / ((double)total / 1e9);
	switch (mp->format) {
	case ZB_FORMAT_DEFAULT:
		if (mp->cycles)
			printf(" %14lf cycles/byte", result);
		else
			zb_print_bps(result);
		printf("\n");
		break;
	case ZB_FORMAT_SIMPLE:
		printf("%lf\n", result);
		break;
	case ZB_FORMAT_JSON:
		printf("%s\n    {\"function\": ", mp->json_first ? "" : ",");
		mp->json_first = false;
		cz_json_string(stdout, name);
		printf(", \"routine\": ");
		cz_json_string(stdout, r->name);
		printf(", \"desc\": ");
		cz_json_string(stdout, r->desc);
		printf(",\n     \"backing\": ");
		cz_json_string(stdout, buf.backing);
		printf(", \"bytes_per_sample\": %" PRIu64 ", \"unit\": \"%s\",\n     \"samples\": [",
		       (uint64_t)size, mp->cycles ? "ticks" : "ns");
		for (i = 0; i < mp->nr_loops; i++)
			printf("%s%" PRIu64, i ? ", " : "", samples[i]);
		printf("],\n     \"total\": %" PRIu64 ", ", total);
		if (mp->cycles)
			printf("\"ticks_per_byte\": %.6f}", result);
		else
			printf("\"bytes_per_sec\": %.3f, \"gb_per_sec\": %.6f}", result, result / ZB_GB);
		break;
	}
	fflush(stdout);
out:
	free(samples);
	zb_buf_free(&buf);
	return ret;
}

enum { OPT_FORMAT = 256, OPT_JSON, OPT_HUGEPAGES };

static const struct option memset_options[] = {
	{ "size",      required_argument, NULL, 's' },
	{ "chunk",     required_argument, NULL, 'k' },
	{ "function",  required_argument, NULL, 'f' },
	{ "nr_loops",  required_argument, NULL, 'l' },
	{ "cycles",    no_argument,       NULL, 'c' },
	{ "format",    required_argument, NULL, OPT_FORMAT },
	{ "json",      no_argument,       NULL, OPT_JSON },
	{ "hugepages", required_argument, NULL, OPT_HUGEPAGES },
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int zb_memset_main(int argc, char **argv)
{
	struct memset_params mp = {
		.size_str = "1MB", .chunk_str = "0", .function = "all",
		.nr_loops = 1, .format = zb_global_format, .json_first = true,
	};
	const char *loops_str = NULL, *huge_str = NULL;
	const struct zero_routine *r;
	const char *why;
	int c, ret = 0;
	size_t i;

	while ((c = getopt_long(argc, argv, "s:k:f:l:ch", memset_options, NULL)) != -1) {
		switch (c) {
		case 's': mp.size_str = optarg; break;
		case 'k': mp.chunk_str = optarg; break;
		case 'f': mp.function = optarg; break;
		case 'l': loops_str = optarg; break;
		case 'c': mp.cycles = true; break;
		case OPT_JSON: mp.format = ZB_FORMAT_JSON; break;
		case OPT_HUGEPAGES: huge_str = optarg; break;
		case OPT_FORMAT:
			if (zb_parse_format(optarg, &mp.format)) {
				fprintf(stderr, "Unknown format descriptor: '%s'\n", optarg);
				return 1;
			}
			break;
		case 'h':
			memset_usage(stdout);
			return 0;
		default:
			memset_usage(stderr);
			return 129;	/* perf's usage_with_options() */
		}
	}
	if (optind < argc) {
		fprintf(stderr, "zbench memset: unexpected argument '%s'\n", argv[optind]);
		memset_usage(stderr);
		return 129;
	}

	zb_print_running("memset", mp.format);

	if (zb_check_cycles_size(mp.cycles, mp.size_str, &mp.size))
		return 1;
	if (cz_parse_size(mp.chunk_str, &mp.chunk) || mp.chunk > mp.size) {
		fprintf(stderr, "Invalid chunk_size:%s\n", mp.chunk_str);
		return 1;
	}
	if (!mp.chunk)
		mp.chunk = mp.size;
	if (zb_parse_loops(loops_str, &mp.nr_loops))
		return 1;
	if (huge_str && (zb_parse_page(huge_str, &mp.huge) || mp.huge == ZB_HUGE_NONE)) {
		fprintf(stderr, "Invalid hugepages:%s (2MB or 1GB)\n", huge_str);
		return 1;
	}
	zb_cycles_note(mp.cycles, mp.format);

	if (mp.format == ZB_FORMAT_JSON) {
		printf("{\"benchmark\": \"mem/memset\", \"size\": %" PRIu64 ", \"size_str\": ", mp.size);
		cz_json_string(stdout, mp.size_str);
		printf(", \"chunk\": %" PRIu64 ", \"nr_loops\": %u,\n \"clock\": ", mp.chunk, mp.nr_loops);
		cz_json_string(stdout, mp.cycles ? zb_ticks_name() : "CLOCK_MONOTONIC_RAW");
		printf(", \"gb\": %.0f,\n \"functions\": [", ZB_GB);
	}

	if (!strncmp(mp.function, "all", 3)) {
		for (i = 0; i < zero_nroutines; i++) {
			r = &zero_routines[i];
			if (!zero_usable(r, &why)) {
				fprintf(stderr, "# zbench: skipping %s: %s\n", r->name, why);
				continue;
			}
			if (run_function(&mp, r->name, r))
				ret = 1;
		}
	} else if (!(r = zb_resolve(mp.function))) {
		if (strcmp(mp.function, "help") && strcmp(mp.function, "h"))
			printf("Unknown function: %s\n", mp.function);
		list_functions();
		return 1;
	} else if (!zero_usable(r, &why)) {
		fprintf(stderr, "zbench memset: function '%s' is not usable on this CPU: %s\n",
			mp.function, why);
		ret = 1;
	} else if (run_function(&mp, mp.function, r)) {
		ret = 1;
	}

	if (mp.format == ZB_FORMAT_JSON)
		printf("\n ]}\n");
	return ret;
}
