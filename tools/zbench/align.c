/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align: how fast is one routine when its code (main loop or entry)
 * sits at byte offset K of a page, for each K?  No existing tool answers
 * this: nanoBench shifts a snippet, GCC shifts whole functions at build time.
 *
 *   zbench align -f rep_stosb --offsets 0..63
 *   zbench align -f clear_user_arm64 --offsets 0,4,8,60 --of loop --plot a.svg
 *
 * For every (repeat, offset) the routine is placed afresh with zero_place()
 * (a new page each time, so a physical-address accident is not mistaken for
 * an offset effect), the placement is verified (point address % 4096 ==
 * offset), the copy is checked to clear the buffer, then timed.  Offsets are
 * interleaved: each repeat visits every offset once, in a shuffled order
 * (or round-robin with a rotating start), never all repeats of one offset in
 * a row, so machine drift spreads over all offsets (REFERENCE.md section 3).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbench.h"
#include "stats.h"
#include "util.h"

#define ALIGN_MAX_OFFSETS (ZERO_PLACE_MAX_OFFSET + 1)

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
 * for every relocatable x86-64 routine here (the budget is 10 s).
 */
#define ALIGN_DEFAULT_LOOPS   40
#define ALIGN_DEFAULT_REPEATS 30

struct align_params {
	const struct zero_routine *r;
	enum zero_point point;
	unsigned offsets[ALIGN_MAX_OFFSETS];
	size_t noffsets;
	uint64_t size, chunk;
	unsigned loops, repeats;
	bool round_robin, csv;
	uint64_t seed;
	const char *plot, *size_str, *chunk_str;
};

static void align_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench align -f ROUTINE [options]\n\n"
		"    -f, --function <name>   routine to sweep (\"help\" lists the relocatable ones)\n"
		"        --offsets <list>    offsets in bytes, e.g. 0..127, 0,8,60 or 0..4095:64 (default %s;\n"
		"                            ranges step by %u, the instruction alignment)\n"
		"        --of <entry|loop>   which point is placed at the offset (default: loop, else entry)\n"
		"    -s, --size <100KB>      bytes cleared per pass\n"
		"    -k, --chunk <4KB>       bytes per call, as read_zero's clear_user per page (0 = size)\n"
		"    -l, --nr_loops <%d>     passes per sample\n"
		"    -r, --repeats <%d>      samples per offset, interleaved across offsets\n"
		"        --order <random|rr> visiting order within a repeat (default random)\n"
		"        --seed <n>          seed of the random order (default 1)\n"
		"        --csv               print CSV rows instead of the table\n"
		"        --plot <file>       draw FILE.svg or FILE.png with gnuplot\n"
		"        --cpu <n>           pin to CPU n while measuring\n\n"
		" GB/s = 2^30 bytes per second, as perf bench.\n",
		ALIGN_DEFAULT_OFFSETS, ALIGN_INSN, ALIGN_DEFAULT_LOOPS, ALIGN_DEFAULT_REPEATS);
}

/*
 * "0..127", "0,8,60", "0..4095:64", or a mix; sorted, duplicates dropped.
 * A range without a step goes by ALIGN_INSN; an offset no instruction can
 * start at is refused (-EDOM).
 */
static int parse_offsets(const char *spec, unsigned *out, size_t *n)
{
	static bool seen[ALIGN_MAX_OFFSETS];
	char *copy = strdup(spec), *item, *save = NULL, *dots, *colon;
	uint64_t a, b, step;
	size_t i;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	memset(seen, 0, sizeof(seen));
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		step = ALIGN_INSN;
		colon = strchr(item, ':');
		if (colon) {
			*colon = '\0';
			if (cz_parse_u64(colon + 1, 1, ZERO_PLACE_MAX_OFFSET + 1, &step))
				ret = -EINVAL;
		}
		dots = strstr(item, "..");
		if (dots) {
			*dots = '\0';
			if (cz_parse_u64(item, 0, ZERO_PLACE_MAX_OFFSET, &a) ||
			    cz_parse_u64(dots + 2, a, ZERO_PLACE_MAX_OFFSET, &b))
				ret = -EINVAL;
			else if (!colon)
				a = (a + ALIGN_INSN - 1) / ALIGN_INSN * ALIGN_INSN;
		} else if (cz_parse_u64(item, 0, ZERO_PLACE_MAX_OFFSET, &a) || colon) {
			ret = -EINVAL;
		} else {
			b = a;
		}
		for (; !ret && a <= b; a += step) {
			if (a % ALIGN_INSN)
				ret = -EDOM;
			else
				seen[a] = true;
		}
	}
	free(copy);
	*n = 0;
	for (i = 0; i < ALIGN_MAX_OFFSETS; i++)
		if (seen[i])
			out[(*n)++] = (unsigned)i;
	return ret ? ret : *n ? 0 : -EINVAL;
}

static size_t clear_chunked(zero_fn fn, char *p, size_t size, size_t chunk)
{
	size_t off, left = 0;

	for (off = 0; off < size; off += chunk)
		left |= fn(p + off, size - off < chunk ? size - off : chunk);
	return left;
}

/* xorshift64*: a reproducible shuffle independent of libc's rand(). */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void visiting_order(const struct align_params *ap, unsigned rep, uint64_t *rng, size_t *order)
{
	size_t i, j, tmp, n = ap->noffsets;

	for (i = 0; i < n; i++)
		order[i] = ap->round_robin ? (i + rep) % n : i;
	if (ap->round_robin)
		return;
	for (i = n - 1; i > 0; i--) {
		j = (size_t)(next_random(rng) % (i + 1));
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
}

/* One sample: place, verify, check it clears, warm, time.  GB/s or -errno. */
static int measure_once(const struct align_params *ap, unsigned offset, char *buf,
			double *gbps, uintptr_t *addr)
{
	struct zero_placed pl;
	uintptr_t pt;
	uint64_t t0, dt;
	size_t i, left = 0;
	int ret;

	ret = zero_place(ap->r, ap->point, offset, &pl);
	if (ret) {
		fprintf(stderr, "zbench align: cannot place %s at offset %u: %s%s%s\n", ap->r->name,
			offset, zero_place_strerror(ret), ret == -ENOTSUP && ap->r->no_reloc_why ? ": " : "",
			ret == -ENOTSUP && ap->r->no_reloc_why ? ap->r->no_reloc_why : "");
		return ret;
	}
	pt = ap->point == ZERO_POINT_LOOP ? pl.loop : pl.entry;
	*addr = pt;
	if ((pt & ZERO_PLACE_MAX_OFFSET) != offset) {
		fprintf(stderr, "zbench align: placement check: %s point at %#" PRIxPTR
			" = offset %" PRIuPTR ", wanted %u\n", ap->r->name, pt,
			pt & ZERO_PLACE_MAX_OFFSET, offset);
		ret = -EFAULT;
		goto out;
	}
	/* The untimed warm-up pass also proves the placed copy clears every byte. */
	memset(buf, 0xff, ap->size);
	left = clear_chunked(pl.fn, buf, ap->size, ap->chunk);
	for (i = 0; i < ap->size && !left; i++) {
		if (buf[i]) {
			fprintf(stderr, "zbench align: %s at offset %u: byte %zu = %#x after clearing\n",
				ap->r->name, offset, i, (unsigned char)buf[i]);
			ret = -EIO;
			goto out;
		}
	}
	t0 = zb_clock(false);
	for (i = 0; i < ap->loops; i++)
		left |= clear_chunked(pl.fn, buf, ap->size, ap->chunk);
	dt = zb_clock(false) - t0;
	if (left) {
		fprintf(stderr, "zbench align: %s at offset %u left bytes not cleared\n",
			ap->r->name, offset);
		ret = -EIO;
		goto out;
	}
	*gbps = (double)ap->size * ap->loops / ((double)(dt ? dt : 1) / 1e9) / ZB_GB;
out:
	zero_unplace(&pl);
	return ret;
}

static void print_results(const struct align_params *ap, const struct cz_summary *s,
			  const uintptr_t *addr)
{
	size_t i, best = 0, worst = 0;
	FILE *note = ap->csv ? stderr : stdout;
	double effect;

	for (i = 0; i < ap->noffsets; i++) {
		if (s[i].median > s[best].median)
			best = i;
		if (s[i].median < s[worst].median)
			worst = i;
	}
	if (ap->csv) {
		printf("offset,point_address,median_gbps,min_gbps,max_gbps,mean_gbps,cv,ci_lo_gbps,ci_hi_gbps,n\n");
		for (i = 0; i < ap->noffsets; i++)
			printf("%u,%#" PRIxPTR ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%zu\n", ap->offsets[i],
			       addr[i], s[i].median, s[i].min, s[i].max, s[i].mean, s[i].cv,
			       s[i].ci_lo, s[i].ci_hi, s[i].n);
	} else {
		printf("# zbench align: routine '%s' (%s)\n", ap->r->name, ap->r->desc);
		printf("# %s placed at each offset (address %% 4096, verified at every placement); "
		       "%s in %s calls, %u passes per sample, %u samples per offset, order %s\n",
		       ap->point == ZERO_POINT_LOOP ? "loop head" : "entry", ap->size_str,
		       ap->chunk_str, ap->loops, ap->repeats, ap->round_robin ? "round-robin" : "random");
		printf("# GB/s = 2^30 bytes/s\n");
		printf("%6s  %-18s %10s %10s %10s %7s\n", "offset", "point_address", "median",
		       "min", "max", "CV%");
		for (i = 0; i < ap->noffsets; i++)
			printf("%6u  %#-18" PRIxPTR " %10.3f %10.3f %10.3f %7.2f\n", ap->offsets[i],
			       addr[i], s[i].median, s[i].min, s[i].max, s[i].cv * 100.0);
	}
	effect = (s[worst].median - s[best].median) / s[best].median * 100.0;
	fprintf(note, "# best:  offset %u: median %.3f GB/s, 95%% CI of the mean [%.3f, %.3f]\n",
		ap->offsets[best], s[best].median, s[best].ci_lo, s[best].ci_hi);
	fprintf(note, "# worst: offset %u: median %.3f GB/s, 95%% CI of the mean [%.3f, %.3f]\n",
		ap->offsets[worst], s[worst].median, s[worst].ci_lo, s[worst].ci_hi);
	fprintf(note, "# effect: worst vs best %+.2f%% (medians); 95%% CIs %s\n", effect,
		cz_ci_disjoint(&s[best], &s[worst]) ? "do not overlap: significant"
						     : "overlap: not significant");
}

enum { OPT_OFFSETS = 256, OPT_OF, OPT_ORDER, OPT_SEED, OPT_CSV, OPT_PLOT, OPT_CPU };

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
	{ "plot",     required_argument, NULL, OPT_PLOT },
	{ "cpu",      required_argument, NULL, OPT_CPU },
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

int zb_align_main(int argc, char **argv)
{
	static struct align_params ap;
	const char *fn_name = NULL, *offsets = ALIGN_DEFAULT_OFFSETS, *of = NULL, *why;
	const char *loops_str = NULL, *repeats_str = NULL, *order = "random", *seed_str = NULL;
	const char *cpu_str = NULL;
	struct cz_summary *sum = NULL;
	double *samples = NULL, *median = NULL, *min = NULL, *max = NULL;
	uintptr_t *addr = NULL;
	size_t *visit = NULL, i, k;
	struct zb_buf buf = { 0 };
	uint64_t v, rng;
	unsigned rep;
	char msg[512], title[256];
	int c, ret = 1;

	memset(&ap, 0, sizeof(ap));
	ap.size_str = "100KB";
	ap.chunk_str = "4KB";
	ap.loops = ALIGN_DEFAULT_LOOPS;
	ap.repeats = ALIGN_DEFAULT_REPEATS;
	ap.seed = 1;
	while ((c = getopt_long(argc, argv, "f:s:k:l:r:h", align_options, NULL)) != -1) {
		switch (c) {
		case 'f': fn_name = optarg; break;
		case 's': ap.size_str = optarg; break;
		case 'k': ap.chunk_str = optarg; break;
		case 'l': loops_str = optarg; break;
		case 'r': repeats_str = optarg; break;
		case OPT_OFFSETS: offsets = optarg; break;
		case OPT_OF: of = optarg; break;
		case OPT_ORDER: order = optarg; break;
		case OPT_SEED: seed_str = optarg; break;
		case OPT_CSV: ap.csv = true; break;
		case OPT_PLOT: ap.plot = optarg; break;
		case OPT_CPU: cpu_str = optarg; break;
		case 'h':
			align_usage(stdout);
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
	if (!fn_name) {
		fprintf(stderr, "zbench align: -f ROUTINE is required (zbench memset -f help lists them)\n");
		return 129;
	}
	if (!strcmp(fn_name, "help") || !strcmp(fn_name, "h")) {
		list_relocatable();
		return 1;	/* as perf's -f help */
	}
	ap.r = zb_resolve(fn_name);
	if (!ap.r)
		return bad("function", fn_name, "no such routine (zbench memset -f help lists them)");
	if (!zero_usable(ap.r, &why))
		return bad("function", fn_name, why);
	if (!ap.r->code_start) {
		snprintf(msg, sizeof(msg), "not relocatable: %s",
			 ap.r->no_reloc_why ? ap.r->no_reloc_why : "no code bounds");
		return bad("function", fn_name, msg);
	}
	if (!of)
		ap.point = ap.r->loop_head ? ZERO_POINT_LOOP : ZERO_POINT_ENTRY;
	else if (!strcmp(of, "entry"))
		ap.point = ZERO_POINT_ENTRY;
	else if (!strcmp(of, "loop") && ap.r->loop_head)
		ap.point = ZERO_POINT_LOOP;
	else
		return bad("--of", of, !strcmp(of, "loop") ? "routine has no loop head" : "entry or loop");
	c = parse_offsets(offsets, ap.offsets, &ap.noffsets);
	if (c == -EDOM) {
		snprintf(msg, sizeof(msg), "instructions start at multiples of %u on this architecture",
			 ALIGN_INSN);
		return bad("--offsets", offsets, msg);
	}
	if (c)
		return bad("--offsets", offsets, "want 0..4095 as A, A..B or A..B:STEP, comma-separated");
	if (cz_parse_size(ap.size_str, &ap.size) || !ap.size || ap.size > (1ULL << 40))
		return bad("--size", ap.size_str, NULL);
	if (cz_parse_size(ap.chunk_str, &ap.chunk) || ap.chunk > ap.size)
		return bad("--chunk", ap.chunk_str, "0..size");
	if (!ap.chunk)
		ap.chunk = ap.size;
	if (loops_str && cz_parse_u64(loops_str, 1, UINT32_MAX, &v) == 0)
		ap.loops = (unsigned)v;
	else if (loops_str)
		return bad("--nr_loops", loops_str, NULL);
	if (repeats_str && cz_parse_u64(repeats_str, 1, 100000, &v) == 0)
		ap.repeats = (unsigned)v;
	else if (repeats_str)
		return bad("--repeats", repeats_str, "1..100000");
	if (!strcmp(order, "rr") || !strcmp(order, "round-robin"))
		ap.round_robin = true;
	else if (strcmp(order, "random"))
		return bad("--order", order, "random or rr");
	if (seed_str && cz_parse_u64(seed_str, 0, UINT64_MAX, &ap.seed))
		return bad("--seed", seed_str, NULL);
	if (ap.plot && !zb_plot_kind(ap.plot))
		return bad("--plot", ap.plot, "the file name must end in .svg or .png");
	if (ap.plot && !zb_have_gnuplot()) {
		fprintf(stderr, "zbench align: --plot needs gnuplot, which is not in PATH "
			"(Debian: apt-get install gnuplot-nox)\n");
		return 1;
	}

	if (cpu_str) {
		if (cz_parse_u64(cpu_str, 0, 1023, &v))
			return bad("--cpu", cpu_str, NULL);
		c = cz_pin_cpu((int)v);
		if (c) {
			fprintf(stderr, "zbench align: --cpu %s: %s\n", cpu_str, strerror(-c));
			return 1;
		}
	}

	samples = calloc(ap.noffsets * ap.repeats, sizeof(*samples));
	sum = calloc(ap.noffsets, sizeof(*sum));
	addr = calloc(ap.noffsets, sizeof(*addr));
	visit = calloc(ap.noffsets, sizeof(*visit));
	median = calloc(ap.noffsets, sizeof(*median));
	min = calloc(ap.noffsets, sizeof(*min));
	max = calloc(ap.noffsets, sizeof(*max));
	if (!samples || !sum || !addr || !visit || !median || !min || !max) {
		fprintf(stderr, "zbench align: out of memory\n");
		goto out;
	}
	if (zb_buf_alloc(&buf, ap.size, ZB_HUGE_NONE, true, msg, sizeof(msg))) {
		fprintf(stderr, "zbench align: %s\n", msg);
		goto out;
	}

	rng = ap.seed ? ap.seed : 0x9e3779b97f4a7c15ULL;
	for (rep = 0; rep < ap.repeats; rep++) {
		visiting_order(&ap, rep, &rng, visit);
		for (i = 0; i < ap.noffsets; i++) {
			k = visit[i];
			if (measure_once(&ap, ap.offsets[k], buf.p, &samples[k * ap.repeats + rep], &addr[k]))
				goto out;
		}
	}
	for (k = 0; k < ap.noffsets; k++) {
		cz_summarize(&samples[k * ap.repeats], ap.repeats, &sum[k]);
		median[k] = sum[k].median;
		min[k] = sum[k].min;
		max[k] = sum[k].max;
	}
	print_results(&ap, sum, addr);
	ret = 0;
	if (ap.plot) {
		snprintf(title, sizeof(title), "%s: %s at offset (mod 4096), %s in %s calls",
			 ap.r->name, ap.point == ZERO_POINT_LOOP ? "loop head" : "entry",
			 ap.size_str, ap.chunk_str);
		c = zb_plot(ap.plot, title, ap.offsets, median, min, max, ap.noffsets);
		if (c) {
			fprintf(stderr, "zbench align: --plot %s: gnuplot failed (%s)\n", ap.plot,
				strerror(-c));
			ret = 1;
		}
	}
out:
	zb_buf_free(&buf);
	free(samples);
	free(sum);
	free(addr);
	free(visit);
	free(median);
	free(min);
	free(max);
	return ret;
}
