/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's experiment model (model/): an experiment's benchmarks, variants and
 * settings as read from its file (experiment.c, devargs.c) or the command
 * line, placement (layout.c), change sequences (sequence.h), the result
 * classes (rkind.c), numbers in a benchmark's output (number.c), packs
 * (pack.h) and the steps of stored runs (steps.h).  Nothing here runs a
 * benchmark or prints a table: run/ and views/ build on it.
 * The results themselves are modules of their own, which the store and
 * zab's views share: the data model, the reader of result files and the
 * merge (results/result.h), the statistics and verdicts (stats/cellstat.h,
 * stats/verdict.h), the tables, CSV and JSON (report/report.h).
 */
#ifndef TOOLS_ZAB_MODEL_MODEL_H
#define TOOLS_ZAB_MODEL_MODEL_H

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

enum zab_order { ZAB_ORDER_RANDOM, ZAB_ORDER_INTERLEAVE, ZAB_ORDER_SEQUENTIAL, ZAB_ORDER_ABBA };

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
/* Free one variant's fields (a copy made for a sequence's step, say). */
void zab_variant_free(struct zab_variant *v);
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

/* ---- parameters and {NAME} substitution (params.c) ---- */

/* A name of a variable: letters, digits and _, not starting with a digit. */
bool zab_ident(const char *s);
/*
 * tmpl with each {NAME} of kv (later entries win) replaced by its value, in
 * one pass: a value put in is never searched again.  strict (experiment
 * files): "${NAME}" is left to the shell, and a {NAME} of no entry is an
 * error (NULL, *bad the name, malloc'd); else any other {...} stays as it is.
 */
char *zab_subst(const char *tmpl, const struct zab_kv *kv, size_t nkv, bool strict, char **bad);
/*
 * The comma-separated values of list into *vals (malloc'd, zab_param_free):
 * how many, -EINVAL for an empty value (unless empty_ok), -E2BIG for more
 * than max.
 */
int zab_param_list(const char *list, bool empty_ok, size_t max, char ***vals);
void zab_param_free(char **vals, size_t n);

#define ZAB_MAX_PARAMS 8

/* -L NAME=A,B / --parameter-list NAME A,B, or --parameter-scan NAME LO HI (step apart) */
struct zab_param {
	const char *name;
	const char *list;          /* "A,B,C", or NULL for a scan */
	double lo, hi;
};

/*
 * zab run's variants (paramvar.c): each of vspecs[0..nv) (none: one with no setting)
 * once per combination of the values of p[0..np) (the last varies
 * fastest; a scan step apart, 0: 1), {NAME} replaced in its spec and
 * var.NAME set, named "VARIANT NAME=VALUE".  0, or -1 after one line.
 */
int zab_param_variants(struct zab_experiment *e, const struct zab_param *p, size_t np, double step,
		       char *const *vspecs, size_t nv);

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

/* kernel-ref = yes | no (experiment key, --kernel-ref): *off; 0 or -EINVAL. */
int zab_kref_parse(const char *s, bool *off);

#endif /* TOOLS_ZAB_MODEL_MODEL_H */
