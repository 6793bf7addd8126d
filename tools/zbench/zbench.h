/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench: in-process benchmarks of the zeroing routines (no device in the
 * way), shared declarations of its subcommands:
 *   zbench memset   drop-in for `perf bench mem memset`  (zbench-memset.c)
 *   zbench mmap     drop-in for `perf bench mem mmap`    (zbench-mmap.c)
 *   zbench align    code-alignment sweep of one routine  (zbench-align.c)
 *   zbench kernel   the running kernel as reference      (kernel.c, zeroing/kref.h)
 * Helpers (clocks, perf-style output, buffers, JSON) are in zbench-common.c.
 */
#ifndef TOOLS_ZBENCH_ZBENCH_H
#define TOOLS_ZBENCH_ZBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>

#include "cli.h"
#include "jsonout.h"
#include "ksrc.h"
#include "zeroing.h"

/* perf's unit: "GB/sec" is 2^30 bytes per second (print_bps in mem-functions.c). */
#define ZB_GB (1024.0 * 1024.0 * 1024.0)

/* Set by `zbench --format X SUBCOMMAND` (perf's global option position). */
extern enum cz_format zb_global_format;
/* zbench's names for lib/cli.h's formats (align.c compares with them). */
#define ZB_FORMAT_DEFAULT	CZ_FORMAT_DEFAULT
#define ZB_FORMAT_SIMPLE	CZ_FORMAT_SIMPLE
#define ZB_FORMAT_JSON		CZ_FORMAT_JSON

/* ---- clocks --------------------------------------------------------------- */

/* CLOCK_MONOTONIC_RAW in ns, or the cycle counter when ticks is true. */
uint64_t zb_clock(bool ticks);
/* The core-cycle counter (perf_event_open PERF_COUNT_HW_CPU_CYCLES), opened by: */
uint64_t zb_ticks(void);
/* false (and *why: errno's text) when the counter cannot be opened (no PMU). */
bool zb_ticks_available(const char **why);
/* What --cycles counts, one line (for the note on stderr and the JSON). */
const char *zb_ticks_name(void);

/* ---- perf-style output ----------------------------------------------------- */

/* perf's print_bps(): " %14lf GB/sec" etc. (no newline). */
void zb_print_bps(double bytes_per_sec);

/*
 * What memset and mmap share, as perf's bench_common_options and
 * __bench_mem_function share it: the options -s -f -l -c (plus --format and
 * --json), their checks with perf's messages, the "# function" line, the
 * result in each format and the JSON document around the results.
 */
struct zb_common {
	const char *bench;		/* "memset" or "mmap" */
	const char *size_str, *function, *loops_str;
	uint64_t size;
	unsigned nr_loops;
	bool cycles;
	enum cz_format format;
	json_t *json, *json_funcs;	/* --format json: the document, its "functions" */
	bool function_set;              /* -f given */
	struct zero_ksrc_set ksrc;      /* --source ... */
	const struct zero_routine *loaded[ZERO_KSRC_MAX_SOURCES];
};

/* A subcommand's own options, handled by its callback. */
struct zb_cmd {
	const char *name;
	void (*usage)(FILE *out);
	const char *shortopts;		/* e.g. "k:" */
	const struct option *longopts;	/* ends with a zero entry */
	/* 0, or an exit status after one line on stderr. */
	int (*option)(void *ctx, int c, const char *arg);
};
/* Long-option values zb_parse_common keeps for itself. */
enum { ZB_OPT_FORMAT = 200, ZB_OPT_JSON, ZB_OPT_KSRC, ZB_OPT_FIRST_OWN = 256 };

/*
 * Parse argv: the common options into cm, the rest through cmd->option.
 * Returns -1 to go on, else the exit status (0 after -h; perf's 129 for an
 * unknown option or argument, 1 for a bad --format).  Then "# Running", then
 * checks --cycles, --size and --nr_loops: 0, or 1 after perf's message.
 */
int zb_parse_common(int argc, char **argv, struct zb_common *cm, const struct zb_cmd *cmd,
		    void *ctx);
int zb_check_common(struct zb_common *cm);
/* "Unknown function: X" (not for "help") and the list; stdout as perf, stderr with JSON. */
FILE *zb_unknown_function(const struct zb_common *cm);
/* Open the JSON document: perf's fields, then extra's members (extra is taken; NULL: none). */
void zb_json_begin(struct zb_common *cm, json_t *extra);
void zb_json_end(struct zb_common *cm);
/*
 * On emulated hardware (lib/emul.h) every figure output says so: a first
 * "# emulated: WHY; ..." line in the default format, the same line on
 * stderr in the others but JSON, whose document gets "emulated": true and
 * "emulated_why" (zb_emul_json).  Nothing at all on hardware.
 */
#define ZB_EMUL_MEANS "the figures time the emulator, not this machine's hardware"
void zb_emul_note(enum cz_format format);
void zb_emul_json(json_t *d);
/* "# function 'NAME' (DESC)" outside JSON. */
void zb_print_function(const struct zb_common *cm, const char *name, const char *desc);
/* perf's "# Memory allocation failed" line on stdout (not in JSON). */
void zb_print_alloc_failed(const struct zb_common *cm, bool huge);
/* "# Copying SIZE bytes ..." in the default format. */
void zb_print_copying(const struct zb_common *cm);

struct zb_result {
	const char *name;		/* as asked: a routine or a perf alias */
	const char *routine, *desc;	/* NULL: not a registry routine (mmap) */
	const char *backing;
	const uint64_t *samples;	/* nr_loops samples, NULL: only total */
	uint64_t total;			/* ns, or ticks with --cycles */
};
/* The result line (default, simple) or object (JSON, strings escaped). */
void zb_print_result(struct zb_common *cm, const struct zb_result *r);
/* In JSON, a function that failed (its reason is on stderr). */
void zb_print_failed(struct zb_common *cm, const char *name);

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
/* (kB of AnonHugePages of the VMA holding addr: zero_kref_anon_huge_kb(), zeroing/kref.h.) */
/* Why 2MB/1GB pages may be unavailable: pool size and THP mode, one line. */
void zb_huge_status(enum zb_huge h, char *buf, size_t len);
/* THP can give this process 2MB pages: enabled (always or madvise) and not disabled for it. */
bool zb_thp_usable(void);

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
int zb_kernel_main(int argc, char **argv);
/* kpath.c: what each kernel release runs for clear_user / clear_page, and why */
int zb_kpath_main(int argc, char **argv);
/* plot.c: draw GB/s against offset (render/'s gnuplot); 0, -EINVAL (file kind), -EIO
 * (gnuplot failed) or -errno. */
int zb_plot(const char *file, const char *title, const unsigned *offsets,
	    const double *median, const double *min, const double *max, size_t n);

#endif
