/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab: run A/B experiments (benchmarks x variants in S sessions of W warm-ups
 * and R repeats) and print the significance tables kernel reviewers read.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zab.h"
#include "cli.h"
#include "util.h"

/* --style for run and report: 0, or -1 after one line naming the bad value. */
static int style_option(const char *arg, enum zab_style *st)
{
	if (!zab_style_parse(arg, st))
		return 0;
	fprintf(stderr, "zab: --style '%s': expected box, grid, plain, markdown or detail\n", arg);
	return -1;
}

static void usage(FILE *f)
{
	fputs(
"usage: zab run [OPTIONS] [EXPERIMENT_FILE]\n"
"       zab report [--style S] [--detail] [--json FILE] [--sut CLASS] FILE.json...\n"
"\n"
"An experiment is benchmarks (commands printing one number) x variants, run as\n"
"S sessions of W warm-ups (discarded) and R measured repeats.  Each session starts\n"
"fresh: new processes, and a new cusezero daemon per device variant.\n"
"\n"
"run options:\n"
"  -e, --experiment FILE  experiment file (INI, see experiments/README.md)\n"
"  -b, --bench NAME=CMD   a benchmark; CMD prints one number (e.g. --format simple)\n"
"      --unit UNIT        unit of the last --bench (e.g. bytes/sec)\n"
"      --lower            for the last --bench, lower is better (default higher)\n"
"      --group NAME       the Benchmark column of the last --bench (default: CMD's program)\n"
"  -v, --variant NAME[:KEY=VALUE,...]\n"
"                         a variant; KEYs: routine= align= align-point= chunk=\n"
"                         frontend=fuse|cuse threads= cusezero-args= (any of these =\n"
"                         a device variant), env.X= or X= (UPPER_CASE: environment),\n"
"                         var.X= ({X} in commands), cmd= (replaces the command,\n"
"                         {cmd} = the benchmark's; takes the rest of the spec)\n"
"      --var NAME=VALUE   {NAME} in every command\n"
"  -S, --sessions N       sessions (default 1)\n"
"  -W, --warmups N        warm-up runs per session, discarded (default 0)\n"
"  -R, --repeats N        measured runs per session (default 1)\n"
"      --retries N        retry a failing run N times before marking the cell FAILED (default 0)\n"
"      --timeout SEC      kill a run after SEC seconds: a failed run (default 0: none)\n"
"      --order ORDER      random (default; seeded), interleave (ABAB), sequential (AABB)\n"
"      --seed N           seed of the random order (printed; replays the same order)\n"
"      --base NAME        the base variant (default: the first)\n"
"      --name TITLE       experiment title\n"
"      --sut CLASS        SUT class in headings and JSON (default: the CPU model)\n"
"      --cusezero PATH    the daemon (default: $CUSEZERO, beside zab, then $PATH)\n"
"      --dry-run          print the run order and exit\n"
"      --progress / --no-progress   progress bar on stderr (default: if a terminal)\n"
"output options (run and report):\n"
"  -s, --style STYLE      box (default), grid, plain, markdown, detail\n"
"      --detail           add the detailed view (CI, CV, median, U-test p)\n"
"  -j, --json FILE        write every raw sample and the environment ('-': stdout,\n"
"                         the table then goes to stderr)\n"
"\n"
"Experiment file (INI; experiments/README.md):\n"
"  [experiment]        name= sessions= warmups= repeats= retries= timeout=\n"
"                      order= base= var.NAME=\n"
"  [benchmark NAME]    cmd= unit= better=higher|lower group=\n"
"  [variant NAME]      routine= align= align-point= chunk= frontend= threads=\n"
"                      cusezero-args= env.NAME= var.NAME= cmd= arch=\n"
"\n"
"In commands: {dev} (device path; /dev/zero for non-device variants), {routine},\n"
"{align}, {chunk}, {variant}, {session}, and var.NAME / --var values.  Device\n"
"variants also get CUSEZERO_DEVICE; every run gets ZAB_BENCH, ZAB_VARIANT,\n"
"ZAB_SESSION, ZAB_RUN, ZAB_SEED.  The directory of zab (and in a build tree\n"
"its pread_z100k/ folder) is put first in PATH.\n"
"\n"
"Change is vs the base, oriented so that negative is worse; (R)/(I) mark a\n"
"regression/improvement whose 95% confidence intervals (Student t) do not overlap.\n"
"Exit: 0 ok, 1 a cell FAILED, 2 bad usage or input.\n"
"\n"
"example:\n"
"  zab run -b 'pread=pread_z100k --format simple -n 20000 {dev}' --unit bytes/sec \\\n"
"      -v 'contained:routine=clear_user_arm64,align=0' \\\n"
"      -v 'straddling:routine=clear_user_arm64,align=56' -S 2 -W 1 -R 3\n",
	      f);
}

struct out_opts {
	enum zab_style style;
	bool detail;
	const char *json;
};

static int write_json(const char *path, const struct zj *doc)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f) {
		fprintf(stderr, "zab: --json %s: %s\n", path, strerror(errno));
		return -errno;
	}
	zj_write(f, doc);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "zab: --json %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static void output(struct zab_result *const *r, size_t n, const struct out_opts *oo)
{
	FILE *f = oo->json && !strcmp(oo->json, "-") ? stderr : stdout;

	zab_render(f, r, n, oo->style);
	if (oo->detail && oo->style != ZAB_STYLE_DETAIL) {
		fputc('\n', f);
		zab_render(f, r, n, ZAB_STYLE_DETAIL);
	}
	fflush(f);
}

static int parse_count(const char *opt, const char *s, unsigned min, unsigned *out)
{
	uint64_t v;

	if (cz_parse_u64(s, min, 1000000, &v)) {
		fprintf(stderr, "zab: %s '%s': expected a number >= %u\n", opt, s, min);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

static const char *group_of(const char *cmd)
{
	static char buf[128];
	const char *p = cmd, *e, *slash;

	while (*p == ' ')
		p++;
	e = p + strcspn(p, " \t");
	for (slash = p; slash < e; slash++)
		if (*slash == '/')
			p = slash + 1;
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - p), p);
	return buf;
}

enum {
	OPT_UNIT = 256, OPT_LOWER, OPT_GROUP, OPT_VAR, OPT_RETRIES, OPT_ORDER, OPT_SEED, OPT_BASE,
	OPT_NAME, OPT_SUT, OPT_CUSEZERO, OPT_DRY, OPT_PROGRESS, OPT_NOPROGRESS, OPT_DETAIL, OPT_TIMEOUT,
};

static const struct option run_opts[] = {
	{ "experiment", required_argument, NULL, 'e' },
	{ "bench", required_argument, NULL, 'b' },
	{ "unit", required_argument, NULL, OPT_UNIT },
	{ "lower", no_argument, NULL, OPT_LOWER },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "variant", required_argument, NULL, 'v' },
	{ "var", required_argument, NULL, OPT_VAR },
	{ "sessions", required_argument, NULL, 'S' },
	{ "warmups", required_argument, NULL, 'W' },
	{ "repeats", required_argument, NULL, 'R' },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "sut", required_argument, NULL, OPT_SUT },
	{ "cusezero", required_argument, NULL, OPT_CUSEZERO },
	{ "dry-run", no_argument, NULL, OPT_DRY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NOPROGRESS },
	{ "style", required_argument, NULL, 's' },
	{ "detail", no_argument, NULL, OPT_DETAIL },
	{ "json", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* CLI values override the experiment file's, whatever the order of the options. */
struct cli_over {
	unsigned sessions, warmups, repeats, retries, timeout;
	bool has_s, has_w, has_r, has_retries, has_order, has_timeout;
	enum zab_order order;
};

static int cmd_run(int argc, char **argv)
{
	struct zab_experiment e = { .sessions = 1, .repeats = 1 };
	struct zab_run_opts ro = { .progress = isatty(2) };
	struct out_opts oo = { .style = ZAB_STYLE_BOX };
	struct cli_over co = { 0 };
	struct zab_result r = { 0 }, *rp = &r;
	struct zj *devinfo = NULL, *doc;
	const char *file = NULL, *sut = NULL, *title = NULL;
	char *bspecs[ZAB_MAX_ITEMS], *vspecs[ZAB_MAX_ITEMS], *vars[ZAB_MAX_ITEMS];
	char *units[ZAB_MAX_ITEMS] = { 0 }, *groups[ZAB_MAX_ITEMS] = { 0 };
	bool lower[ZAB_MAX_ITEMS] = { 0 }, has_seed = false;
	size_t nb = 0, nv = 0, nvars = 0, i, b, v;
	uint64_t u;
	int c, ret = 2;

	while ((c = getopt_long(argc, argv, "e:b:v:S:W:R:s:j:h", run_opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			file = optarg;
			break;
		case 'b':
			if (nb == ZAB_MAX_ITEMS)
				goto usage_err;
			bspecs[nb++] = optarg;
			break;
		case OPT_UNIT:
		case OPT_LOWER:
		case OPT_GROUP:
			if (!nb) {
				fprintf(stderr, "zab: --%s must follow a --bench\n",
					c == OPT_UNIT ? "unit" : c == OPT_LOWER ? "lower" : "group");
				goto out;
			}
			if (c == OPT_UNIT)
				units[nb - 1] = optarg;
			else if (c == OPT_GROUP)
				groups[nb - 1] = optarg;
			else
				lower[nb - 1] = true;
			break;
		case 'v':
			if (nv == ZAB_MAX_ITEMS)
				goto usage_err;
			vspecs[nv++] = optarg;
			break;
		case OPT_VAR:
			if (nvars == ZAB_MAX_ITEMS || !strchr(optarg, '=')) {
				fprintf(stderr, "zab: --var '%s': expected NAME=VALUE\n", optarg);
				goto out;
			}
			vars[nvars++] = optarg;
			break;
		case 'S':
			if (parse_count("--sessions", optarg, 1, &co.sessions))
				goto out;
			co.has_s = true;
			break;
		case 'W':
			if (parse_count("--warmups", optarg, 0, &co.warmups))
				goto out;
			co.has_w = true;
			break;
		case 'R':
			if (parse_count("--repeats", optarg, 1, &co.repeats))
				goto out;
			co.has_r = true;
			break;
		case OPT_RETRIES:
			if (parse_count("--retries", optarg, 0, &co.retries))
				goto out;
			co.has_retries = true;
			break;
		case OPT_TIMEOUT:
			if (parse_count("--timeout", optarg, 0, &co.timeout))
				goto out;
			co.has_timeout = true;
			break;
		case OPT_ORDER:
			if (zab_order_parse(optarg, &co.order)) {
				fprintf(stderr, "zab: --order '%s': expected random, interleave or sequential\n",
					optarg);
				goto out;
			}
			co.has_order = true;
			break;
		case OPT_SEED:
			if (cz_parse_u64(optarg, 0, (1ull << 53) - 1, &u)) {
				fprintf(stderr, "zab: --seed '%s': expected a number below 2^53\n", optarg);
				goto out;
			}
			ro.seed = u;
			has_seed = true;
			break;
		case OPT_BASE:
			free(e.base);
			e.base = zab_xstrdup(optarg);
			break;
		case OPT_NAME:
			title = optarg;
			break;
		case OPT_SUT:
			sut = optarg;
			break;
		case OPT_CUSEZERO:
			ro.cusezero = optarg;
			break;
		case OPT_DRY:
			ro.dry_run = true;
			break;
		case OPT_PROGRESS:
			ro.progress = true;
			break;
		case OPT_NOPROGRESS:
			ro.progress = false;
			break;
		case 's':
			if (style_option(optarg, &oo.style))
				goto out;
			break;
		case OPT_DETAIL:
			oo.detail = true;
			break;
		case 'j':
			oo.json = optarg;
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			goto usage_err;
		}
	}
	if (optind < argc) {
		if (file || optind + 1 < argc) {
			fprintf(stderr, "zab: run: unexpected argument '%s'\n", argv[file ? optind : optind + 1]);
			goto out;
		}
		file = argv[optind];
	}
	if (!ro.cusezero)
		ro.cusezero = getenv("CUSEZERO");
	if (ro.cusezero && !*ro.cusezero)
		ro.cusezero = NULL;

	if (file && zab_experiment_load(&e, zab_find_experiment(file)))
		goto out;
	for (i = 0; i < nb; i++) {
		struct zab_bench *bb;

		if (zab_bench_spec(&e, bspecs[i]))
			goto out;
		bb = &e.bench[e.nbench - 1];
		bb->unit = zab_xstrdup(units[i]);
		bb->group = zab_xstrdup(groups[i]);
		bb->higher = !lower[i];
	}
	for (i = 0; i < nv; i++)
		if (zab_variant_spec(&e, vspecs[i]))
			goto out;
	for (i = 0; i < nvars; i++) {
		char *k = zab_xstrdup(vars[i]), *eq = strchr(k, '=');
		char *key;

		*eq = 0;
		key = zab_xasprintf("var.%s", k);
		/* reuse the file syntax's checks via a one-line pseudo file is overkill: set directly */
		if (e.nvars == ZAB_MAX_ITEMS) {
			free(key);
			free(k);
			goto usage_err;
		}
		for (b = 0; b < e.nvars && strcmp(e.vars[b].key, k); b++)
			;
		if (b < e.nvars) {
			free(e.vars[b].val);
			e.vars[b].val = zab_xstrdup(eq + 1);
			free(k);
		} else {
			e.vars[e.nvars].key = k;
			e.vars[e.nvars++].val = zab_xstrdup(eq + 1);
		}
		free(key);
	}
	if (co.has_s)
		e.sessions = co.sessions;
	if (co.has_w)
		e.warmups = co.warmups;
	if (co.has_r)
		e.repeats = co.repeats;
	if (co.has_retries)
		e.retries = co.retries;
	if (co.has_timeout)
		e.timeout = co.timeout;
	if (co.has_order)
		e.order = co.order;
	if (title) {
		free(e.name);
		e.name = zab_xstrdup(title);
	}
	if (zab_experiment_check(&e))
		goto out;
	if (!has_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ro.seed = ((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid()) %
			  4000000000u;
	}
	for (b = 0; b < e.nbench; b++) {
		if (!e.bench[b].group) {
			/* the program's name, after {var} expansion: "{pread} ..." -> pread_z100k */
			char *bad = NULL, *x = zab_expand(e.bench[b].cmd, e.vars, e.nvars, &bad);

			e.bench[b].group = zab_xstrdup(group_of(x ? x : e.bench[b].cmd));
			free(x);
			free(bad);
		}
		if (!e.bench[b].unit)
			e.bench[b].unit = zab_xstrdup("");
	}

	r.sut = sut ? zab_xstrdup(sut) : zab_default_sut();
	r.title = zab_xstrdup(e.name ? e.name : (file ? file : "command line"));
	r.sessions = e.sessions;
	r.warmups = e.warmups;
	r.repeats = e.repeats;
	r.nb = e.nbench;
	r.nv = e.nvar;
	for (b = 0; b < e.nbench; b++) {
		r.b[b].name = zab_xstrdup(e.bench[b].name);
		r.b[b].group = zab_xstrdup(e.bench[b].group);
		r.b[b].unit = zab_xstrdup(e.bench[b].unit);
		r.b[b].higher = e.bench[b].higher;
	}
	for (v = 0; v < e.nvar; v++) {
		r.vname[v] = zab_xstrdup(e.var[v].name);
		if (e.base && !strcmp(e.base, e.var[v].name))
			r.base = v;
	}
	r.cells = zab_xmalloc(r.nb * r.nv * sizeof(*r.cells));

	if (!ro.dry_run)
		fprintf(stderr, "zab: %s: %zu benchmark%s x %zu variants, %u session%s x (%u warm-up%s + %u repeat%s) = %zu runs; order %s, seed %llu (replay: --seed %llu)\n",
			r.title, e.nbench, e.nbench == 1 ? "" : "s", e.nvar, e.sessions,
			e.sessions == 1 ? "" : "s", e.warmups, e.warmups == 1 ? "" : "s", e.repeats,
			e.repeats == 1 ? "" : "s",
			(size_t)e.sessions * (e.warmups + e.repeats) * e.nbench * e.nvar,
			zab_order_name(e.order), (unsigned long long)ro.seed, (unsigned long long)ro.seed);
	devinfo = zj_new(ZJ_ARR);
	ret = zab_run(&e, &ro, &r, devinfo);
	if (ret < 0) {
		ret = 2;
		goto out;
	}
	if (ro.dry_run)
		goto out;
	doc = zab_result_json(&r, &e, zab_environment(), devinfo, ro.seed);
	r.doc = doc;
	if (oo.json && write_json(oo.json, doc))
		ret = 2;
	output(&rp, 1, &oo);
	goto out;
usage_err:
	usage(stderr);
out:
	zj_free(devinfo);
	zab_result_free(&r);
	zab_experiment_free(&e);
	return ret;
}

/* ---- report ---------------------------------------------------------------------- */

static struct zj *load_json(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n = 0, got;
	const char *err = NULL;
	struct zj *doc;
	int line = 0;

	if (!f) {
		fprintf(stderr, "zab: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	do {
		if (n + 4096 + 1 > cap)
			text = zab_xrealloc(text, cap = 2 * cap + 8192);
		got = fread(text + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	text[n] = 0;
	doc = zj_parse(text, &err, &line);
	free(text);
	if (!doc)
		fprintf(stderr, "zab: %s:%d: bad JSON: %s\n", path, line, err);
	return doc;
}

static size_t find_name(char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return n;
}

/* Merge src into dst (same SUT class): pool samples of matching cells, add new ones. */
static int merge(struct zab_result *dst, const struct zab_result *src, const char *file)
{
	size_t bmap[ZAB_MAX_ITEMS], vmap[ZAB_MAX_ITEMS], onb = dst->nb, onv = dst->nv, b, v, i;
	char *bnames[ZAB_MAX_ITEMS];
	struct zab_cell *cells;

	for (b = 0; b < dst->nb; b++)
		bnames[b] = dst->b[b].name;
	for (b = 0; b < src->nb; b++) {
		bmap[b] = find_name(bnames, dst->nb, src->b[b].name);
		if (bmap[b] == dst->nb) {
			if (dst->nb == ZAB_MAX_ITEMS)
				goto full;
			dst->b[dst->nb].name = zab_xstrdup(src->b[b].name);
			dst->b[dst->nb].group = zab_xstrdup(src->b[b].group);
			dst->b[dst->nb].unit = zab_xstrdup(src->b[b].unit);
			dst->b[dst->nb].higher = src->b[b].higher;
			bnames[dst->nb] = dst->b[dst->nb].name;
			dst->nb++;
		}
	}
	for (v = 0; v < src->nv; v++) {
		vmap[v] = find_name(dst->vname, dst->nv, src->vname[v]);
		if (vmap[v] == dst->nv) {
			if (dst->nv == ZAB_MAX_ITEMS)
				goto full;
			dst->vname[dst->nv++] = zab_xstrdup(src->vname[v]);
		}
	}
	cells = zab_xmalloc(dst->nb * dst->nv * sizeof(*cells));
	for (b = 0; b < onb; b++)
		for (v = 0; v < onv; v++)
			cells[b * dst->nv + v] = dst->cells[b * onv + v];
	free(dst->cells);
	dst->cells = cells;
	for (b = 0; b < src->nb; b++)
		for (v = 0; v < src->nv; v++) {
			const struct zab_cell *s = zab_cell(src, b, v);
			struct zab_cell *d = zab_cell(dst, bmap[b], vmap[v]);

			for (i = 0; i < s->n; i++)
				zab_cell_add(d, s->x[i]);
			if (s->failed && !d->failed) {
				d->failed = true;
				d->error = zab_xasprintf("%s: %s", file, s->error ? s->error : "failed");
			}
		}
	if (dst->warmups == src->warmups && dst->repeats == src->repeats)
		dst->sessions += src->sessions;
	return 0;
full:
	fprintf(stderr, "zab: %s: merging makes more than %d benchmarks or variants\n", file,
		ZAB_MAX_ITEMS);
	return -E2BIG;
}

static int add_result(struct zab_result **res, size_t *n, struct zab_result *r, struct zj *arr,
		      const char *sut, const char *file)
{
	size_t i;
	int m;

	if (sut) {
		free(r->sut);
		r->sut = zab_xstrdup(sut);
		zj_set(r->doc, "sut", zj_str(sut));
	}
	zj_push(arr, zj_dup(r->doc));
	for (i = 0; i < *n && strcmp(res[i]->sut, r->sut); i++)
		;
	if (i < *n) {
		m = merge(res[i], r, file);
		zab_result_free(r);
		return m;
	}
	if (*n == ZAB_MAX_ITEMS) {
		fprintf(stderr, "zab: report: more than %d SUT classes\n", ZAB_MAX_ITEMS);
		zab_result_free(r);
		return -E2BIG;
	}
	res[*n] = zab_xmalloc(sizeof(*r));
	*res[(*n)++] = *r;
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "detail", no_argument, NULL, OPT_DETAIL },
		{ "json", required_argument, NULL, 'j' },
		{ "sut", required_argument, NULL, OPT_SUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct out_opts oo = { .style = ZAB_STYLE_BOX };
	struct zab_result *res[ZAB_MAX_ITEMS];
	struct zj *all = zj_new(ZJ_OBJ), *arr;
	const char *sut = NULL;
	size_t n = 0, i;
	int c, ret = 2;

	zj_set(all, "zab", zj_num(1));
	arr = zj_set(all, "results", zj_new(ZJ_ARR));
	/* "-" first: files and --sut are processed in order (--sut applies to the files after it) */
	while ((c = getopt_long(argc, argv, "-s:j:h", opts, NULL)) != -1) {
		struct zab_result r;
		struct zj *doc;

		switch (c) {
		case 's':
			if (style_option(optarg, &oo.style))
				goto out;
			break;
		case OPT_DETAIL:
			oo.detail = true;
			break;
		case 'j':
			oo.json = optarg;
			break;
		case OPT_SUT:
			sut = optarg;
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		case 1: {
			struct zj *list;
			size_t k, nk;

			doc = load_json(optarg);
			if (!doc)
				goto out;
			/* a document written by "zab report --json" holds several results */
			list = zj_get(doc, "results");
			nk = list && list->t == ZJ_ARR ? list->n : 1;
			for (k = 0; k < nk; k++) {
				struct zj *one = list && list->t == ZJ_ARR ? zj_dup(list->items[k]) : doc;

				if (zab_result_from_json(&r, one, optarg)) {
					zab_result_free(&r);
					if (one != doc)
						zj_free(doc);
					goto out;
				}
				if (add_result(res, &n, &r, arr, sut, optarg)) {
					if (one != doc)
						zj_free(doc);
					goto out;
				}
			}
			if (list && list->t == ZJ_ARR)
				zj_free(doc);
			break;
		}
		default:
			usage(stderr);
			goto out;
		}
	}
	if (!n) {
		fprintf(stderr, "zab: report: no FILE.json given\n");
		goto out;
	}
	ret = 0;
	if (oo.json && write_json(oo.json, all))
		ret = 2;
	output(res, n, &oo);
out:
	for (i = 0; i < n; i++) {
		zab_result_free(res[i]);
		free(res[i]);
	}
	zj_free(all);
	return ret;
}

int main(int argc, char **argv)
{
	cz_version_arg(argc, argv, "zab");
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "zab: unknown command '%s' (expected run or report; see zab --help)\n", argv[1]);
	return 2;
}
