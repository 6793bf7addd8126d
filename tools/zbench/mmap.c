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

#include "kref.h"
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
	struct zb_common cm;
	const char *page_str, *seed_str;
	unsigned seed;
	enum zb_huge huge;
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
		"    -c, --cycles          Use a cycles event (%s)\n"
		"    -f, --function <all>  Specify the function to run, \"all\" runs all available functions, \"help\" lists them\n"
		"    -l, --nr_loops <n>    Specify the number of loops to run. (default: 1)\n"
		"    -p, --page <4KB>      Specify page-size for mapping memory buffers. Available sizes: 4KB, 2MB, 1GB (case insensitive)\n"
		"    -r, --randomize <n>   Seed to randomize page access offset.\n"
		"    -s, --size <1MB>      Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"        --format <fmt>    default | simple | json (every sample)\n"
		"        --json            same as --format json\n"
		"    -h, --help            this text\n",
		zb_ticks_name());
}

/* Timed: map size bytes with the chosen backing; NULL on failure (errno set). */
static char *bench_map(const struct mmap_params *mp, enum mmap_backing back, bool populate,
		       size_t *map_len)
{
	size_t page = zb_huge_bytes(mp->huge), len = (mp->cm.size + page - 1) / page * page;
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
	char status[512];
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
	if (mp->huge == ZB_HUGE_2MB && zb_thp_usable()) {
		*back = BACK_THP;
		fprintf(stderr, "# zbench: no hugetlb pages for %s; using transparent huge pages (%s)\n",
			mp->cm.size_str, status);
		return 0;
	}
	zb_print_alloc_failed(&mp->cm, true);
	fprintf(stderr, "zbench mmap: %s pages unavailable: %s\n", mp->page_str, status);
	return -ENOMEM;
}

/* Loop 1 on THP: did the range really get 2MB pages? 0 or -ENOMEM (said on stderr). */
static int check_thp(const struct mmap_params *mp, const char *m)
{
	char status[512];

	if (zero_kref_anon_huge_kb(m) > 0)
		return 0;
	zb_huge_status(mp->huge, status, sizeof(status));
	fprintf(stderr, "zbench mmap: 2MB pages unavailable: THP gave none for this range "
		"(memory fragmented? /sys/kernel/mm/transparent_hugepage/defrag); %s\n", status);
	return -ENOMEM;
}

/* nr_loops timed map + touch (munmap untimed); 0 or -ENOMEM (said). */
static int time_loops(const struct mmap_params *mp, const struct mmap_function *f,
		      enum mmap_backing back, uint64_t *samples, uint64_t *total)
{
	const struct zb_common *cm = &mp->cm;
	size_t page = zb_huge_bytes(mp->huge), len;
	uint64_t t0;
	unsigned i;
	char *m;
	int ret;

	*total = 0;
	if (mp->seed)
		srand(mp->seed);
	for (i = 0; i < cm->nr_loops; i++) {
		t0 = zb_clock(cm->cycles);
		m = bench_map(mp, back, f->populate, &len);
		if (!m) {
			zb_print_alloc_failed(cm, mp->huge != ZB_HUGE_NONE);
			fprintf(stderr, "zbench mmap: mmap of %zu bytes: %s\n", len, strerror(errno));
			return -ENOMEM;
		}
		touch_pages(m, cm->size, page, mp->seed != 0);
		samples[i] = zb_clock(cm->cycles) - t0;
		*total += samples[i];
		ret = back == BACK_THP && i == 0 ? check_thp(mp, m) : 0;
		munmap(m, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int run_function(struct mmap_params *mp, const struct mmap_function *f)
{
	struct zb_common *cm = &mp->cm;
	struct zb_result res = { .name = f->name, .desc = f->desc };
	enum mmap_backing back;
	uint64_t *samples;
	int ret;

	zb_print_function(cm, f->name, f->desc);
	if (choose_backing(mp, &back))
		return -ENOMEM;
	zb_print_copying(cm);
	samples = calloc(cm->nr_loops, sizeof(*samples));
	if (!samples) {
		fprintf(stderr, "zbench mmap: no memory for %u samples\n", cm->nr_loops);
		return -ENOMEM;
	}
	ret = time_loops(mp, f, back, samples, &res.total);
	if (!ret) {
		res.backing = back == BACK_THP ? "THP" : back == BACK_HUGETLB ? "hugetlb" : "4KB pages";
		res.samples = samples;
		zb_print_result(cm, &res);
	}
	free(samples);
	return ret;
}

static const struct option mmap_options[] = {
	{ "page",      required_argument, NULL, 'p' },
	{ "randomize", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

static int mmap_option(void *ctx, int c, const char *arg)
{
	struct mmap_params *mp = ctx;

	if (c == 'p')
		mp->page_str = arg;
	else
		mp->seed_str = arg;
	return 0;
}

static int mmap_check(struct mmap_params *mp)
{
	uint64_t v;

	if (zb_parse_page(mp->page_str, &mp->huge)) {
		fprintf(stderr, "Invalid page-size:%s\n", mp->page_str);
		return 1;
	}
	if (mp->seed_str) {
		if (cz_parse_u64(mp->seed_str, 0, UINT32_MAX, &v)) {
			fprintf(stderr, "Invalid randomize:%s\n", mp->seed_str);
			return 1;
		}
		mp->seed = (unsigned)v;
	}
	return 0;
}

/* The index of -f NAME in mmap_functions, SIZE_MAX for "all", -1 (listed) if unknown. */
static int find_function(struct mmap_params *mp, size_t *idx)
{
	FILE *out;
	size_t i;

	*idx = SIZE_MAX;
	if (!strncmp(mp->cm.function, "all", 3))
		return 0;
	for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++)
		if (!strcmp(mmap_functions[i].name, mp->cm.function)) {
			*idx = i;
			return 0;
		}
	out = zb_unknown_function(&mp->cm);
	for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++)
		fprintf(out, "\t%s ... %s\n", mmap_functions[i].name, mmap_functions[i].desc);
	return -1;
}

int zb_mmap_main(int argc, char **argv)
{
	static const struct zb_cmd cmd = {
		.name = "mmap", .usage = mmap_usage, .shortopts = "p:r:",
		.longopts = mmap_options, .option = mmap_option,
	};
	struct mmap_params mp = {
		.cm = { .bench = "mmap", .size_str = "1MB", .function = "all", .nr_loops = 1,
			.format = zb_global_format },
		.page_str = "4KB",
	};
	size_t i, one;
	int ret;

	ret = zb_parse_common(argc, argv, &mp.cm, &cmd, &mp);
	if (ret >= 0)
		return ret;
	ret = zb_check_common(&mp.cm);
	if (ret || mmap_check(&mp))
		return ret ? ret : 1;
	/* Resolve before any JSON is written: an error never leaves half a document. */
	if (find_function(&mp, &one))
		return 1;
	ret = 0;
	zb_json_begin(&mp.cm, json_pack("{s:I, s:I}", "page", (json_int_t)zb_huge_bytes(mp.huge),
					  "seed", (json_int_t)mp.seed));
	for (i = 0; i < CZ_ARRAY_SIZE(mmap_functions); i++) {
		if (one != SIZE_MAX && i != one)
			continue;
		if (run_function(&mp, &mmap_functions[i])) {
			zb_print_failed(&mp.cm, mmap_functions[i].name);
			ret = 1;
		}
	}
	zb_json_end(&mp.cm);
	return ret;
}
