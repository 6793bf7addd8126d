/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench helpers: clocks, perf-compatible output, benchmark buffers (4 KB,
 * hugetlb or THP pages), perf's function names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "kref.h"
#include "zbench.h"
#include "emul.h"
#include "util.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

enum cz_format zb_global_format = CZ_FORMAT_DEFAULT;

/* ---- clocks ------------------------------------------------------------------ */

/*
 * --cycles, as perf bench mem's: a PERF_TYPE_HARDWARE / PERF_COUNT_HW_CPU_CYCLES
 * counter of this process opened with perf_event_open(2) and read(2) around
 * the timed loop (tools/perf/bench/mem-functions.c, init_cycles and
 * get_cycles).  No PMU (most VMs): the open fails, and so does perf.
 */
static int zb_cycles_fd = -1;

uint64_t zb_ticks(void)
{
	uint64_t clk = 0;

	if (read(zb_cycles_fd, &clk, sizeof(clk)) != (ssize_t)sizeof(clk))
		return 0;
	return clk;
}

bool zb_ticks_available(const char **why)
{
	struct perf_event_attr attr;

	if (zb_cycles_fd >= 0)
		return true;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	zb_cycles_fd = (int)syscall(SYS_perf_event_open, &attr, getpid(), -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (zb_cycles_fd < 0)
		*why = strerror(errno);
	return zb_cycles_fd >= 0;
}

const char *zb_ticks_name(void)
{
	return "core cycles: perf_event_open PERF_COUNT_HW_CPU_CYCLES, as perf";
}

uint64_t zb_clock(bool ticks)
{
	struct timespec ts;

	if (ticks)
		return zb_ticks();
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- perf-style output ----------------------------------------------------------- */

void zb_print_bps(double x)
{
	const double k = 1024.0;

	/* perf's print_bps(), including the stray 'd' its KB format has always printed. */
	if (x < k)
		printf(" %14lf bytes/sec", x);
	else if (x < k * k)
		printf(" %14lfd KB/sec", x / k);
	else if (x < k * k * k)
		printf(" %14lf MB/sec", x / k / k);
	else
		printf(" %14lf GB/sec", x / k / k / k);
}

/* ---- what memset and mmap share ----------------------------------------------- */

static const struct option zb_common_longopts[] = {
	{ "size",     required_argument, NULL, 's' },
	{ "function", required_argument, NULL, 'f' },
	{ "nr_loops", required_argument, NULL, 'l' },
	{ "cycles",   no_argument,       NULL, 'c' },
	{ "format",   required_argument, NULL, ZB_OPT_FORMAT },
	{ "json",     no_argument,       NULL, ZB_OPT_JSON },
	{ "help",     no_argument,       NULL, 'h' },
	ZERO_KSRC_LONGOPTS(ZB_OPT_KSRC),
};

/* The common long options followed by the command's, zero-terminated. */
static struct option *zb_longopts(const struct zb_cmd *cmd)
{
	size_t n = 0, common = CZ_ARRAY_SIZE(zb_common_longopts);
	struct option *all;

	while (cmd->longopts && cmd->longopts[n].name)
		n++;
	all = calloc(common + n + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, zb_common_longopts, sizeof(zb_common_longopts));
	if (n)
		memcpy(all + common, cmd->longopts, n * sizeof(*all));
	return all;
}

/* One option; -1 to go on, or an exit status. */
static int zb_common_option(struct zb_common *cm, const struct zb_cmd *cmd, void *ctx, int c)
{
	switch (c) {
	case 's': cm->size_str = optarg; return -1;
	case 'f': cm->function = optarg; cm->function_set = true; return -1;
	case 'l': cm->loops_str = optarg; return -1;
	case 'c': cm->cycles = true; return -1;
	case ZB_OPT_JSON: cm->format = CZ_FORMAT_JSON; return -1;
	case ZB_OPT_FORMAT:
		if (!cz_format_parse(optarg, &cm->format))
			return -1;
		fprintf(stderr, "Unknown format descriptor: '%s'\n", optarg);	/* perf's */
		return 1;
	case ZB_OPT_KSRC:
	case ZB_OPT_KSRC + 1:
	case ZB_OPT_KSRC + 2:
	case ZB_OPT_KSRC + 3: {
		char err[512];
		int r = zero_ksrc_option(&cm->ksrc, c - ZB_OPT_KSRC, optarg, err, sizeof(err));

		if (r < 0)
			cz_err("%s", err);
		return r > 0 ? 0 : r < 0 ? 2 : -1;
	}
	case 'h':
		cmd->usage(stdout);
		return 0;
	case '?':
		return 129;	/* perf's usage_with_options() */
	}
	c = cmd->option(ctx, c, optarg);
	return c ? c : -1;
}

int zb_parse_common(int argc, char **argv, struct zb_common *cm, const struct zb_cmd *cmd,
		    void *ctx)
{
	struct option *longopts = zb_longopts(cmd);
	char shortopts[64], bad[8];
	int c, ret = -1;

	if (!longopts) {
		fprintf(stderr, "zbench %s: out of memory\n", cmd->name);
		return 1;
	}
	snprintf(shortopts, sizeof(shortopts), "s:f:l:ch%s", cmd->shortopts);
	/* Our one-line message instead of getopt's, perf's exit status kept. */
	opterr = 0;
	while (ret < 0 && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		ret = zb_common_option(cm, cmd, ctx, c);
		if (c == '?')
			cz_err_unknown_option(cz_getopt_bad(argv, optind, optopt, bad, sizeof(bad)));
	}
	free(longopts);
	if (ret < 0 && optind < argc) {
		fprintf(stderr, "zbench %s: unexpected argument '%s'\n", cmd->name, argv[optind]);
		cmd->usage(stderr);
		ret = 129;
	}
	return ret;
}

int zb_check_common(struct zb_common *cm)
{
	const char *why;
	uint64_t v;

	/* zbench's own --source files first: their error is no perf benchmark's, so it comes
	 * before perf's header, never after it (perf's own errors follow it, as in perf) */
	if (cm->ksrc.n) {
		char err[1024];

		if (zero_sources_load(&cm->ksrc, cm->loaded, err, sizeof(err))) {
			cz_err("%s", err);
			return 1;
		}
	}
	zb_emul_note(cm->format);
	if (cm->format == CZ_FORMAT_DEFAULT)
		printf("# Running 'mem/%s' benchmark:\n", cm->bench);
	cz_stdout_flush();
	/* perf's line and status (init_cycles() < 0: return -1, exit 255), before the size check */
	if (cm->cycles && !zb_ticks_available(&why))
		return fprintf(stderr, "Failed to open cycles counter\n"), 255;
	if (cz_parse_size(cm->size_str, &cm->size) || !cm->size || cm->size > SIZE_MAX / 2) {
		fprintf(stderr, "Invalid size:%s\n", cm->size_str);
		return 1;
	}
	if (cm->loops_str) {
		char *end;

		/* perf's OPT_INTEGER: strtol(), anything after the number is a usage error (129) */
		(void)strtol(cm->loops_str, &end, 10);
		if (*end) {
			fprintf(stderr, " Error: switch `l' expects a numerical value: '%s'\n", cm->loops_str);
			return 129;
		}
		if (cz_parse_u64(cm->loops_str, 1, UINT32_MAX, &v)) {
			fprintf(stderr, "Invalid nr_loops:%s\n", cm->loops_str);
			return 1;
		}
		cm->nr_loops = (unsigned)v;
	}
	return 0;
}

void zb_emul_note(enum cz_format format)
{
	const char *why;

	if (!cz_emulated(&why) || format == CZ_FORMAT_JSON)
		return;
	if (format == CZ_FORMAT_DEFAULT)
		printf("# emulated: %s; " ZB_EMUL_MEANS "\n", why);
	else
		fprintf(stderr, "zbench: emulated: %s; " ZB_EMUL_MEANS "\n", why);
}

void zb_emul_json(json_t *d)
{
	const char *why;

	if (!cz_emulated(&why))
		return;
	cz_jset(d, "emulated", json_true());
	cz_jset(d, "emulated_why", cz_jstr(why));
}

FILE *zb_unknown_function(const struct zb_common *cm)
{
	FILE *out = cm->format == CZ_FORMAT_JSON ? stderr : stdout;

	if (strcmp(cm->function, "help") && strcmp(cm->function, "h"))
		fprintf(out, "Unknown function: %s\n", cm->function);
	fprintf(out, "Available functions:\n");
	return out;
}

void zb_json_begin(struct zb_common *cm, json_t *extra)
{
	json_t *d;

	if (cm->format != CZ_FORMAT_JSON) {
		json_decref(extra);
		return;
	}
	d = cm->json = cz_jobj();
	cz_jset(d, "benchmark", json_sprintf("mem/%s", cm->bench));
	cz_jset(d, "size", cz_juint(cm->size));
	cz_jset(d, "size_str", cz_jstr(cm->size_str));
	cz_jset(d, "nr_loops", cz_juint(cm->nr_loops));
	if (extra && json_object_update(d, extra))
		cz_jset(d, "", NULL);	/* out of memory: exits */
	json_decref(extra);
	cz_jset(d, "clock", cz_jstr(cm->cycles ? zb_ticks_name() : "CLOCK_MONOTONIC_RAW"));
	cz_jset(d, "gb", cz_jnum(ZB_GB));
	zb_emul_json(d);
	cm->json_funcs = cz_jset(d, "functions", cz_jarr());
}

/* The document, once every function ran: stdout never holds half of one. */
void zb_json_end(struct zb_common *cm)
{
	if (cm->json)
		cz_json_dump(stdout, cm->json, CZ_JSON_PRETTY);	/* failed: cz_stdout_flush() */
	json_decref(cm->json);
	cm->json = cm->json_funcs = NULL;
	cz_stdout_flush();
}

void zb_print_function(const struct zb_common *cm, const char *name, const char *desc)
{
	if (cm->format != CZ_FORMAT_JSON)
		printf("# function '%s' (%s)\n", name, desc);
	cz_stdout_flush();
}

void zb_print_alloc_failed(const struct zb_common *cm, bool huge)
{
	if (cm->format != CZ_FORMAT_JSON)
		printf("# Memory allocation failed - maybe size (%s) %s?\n", cm->size_str,
		       huge ? "has insufficient hugepages" : "is too large");
	cz_stdout_flush();
}

void zb_print_copying(const struct zb_common *cm)
{
	if (cm->format == CZ_FORMAT_DEFAULT)
		printf("# Copying %s bytes ...\n\n", cm->size_str);
	cz_stdout_flush();
}

/* A new entry of "functions", named. */
static json_t *zb_json_function(struct zb_common *cm, const char *name)
{
	json_t *o = cz_jpush(cm->json_funcs, cz_jobj());

	cz_jset(o, "function", cz_jstr(name));
	return o;
}

static void zb_print_json(struct zb_common *cm, const struct zb_result *r, double result)
{
	json_t *o = zb_json_function(cm, r->name), *x;
	unsigned i;

	if (r->routine)
		cz_jset(o, "routine", cz_jstr(r->routine));
	cz_jset(o, "desc", cz_jstr(r->desc));
	cz_jset(o, "backing", cz_jstr(r->backing));
	cz_jset(o, "bytes_per_sample", cz_juint(cm->size));
	cz_jset(o, "unit", cz_jstr(cm->cycles ? "cycles" : "ns"));
	x = cz_jset(o, "samples", cz_jarr());
	for (i = 0; r->samples && i < cm->nr_loops; i++)
		cz_jpush(x, cz_juint(r->samples[i]));
	cz_jset(o, "total", cz_juint(r->total));
	if (cm->cycles) {
		cz_jset(o, "cycles_per_byte", cz_jfixed(result, 6));
	} else {
		cz_jset(o, "bytes_per_sec", cz_jfixed(result, 3));
		cz_jset(o, "gb_per_sec", cz_jfixed(result / ZB_GB, 6));
	}
}

void zb_print_result(struct zb_common *cm, const struct zb_result *r)
{
	double total_bytes = (double)cm->size * cm->nr_loops;
	double result = cm->cycles ? (double)r->total / total_bytes
				   : total_bytes / ((double)r->total / 1e9);

	switch (cm->format) {
	case CZ_FORMAT_DEFAULT:
		if (cm->cycles)
			printf(" %14lf cycles/byte", result);
		else
			zb_print_bps(result);
		printf("\n");
		break;
	case CZ_FORMAT_SIMPLE:
		printf("%lf\n", result);
		break;
	case CZ_FORMAT_JSON:
		zb_print_json(cm, r, result);
		break;
	}
	cz_stdout_flush();
}

void zb_print_failed(struct zb_common *cm, const char *name)
{
	if (cm->format != CZ_FORMAT_JSON)
		return;
	cz_jset(zb_json_function(cm, name), "failed", json_true());
}

/* ---- buffers --------------------------------------------------------------------- */

int zb_parse_page(const char *s, enum zb_huge *out)
{
	uint64_t v;

	if (cz_parse_size(s, &v))
		return -EINVAL;
	if (v == 4096)
		*out = ZB_HUGE_NONE;
	else if (v == 2ULL << 20)
		*out = ZB_HUGE_2MB;
	else if (v == 1ULL << 30)
		*out = ZB_HUGE_1GB;
	else
		return -EINVAL;
	return 0;
}

size_t zb_huge_bytes(enum zb_huge h)
{
	switch (h) {
	case ZB_HUGE_2MB:
		return 2UL << 20;
	case ZB_HUGE_1GB:
		return 1UL << 30;
	case ZB_HUGE_NONE:
		break;
	}
	return 4096;
}

static long read_long_file(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static const char *hugetlb_pool_path(enum zb_huge h)
{
	return h == ZB_HUGE_1GB ? "/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages"
				: "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages";
}

void zb_huge_status(enum zb_huge h, char *buf, size_t len)
{
	char thp[32];
	long free_pages = read_long_file(hugetlb_pool_path(h));

	zero_kref_thp_mode(thp, sizeof(thp));
	if (h == ZB_HUGE_1GB)
		snprintf(buf, len, "hugetlb 1GB pool: %ld free (%s; raise nr_hugepages beside it); "
			 "THP cannot give 1GB pages", free_pages, hugetlb_pool_path(h));
	else
		snprintf(buf, len, "hugetlb 2MB pool: %ld free (%s); THP: %s "
			 "(/sys/kernel/mm/transparent_hugepage/enabled)%s%s", free_pages,
			 hugetlb_pool_path(h), thp, zb_thp_usable() ? "" : ", but ",
			 zb_thp_usable() ? "" : ZERO_KREF_THP_DISABLED_WHY);
}

bool zb_thp_usable(void)
{
	char thp[32];

	zero_kref_thp_mode(thp, sizeof(thp));
	return strcmp(thp, "never") && strcmp(thp, "unavailable") && !zero_kref_thp_disabled();
}

static void *map_hugetlb(size_t len, enum zb_huge h, bool populate)
{
	unsigned shift = h == ZB_HUGE_1GB ? 30 : 21;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (int)(shift << MAP_HUGE_SHIFT);

	if (populate)
		flags |= MAP_POPULATE;
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
}

int zb_buf_alloc(struct zb_buf *b, size_t size, enum zb_huge huge, bool populate,
		 char *why, size_t why_len)
{
	size_t hsz = zb_huge_bytes(huge), len = (size + hsz - 1) / hsz * hsz;
	char status[512];
	uintptr_t base, aligned;
	long kb;
	void *m;

	memset(b, 0, sizeof(*b));
	if (huge == ZB_HUGE_NONE) {
		m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
		if (m == MAP_FAILED) {
			snprintf(why, why_len, "mmap of %zu bytes: %s", len, strerror(errno));
			return -errno;
		}
		b->backing = "4KB pages";
		goto done;
	}

	m = map_hugetlb(len, huge, populate);
	if (m != MAP_FAILED) {
		b->backing = huge == ZB_HUGE_1GB ? "hugetlb 1GB pages" : "hugetlb 2MB pages";
		goto done;
	}
	zb_huge_status(huge, status, sizeof(status));
	if (huge == ZB_HUGE_1GB || !zb_thp_usable()) {
		snprintf(why, why_len, "no %s pages available: %s",
			 huge == ZB_HUGE_1GB ? "1GB" : "2MB", status);
		return -ENOMEM;
	}

	/* Transparent huge pages: a 2MB-aligned range, madvised before the first touch. */
	m = mmap(NULL, len + hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		snprintf(why, why_len, "mmap of %zu bytes: %s", len + hsz, strerror(errno));
		return -errno;
	}
	base = (uintptr_t)m;
	aligned = (base + hsz - 1) & ~(uintptr_t)(hsz - 1);
	if (aligned > base)
		munmap(m, aligned - base);
	if (aligned + len < base + len + hsz)
		munmap((void *)(aligned + len), base + len + hsz - (aligned + len));
	m = (void *)aligned;
	if (madvise(m, len, MADV_HUGEPAGE)) {
		snprintf(why, why_len, "madvise(MADV_HUGEPAGE): %s; %s", strerror(errno), status);
		munmap(m, len);
		return -ENOMEM;
	}
	if (populate) {
		size_t off;

		for (off = 0; off < len; off += 4096)
			((volatile char *)m)[off] = 0;
		kb = zero_kref_anon_huge_kb(m);
		if (kb <= 0) {
			snprintf(why, why_len, "THP gave no 2MB pages for this range "
				 "(memory fragmented? /sys/kernel/mm/transparent_hugepage/defrag); %s",
				 status);
			munmap(m, len);
			return -ENOMEM;
		}
		if ((size_t)kb * 1024 < len)
			fprintf(stderr, "# zbench: only %ld of %zu kB are backed by THP 2MB pages\n",
				kb, len / 1024);
	}
	b->backing = "THP 2MB pages (madvise)";
done:
	b->p = m;
	b->size = size;
	b->map = m;
	b->map_len = len;
	return 0;
}

void zb_buf_free(struct zb_buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof(*b));
}

/* ---- perf's function names ------------------------------------------------------------ */

const struct zb_alias zb_aliases[] = {
	{ "default",         { "memset" } },
	{ "x86-64-unrolled", { "clear_page_orig" } },
	{ "x86-64-stosq",    { "rep_stosq", "clear_page_rep" } },
	{ "x86-64-stosb",    { "rep_stosb", "clear_page_erms" } },
};
const size_t zb_naliases = CZ_ARRAY_SIZE(zb_aliases);

const struct zero_routine *zb_alias_target(const struct zb_alias *a)
{
	const struct zero_routine *r;
	size_t i;

	for (i = 0; i < CZ_ARRAY_SIZE(a->targets) && a->targets[i]; i++)
		if ((r = zero_lookup(a->targets[i])))
			return r;
	return NULL;
}

const struct zero_routine *zb_resolve(const char *name)
{
	const struct zero_routine *r = zero_lookup(name);
	size_t i;

	if (r)
		return r;
	for (i = 0; i < zb_naliases; i++)
		if (!strcmp(zb_aliases[i].perf_name, name))
			return zb_alias_target(&zb_aliases[i]);
	return NULL;
}
