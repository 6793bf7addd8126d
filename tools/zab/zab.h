/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab: A/B experiments (benchmarks x variants, S sessions of W warm-ups and
 * R measured repeats) and the significance tables kernel reviewers read.
 *
 *   main.c        the command dispatch; usage.c --help; cmd.h shared options
 *   cmdrun.c      zab run: command line -> experiment -> result
 *   cmdreport.c   zab report: files or stored runs read, merged, shown;
 *                 compare.c zab compare; history.c zab history
 *   views.c       report --by sut-class, the views' JSON/CSV
 *   cmdstore.c    zab store; hfcli.c, hfrun.c, hfout.c hyperfine's command lines
 *   output.c      the table and the --export-* files
 *   experiment.c  experiment files (INI) and --bench/--variant specs
 *   sequence.c    change sequences (series, kernel, git) -> one variant per
 *                 step; seqseries.c, seqgit.c, seqexpand.c (sequence.h)
 *   run.c         sessions, order, processes, device daemons, co-location,
 *                 in-device samples, progress
 *   rkind.c       the result classes (one table); machine.c the machine description,
 *                 kref.c the kernel reference it records and report --by shows
 *   layout.c      placement per run; rotate.c placement = rotate on the device
 *   resultjson.c  a run's result -> its JSON document
 *   number.c      numbers in a benchmark's output
 * The results themselves are modules of their own, which the store and
 * zab's views share: the data model, the reader of result files and the
 * merge (results/result.h), the statistics and verdicts (stats/cellstat.h,
 * stats/verdict.h), the tables, CSV and JSON (report/report.h).
 */
#ifndef TOOLS_ZAB_ZAB_H
#define TOOLS_ZAB_ZAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cusezero.h"
#include "jsonout.h"
#include "report/report.h"
#include "results/result.h"
#include "stats/cellstat.h"
#include "stats/verdict.h"

/* measured runs per session when neither -R nor repeats= says (n >= 3 per cell) */
#define ZAB_DEFAULT_REPEATS 3

/* ---- JSON (jansson; builders and the dump: lib/jsonout.h) -------------- */

/*
 * A finite number at s in JSON's grammar (json) or as a plain decimal (a
 * benchmark's output: no hex, inf, nan): true with *x and *end past it.
 */
bool zab_number(const char *s, bool json, char **end, double *x);

/* ---- experiment --------------------------------------------------------- */

struct zab_kv {
	char *key, *val;
};

/*
 * Placement as a factor (layout.c): fixed (the variant's own align=, or the
 * code as linked), or an offset per measured run drawn from a set (random)
 * or taken in turn (sweep), the same for every variant of a slot, or every
 * offset of the set within each run (rotate: the daemon rotates its copies
 * per request, device variants only; rotate.c).
 */
enum zab_pmode { ZAB_PLACE_FIXED, ZAB_PLACE_RANDOM, ZAB_PLACE_SWEEP, ZAB_PLACE_ROTATE };

struct zab_placement {
	enum zab_pmode mode;
	bool entry;          /* the routine's entry is placed, else its loop head */
	unsigned *set;       /* the offsets (sorted) */
	size_t nset;
	char *spec;          /* as given; NULL: not given */
};

/* Whether a benchmark also gets in-device result classes (the daemon's counters). */
enum zab_indev { ZAB_INDEV_AUTO, ZAB_INDEV_YES, ZAB_INDEV_NO };

/*
 * What a benchmark's value is: the number it prints (output), its wall-clock
 * time in seconds (time, as hyperfine), or auto: time when its first run
 * exits 0 printing nothing on stdout, else its number (output when a unit
 * is given).
 */
enum zab_measure { ZAB_MEASURE_AUTO, ZAB_MEASURE_OUTPUT, ZAB_MEASURE_TIME };

struct zab_bench {
	char *name;          /* result class, e.g. "pread 100KB" */
	enum zab_measure measure;
	char *group;         /* the Benchmark column, e.g. "pread_z100k" */
	char *cmd;           /* command template, {var} substitution */
	char *unit;          /* e.g. "bytes/sec" */
	bool higher;         /* higher is better */
	enum zab_indev in_device;   /* auto: when every variant is a device variant */
	char *where;         /* "FILE:LINE" or "--bench" (for errors) */
};

struct zab_variant {
	char *name;
	char *cmd;           /* NULL, or a command replacing the benchmark's ({cmd} = it) */
	struct zab_kv env[CZRES_MAX_ITEMS];
	size_t nenv;
	struct zab_kv vars[CZRES_MAX_ITEMS];   /* var.NAME= -> {NAME} */
	size_t nvars;
	/* device settings: any of these set => a cusezero daemon per session */
	bool device;
	char *routine, *align, *align_point, *chunk, *frontend, *threads;
	/*
	 * The daemon's other arguments, one word each (cusezero-args= words,
	 * --source=FILE, --patch=FILE ...): passed as its argv, never joined
	 * into a string and split again, so a file name stays one argument.
	 */
	char **dev_argv;
	size_t ndev;
	char *where;         /* "FILE:LINE" or "--variant" (for errors) */
	char *arch;          /* only on this machine (uname -m), e.g. x86_64, aarch64 */
	struct zab_placement placement;   /* spec NULL: the experiment's */
	/* a change sequence (sequence.h), expanded into NAME@0..N by zab_experiment_check */
	char *series, *kernels, *git;
	/* a step's provenance: from the expansion, or an expanded file's keys */
	char *seq, *seq_kind, *label, *kversion, *git_commit;
	unsigned step, steps;
};

enum zab_order { ZAB_ORDER_RANDOM, ZAB_ORDER_INTERLEAVE, ZAB_ORDER_SEQUENTIAL };

/*
 * Co-location: every run of a session and its daemons' serving threads on
 * one CPU.  auto (the zero default): on for experiments with device
 * variants, the CPU rotating over the allowed ones per session.
 */
enum zab_coloc { ZAB_COLOC_AUTO, ZAB_COLOC_OFF, ZAB_COLOC_CPU };

struct zab_colocate {
	enum zab_coloc mode;
	unsigned cpu;        /* ZAB_COLOC_CPU */
};

struct zab_seq;

struct zab_experiment {
	char *name;
	char *file;
	unsigned sessions, warmups, repeats, retries;
	unsigned timeout;    /* seconds per run, 0 = none */
	char *prepare;       /* run before each run, not measured (NULL: none) */
	enum zab_order order;
	struct zab_colocate colocate;
	char *base;          /* base variant name (default: the first) */
	struct zab_placement placement;
	bool paired;         /* verdict = paired: fixed placement's (R)/(I) from runs paired by slot */
	bool no_kernel_ref;  /* kernel-ref = no: the run records no kernel reference */
	struct zab_kv vars[CZRES_MAX_ITEMS];
	size_t nvars;
	struct zab_bench bench[CZRES_MAX_ITEMS];
	size_t nbench;
	struct zab_variant var[CZRES_MAX_ITEMS];
	size_t nvar;
	struct zab_seq *seqs;  /* the sequences expanded by zab_experiment_check (sequence.h) */
	size_t nseqs;
	char *arch_dropped;    /* "'a' (arch = aarch64), ...": the variants arch= left out here */
};

const char *zab_order_name(enum zab_order o);
int zab_order_parse(const char *s, enum zab_order *o);
/* "auto" | "off" | a CPU number: 0 or -EINVAL. */
int zab_colocate_parse(const char *s, struct zab_colocate *out);
int zab_indev_parse(const char *s, enum zab_indev *out);
/* "auto" | "output" | "time": 0 or -EINVAL. */
int zab_measure_parse(const char *s, enum zab_measure *out);
/* A CPU given for co-location must be one zab may run on: 0, or -EINVAL after one line. */
int zab_colocate_check(const struct zab_colocate *c);
/* Load an experiment file into e (added to what is there); prints one line on error. */
int zab_experiment_load(struct zab_experiment *e, const char *path);
/* NAME or experiments/NAME not found here: $ZAB_EXPERIMENT_PATH, then the installed ones. */
const char *zab_find_experiment(const char *name);
/* --bench 'NAME=CMD' [unit=..,better=..] and --variant 'NAME:K=V,K=V' (CLI forms). */
int zab_bench_spec(struct zab_experiment *e, const char *spec);
int zab_variant_spec(struct zab_experiment *e, const char *spec);
/* Check names, substitutions, base; prints one line on error. */
int zab_experiment_check(struct zab_experiment *e);
void zab_experiment_free(struct zab_experiment *e);
/* Append one word (copied) to a variant's daemon arguments. */
void zab_devarg_add(struct zab_variant *x, const char *word);
/* How many of x's daemon arguments start with opt ("--source="); *first the first one's value. */
size_t zab_devarg_find(const struct zab_variant *x, const char *opt, const char **first);
/* A --source value PATH[:SYMBOL...]: the length of PATH (the daemon's rule: the last ':', unless a '/' follows it). */
size_t zab_source_path_len(const char *spec);
/* Keep only the variants named in list ("A,B,...", each one of e's), in e's order: 0 or -1. */
int zab_experiment_only(struct zab_experiment *e, const char *list);
/* Expand {var} in tmpl; NULL with *bad = the unknown name (malloc'd) on error. */
char *zab_expand(const char *tmpl, const struct zab_kv *kv, size_t nkv, char **bad);

/* "fixed" | "random[:SET][@entry|@loop]" | "sweep[:SET][@...]" | "rotate[:SET][@...]": 0 or -EINVAL. */
int zab_placement_parse(const char *s, struct zab_placement *p);
void zab_placement_free(struct zab_placement *p);
const struct zab_placement *zab_var_placement(const struct zab_experiment *e, size_t v);
/* The offset of measured run `measured` of a session (0-based), or -1 (fixed, rotate). */
int zab_placement_offset(const struct zab_placement *p, uint64_t seed, unsigned sessions,
			 unsigned session, unsigned repeats, unsigned measured);

/* ---- results (the data model and its reader: results/result.h) ----------- */

struct cz_devdelta;

/* The facts of one result class: its row in every table, JSON file and comparison. */
struct zab_rkind_info {
	const char *suffix;   /* after the benchmark's name in its row ("" for the command's) */
	const char *unit;     /* NULL: the benchmark's own */
	int higher;           /* 1 higher is better, 0 lower, -1 the benchmark's own */
	const char *source;   /* the JSON's "source" of the class (read back by report) */
	/* NULL: the command's number; else the value from the counters over one run */
	double (*take)(const struct cz_devdelta *d);
	/* placement = rotate: the value from a median request (ns per 4 KiB) and the chunk */
	double (*of_median)(double ns, uint64_t chunk);
};

extern const struct zab_rkind_info zab_rkinds[CZRES_RK_COUNT];

/* Build a result (and its JSON document) from a finished experiment. */
json_t *zab_result_json(const struct czres_result *r, const struct zab_experiment *e,
			   json_t *env, json_t *devinfo, json_t *sessinfo, uint64_t seed);
/*
 * cmdrun.c: the document a run of the experiment file would start from:
 * its benchmarks and variants as recorded, no samples ("measure": "auto"
 * where the first run decides).  NULL after one line.
 */
json_t *zab_run_frame(const char *file);
/* The machine, and the kernel reference (taken; NULL: not measured) as its kernel_ref. */
json_t *zab_environment(json_t *kernel_ref);
char *zab_default_sut(void);
/*
 * kref.c: the running kernel as reference (zeroing/kref.h), measured now
 * (a failure is {"error": WHY}, never fatal); one line of it; and report
 * --by sut-class's lines under the table, one per class with a reference
 * among docs (every run's document, their "sut" the class).
 */
json_t *zab_kernel_ref(void);
/* kernel-ref = yes | no (experiment key, --kernel-ref): *off; 0 or -EINVAL. */
int zab_kref_parse(const char *s, bool *off);
void zab_kref_text(char *buf, size_t len, const json_t *kref);
/*
 * Per class of r (its runs among docs): {sut_class, kernel_runs, kernel_ref
 * (the line), kernel_ns_per_chunk, kernel_like, kernel_ratio, ...}; NULL
 * when no run of any class recorded one.  Shown under the table, and in the
 * view's JSON ("kernel_ref", and each row's columns: zab_kref_rows).
 */
json_t *zab_kref_classes(struct czres_result *const *r, size_t n, const json_t *docs);
void zab_kref_by_class(FILE *f, const json_t *classes);
void zab_kref_rows(json_t *doc, const json_t *classes);

/* ---- run ------------------------------------------------------------------ */

struct zab_run_opts {
	uint64_t seed;
	bool dry_run;
	bool progress;
	const char *cusezero;  /* path of the daemon */
};

/* The result classes of an experiment: each benchmark, and its in-device classes. 0 / -E2BIG. */
int zab_result_rows(struct czres_result *r, const struct zab_experiment *e);

/*
 * Run e; fills r, devinfo (an array per variant: its daemons' facts) and
 * sessinfo (an object per session: its CPU when co-located).  0, 1 if any
 * cell failed, or -errno.
 */
int zab_run(const struct zab_experiment *e, const struct zab_run_opts *o,
	    struct czres_result *r, json_t *devinfo, json_t *sessinfo);
/* ---- placement = rotate, the device side (rotate.c) ---- */

struct cz_devlayouts;

/* The rotation's seed for a session: the same for every variant of it. */
uint32_t zab_rotate_seed(uint64_t seed, unsigned session);
/* SET_ROTATE p's set and point on the device fd, checked by GET_ROTATE (got): NULL, or why. */
char *zab_rotate_start(int fd, const char *path, const struct zab_placement *p, uint32_t seed,
		       struct cusezero_rotate *got);

/* One measured run's copies: the counters before and after, per layout its median. */
struct zab_rotrun {
	struct cz_devlayouts *before, *after, *d;
	int err;             /* of the reading before */
	unsigned count, used;   /* layouts; those that served a request */
	unsigned off[CUSEZERO_ROTATE_MAX];
	double med[CUSEZERO_ROTATE_MAX];   /* ns per CUSEZERO_HIST_UNIT bytes, NaN: no request */
};

struct zab_rotrun *zab_rotrun_new(void);
void zab_rotrun_free(struct zab_rotrun *rr);
void zab_rotrun_begin(struct zab_rotrun *rr, int fd);
/* 0 with count, off[], med[], used; -errno, -ESTALE (a reset), -ENOTTY (not rotating). */
int zab_rotrun_end(struct zab_rotrun *rr, int fd);
/* The mean over the layouts that served a request of their medians; NaN: none did. */
double zab_rotrun_mean(const struct zab_rotrun *rr);

/* For tests and --dry-run: the order of variants in round k of session s. */
void zab_order_round(enum zab_order o, uint64_t seed, unsigned session, unsigned round,
		     size_t nvar, size_t *perm);

/* After zab_run returned -EINTR: die of the signal that interrupted it (exit 128+N). */
void zab_reraise(void);

#endif
