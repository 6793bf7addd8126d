/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align: how fast is one routine when its code (main loop or entry)
 * sits at byte offset K of a page, for each K?  No existing tool answers
 * this: nanoBench shifts a snippet, GCC shifts whole functions at build time.
 *
 *   zbench align -f rep_stosb --offsets 0..63
 *   zbench align -f clear_user_arm64 --offsets 0,4,8,60 --of loop --plot a.svg
 *   zbench align -f clear_user_arm64_quirk --offsets 0..127:4 --device new
 *
 * In process, for every (repeat, offset) the routine is placed afresh with
 * zero_place() (a new page each time, so a physical-address accident is not
 * mistaken for an offset effect), the placement is verified (point address
 * % 4096 == offset), the copy is checked to clear the buffer, then timed.
 * With --device (aligndev.c) the same sweep runs inside a cusezero daemon:
 * the placement is switched through its ioctls and the figures are the
 * reads' (end to end) and the daemon's counters' (in device).  Offsets are
 * interleaved: each repeat visits every offset once, in a shuffled order
 * (or round-robin with a rotating start), never all repeats of one offset
 * in a row, so machine drift spreads over all offsets.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "czrender.h"
#include "util.h"

/*
 * Code can only start where an instruction can: any byte on x86-64, a
 * 4-byte boundary on arm64.  Ranges step by this unless told otherwise, and
 * the default sweep is 64 offsets either way.
 */
#if defined(__aarch64__)
#define ALIGN_INSN 4u
#define ALIGN_DEFAULT_OFFSETS "0..252"
#else
#define ALIGN_INSN 1u
#define ALIGN_DEFAULT_OFFSETS "0..63"
#endif

/*
 * Defaults sized so that 64 offsets at 100 KB take a few seconds on a loaded
 * 2-vCPU VM: 64 x 30 repeats x 40 loops x 100 KB = 7.9 GB zeroed, 1-2 s
 * for every relocatable x86-64 routine here (the budget is 10 s).  Through
 * a device a pass is one pread of ~25 us instead of ~3 us of routine: 32
 * offsets x 30 repeats x 300 preads (~290000 reads) stay well under two
 * minutes.
 */
#define ALIGN_DEFAULT_LOOPS       40
#define ALIGN_DEFAULT_REPEATS     30
#define ALIGN_DEV_DEFAULT_LOOPS   300
#define ALIGN_DEV_DEFAULT_REPEATS 30

static void align_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench align -f ROUTINE [options]\n\n"
		"    -f, --function <name>   routine to sweep (\"help\" lists the relocatable ones)\n"
		"        --offsets <list>    offsets in bytes, e.g. 0..127, 0,8,60 or 0..4095:64 (default %s;\n"
		"                            ranges step by %u, the instruction alignment)\n"
		"        --of <entry|loop>   which point is placed at the offset (default: loop, else entry)\n"
		"    -s, --size <100KB>      bytes cleared per pass (device: bytes per pread)\n"
		"    -k, --chunk <4KB>       bytes per call, as read_zero's clear_user per page (0 = size)\n"
		"    -l, --nr_loops <n>      passes per sample (default %d; device: preads, default %d)\n"
		"    -r, --repeats <n>       samples per offset, interleaved across offsets (default %d;\n"
		"                            device: %d)\n"
		"        --order <random|rr> visiting order within a repeat (default random)\n"
		"        --seed <n>          seed of the random order (default 1)\n"
		"        --compare <A,B>     also compare offsets A and B (change, 95%% CI verdict); or two\n"
		"                            routines: both at every offset, B/A per offset, verdict over\n"
		"                            layouts (-f optional)\n"
		"        --csv               print CSV rows instead of the table\n"
		"        --json              print JSON (every sample) instead of the table\n"
		"        --plot <file>       draw FILE.svg or FILE.png with gnuplot\n"
		"        --cpu <n>           pin to CPU n while measuring (device new: the daemon too)\n\n"
		"  In a device (the routine placed inside a cusezero daemon, switched through its ioctls):\n"
		"        --device <path|new> a running device (CUSE node or FUSE MNT/zero, left with its\n"
		"                            settings restored), or new: a private daemon (FUSE, root),\n"
		"                            co-located with the reader on one CPU, stopped at the end\n"
		"        --reader <cmd>      read with CMD instead (sh -c; {dev} = the device; prints\n"
		"                            bytes/sec, e.g. 'pread_z100k --format simple -n 200 {dev}')\n"
		"        --cusezero <path>   the daemon for --device new (default: $CUSEZERO, beside\n"
		"                            zbench, then $PATH)\n"
		"  Device figures per offset: end to end (bytes read per second of wall time) and in\n"
		"  device (bytes cleared per second of routine time, ns per chunk: the daemon's counters\n"
		"  over exactly that sample).\n\n"
		" GB/s = 2^30 bytes per second, as perf bench.\n",
		ALIGN_DEFAULT_OFFSETS, ALIGN_INSN, ALIGN_DEFAULT_LOOPS, ALIGN_DEV_DEFAULT_LOOPS,
		ALIGN_DEFAULT_REPEATS, ALIGN_DEV_DEFAULT_REPEATS);
}

/* ---- output --------------------------------------------------------------------------- */

/* Which figure of a point a verdict or a plot is about. */
enum align_class { AC_PROCESS, AC_E2E, AC_DEVICE };

static const struct cz_summary *summary_of(const struct align_point *p, enum align_class c)
{
	return c == AC_DEVICE ? &p->ds : &p->s;
}

static const char *point_name(const struct align_params *ap)
{
	return ap->point == ZERO_POINT_LOOP ? "loop head" : "entry";
}

static void print_table(const struct align_params *ap, const struct align_point *pts,
			const struct align_dev *dev)
{
	size_t i;

	zb_emul_note(CZ_FORMAT_DEFAULT);
	printf("# zbench align: routine '%s' (%s)\n", ap->r->name, ap->r->desc);
	if (dev) {
		zb_aligndev_describe(dev, ap, stdout);
		printf("%6s  %6s %10s %9s %9s %6s %10s %9s %9s %6s %9s\n", "offset", "placed",
		       "e2e_med", "min", "max", "CV%", "dev_med", "min", "max", "CV%", "ns/chunk");
		for (i = 0; i < ap->noffsets; i++) {
			const struct align_point *p = &pts[i];

			printf("%6u  %6d %10.3f %9.3f %9.3f %6.2f %10.3f %9.3f %9.3f %6.2f %9.1f\n",
			       p->offset, p->reported, p->s.median, p->s.min, p->s.max, p->s.cv * 100,
			       p->ds.median, p->ds.min, p->ds.max, p->ds.cv * 100, p->dns.median);
		}
		return;
	}
	printf("# %s placed at each offset (address %% 4096, verified at every placement); "
	       "%s in %s calls, %u passes per sample, %u samples per offset, order %s\n",
	       point_name(ap), ap->size_str, ap->chunk_str, ap->loops, ap->repeats,
	       ap->round_robin ? "round-robin" : "random");
	printf("# GB/s = 2^30 bytes/s\n");
	printf("%6s  %-18s %10s %10s %10s %7s\n", "offset", "point_address", "median", "min", "max", "CV%");
	for (i = 0; i < ap->noffsets; i++)
		printf("%6u  %#-18" PRIxPTR " %10.3f %10.3f %10.3f %7.2f\n", pts[i].offset, pts[i].addr,
		       pts[i].s.median, pts[i].s.min, pts[i].s.max, pts[i].s.cv * 100.0);
}

static void csv_summary(const struct cz_summary *s)
{
	printf(",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", s->median, s->min, s->max, s->mean, s->cv,
	       s->ci_lo, s->ci_hi);
}

static void print_csv(const struct align_params *ap, const struct align_point *pts, bool dev)
{
	size_t i;

	zb_emul_note(CZ_FORMAT_SIMPLE);

	if (!dev) {
		printf("offset,point_address,median_gbps,min_gbps,max_gbps,mean_gbps,cv,ci_lo_gbps,ci_hi_gbps,n\n");
		for (i = 0; i < ap->noffsets; i++) {
			printf("%u,%#" PRIxPTR, pts[i].offset, pts[i].addr);
			csv_summary(&pts[i].s);
			printf(",%zu\n", pts[i].s.n);
		}
		return;
	}
	printf("offset,placed_offset,e2e_median_gbps,e2e_min_gbps,e2e_max_gbps,e2e_mean_gbps,e2e_cv,"
	       "e2e_ci_lo_gbps,e2e_ci_hi_gbps,dev_median_gbps,dev_min_gbps,dev_max_gbps,dev_mean_gbps,"
	       "dev_cv,dev_ci_lo_gbps,dev_ci_hi_gbps,ns_per_chunk_median,n\n");
	for (i = 0; i < ap->noffsets; i++) {
		printf("%u,%d", pts[i].offset, pts[i].reported);
		csv_summary(&pts[i].s);
		csv_summary(&pts[i].ds);
		printf(",%.3f,%zu\n", pts[i].dns.median, pts[i].s.n);
	}
}

static void json_samples(json_t *o, const char *key, const double *x, unsigned n)
{
	json_t *arr = cz_jset(o, key, cz_jarr());
	unsigned i;

	for (i = 0; i < n; i++)
		cz_jpush(arr, cz_jfixed(x[i], 6));
}

static void print_json(const struct align_params *ap, const struct align_point *pts,
		       const struct align_dev *dev)
{
	json_t *d = cz_jobj(), *arr, *o;
	size_t i;

	cz_jset(d, "routine", cz_jstr(ap->r->name));
	zb_emul_json(d);
	cz_jset(d, "point", cz_jstr(ap->point == ZERO_POINT_LOOP ? "loop" : "entry"));
	cz_jset(d, "mode", cz_jstr(dev ? "device" : "process"));
	cz_jset(d, "size", cz_juint(ap->size));
	cz_jset(d, "chunk", cz_juint(ap->chunk));
	cz_jset(d, "loops", cz_juint(ap->loops));
	cz_jset(d, "repeats", cz_juint(ap->repeats));
	cz_jset(d, "order", cz_jstr(ap->round_robin ? "round-robin" : "random"));
	cz_jset(d, "seed", cz_juint(ap->seed));
	cz_jset(d, "unit", cz_jstr("GB/s (2^30 bytes/s)"));
	if (dev)
		cz_jset(d, "device", zb_aligndev_json(dev));
	arr = cz_jset(d, "offsets", cz_jarr());
	for (i = 0; i < ap->noffsets; i++) {
		const struct align_point *p = &pts[i];

		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "offset", cz_juint(p->offset));
		if (dev)
			cz_jset(o, "placed_offset", json_integer(p->reported));
		else
			cz_jset(o, "point_address", json_sprintf("%#" PRIxPTR, p->addr));
		json_samples(o, dev ? "e2e_gbps" : "gbps", p->gbps, p->n);
		if (dev) {
			json_samples(o, "dev_gbps", p->dev_gbps, p->n);
			json_samples(o, "dev_ns_per_chunk", p->dev_ns, p->n);
		}
	}
	cz_json_dump(stdout, d, CZ_JSON_PRETTY);	/* a failed write: cz_stdout_flush() */
	json_decref(d);
	cz_stdout_flush();
}

/* Best vs worst (by median) of one class with the CI verdict; best/worst returned for the plot. */
static void verdict(FILE *f, const char *label, const struct align_params *ap,
		    const struct align_point *pts, enum align_class c)
{
	size_t i, best = 0, worst = 0;
	const struct cz_summary *b, *w;

	for (i = 0; i < ap->noffsets; i++) {
		if (summary_of(&pts[i], c)->median > summary_of(&pts[best], c)->median)
			best = i;
		if (summary_of(&pts[i], c)->median < summary_of(&pts[worst], c)->median)
			worst = i;
	}
	b = summary_of(&pts[best], c);
	w = summary_of(&pts[worst], c);
	fprintf(f, "# %sbest:  offset %u: median %.3f GB/s, 95%% CI of the mean [%.3f, %.3f]\n", label,
		pts[best].offset, b->median, b->ci_lo, b->ci_hi);
	fprintf(f, "# %sworst: offset %u: median %.3f GB/s, 95%% CI of the mean [%.3f, %.3f]\n", label,
		pts[worst].offset, w->median, w->ci_lo, w->ci_hi);
	fprintf(f, "# %seffect: worst vs best %+.2f%% (medians); 95%% CIs %s\n", label,
		(w->median - b->median) / b->median * 100.0,
		cz_ci_disjoint(b, w) ? "do not overlap: significant" : "overlap: not significant");
}

/* --compare A,B: B against A in one class. */
static void compare(FILE *f, const char *label, const struct align_params *ap,
		    const struct align_point *pts, enum align_class c)
{
	const struct cz_summary *a = NULL, *b = NULL;
	size_t i;

	for (i = 0; i < ap->noffsets; i++) {
		if (pts[i].offset == (unsigned)ap->cmp[0])
			a = summary_of(&pts[i], c);
		if (pts[i].offset == (unsigned)ap->cmp[1])
			b = summary_of(&pts[i], c);
	}
	if (!a || !b)
		return;
	fprintf(f, "# %scompare: offset %d vs %d: %+.2f%% (medians %.3f vs %.3f GB/s); 95%% CIs %s\n",
		label, ap->cmp[1], ap->cmp[0], (b->median - a->median) / a->median * 100.0, b->median,
		a->median, cz_ci_disjoint(a, b) ? "do not overlap: significant" : "overlap: not significant");
}

static void print_verdicts(const struct align_params *ap, const struct align_point *pts, bool dev)
{
	FILE *note = ap->csv || ap->json ? stderr : stdout;

	if (!dev) {
		verdict(note, "", ap, pts, AC_PROCESS);
		if (ap->cmp[0] >= 0)
			compare(note, "", ap, pts, AC_PROCESS);
		return;
	}
	verdict(note, "in-device ", ap, pts, AC_DEVICE);
	verdict(note, "end-to-end ", ap, pts, AC_E2E);
	if (ap->cmp[0] >= 0) {
		compare(note, "in-device ", ap, pts, AC_DEVICE);
		compare(note, "end-to-end ", ap, pts, AC_E2E);
	}
}

static int plot(const struct align_params *ap, const struct align_point *pts, bool dev)
{
	double *med = calloc(ap->noffsets * 3, sizeof(*med)), *min, *max;
	unsigned *offs = calloc(ap->noffsets, sizeof(*offs));
	char title[256];
	size_t i;
	int ret;

	if (!med || !offs) {
		free(med);
		free(offs);
		return -ENOMEM;
	}
	min = med + ap->noffsets;
	max = min + ap->noffsets;
	/* in a device the routine's own figure is the one an alignment effect shows in */
	for (i = 0; i < ap->noffsets; i++) {
		const struct cz_summary *s = summary_of(&pts[i], dev ? AC_DEVICE : AC_PROCESS);

		offs[i] = pts[i].offset;
		med[i] = s->median;
		min[i] = s->min;
		max[i] = s->max;
	}
	snprintf(title, sizeof(title), "%s: %s at offset (mod 4096), %s in %s calls%s", ap->r->name,
		 point_name(ap), ap->size_str, ap->chunk_str,
		 dev ? ", in device (routine time)" : "");
	ret = zb_plot(ap->plot, title, offs, med, min, max, ap->noffsets);
	free(med);
	free(offs);
	return ret;
}

/* ---- options ---------------------------------------------------------------------------- */

enum {
	OPT_OFFSETS = 256, OPT_OF, OPT_ORDER, OPT_SEED, OPT_CSV, OPT_PLOT, OPT_CPU, OPT_JSON,
	OPT_DEVICE, OPT_READER, OPT_CUSEZERO, OPT_COMPARE,
};

static const struct option align_options[] = {
	{ "function", required_argument, NULL, 'f' },
	{ "offsets",  required_argument, NULL, OPT_OFFSETS },
	{ "of",       required_argument, NULL, OPT_OF },
	{ "size",     required_argument, NULL, 's' },
	{ "chunk",    required_argument, NULL, 'k' },
	{ "nr_loops", required_argument, NULL, 'l' },
	{ "repeats",  required_argument, NULL, 'r' },
	{ "order",    required_argument, NULL, OPT_ORDER },
	{ "seed",     required_argument, NULL, OPT_SEED },
	{ "csv",      no_argument,       NULL, OPT_CSV },
	{ "json",     no_argument,       NULL, OPT_JSON },
	{ "plot",     required_argument, NULL, OPT_PLOT },
	{ "cpu",      required_argument, NULL, OPT_CPU },
	{ "compare",  required_argument, NULL, OPT_COMPARE },
	{ "device",   required_argument, NULL, OPT_DEVICE },
	{ "reader",   required_argument, NULL, OPT_READER },
	{ "cusezero", required_argument, NULL, OPT_CUSEZERO },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* perf's "-f help" shape; only routines zero_place() can move are sweepable. */
static void list_relocatable(void)
{
	const char *why;
	size_t i;

	printf("Available functions:\n");
	for (i = 0; i < zero_nroutines; i++) {
		const struct zero_routine *r = &zero_routines[i];

		if (r->code_start && zero_usable(r, &why))
			printf("\t%s ... %s\n", r->name, r->desc);
	}
	for (i = 0; i < zero_nroutines; i++) {
		const struct zero_routine *r = &zero_routines[i];

		if (!r->code_start)
			printf("# not relocatable: %s (%s)\n", r->name,
			       r->no_reloc_why ? r->no_reloc_why : "no code bounds");
		else if (!zero_usable(r, &why))
			printf("# not usable here: %s (%s)\n", r->name, why);
	}
}

static int bad(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "zbench align: invalid %s '%s'%s%s\n", opt, val, what ? ": " : "", what ? what : "");
	return 1;
}

/* The options as given, checked by align_validate(). */
struct align_args {
	const char *fn, *offsets, *of, *loops, *repeats, *order, *seed, *cpu, *compare;
};

/* --compare names two routines (not two offsets): it has a letter. */
static bool compare_routines(const char *spec)
{
	for (; *spec; spec++)
		if (isalpha((unsigned char)*spec))
			return true;
	return false;
}

/* getopt: 0, or the exit code (help: 0 after printing it, as align_usage's callers expect). */
static int align_parse(int argc, char **argv, struct align_params *ap, struct align_args *a, bool *done)
{
	int c;

	*done = false;
	while ((c = getopt_long(argc, argv, "f:s:k:l:r:h", align_options, NULL)) != -1) {
		switch (c) {
		case 'f': a->fn = optarg; break;
		case 's': ap->size_str = optarg; break;
		case 'k': ap->chunk_str = optarg; break;
		case 'l': a->loops = optarg; break;
		case 'r': a->repeats = optarg; break;
		case OPT_OFFSETS: a->offsets = optarg; break;
		case OPT_OF: a->of = optarg; break;
		case OPT_ORDER: a->order = optarg; break;
		case OPT_SEED: a->seed = optarg; break;
		case OPT_CSV: ap->csv = true; break;
		case OPT_JSON: ap->json = true; break;
		case OPT_PLOT: ap->plot = optarg; break;
		case OPT_CPU: a->cpu = optarg; break;
		case OPT_COMPARE: a->compare = optarg; break;
		case OPT_DEVICE: ap->device = optarg; break;
		case OPT_READER: ap->reader = optarg; break;
		case OPT_CUSEZERO: ap->cusezero = optarg; break;
		case 'h':
			align_usage(stdout);
			*done = true;
			return 0;
		default:
			align_usage(stderr);
			return 129;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "zbench align: unexpected argument '%s'\n", argv[optind]);
		return 129;
	}
	if (!a->fn && a->compare && compare_routines(a->compare)) {
		static char first[64];

		/* --compare A,B of routines: A is the routine the options are checked with */
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(a->compare, ","), a->compare);
		a->fn = first;
	}
	if (!a->fn) {
		fprintf(stderr, "zbench align: -f ROUTINE is required (zbench memset -f help lists them)\n");
		return 129;
	}
	return 0;
}

/* -f and --of: the routine must be usable and relocatable.  0 or 1 after one line. */
static int validate_routine(struct align_params *ap, const struct align_args *a)
{
	const char *why;
	char msg[512];

	ap->r = zb_resolve(a->fn);
	if (!ap->r)
		return bad("function", a->fn, "no such routine (zbench memset -f help lists them)");
	if (!zero_usable(ap->r, &why))
		return bad("function", a->fn, why);
	if (!ap->r->code_start) {
		snprintf(msg, sizeof(msg), "not relocatable: %s",
			 ap->r->no_reloc_why ? ap->r->no_reloc_why : "no code bounds");
		return bad("function", a->fn, msg);
	}
	if (!a->of)
		ap->point = ap->r->loop_head ? ZERO_POINT_LOOP : ZERO_POINT_ENTRY;
	else if (!strcmp(a->of, "entry"))
		ap->point = ZERO_POINT_ENTRY;
	else if (!strcmp(a->of, "loop") && ap->r->loop_head)
		ap->point = ZERO_POINT_LOOP;
	else
		return bad("--of", a->of, !strcmp(a->of, "loop") ? "routine has no loop head" : "entry or loop");
	return 0;
}

/* --compare A,B of routines: both usable, relocatable, with the point placed.  0 or 1. */
static int validate_cmp_routines(struct align_params *ap, const char *spec)
{
	const char *comma = strchr(spec, ',');
	char name[2][64];
	unsigned k;

	if (!comma || strchr(comma + 1, ',') || comma == spec || !comma[1] ||
	    (size_t)(comma - spec) >= sizeof(name[0]) || strlen(comma + 1) >= sizeof(name[1]))
		return bad("--compare", spec, "want A,B: two offsets or two routines");
	snprintf(name[0], sizeof(name[0]), "%.*s", (int)(comma - spec), spec);
	snprintf(name[1], sizeof(name[1]), "%s", comma + 1);
	for (k = 0; k < 2; k++) {
		const struct zero_routine *r = zb_resolve(name[k]);
		const char *why;

		if (!r)
			return bad("--compare", name[k], "no such routine (zbench memset -f help lists them)");
		if (!zero_usable(r, &why))
			return bad("--compare", name[k], why);
		if (!r->code_start)
			return bad("--compare", name[k], r->no_reloc_why ? r->no_reloc_why : "not relocatable");
		if (ap->point == ZERO_POINT_LOOP && !r->loop_head)
			return bad("--compare", name[k], "no loop head: give --of entry");
		ap->cmp_r[k] = r;
	}
	if (ap->cmp_r[0] == ap->cmp_r[1])
		return bad("--compare", spec, "the same routine twice");
	if (ap->json)
		return bad("--json", "", "not with --compare of two routines (--csv has every figure)");
	if (ap->r != ap->cmp_r[0] && ap->r != ap->cmp_r[1])
		return bad("--compare", spec, "-f names a third routine: leave -f out");
	return 0;
}

/* --offsets and --compare.  0 or 1 after one line. */
static int validate_offsets(struct align_params *ap, const struct align_args *a)
{
	const char *spec = a->offsets ? a->offsets : ALIGN_DEFAULT_OFFSETS;
	unsigned x, y;
	char msg[128];
	int c = zero_place_parse_set(spec, ap->offsets, &ap->noffsets);

	if (c == -EDOM) {
		snprintf(msg, sizeof(msg), "instructions start at multiples of %u on this architecture",
			 ALIGN_INSN);
		return bad("--offsets", spec, msg);
	}
	if (c)
		return bad("--offsets", spec, "want 0..4095 as A, A..B or A..B:STEP, comma-separated");
	ap->cmp[0] = ap->cmp[1] = -1;
	if (!a->compare)
		return 0;
	if (compare_routines(a->compare))
		return validate_cmp_routines(ap, a->compare);
	if (sscanf(a->compare, "%u,%u%c", &x, &y, msg) != 2 || x > ZERO_PLACE_MAX_OFFSET ||
	    y > ZERO_PLACE_MAX_OFFSET)
		return bad("--compare", a->compare, "want A,B: two of the swept offsets");
	for (c = 0; c < 2; c++) {
		size_t i;

		for (i = 0; i < ap->noffsets && ap->offsets[i] != (c ? y : x); i++)
			;
		if (i == ap->noffsets)
			return bad("--compare", a->compare, "both offsets must be among --offsets");
	}
	ap->cmp[0] = (int)x;
	ap->cmp[1] = (int)y;
	return 0;
}

/* Sizes, counts, order, seed, outputs, CPU.  0 or 1 after one line. */
static int validate_rest(struct align_params *ap, const struct align_args *a)
{
	uint64_t v;

	if (cz_parse_size(ap->size_str, &ap->size) || !ap->size || ap->size > (1ULL << 40))
		return bad("--size", ap->size_str, NULL);
	if (ap->device && ap->size > (1u << 20))
		return bad("--size", ap->size_str, "a device read is at most 1MB here");
	if (cz_parse_size(ap->chunk_str, &ap->chunk) || ap->chunk > ap->size)
		return bad("--chunk", ap->chunk_str, "0..size");
	if (!ap->chunk)
		ap->chunk = ap->size;
	ap->loops = ap->device ? ALIGN_DEV_DEFAULT_LOOPS : ALIGN_DEFAULT_LOOPS;
	ap->repeats = ap->device ? ALIGN_DEV_DEFAULT_REPEATS : ALIGN_DEFAULT_REPEATS;
	if (a->loops && cz_parse_u64(a->loops, 1, UINT32_MAX, &v) == 0)
		ap->loops = (unsigned)v;
	else if (a->loops)
		return bad("--nr_loops", a->loops, NULL);
	if (a->repeats && cz_parse_u64(a->repeats, 1, 100000, &v) == 0)
		ap->repeats = (unsigned)v;
	else if (a->repeats)
		return bad("--repeats", a->repeats, "1..100000");
	if (a->order && (!strcmp(a->order, "rr") || !strcmp(a->order, "round-robin")))
		ap->round_robin = true;
	else if (a->order && strcmp(a->order, "random"))
		return bad("--order", a->order, "random or rr");
	if (a->seed && cz_parse_u64(a->seed, 0, UINT64_MAX, &ap->seed))
		return bad("--seed", a->seed, NULL);
	if (ap->csv && ap->json)
		return bad("--json", "", "--csv and --json are two formats of the same output; pick one");
	if (ap->reader && !ap->device)
		return bad("--reader", ap->reader, "reads a device: give --device too");
	if (ap->plot && !czr_plot_kind(ap->plot))
		return bad("--plot", ap->plot, "the file name must end in .svg or .png");
	if (ap->plot && !czr_have_gnuplot()) {
		fprintf(stderr, "zbench align: --plot needs gnuplot, which is not in PATH "
			"(Debian: apt-get install gnuplot-nox)\n");
		return 1;
	}
	ap->cpu = -1;
	if (a->cpu && cz_parse_u64(a->cpu, 0, 1023, &v))
		return bad("--cpu", a->cpu, NULL);
	if (a->cpu)
		ap->cpu = (int)v;
	return 0;
}

/* ---- the sweep ------------------------------------------------------------------------------ */

static int sweep_point(const struct align_params *ap, struct align_dev *dev, unsigned rep,
		       size_t i, size_t idx, char *buf, void *ctx)
{
	struct align_point *pts = ctx;

	(void)rep;
	(void)i;
	return dev ? zb_aligndev_measure(dev, ap, &pts[idx]) : zb_align_measure(ap, &pts[idx], buf);
}

static int sweep(const struct align_params *ap, struct align_point *pts, struct align_dev *dev)
{
	return zb_align_sweep(ap, dev, sweep_point, pts);
}

static void summarize(const struct align_params *ap, struct align_point *pts)
{
	size_t i;

	for (i = 0; i < ap->noffsets; i++) {
		cz_summarize(pts[i].gbps, pts[i].n, &pts[i].s);
		cz_summarize(pts[i].dev_gbps, pts[i].n, &pts[i].ds);
		cz_summarize(pts[i].dev_ns, pts[i].n, &pts[i].dns);
	}
}

static int report(const struct align_params *ap, struct align_point *pts, const struct align_dev *dev)
{
	int c;

	summarize(ap, pts);
	if (ap->json)
		print_json(ap, pts, dev);
	else if (ap->csv)
		print_csv(ap, pts, dev != NULL);
	else
		print_table(ap, pts, dev);
	if (ap->csv && dev)
		zb_aligndev_describe(dev, ap, stderr);
	print_verdicts(ap, pts, dev != NULL);
	if (!ap->plot)
		return 0;
	c = plot(ap, pts, dev != NULL);
	if (c)
		fprintf(stderr, "zbench align: --plot %s: gnuplot failed (%s)\n", ap->plot, strerror(-c));
	return c ? 1 : 0;
}

int zb_align_main(int argc, char **argv)
{
	static struct align_params ap;
	struct align_args a = { 0 };
	struct align_point *pts;
	struct align_dev *dev = NULL;
	bool done;
	int ret;

	memset(&ap, 0, sizeof(ap));
	ap.size_str = "100KB";
	ap.chunk_str = "4KB";
	ap.seed = 1;
	ret = align_parse(argc, argv, &ap, &a, &done);
	if (ret || done)
		return ret;
	if (!strcmp(a.fn, "help") || !strcmp(a.fn, "h")) {
		list_relocatable();
		return 1;	/* as perf's -f help */
	}
	if (validate_routine(&ap, &a) || validate_offsets(&ap, &a) || validate_rest(&ap, &a))
		return 1;
	if (ap.device && zb_aligndev_open(&ap, &dev)) {
		zb_aligndev_close(dev);	/* a half-started daemon is stopped and unmounted too */
		return 1;
	}
	if (!ap.device && ap.cpu >= 0 && (ret = cz_pin_cpu(ap.cpu))) {
		fprintf(stderr, "zbench align: --cpu %d: %s\n", ap.cpu, strerror(-ret));
		return 1;
	}
	if (ap.cmp_r[1]) {
		/* --compare A,B of two routines: their own sweep and report (aligncmp.c) */
		pts = NULL;
		ret = zb_aligncmp_run(&ap, dev);
	} else {
		pts = zb_align_points_new(&ap);
		ret = sweep(&ap, pts, dev) ? 1 : report(&ap, pts, dev);
	}
	if (zb_align_stop) {
		fprintf(stderr, "zbench align: interrupted%s\n",
			dev ? " (the device is left as it was found: settings back, or our daemon gone)" : "");
		ret = 130;
	}
	if (dev)
		zb_aligndev_close(dev);
	zb_align_points_free(pts, ap.noffsets);
	return ret;
}
