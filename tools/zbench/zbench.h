/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench: in-process benchmarks of the zeroing routines (no device in the
 * way), shared declarations of its subcommands:
 *   zbench memset   drop-in for `perf bench mem memset`  (zbench-memset.c)
 *   zbench mmap     drop-in for `perf bench mem mmap`    (zbench-mmap.c)
 *   zbench align    code-alignment sweep of one routine  (zbench-align.c)
 * Helpers (clocks, perf-style output, buffers, JSON) are in zbench-common.c.
 */
#ifndef TOOLS_ZBENCH_ZBENCH_H
#define TOOLS_ZBENCH_ZBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zeroing.h"

/* perf's unit: "GB/sec" is 2^30 bytes per second (print_bps in mem-functions.c). */
#define ZB_GB (1024.0 * 1024.0 * 1024.0)

enum zb_format {
	ZB_FORMAT_DEFAULT,	/* perf's human-readable lines */
	ZB_FORMAT_SIMPLE,	/* perf --format simple: one number per function */
	ZB_FORMAT_JSON,		/* every sample */
};

/* Set by `zbench --format X SUBCOMMAND` (perf's global option position). */
extern enum zb_format zb_global_format;

int zb_parse_format(const char *s, enum zb_format *out);

/* ---- clocks --------------------------------------------------------------- */

/* CLOCK_MONOTONIC_RAW in ns, or the cycle counter when ticks is true. */
uint64_t zb_clock(bool ticks);
/* Free-running cycle counter: TSC (rdtsc) on x86-64, CNTVCT_EL0 on arm64. */
uint64_t zb_ticks(void);
/* false (and *why) when there is no user-readable counter on this build. */
bool zb_ticks_available(const char **why);
/* What --cycles counts, one line (for the note on stderr and the JSON). */
const char *zb_ticks_name(void);

/* ---- perf-style output ----------------------------------------------------- */

/* perf's print_bps(): " %14lf GB/sec" etc. (no newline). */
void zb_print_bps(double bytes_per_sec);
/* "# Running 'mem/NAME' benchmark:" in the default format only. */
void zb_print_running(const char *bench, enum zb_format fmt);
/*
 * The options memset and mmap share, checked with perf's messages (0, or 1
 * after one line on stderr): --cycles has a counter, --size parses (> 0).
 */
int zb_check_cycles_size(bool cycles, const char *size_str, uint64_t *size);
/* --nr_loops (NULL: leave *nr_loops as it is). */
int zb_parse_loops(const char *loops_str, unsigned *nr_loops);
/* With --cycles, outside JSON: say on stderr what the counter counts. */
void zb_cycles_note(bool cycles, enum zb_format fmt);

/* ---- buffers ----------------------------------------------------------------- */

enum zb_huge {
	ZB_HUGE_NONE,		/* 4 KB pages */
	ZB_HUGE_2MB,
	ZB_HUGE_1GB,
};

struct zb_buf {
	char *p;		/* size usable bytes, page aligned */
	size_t size;
	void *map;		/* what to munmap */
	size_t map_len;
	const char *backing;	/* "4KB pages", "hugetlb 2MB", "THP (madvise) 2MB" */
};

/* Parse "4KB" / "2MB" / "1GB" page sizes. 0 or -EINVAL. */
int zb_parse_page(const char *s, enum zb_huge *out);
size_t zb_huge_bytes(enum zb_huge h);

/*
 * Map size bytes of anonymous memory backed by the requested pages and
 * populate it (the caller's benchmark then runs without page faults).
 * 2MB: a hugetlb mapping when the pool has pages, else transparent huge pages
 * (madvise).  1GB: hugetlb only.  Returns 0, or -errno with a one-line reason
 * in why (naming the sysfs knob to turn).
 */
int zb_buf_alloc(struct zb_buf *b, size_t size, enum zb_huge huge, bool populate,
		 char *why, size_t why_len);
void zb_buf_free(struct zb_buf *b);
/* kB of AnonHugePages in the VMA holding addr (/proc/self/smaps), -1 if unknown. */
long zb_anon_huge_kb(const void *addr);
/* Why 2MB/1GB pages may be unavailable: pool size and THP mode, one line. */
void zb_huge_status(enum zb_huge h, char *buf, size_t len);

/* ---- routine names --------------------------------------------------------------- */

/* perf's own function names mapped onto registry routines (as far as they exist). */
struct zb_alias {
	const char *perf_name;
	const char *targets[3];	/* registry names, first existing one wins */
};
extern const struct zb_alias zb_aliases[];
extern const size_t zb_naliases;

/* A registry name or a perf alias -> routine; NULL if unknown. */
const struct zero_routine *zb_resolve(const char *name);
/* The routine a perf alias maps to here, NULL if the alias has no target. */
const struct zero_routine *zb_alias_target(const struct zb_alias *a);

/* ---- subcommands ----------------------------------------------------------------- */

int zb_memset_main(int argc, char **argv);
int zb_mmap_main(int argc, char **argv);
int zb_align_main(int argc, char **argv);
/* zbench-plot.c: gnuplot in PATH?  "svg"/"png" from a file name (NULL: neither). */
bool zb_have_gnuplot(void);
const char *zb_plot_kind(const char *file);
/* Draw GB/s against offset; 0, -EINVAL (file kind), -EIO (gnuplot failed) or -errno. */
int zb_plot(const char *file, const char *title, const unsigned *offsets,
	    const double *median, const double *min, const double *max, size_t n);

#endif
