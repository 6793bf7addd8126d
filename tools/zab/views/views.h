/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's views (views/): the table and the --export-* files (output.c), the
 * views' JSON and CSV and report --by sut-class (views.c), the pages and
 * figures (page.c), history --by series (histseries.c), report --campaign
 * (reportfleet.c), a run's JSON document (resultjson.c), KCIDB (kcidb.c)
 * and the store as zab reads and records it (store.c); with the option
 * codes and groups the commands share.
 */
#ifndef TOOLS_ZAB_VIEWS_VIEWS_H
#define TOOLS_ZAB_VIEWS_VIEWS_H

#include <stdbool.h>
#include <stdio.h>

#include "outfile.h"
#include "run/run.h"

/* getopt codes of long options without a short form, shared by run and report */
enum {
	OPT_UNIT = 256, OPT_LOWER, OPT_GROUP, OPT_VAR, OPT_RETRIES, OPT_ORDER, OPT_SEED, OPT_BASE,
	OPT_NAME, OPT_SUT, OPT_CUSEZERO, OPT_DRY, OPT_PROGRESS, OPT_NOPROGRESS, OPT_DETAIL, OPT_TIMEOUT,
	OPT_COLOCATE, OPT_INDEV, OPT_EXPORT_MD, OPT_EXPORT_CSV, OPT_PLACEMENT, OPT_TIME, OPT_PREPARE,
	OPT_PSCAN, OPT_PSTEP, OPT_EXPORT_HF, OPT_LAYOUT_OR_CODE, OPT_VERDICT, OPT_STORE_URL,
	OPT_NO_STORE, OPT_SUT_NAME, OPT_CAMPAIGN_ID, OPT_EXPERIMENT_NAME, OPT_BY, OPT_SUT_CLASS,
	OPT_KERNEL_REF, OPT_ONLY_VARIANTS, OPT_HTML, OPT_PLOT, OPT_FIGURE, OPT_MIN_PER_CLASS,
};

/* The output options run and report share (zab_output_option parses them). */
#define ZAB_OUTPUT_LONGOPTS						\
	{ "style", required_argument, NULL, 's' },			\
	{ "detail", no_argument, NULL, OPT_DETAIL },			\
	{ "json", required_argument, NULL, 'j' },			\
	{ "export-zab", required_argument, NULL, 'j' },			\
	{ "export-json", required_argument, NULL, OPT_EXPORT_HF },	\
	{ "export-markdown", required_argument, NULL, OPT_EXPORT_MD },	\
	{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },	\
	{ "export-hyperfine", required_argument, NULL, OPT_EXPORT_HF }

/* The page options of report, compare and history (page.c). */
#define ZAB_PAGE_LONGOPTS						\
	{ "html", required_argument, NULL, OPT_HTML },			\
	{ "plot", required_argument, NULL, OPT_PLOT },			\
	{ "figure", required_argument, NULL, OPT_FIGURE }

struct zab_page_opts {   /* zeroed: no page, no figure */
	const char *html;    /* --html FILE: the page */
	const char *plot;    /* --plot FILE.svg|png: one figure */
	const char *figure;  /* --figure NAME: which (NULL: the first) */
};

/* 1 if c was a page option, 0 if not, -1 after one line on a bad value. */
int zab_page_option(int c, const char *arg, struct zab_page_opts *po);
/* Before any work: 0, or -1 after one line (--figure without --plot, no gnuplot). */
int zab_page_check(const struct zab_page_opts *po);
/*
 * The figures of the results r (docs: each file's document, for the
 * per-SUT figures) and the page with text (the tables as printed): 0, or
 * 1 after one line.  Nothing when neither --html nor --plot was given.
 */
int zab_page_report(const struct zab_page_opts *po, struct czres_result *const *r, size_t n,
		    const json_t *docs, const char *text);
int zab_page_compare(const struct zab_page_opts *po, const struct czres_result *old,
		     const struct czres_result *new, const json_t *rows, const char *text);
/* What a history page draws its rows by (page.c). */
struct zab_page_hist {
	const char *by;          /* kernel, cusezero, patch or series */
	const char *seq, *kind;  /* --by series: the sequence and its kind (kernel, series, git; NULL) */
	const json_t *per_chunk; /* the SUT classes whose value is bytes/sec of routine time (NULL: none) */
};
/*
 * rows: history's; a row with "change_point": true is drawn as a change
 * point, a flagged row's change written at its step; a class of
 * per_chunk drawn as ns per 4 KiB chunk.
 */
int zab_page_history(const struct zab_page_opts *po, const json_t *rows, const char *text,
		     const struct zab_page_hist *h);

struct out_file {
	const char *opt;     /* for messages */
	const char *path;    /* NULL: not asked for; "-": stdout */
	struct cz_out out;   /* out.f NULL: not open (lib/outfile.h: renamed onto path at the end) */
};

struct out_opts {
	enum czrep_style style;
	bool detail;
	struct out_file json, md, csv, hf;
};

struct czs;
/* The store at url (NULL: the default) to write, made when absent, or NULL after one line. */
struct czs *zab_store_open(const char *url);
/*
 * The store at url to read (never made: a missing one is refused), and
 * when experiment is not NULL, one that holds that experiment (else the
 * stored names, closest first); NULL after one line.
 */
struct czs *zab_store_read(const char *url, const char *experiment);
/* Record doc (what: its name in messages): 0 stored, 1 already there (same contents),
 * -2 stored with other contents, -1 not stored; one line when not 0 or 1. */
int zab_store_record(struct czs *s, json_t *doc, const char *what, char uuid[37]);

/*
 * report --campaign: the campaign's SUTs per class as zab fleet recorded
 * them, to f (reportfleet.c); 0, or 1 when a class has fewer than min
 * complete SUTs (0: no minimum) or the store cannot say.
 */
int zab_report_fleet(FILE *f, const char *url, const char *experiment, const char *campaign, size_t min);
/*
 * report --by sut-class: one column group per SUT class (views.c), the
 * classes' kernel references (zab_kref_classes, NULL: none) in its JSON and
 * CSV; 0, or 1 when an output failed.
 */
int zab_report_by_class(struct czres_result *const *r, size_t n, const char *json, const char *csv,
			const json_t *kref);
/* Its table alone, to f (the report page). */
void zab_by_class_text(FILE *f, struct czres_result *const *r, size_t n);
/* Where a view's text goes: stdout, or stderr when its JSON or CSV goes there ("-"). */
FILE *zab_view_text(const char *json, const char *csv);
/*
 * After the text: the view's JSON document to json and its "rows" as CSV
 * (columns cols) to csv, each when not NULL: 0, or 1 after one line when
 * one (or the text on stdout) was not written.
 */
int zab_view_files(FILE *text, const char *json, const char *csv, const json_t *doc,
		   const char *const *cols);
/*
 * zab store export --kcidb (kcidb.c): the runs r[0..n) as a KCIDB I/O
 * schema v5.3 document; *ncheckouts: the kernel variants found (0: none).
 */
json_t *zab_kcidb_doc(const struct czres_result *r, size_t n, size_t *ncheckouts);
void zab_out_init(struct out_opts *oo);
/* An output option shared by run and report: 1 if c was one, 0 if not, -1 on a bad value. */
int zab_output_option(int c, const char *arg, struct out_opts *oo);
int zab_outputs_open(struct out_opts *oo);
void zab_outputs_discard(struct out_opts *oo);
/* The table, then the files: 0, or 1 when any of them was not written. */
int zab_output(struct czres_result *const *r, size_t n, const json_t *doc, struct out_opts *oo);

/* Build a result (and its JSON document) from a finished experiment. */
json_t *zab_result_json(const struct czres_result *r, const struct zab_experiment *e,
			   json_t *env, json_t *devinfo, json_t *sessinfo, uint64_t seed);

#endif /* TOOLS_ZAB_VIEWS_VIEWS_H */
