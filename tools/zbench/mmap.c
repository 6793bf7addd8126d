/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench mmap: a drop-in for the newer `perf bench mem mmap`: time mmap()
 * plus one touch per page, i.e. the kernel's page faults and page clearing
 * (clear_page / clear_huge_page); munmap is not timed.
 *
 *   zbench mmap -p 4KB -f demand -s 1GB -l 5
 *   zbench mmap -p 2MB -f populate -s 256MB
 *
 * 2MB pages come from the hugetlb pool as in perf; when the pool is empty,
 * from transparent huge pages (madvise) -- said on stderr, and checked in
 * /proc/self/smaps after the first loop; the THP mapping is over-allocated
 * and trimmed to 2MB alignment, and that trimming munmap is timed.  No 2MB pages at all: a clear
 * message and exit status 1 (perf prints its allocation message and exits 0).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "zbench.h"
#include "util.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum mmap_backing { BACK_4KB, BACK_HUGETLB, BACK_THP };

struct mmap_params {
	const char *size_str, *page_str, *function;
	uint64_t size;
	unsigned nr_loops, seed;
	bool cycles;
	enum zb_format format;
	enum zb_huge huge;
	bool json_first;
};

static const struct mmap_function {
	const char *name, *desc;
	bool populate;
} mmap_functions[] = {
	{ "demand",   "Demand loaded mmap()",     false },
	{ "populate", "Eagerly populated mmap()", true },
};

static void mmap_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench mmap <options>\n\n"
		"    -c, --cycles          Use the CPU's cycle counter (%s)\n"
		"    -f, --function <all>  Specify the function to run, \"all\" runs all available functions, \"help\" lists them\n"
		"    -l, --nr_loops <n>    Specify the number of loops to run. (default: 1)\n"
		"    -p, --page <4KB>      Specify page-size for mapping memory buffers. Available sizes: 4KB, 2MB, 1GB (case insensitive)\n"
		"    -r, --randomize <n>   Seed to randomize page access offset.\n"
		"    -s, --size <1MB>      Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"        --format <fmt>    default | simple | json (every sample)\n"
		"        --json            same as --format json\n",
		zb_ticks_name());
}

/* Timed: map size bytes with the chosen backing; NULL on failure (errno set). */
static char *bench_map(const struct mmap_params *mp, enum mmap_backing back, bool populate,
		       size_t *map_len)
{
	size_t page = zb_huge_bytes(mp->huge), len = (mp->size + page - 1) / page * page;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	uintptr_t base, aligned;
	void *m;

	*map_len = len;
	if (back == BACK_THP) {
		/* A page-aligned range, madvised before the first touch. */
		m = mmap(NULL, len + page, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		base = (uintptr_t)m;
		aligned = (base + page - 1) & ~(uintptr_t)(page - 1);
		if (aligned > base)
			munmap(m, aligned - base);
		if (aligned + len < base + len + page)
			munmap((void *)(aligned + len), base + len + page - (aligned + len));
		m = (void *)aligned;
		if (madvise(m, len, MADV_HUGEPAGE) ||
		    (populate && madvise(m, len, MADV_POPULATE_WRITE))) {
			int err = errno;

			munmap(m, len);
			errno = err;
			return NULL;
		}
		return m;
	}
	if (populate)
		flags |= MAP_POPULATE;
	if (back == BACK_HUGETLB)
		flags |= MAP_HUGETLB | (int)((mp->huge == ZB_HUGE_1GB ? 30u : 21u) << MAP_HUGE_SHIFT);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

/* perf's mmap_page_touch: read-modify-write one byte per page (random offset with -r). */
static void touch_pages(char *dst, size_t size, size_t page, bool random)
{
	volatile char *p = dst;
	size_t npages = size / page, i, r = 0;

	for (i = 0; i < npages; i++) {
		if (random)
			r = (size_t)rand() % page;
		p[i * page + r] = (char)(p[i * page + r] + (char)i);
	}
}

/* Pick the backing for 2MB/1GB pages once, untimed; 0 or -ENOMEM with a message. */
static int choose_backing(const struct mmap_params *mp, enum mmap_backing *back)
{
	size_t len;
	char status[320];
	char *m;

	*back = BACK_4KB;
	if (mp->huge == ZB_HUGE_NONE)
		return 0;
	*back = BACK_HUGETLB;
	m = bench_map(mp, BACK_HUGETLB, false, &len);
	if (m) {
		munmap(m, len);
		return 0;
	}
	zb_huge_status(mp->huge, status, sizeof(status));
	if (mp->huge == ZB_HUGE_2MB && !strstr(status, "THP: never") && !strstr(status, "THP: unavailable")) {
		*back = BACK_THP;
		fprintf(stderr, "# zbench: no hugetlb pages for %s; using transparent huge pages (%s)\n",
			mp->size_str, status);
		return 0;
	}
	if (mp->format != ZB_FORMAT_JSON)
		printf("# Memory allocation failed - maybe size (%s) has insufficient hugepages?\n",
		       mp->size_str);
	fflush(stdout);
	fprintf(stderr, "zbench mmap: %s pages unavailable: %s\n", mp->page_str, status);
	return -ENOMEM;
}

static int run_function(struct mmap_params *mp, const struct mmap_function *f)
{
	size_t page = zb_huge_bytes(mp->huge), len;
	double total_bytes = (double)mp->size * mp->nr_loops, result;
	enum mmap_backing back;
	uint64_t *samples, total = 0, t0;
	unsigned i;
	char *m;
	int ret = 0;

	if (mp->format != ZB_FORMAT_JSON)
		printf("# function '%s' (%s)\n", f->name, f->desc);
	if (choose_backing(mp, &back))
		return -ENOMEM;
	if (mp->format == ZB_FORMAT_DEFAULT)
		printf("# Copying %s bytes ...\n\n", mp->size_str);
	fflush(stdout);

	samples = calloc(mp->nr_loops, sizeof(*samples));
	if (!samples) {
		fprintf(stderr, "zbench mmap: no memory for %u samples\n", mp->nr_loops);
		return -ENOMEM;
	}
	if (mp->seed)
		srand(mp->seed);
	for (i = 0; i < mp->nr_loops; i++) {
		t0 = zb_clock(mp->cycles);
		m = bench_map(mp, back, f->populate, &len);
		if (!m) {
			if (mp->format != ZB_FORMAT_JSON)
				printf("# Memory allocation failed - maybe size (%s) %s?\n", mp->size_str,
				       mp->huge != ZB_HUGE_NONE ? "has insufficient hugepages" : "is too large");
			fflush(stdout);
			fprintf(stderr, "zbench mmap: mmap of %zu bytes: %s\n", len, strerror(errno));
			ret = -ENOMEM;
			goto out;
		}
		touch_pages(m, mp->size, page, mp->seed != 0);
		samples[i] = zb_clock(mp->cycles) - t0;
		total += samples[i];
		if (back == BACK_THP && i == 0 && zb_anon_huge_kb(m) <= 0) {
			munmap(m, len);
			char status[320];

			zb_huge_status(mp->huge, status, sizeof(status));
			fprintf(stderr, "zbench mmap: 2MB pages unavailable: THP gave none for this range "
				"(memory fragmented? /sys/kernel/mm/transparent_hugepage/defrag); %s\n",
				status);
			ret = -ENOMEM;
			goto out;
		}
		munmap(m, len);
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
		printf("%s\n    {\"function\": \"%s\", \"backing\": \"%s\", \"bytes_per_sample\": %" PRIu64
		       ", \"unit\": \"%s\",\n     \"samples\": [", mp->json_first ? "" : ",", f->name,
		       back == BACK_THP ? "THP" : back == BACK_HUGETLB ? "hugetlb" : "4KB pages",
		       mp->size, mp->cycles ? "ticks" : "ns");
		mp->json_first = false;
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
	return ret;
}

enum { OPT_FORMAT = 256, OPT_JSON };

static const struct option mmap_options[] = {
	{ "size",      required_argument, NULL, 's' },
	{ "page",      required_argument, NULL, 'p' },
	{ "function",  required_argument, NULL, 'f' },
	{ "nr_loops",  required_argument, NULL, 'l' },
	{ "cycles",    no_argument,       NULL, 'c' },
	{ "randomize", required_argument, NULL, 'r' },
	{ "format",    required_argument, NULL, OPT_FORMAT },
	{ "json",      no_argument,       NULL, OPT_JSON },
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int zb_mmap_main(int argc, char **argv)
{
	struct mmap_params mp = {
		.size_str = "1MB", .page_str = "4KB", .function = "all",
		.nr_loops = 1, .format = zb_global_format, .json_first = true,
	};
	const char *loops_str = NULL, *seed_str = NULL;
	uint64_t v;
	size_t i;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "s:p:f:l:cr:h", mmap_options, NULL)) != -1) {
		switch (c) {
		case 's': mp.size_str = optarg; break;
		case 'p': mp.page_str = optarg; break;
		case 'f': mp.function = optarg; break;
		case 'l': loops_str = optarg; break;
		case 'c': mp.cycles = true; break;
		case 'r': seed_str = optarg; break;
		case OPT_JSON: mp.format = ZB_FORMAT_JSON; break;
		case OPT_FORMAT:
			if (zb_parse_format(optarg, &mp.format)) {
				fprintf(stderr, "Unknown format descriptor: '%s'\n", optarg);
				return 1;
			}
			break;
		case 'h':
			mmap_usage(stdout);
			return 0;
		default:
			mmap_usage(stderr);
			return 129;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "zbench mmap: unexpected argument '%s'\n", argv[optind]);
		mmap_usage(stderr);
		return 129;
	}

	zb_print_running("mmap", mp.format);

	if (zb_check_cycles_size(mp.cycles, mp.size_str, &mp.size))
		return 1;
	if (zb_parse_page(mp.page_str, &mp.huge)) {
		fprintf(stderr, "Invalid page-size:%s\n", mp.page_str);
		return 1;
	}
	if (zb_parse_loops(loops_str, &mp.nr_loops))
		return 1;
	if (seed_str) {
		if (cz_parse_u64(seed_str, 0, UINT32_MAX, &v)) {
			fprintf(stderr, "Invalid randomize:%s\n", seed_str);
			return 1;
		}
		mp.seed = (unsigned)v;
	}
	zb_cycles_note(mp.cycles, mp.format);

	if (mp.format == ZB_FORMAT_JSON) {
		printf("{\"benchmark\": \"mem/mmap\", \"size\": %" PRIu64 ", \"page\": %zu, \"nr_loops\": %u,"
		       " \"seed\": %u,\n \"clock\": ", mp.size, zb_huge_bytes(mp.huge), mp.nr_loops, mp.seed);
		cz_json_string(stdout, mp.cycles ? zb_ticks_name() : "CLOCK_MONOTONIC_RAW");
		printf(", \"gb\": %.0f,\n \"functions\": [", ZB_GB);
	}
	if (!strncmp(mp.function, "all", 3)) {
		for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++)
			if (run_function(&mp, &mmap_functions[i]))
				ret = 1;
	} else {
		for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++)
			if (!strcmp(mmap_functions[i].name, mp.function))
				break;
		if (i == CZ_ARRAY_SIZE(mmap_functions)) {
			if (strcmp(mp.function, "help") && strcmp(mp.function, "h"))
				printf("Unknown function: %s\n", mp.function);
			printf("Available functions:\n");
			for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++)
				printf("\t%s ... %s\n", mmap_functions[i].name, mmap_functions[i].desc);
			return 1;
		}
		if (run_function(&mp, &mmap_functions[i]))
			ret = 1;
	}
	if (mp.format == ZB_FORMAT_JSON)
		printf("\n ]}\n");
	return ret;
}
