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
 * CLOCK_MONOTONIC_RAW (perf: gettimeofday, microseconds) and --json prints
 * every sample (one per loop).  Without -f, perf's own set runs under perf's
 * names (x86-64: default, x86-64-unrolled, x86-64-stosq, x86-64-stosb, as
 * tools/perf/bench/mem-memset-x86-64-asm-def.h; elsewhere: default); -f all
 * runs every routine of the registry, -f A,B,... the ones named.  --align K[@entry|@loop] runs
 * a copy of the routine placed at code offset K (zab's placement = random
 * passes its per-run offset this way for in-process benchmarks).
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
	struct zb_common cm;
	const char *chunk_str, *huge_str, *page_str;
	uint64_t chunk;
	enum zb_huge huge;
	const char *align_str;
	int align;              /* -1: the routine's code as linked */
	enum zero_point point;
};

static void memset_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench memset <options>\n\n"
		"    -c, --cycles          Use a cycles event instead of CLOCK_MONOTONIC_RAW\n"
		"                          (%s)\n"
		"    -f, --function <all>  Specify the function to run, \"all\" runs all available functions, \"help\" lists them;\n"
		"                          none: perf's (default, x86-64-unrolled, x86-64-stosq, x86-64-stosb);\n"
		"                          A,B,...: those\n"
		"    -k, --chunk <0>       Specify the chunk-size for each invocation. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"    -l, --nr_loops <n>    Specify the number of loops to run. (default: 1)\n"
		"    -s, --size <1MB>      Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)\n"
		"        --format <fmt>    default | simple (perf's formats) | json (every sample)\n"
		"        --json            same as --format json\n"
		"        --hugepages <sz>  2MB (hugetlb pool, else transparent huge pages) or 1GB (hugetlb)\n"
		"    -p, --page <4KB>      perf's page size of the buffer: 4KB, 2MB or 1GB (--hugepages)\n"
		"        --source PATH[:SYMBOL]  a kernel source file as a routine (repeatable; run after -f's\n"
		"                          comma list), with --patch FILE, --alt FEATURE=on|off, --kconfig X=V\n"
		"        --align <K[@pt]>  run a copy placed so that its loop head (@loop, default) or\n"
		"                          entry (@entry) is at code offset K (0..4095, address mod 4096)\n"
		"    -h, --help            this text\n\n"
		" Functions: every zeroing routine in the registry, and perf's names as aliases:\n"
		" default = memset (glibc), x86-64-stosb = rep_stosb, x86-64-stosq = rep_stosq,\n"
		" x86-64-unrolled = clear_page_orig (when those routines are built).  GB = 2^30 bytes, as perf.\n",
		zb_ticks_name());
}

static void list_functions(FILE *out)
{
	size_t i;

	for (i = 0; i < zero_count(); i++) {
		const struct zero_routine *r = zero_at(i);
		const char *why = NULL;

		if (zero_usable(r, &why))
			fprintf(out, "\t%s ... %s\n", r->name, r->desc);
		else
			fprintf(out, "\t%s ... %s [unusable here: %s]\n", r->name, r->desc, why);
	}
	for (i = 0; i < zb_naliases; i++) {
		const struct zero_routine *r = zb_alias_target(&zb_aliases[i]);

		if (r)
			fprintf(out, "\t%s ... perf's name for %s\n", zb_aliases[i].perf_name, r->name);
	}
}

/* Untimed: fault the pages in, warm the routine, and check that it zeroes. */
static int prefault_and_check(const struct zero_routine *r, zero_fn fn, char *p, size_t size)
{
	size_t left, i;

	memset(p, 0xff, size);
	left = fn(p, size);
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

/* The timed loops: one clock pair per loop with samples (JSON), else perf's one pair. */
static int time_loops(const struct memset_params *mp, zero_fn fn, char *p, uint64_t *samples,
		      uint64_t *total)
{
	const struct zb_common *cm = &mp->cm;
	size_t left = 0;
	uint64_t t0;
	unsigned i;

	*total = 0;
	if (samples) {
		for (i = 0; i < cm->nr_loops; i++) {
			t0 = zb_clock(cm->cycles);
			left |= clear_chunked(fn, p, cm->size, mp->chunk);
			samples[i] = zb_clock(cm->cycles) - t0;
			*total += samples[i];
		}
	} else {
		t0 = zb_clock(cm->cycles);
		for (i = 0; i < cm->nr_loops; i++)
			left |= clear_chunked(fn, p, cm->size, mp->chunk);
		*total = zb_clock(cm->cycles) - t0;
	}
	return left ? -EIO : 0;
}

static int run_function(struct memset_params *mp, const char *name, const struct zero_routine *r)
{
	struct zb_common *cm = &mp->cm;
	struct zb_result res = { .name = name, .routine = r->name, .desc = r->desc };
	uint64_t *samples = NULL;
	struct zero_placed pl = { 0 };
	zero_fn fn = r->fn;
	struct zb_buf buf;
	char why[512], desc[512];
	int ret;

	if (r->name == name || !strcmp(r->name, name))
		snprintf(desc, sizeof(desc), "%s", r->desc);
	else
		snprintf(desc, sizeof(desc), "%s: %s", r->name, r->desc);
	zb_print_function(cm, name, desc);

	ret = zb_buf_alloc(&buf, cm->size, mp->huge, true, why, sizeof(why));
	if (ret) {
		zb_print_alloc_failed(cm, mp->huge != ZB_HUGE_NONE);
		fprintf(stderr, "zbench memset: %s\n", why);
		return ret;
	}
	if (mp->huge != ZB_HUGE_NONE && cm->format != CZ_FORMAT_JSON)
		fprintf(stderr, "# zbench: buffer backed by %s\n", buf.backing);
	if (mp->align >= 0) {
		ret = zero_place(r, mp->point, (unsigned)mp->align, &pl);
		if (ret) {
			fprintf(stderr, "zbench memset: cannot place %s at offset %d: %s%s%s\n", r->name,
				mp->align, zero_place_strerror(ret), r->no_reloc_why ? ": " : "",
				r->no_reloc_why ? r->no_reloc_why : "");
			goto out;
		}
		fn = pl.fn;
	}
	ret = prefault_and_check(r, fn, buf.p, cm->size);
	if (ret)
		goto out;
	zb_print_copying(cm);

	/* JSON keeps every sample, at one extra clock read per loop. */
	if (cm->format == CZ_FORMAT_JSON && !(samples = calloc(cm->nr_loops, sizeof(*samples)))) {
		fprintf(stderr, "zbench memset: no memory for %u samples\n", cm->nr_loops);
		ret = -ENOMEM;
		goto out;
	}
	ret = time_loops(mp, fn, buf.p, samples, &res.total);
	if (ret) {
		fprintf(stderr, "zbench memset: %s reported bytes not cleared while timing\n", r->name);
		goto out;
	}
	res.backing = buf.backing;
	res.samples = samples;
	zb_print_result(cm, &res);
out:
	if (pl.fn)
		zero_unplace(&pl);
	free(samples);
	zb_buf_free(&buf);
	return ret;
}

static const struct option memset_options[] = {
	{ "chunk",     required_argument, NULL, 'k' },
	{ "hugepages", required_argument, NULL, ZB_OPT_FIRST_OWN },
	{ "page",      required_argument, NULL, 'p' },
	{ "align",     required_argument, NULL, ZB_OPT_FIRST_OWN + 1 },
	{ NULL, 0, NULL, 0 },
};

static int memset_option(void *ctx, int c, const char *arg)
{
	struct memset_params *mp = ctx;

	if (c == 'k')
		mp->chunk_str = arg;
	else if (c == 'p')
		mp->page_str = arg;
	else if (c == ZB_OPT_FIRST_OWN)
		mp->huge_str = arg;
	else
		mp->align_str = arg;
	return 0;
}

/* --align K[@entry|@loop]: 0 or 1 after one line. */
static int align_check(struct memset_params *mp)
{
	const char *at = strchr(mp->align_str, '@');
	char num[16];
	uint64_t k;

	snprintf(num, sizeof(num), "%.*s", at ? (int)(at - mp->align_str) : 15, mp->align_str);
	mp->point = at && !strcmp(at + 1, "entry") ? ZERO_POINT_ENTRY : ZERO_POINT_LOOP;
	if (cz_parse_u64(num, 0, ZERO_PLACE_MAX_OFFSET, &k) || k % ZERO_PLACE_ALIGN ||
	    (at && strcmp(at + 1, "entry") && strcmp(at + 1, "loop"))) {
		fprintf(stderr, "Invalid align:%s (0..%u, a multiple of %u, then @entry or @loop)\n",
			mp->align_str, ZERO_PLACE_MAX_OFFSET, ZERO_PLACE_ALIGN);
		return 1;
	}
	mp->align = (int)k;
	return 0;
}

/* memset's own values, checked after the common ones (perf's order). */
static int memset_check(struct memset_params *mp)
{
	if (cz_parse_size(mp->chunk_str, &mp->chunk) || mp->chunk > mp->cm.size) {
		fprintf(stderr, "Invalid chunk_size:%s\n", mp->chunk_str);
		return 1;
	}
	if (!mp->chunk)
		mp->chunk = mp->cm.size;
	if (mp->huge_str && (zb_parse_page(mp->huge_str, &mp->huge) || mp->huge == ZB_HUGE_NONE)) {
		fprintf(stderr, "Invalid hugepages:%s (2MB or 1GB)\n", mp->huge_str);
		return 1;
	}
	/* perf's -p takes the base page too: 4KB is the default buffer. */
	if (mp->page_str && zb_parse_page(mp->page_str, &mp->huge)) {
		fprintf(stderr, "Invalid page-size:%s (4KB, 2MB or 1GB)\n", mp->page_str);
		return 1;
	}
	return mp->align_str ? align_check(mp) : 0;
}

/* Every usable routine ("all": the unusable ones are skipped), or the one asked for. */
static int run_functions(struct memset_params *mp, const struct zero_routine *one)
{
	const char *why;
	int ret = 0;
	size_t i;

	for (i = 0; i < (one ? 1 : zero_count()); i++) {
		const struct zero_routine *r = one ? one : zero_at(i);
		const char *name = one ? mp->cm.function : r->name;

		if (!zero_usable(r, &why)) {
			if (one) {
				fprintf(stderr, "zbench memset: function '%s' is not usable on this CPU: %s\n",
					name, why);
				return 1;
			}
			fprintf(stderr, "# zbench: skipping %s: %s\n", r->name, why);
			continue;
		}
		if (run_function(mp, name, r)) {
			zb_print_failed(&mp->cm, name);
			ret = 1;
		}
	}
	return ret;
}

/*
 * With --source: the loaded routines, after the ones -f names (a comma
 * list of routines or perf's names: the built-in twins to compare with).
 */
static int run_with_sources(struct memset_params *mp)
{
	const struct zero_routine *list[64];
	const char *names[64];
	char fbuf[1024], *save = NULL, *tok;
	size_t n = 0, i;
	int ret = 0;

	snprintf(fbuf, sizeof(fbuf), "%s", mp->cm.function_set ? mp->cm.function : "");
	for (tok = strtok_r(fbuf, ",", &save); tok && n < 56; tok = strtok_r(NULL, ",", &save)) {
		if (!(list[n] = zb_resolve(tok))) {
			mp->cm.function = tok;
			list_functions(zb_unknown_function(&mp->cm));
			return 1;
		}
		names[n++] = tok;
	}
	for (i = 0; i < mp->cm.ksrc.n; i++) {
		list[n] = mp->cm.loaded[i];
		names[n++] = mp->cm.loaded[i]->name;
	}
	zb_json_begin(&mp->cm, json_pack("{s:I}", "chunk", (json_int_t)mp->chunk));
	for (i = 0; i < n; i++) {
		mp->cm.function = names[i];     /* the name results are printed under */
		if (run_functions(mp, list[i]))
			ret = 1;
	}
	zb_json_end(&mp->cm);
	return ret;
}

/* No -f: perf's functions under perf's names, those this build has (x86-64-* on x86-64 only). */
static int run_perf_set(struct memset_params *mp)
{
#if defined(__x86_64__)
	size_t n = zb_naliases;
#else
	size_t n = 1;                   /* "default": arm64 perf has no other */
#endif
	const struct zero_routine *r;
	int ret = 0;
	size_t i;

	zb_json_begin(&mp->cm, json_pack("{s:I}", "chunk", (json_int_t)mp->chunk));
	for (i = 0; i < n; i++) {
		if (!(r = zb_alias_target(&zb_aliases[i])))
			continue;
		mp->cm.function = zb_aliases[i].perf_name;
		if (run_functions(mp, r))
			ret = 1;
	}
	zb_json_end(&mp->cm);
	return ret;
}

int zb_memset_main(int argc, char **argv)
{
	static const struct zb_cmd cmd = {
		.name = "memset", .usage = memset_usage, .shortopts = "k:p:",
		.longopts = memset_options, .option = memset_option,
	};
	struct memset_params mp = {
		.cm = { .bench = "memset", .size_str = "1MB", .function = "all", .nr_loops = 1,
			.format = zb_global_format },
		.chunk_str = "0", .align = -1,
	};
	const struct zero_routine *r = NULL;
	int ret;

	ret = zb_parse_common(argc, argv, &mp.cm, &cmd, &mp);
	if (ret >= 0)
		return ret;
	ret = zb_check_common(&mp.cm);
	if (ret || memset_check(&mp))
		return ret ? ret : 1;
	if (mp.cm.ksrc.n)
		return run_with_sources(&mp);
	if (!mp.cm.function_set)
		return run_perf_set(&mp);
	if (strchr(mp.cm.function, ','))
		return run_with_sources(&mp);
	/* Resolve before any JSON is written: an error never leaves half a document. */
	if (strncmp(mp.cm.function, "all", 3) && !(r = zb_resolve(mp.cm.function))) {
		list_functions(zb_unknown_function(&mp.cm));
		return 1;
	}
	zb_json_begin(&mp.cm, json_pack("{s:I}", "chunk", (json_int_t)mp.chunk));
	ret = run_functions(&mp, r);
	zb_json_end(&mp.cm);
	return ret;
}
