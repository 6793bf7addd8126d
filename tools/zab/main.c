/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab: run A/B experiments (benchmarks x variants in S sessions of W warm-ups
 * and R repeats) and print the significance tables kernel reviewers read.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "zab.h"
#include "cli.h"
#include "util.h"

/* --style for run and report: 0, or -1 after one line naming the bad value. */
static int style_option(const char *arg, enum zab_style *st)
{
	if (!zab_style_parse(arg, st))
		return 0;
	cz_err("--style '%s': expected box, grid, plain, markdown or detail", arg);
	return -1;
}

static void usage(FILE *f)
{
	fputs(
"usage: zab run [OPTIONS] [EXPERIMENT_FILE]\n"
"       zab report [--style S] [--detail] [--export-* FILE] [--sut CLASS] FILE.json...\n"
"       zab compare OLD.json NEW.json   (benchstat-style old / new / delta / p)\n"
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
"      --seed N           seed of the random order and of the co-location CPUs (printed)\n"
"      --colocate C       auto (default): with device variants, each session runs its\n"
"                         daemons' serving threads (--cpu N) and every\n"
"                         benchmark process on one CPU N, rotating per session;\n"
"                         N: always CPU N; off: let the scheduler place them\n"
"      --placement P      fixed (default), random[:SET] or sweep[:SET] (SET: offsets as in\n"
"                         zbench align, e.g. 0..60:4, default 0..63; @entry or @loop):\n"
"                         a code offset per measured run, the same for every variant of\n"
"                         the slot; statistics over layouts (doc/layouts.md)\n"
"      --in-device WHEN   auto (default: when every variant is a device variant), yes, no:\n"
"                         add the result classes taken from the daemon's counters over\n"
"                         each run: NAME in-device (bytes cleared per second of routine\n"
"                         time) and NAME in-device per chunk (routine ns per chunk)\n"
"      --base NAME        the base variant (default: the first)\n"
"      --name TITLE       experiment title\n"
"      --sut CLASS        SUT class in headings and JSON (default: the CPU model)\n"
"      --cusezero PATH    the daemon (default: $CUSEZERO, beside zab, then $PATH)\n"
"      --dry-run          print the run order and exit\n"
"      --progress / --no-progress   progress bar on stderr (default: if a terminal)\n"
"output options (run and report; every output file is checked before the first run):\n"
"  -s, --style STYLE      box (default), grid, plain, markdown, detail\n"
"      --detail           add the detailed view (CI, CV, median, U-test p)\n"
"  -j, --json FILE, --export-json FILE\n"
"                         every raw sample, the settings and the environment ('-': stdout,\n"
"                         the table then goes to stderr)\n"
"      --export-markdown FILE   the table as Markdown\n"
"      --export-csv FILE  one row per cell: statistics, change, verdict (R, I, none)\n"
"\n"
"Experiment file (INI; experiments/README.md):\n"
"  [experiment]        name= sessions= warmups= repeats= retries= timeout=\n"
"                      order= colocate= base= placement= var.NAME=\n"
"  [benchmark NAME]    cmd= unit= better=higher|lower group= in-device=\n"
"  [variant NAME]      routine= align= align-point= chunk= frontend= threads=\n"
"                      cusezero-args= env.NAME= var.NAME= cmd= arch= placement=\n"
"                      source=KERNEL.S[:SYMBOL] patch=FILE alt=FEATURE=on|off (a kernel file)\n"
"\n"
"In commands: {dev} (device path; /dev/zero for non-device variants), {routine},\n"
"{align}, {chunk}, {variant}, {session}, {offset} and {point} (the run's placement;\n"
"-1 when fixed), and var.NAME / --var values.  Device variants also get\n"
"CUSEZERO_DEVICE; every run gets ZAB_BENCH, ZAB_VARIANT, ZAB_SESSION, ZAB_RUN,\n"
"ZAB_SEED, and ZAB_OFFSET, ZAB_POINT when placed.  The directory of zab (and in a build tree\n"
"its pread_z100k/ folder) is put first in PATH.\n"
"\n"
"Change is vs the base, oriented so that negative is worse; (R)/(I) mark a\n"
"regression/improvement whose 95% confidence intervals (Student t) do not overlap.\n"
"Exit: 0 ok, 1 a cell FAILED, 2 bad usage or input.\n"
"\n"
"example:\n"
"  zab run -b 'pread=pread_z100k --format simple -n 20000 {dev}' --unit bytes/sec \\\n"
"      -v 'fast:routine=rep_stosb' -v 'slow:routine=c_store_loop' -S 3 -W 1 -R 3\n",
	      f);
}

/* ---- output files ------------------------------------------------------------------ */

struct out_file {
	const char *opt;     /* for messages */
	const char *path;    /* NULL: not asked for; "-": stdout */
	FILE *f;
	bool created;        /* we created it: removed again if nothing is written */
};

struct out_opts {
	enum zab_style style;
	bool detail;
	struct out_file json, md, csv;
};

static void out_init(struct out_opts *oo)
{
	memset(oo, 0, sizeof(*oo));
	oo->style = ZAB_STYLE_BOX;
	oo->json.opt = "--export-json";
	oo->md.opt = "--export-markdown";
	oo->csv.opt = "--export-csv";
}

/*
 * Open (not truncate) an output file before anything runs: a typo in a
 * path must not cost an experiment's worth of runs.
 */
static int out_open(struct out_file *of)
{
	int fd;

	if (!of->path || !strcmp(of->path, "-"))
		return 0;
	fd = open(of->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		of->created = true;
	else if (errno == EEXIST)
		fd = open(of->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || !(of->f = fdopen(fd, "w"))) {
		cz_err("%s %s: %s", of->opt, of->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

static void out_discard(struct out_file *of)
{
	if (of->f) {
		fclose(of->f);
		if (of->created)
			unlink(of->path);
	}
	of->f = NULL;
}

static bool out_stdout(const struct out_opts *oo)
{
	return (oo->json.path && !strcmp(oo->json.path, "-")) ||
	       (oo->md.path && !strcmp(oo->md.path, "-")) ||
	       (oo->csv.path && !strcmp(oo->csv.path, "-"));
}

static int outputs_open(struct out_opts *oo)
{
	if (out_open(&oo->json) || out_open(&oo->md) || out_open(&oo->csv)) {
		out_discard(&oo->json);
		out_discard(&oo->md);
		out_discard(&oo->csv);
		return -1;
	}
	return 0;
}

static void outputs_discard(struct out_opts *oo)
{
	out_discard(&oo->json);
	out_discard(&oo->md);
	out_discard(&oo->csv);
}

struct out_what {
	struct zab_result *const *r;
	size_t n;
	const struct zj *doc;
};

static void write_one(const struct out_file *of, FILE *f, const struct out_what *w,
		      const struct out_opts *oo)
{
	if (of == &oo->json)
		zj_write(f, w->doc);
	else if (of == &oo->md)
		zab_render(f, w->r, w->n, ZAB_STYLE_MARKDOWN);
	else
		zab_render_csv(f, w->r, w->n);
}

/*
 * Replace the file's content with the output: 0, or -1 after one line.
 * Only a regular file has old content to drop: a pipe, FIFO or device
 * cannot be truncated and is written as it is (a failed ftruncate there
 * used to skip the write and leave the reader with nothing).
 */
static int out_write(struct out_file *of, const struct out_what *w, const struct out_opts *oo)
{
	struct stat st;
	int err = 0;

	if (!of->path)
		return 0;
	if (!of->f) {
		write_one(of, stdout, w, oo);
		return cz_stdout_flush();
	}
	if (fstat(fileno(of->f), &st))
		err = errno;
	else if (S_ISREG(st.st_mode) && ftruncate(fileno(of->f), 0))
		err = errno;
	if (!err) {
		errno = 0;
		write_one(of, of->f, w, oo);
		if (fflush(of->f) || ferror(of->f))
			err = errno ? errno : EIO;
	}
	if (fclose(of->f) && !err)
		err = errno;
	of->f = NULL;
	if (!err)
		return 0;
	cz_err("%s %s: %s", of->opt, of->path, strerror(err));
	return -1;
}

/* The table (stdout, or stderr when an export goes to stdout), then the files: 0, or 1
 * when any of them was not written (a result not written is a failure). */
static int output(struct zab_result *const *r, size_t n, const struct zj *doc, struct out_opts *oo)
{
	FILE *f = out_stdout(oo) ? stderr : stdout;
	const struct out_what w = { r, n, doc };
	int ret = 0;

	zab_render(f, r, n, oo->style);
	if (oo->detail && oo->style != ZAB_STYLE_DETAIL) {
		fputc('\n', f);
		zab_render(f, r, n, ZAB_STYLE_DETAIL);
	}
	if (f == stdout && cz_stdout_flush())
		ret = 1;
	fflush(f);
	if (out_write(&oo->json, &w, oo) | out_write(&oo->md, &w, oo) | out_write(&oo->csv, &w, oo))
		ret = 1;
	return ret;
}

static int parse_count(const char *opt, const char *s, unsigned min, unsigned *out)
{
	uint64_t v;

	if (cz_parse_u64(s, min, 1000000, &v)) {
		cz_err("%s '%s': expected a number >= %u", opt, s, min);
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
	OPT_COLOCATE, OPT_INDEV, OPT_EXPORT_MD, OPT_EXPORT_CSV, OPT_PLACEMENT,
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
	{ "colocate", required_argument, NULL, OPT_COLOCATE },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "in-device", required_argument, NULL, OPT_INDEV },
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
	{ "export-json", required_argument, NULL, 'j' },
	{ "export-markdown", required_argument, NULL, OPT_EXPORT_MD },
	{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An output option shared by run and report: 1 if opt was one, 0 if not, -1 on a bad value. */
static int output_option(int c, const char *arg, struct out_opts *oo)
{
	switch (c) {
	case 's':
		return style_option(arg, &oo->style) ? -1 : 1;
	case OPT_DETAIL:
		oo->detail = true;
		return 1;
	case 'j':
		oo->json.path = arg;
		return 1;
	case OPT_EXPORT_MD:
		oo->md.path = arg;
		return 1;
	case OPT_EXPORT_CSV:
		oo->csv.path = arg;
		return 1;
	}
	return 0;
}

/* What the command line says; CLI values override the file's, whatever the order. */
struct run_cli {
	const char *file, *sut, *title;
	char *bspecs[ZAB_MAX_ITEMS], *vspecs[ZAB_MAX_ITEMS], *vars[ZAB_MAX_ITEMS];
	char *units[ZAB_MAX_ITEMS], *groups[ZAB_MAX_ITEMS];
	bool lower[ZAB_MAX_ITEMS];
	size_t nb, nv, nvars;
	unsigned sessions, warmups, repeats, retries, timeout;
	bool has_s, has_w, has_r, has_retries, has_order, has_timeout, has_seed, has_coloc, has_indev;
	enum zab_order order;
	struct zab_colocate colocate;
	enum zab_indev in_device;
	char *base;
	const char *placement;   /* --placement, checked */
};

/* Options that belong to the last --bench.  0 or -1. */
static int bench_option(struct run_cli *cli, int c, const char *arg)
{
	if (!cli->nb) {
		cz_err("--%s must follow a --bench",
			c == OPT_UNIT ? "unit" : c == OPT_LOWER ? "lower" : "group");
		return -1;
	}
	if (c == OPT_UNIT)
		cli->units[cli->nb - 1] = (char *)arg;
	else if (c == OPT_GROUP)
		cli->groups[cli->nb - 1] = (char *)arg;
	else
		cli->lower[cli->nb - 1] = true;
	return 0;
}

/* The experiment's settings (-S -W -R --retries --timeout --order --colocate --in-device). */
static int setting_option(struct run_cli *cli, int c, const char *arg)
{
	switch (c) {
	case 'S':
		cli->has_s = true;
		return parse_count("--sessions", arg, 1, &cli->sessions);
	case 'W':
		cli->has_w = true;
		return parse_count("--warmups", arg, 0, &cli->warmups);
	case 'R':
		cli->has_r = true;
		return parse_count("--repeats", arg, 1, &cli->repeats);
	case OPT_RETRIES:
		cli->has_retries = true;
		return parse_count("--retries", arg, 0, &cli->retries);
	case OPT_TIMEOUT:
		cli->has_timeout = true;
		return parse_count("--timeout", arg, 0, &cli->timeout);
	case OPT_ORDER:
		cli->has_order = true;
		if (!zab_order_parse(arg, &cli->order))
			return 0;
		cz_err("--order '%s': expected random, interleave or sequential", arg);
		return -1;
	case OPT_COLOCATE:
		cli->has_coloc = true;
		if (!zab_colocate_parse(arg, &cli->colocate))
			return 0;
		cz_err("--colocate '%s': expected auto, off or a CPU number", arg);
		return -1;
	case OPT_PLACEMENT: {
		struct zab_placement p = { 0 };

		cli->placement = arg;
		if (!zab_placement_parse(arg, &p)) {
			zab_placement_free(&p);
			return 0;
		}
		cz_err("--placement '%s': expected fixed, random[:SET][@entry|@loop] or sweep[:SET][@...]",
			arg);
		return -1;
	}
	case OPT_INDEV:
		cli->has_indev = true;
		if (!zab_indev_parse(arg, &cli->in_device))
			return 0;
		cz_err("--in-device '%s': expected auto, yes or no", arg);
		return -1;
	}
	return -1;
}

/* One run option: 0, 1 (--help printed) or -1 (error printed; or usage on stderr). */
static int run_option(struct run_cli *cli, struct zab_run_opts *ro, struct out_opts *oo, int c)
{
	uint64_t u;
	int k = output_option(c, optarg, oo);

	if (k)
		return k < 0 ? -1 : 0;
	switch (c) {
	case 'e':
		cli->file = optarg;
		return 0;
	case 'b':
	case 'v':
		if ((c == 'b' ? cli->nb : cli->nv) == ZAB_MAX_ITEMS) {
			cz_err("more than %d --%s options", ZAB_MAX_ITEMS,
				c == 'b' ? "bench" : "variant");
			return -1;
		}
		if (c == 'b')
			cli->bspecs[cli->nb++] = optarg;
		else
			cli->vspecs[cli->nv++] = optarg;
		return 0;
	case OPT_UNIT:
	case OPT_LOWER:
	case OPT_GROUP:
		return bench_option(cli, c, optarg);
	case OPT_VAR:
		if (cli->nvars == ZAB_MAX_ITEMS || !strchr(optarg, '=')) {
			cz_err("--var '%s': expected NAME=VALUE", optarg);
			return -1;
		}
		cli->vars[cli->nvars++] = optarg;
		return 0;
	case 'S': case 'W': case 'R': case OPT_RETRIES: case OPT_TIMEOUT: case OPT_ORDER:
	case OPT_COLOCATE: case OPT_INDEV: case OPT_PLACEMENT:
		return setting_option(cli, c, optarg) ? -1 : 0;
	case OPT_SEED:
		if (cz_parse_u64(optarg, 0, (1ull << 53) - 1, &u)) {
			cz_err("--seed '%s': expected a number below 2^53", optarg);
			return -1;
		}
		ro->seed = u;
		cli->has_seed = true;
		return 0;
	case OPT_BASE:
		cli->base = optarg;
		return 0;
	case OPT_NAME:
		cli->title = optarg;
		return 0;
	case OPT_SUT:
		cli->sut = optarg;
		return 0;
	case OPT_CUSEZERO:
		ro->cusezero = optarg;
		return 0;
	case OPT_DRY:
		ro->dry_run = true;
		return 0;
	case OPT_PROGRESS:
	case OPT_NOPROGRESS:
		ro->progress = c == OPT_PROGRESS;
		return 0;
	case 'h':
		usage(stdout);
		return 1;
	}
	usage(stderr);
	return -1;
}

/* Parse run's command line: 0, 1 (--help: exit 0) or -1 (exit 2). */
static int run_parse(int argc, char **argv, struct run_cli *cli, struct zab_run_opts *ro,
		     struct out_opts *oo)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, "e:b:v:S:W:R:s:j:h", run_opts, NULL)) != -1) {
		ret = run_option(cli, ro, oo, c);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		if (cli->file || optind + 1 < argc) {
			cz_err("run: unexpected argument '%s'",
				argv[cli->file ? optind : optind + 1]);
			return -1;
		}
		cli->file = argv[optind];
	}
	if (!ro->cusezero)
		ro->cusezero = getenv("CUSEZERO");
	if (ro->cusezero && !*ro->cusezero)
		ro->cusezero = NULL;
	return 0;
}

/* --var NAME=VALUE: set (or replace) the experiment's var.NAME. */
static int apply_var(struct zab_experiment *e, const char *spec)
{
	const char *eq = strchr(spec, '=');
	size_t i;

	for (i = 0; i < e->nvars; i++)
		if (strlen(e->vars[i].key) == (size_t)(eq - spec) &&
		    !strncmp(e->vars[i].key, spec, (size_t)(eq - spec))) {
			free(e->vars[i].val);
			e->vars[i].val = zab_xstrdup(eq + 1);
			return 0;
		}
	if (e->nvars == ZAB_MAX_ITEMS) {
		cz_err("--var '%s': more than %d variables", spec, ZAB_MAX_ITEMS);
		return -1;
	}
	e->vars[e->nvars].key = zab_xasprintf("%.*s", (int)(eq - spec), spec);
	e->vars[e->nvars++].val = zab_xstrdup(eq + 1);
	return 0;
}

static void apply_settings(struct zab_experiment *e, const struct run_cli *cli)
{
	size_t b;

	if (cli->has_s)
		e->sessions = cli->sessions;
	if (cli->has_w)
		e->warmups = cli->warmups;
	if (cli->has_r)
		e->repeats = cli->repeats;
	if (cli->has_retries)
		e->retries = cli->retries;
	if (cli->has_timeout)
		e->timeout = cli->timeout;
	if (cli->has_order)
		e->order = cli->order;
	if (cli->has_coloc)
		e->colocate = cli->colocate;
	if (cli->placement)
		zab_placement_parse(cli->placement, &e->placement);     /* checked when given */
	for (b = 0; cli->has_indev && b < e->nbench; b++)
		e->bench[b].in_device = cli->in_device;
	if (cli->title) {
		free(e->name);
		e->name = zab_xstrdup(cli->title);
	}
	if (cli->base) {
		free(e->base);
		e->base = zab_xstrdup(cli->base);
	}
}

/* Every benchmark's group: the program's name after {var} expansion ("{pread} ..." -> pread_z100k). */
static void default_groups(struct zab_experiment *e)
{
	size_t b;

	for (b = 0; b < e->nbench; b++) {
		if (!e->bench[b].group) {
			char *bad = NULL, *x = zab_expand(e->bench[b].cmd, e->vars, e->nvars, &bad);

			e->bench[b].group = zab_xstrdup(group_of(x ? x : e->bench[b].cmd));
			free(x);
			free(bad);
		}
		if (!e->bench[b].unit)
			e->bench[b].unit = zab_xstrdup("");
	}
}

/* The experiment: its file, then the command line's benchmarks, variants, vars, settings. */
static int run_build(struct zab_experiment *e, const struct run_cli *cli)
{
	size_t i;

	if (cli->file && zab_experiment_load(e, zab_find_experiment(cli->file)))
		return -1;
	for (i = 0; i < cli->nb; i++) {
		struct zab_bench *bb;

		if (zab_bench_spec(e, cli->bspecs[i]))
			return -1;
		bb = &e->bench[e->nbench - 1];
		bb->unit = zab_xstrdup(cli->units[i]);
		bb->group = zab_xstrdup(cli->groups[i]);
		bb->higher = !cli->lower[i];
	}
	for (i = 0; i < cli->nv; i++)
		if (zab_variant_spec(e, cli->vspecs[i]))
			return -1;
	for (i = 0; i < cli->nvars; i++)
		if (apply_var(e, cli->vars[i]))
			return -1;
	apply_settings(e, cli);
	if (zab_experiment_check(e) || zab_colocate_check(&e->colocate))
		return -1;
	default_groups(e);
	return 0;
}

static uint64_t time_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid()) % 4000000000u;
}

/* The result's frame: SUT, title, sizes, result classes, variants, empty cells. */
static int result_init(struct zab_result *r, const struct zab_experiment *e, const struct run_cli *cli)
{
	size_t v;

	r->sut = cli->sut ? zab_xstrdup(cli->sut) : zab_default_sut();
	r->title = zab_xstrdup(e->name ? e->name : (cli->file ? cli->file : "command line"));
	r->sessions = e->sessions;
	r->warmups = e->warmups;
	r->repeats = e->repeats;
	if (zab_result_rows(r, e))
		return -1;
	r->nv = e->nvar;
	for (v = 0; v < e->nvar; v++) {
		r->vname[v] = zab_xstrdup(e->var[v].name);
		if (e->base && !strcmp(e->base, e->var[v].name))
			r->base = v;
	}
	r->cells = calloc(r->nb * r->nv, sizeof(*r->cells));
	if (!r->cells)
		abort();
	return 0;
}

static void announce(const struct zab_result *r, const struct zab_experiment *e, uint64_t seed)
{
	cz_err("%s: %zu benchmark%s x %zu variants, %u session%s x (%u warm-up%s + %u repeat%s) = %zu runs; order %s, seed %llu (replay: --seed %llu)",
		r->title, e->nbench, e->nbench == 1 ? "" : "s", e->nvar, e->sessions,
		e->sessions == 1 ? "" : "s", e->warmups, e->warmups == 1 ? "" : "s", e->repeats,
		e->repeats == 1 ? "" : "s",
		(size_t)e->sessions * (e->warmups + e->repeats) * e->nbench * e->nvar,
		zab_order_name(e->order), (unsigned long long)seed, (unsigned long long)seed);
}

static int cmd_run(int argc, char **argv)
{
	static struct run_cli cli;
	struct zab_experiment e = { .sessions = 1, .repeats = 1 };
	struct zab_run_opts ro = { .progress = isatty(2) };
	struct zab_result r = { 0 }, *rp = &r;
	struct zj *devinfo = zj_new(ZJ_ARR), *sessinfo = zj_new(ZJ_ARR);
	struct out_opts oo;
	int ret = 2;

	memset(&cli, 0, sizeof(cli));
	out_init(&oo);
	ret = run_parse(argc, argv, &cli, &ro, &oo);
	if (ret) {
		ret = ret > 0 ? 0 : 2;
		goto out;
	}
	ret = 2;
	if (run_build(&e, &cli) || result_init(&r, &e, &cli))
		goto out;
	if (!cli.has_seed)
		ro.seed = time_seed();
	if (!ro.dry_run) {
		if (outputs_open(&oo))
			goto out;
		announce(&r, &e, ro.seed);
	}
	ret = zab_run(&e, &ro, &r, devinfo, sessinfo);
	if (ret < 0 || ro.dry_run) {
		outputs_discard(&oo);
		if (ret == -EINTR)
			zab_reraise();
		ret = ret < 0 ? 2 : 0;
		goto out;
	}
	r.doc = zab_result_json(&r, &e, zab_environment(), devinfo, sessinfo, ro.seed);
	if (output(&rp, 1, r.doc, &oo))
		ret = 1;
out:
	zj_free(devinfo);
	zj_free(sessinfo);
	zab_result_free(&r);
	zab_experiment_free(&e);
	return ret;
}

/* ---- report ---------------------------------------------------------------------- */

/*
 * The most a result file may hold.  zab's own are a few hundred bytes per
 * sample; without a bound `zab report /dev/zero` read forever.
 */
#define ZAB_JSON_MAX (256u << 20)

static struct zj *load_json(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n = 0, got;
	const char *err = NULL;
	struct zj *doc;
	int line = 0;

	if (!f) {
		cz_err("%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n + 4096 + 1 > cap)
			text = zab_xrealloc(text, cap = 2 * cap + 8192);
		got = fread(text + n, 1, 4096, f);
		/* JSON text holds no NUL byte: binary data, stop at once. */
		if (memchr(text + n, 0, got) || n + got > ZAB_JSON_MAX) {
			cz_err("%s: not a zab result: %s", path, n + got > ZAB_JSON_MAX ?
			       "larger than 256 MiB" : "binary data (a NUL byte)");
			fclose(f);
			free(text);
			return NULL;
		}
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		cz_err("%s: %s", path, strerror(errno));
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	text[n] = 0;
	doc = zj_parse(text, &err, &line);
	free(text);
	if (!doc)
		cz_err("%s:%d: bad JSON: %s", path, line, err);
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

/*
 * Where each of src's benchmarks (bmap) and variants (vmap) lands in dst,
 * numbering the new ones after dst's: 0, or -E2BIG past ZAB_MAX_ITEMS.
 * dst is not touched, so a refused merge leaves it consistent (its names
 * and its cells array agree) for zab_result_free.
 */
static int merge_map(const struct zab_result *dst, const struct zab_result *src,
		     size_t *bmap, size_t *vmap, size_t *nb, size_t *nv)
{
	char *bnames[2 * ZAB_MAX_ITEMS], *vnames[2 * ZAB_MAX_ITEMS];
	size_t b, v;

	for (b = 0; b < dst->nb; b++)
		bnames[b] = dst->b[b].name;
	for (v = 0; v < dst->nv; v++)
		vnames[v] = dst->vname[v];
	*nb = dst->nb;
	*nv = dst->nv;
	for (b = 0; b < src->nb; b++) {
		bmap[b] = find_name(bnames, *nb, src->b[b].name);
		if (bmap[b] == *nb)
			bnames[(*nb)++] = src->b[b].name;
	}
	for (v = 0; v < src->nv; v++) {
		vmap[v] = find_name(vnames, *nv, src->vname[v]);
		if (vmap[v] == *nv)
			vnames[(*nv)++] = src->vname[v];
	}
	return *nb > ZAB_MAX_ITEMS || *nv > ZAB_MAX_ITEMS ? -E2BIG : 0;
}

/* Merge src into dst (same SUT class): pool samples of matching cells, add new ones. */
static int merge(struct zab_result *dst, const struct zab_result *src, const char *file)
{
	size_t bmap[ZAB_MAX_ITEMS], vmap[ZAB_MAX_ITEMS], onb = dst->nb, onv = dst->nv, b, v, i;
	size_t nb, nv;
	struct zab_cell *cells;

	if (merge_map(dst, src, bmap, vmap, &nb, &nv)) {
		cz_err("%s: merging makes more than %d benchmarks or variants", file,
		       ZAB_MAX_ITEMS);
		return -E2BIG;
	}
	for (b = 0; b < src->nb; b++) {
		if (bmap[b] < onb)
			continue;
		dst->b[bmap[b]].name = zab_xstrdup(src->b[b].name);
		dst->b[bmap[b]].group = zab_xstrdup(src->b[b].group);
		dst->b[bmap[b]].unit = zab_xstrdup(src->b[b].unit);
		dst->b[bmap[b]].higher = src->b[b].higher;
	}
	for (v = 0; v < src->nv; v++)
		if (vmap[v] >= onv)
			dst->vname[vmap[v]] = zab_xstrdup(src->vname[v]);
	dst->nb = nb;
	dst->nv = nv;
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
		cz_err("report: more than %d SUT classes", ZAB_MAX_ITEMS);
		zab_result_free(r);
		return -E2BIG;
	}
	res[*n] = zab_xmalloc(sizeof(*r));
	*res[(*n)++] = *r;
	return 0;
}

/* One FILE.json of report (a "zab report --json" document holds several results). 0 or -1. */
static int report_file(const char *path, const char *sut, struct zab_result **res, size_t *n,
		       struct zj *arr)
{
	struct zj *doc = load_json(path), *list, *one;
	struct zab_result r;
	size_t k, nk;
	bool many;

	if (!doc)
		return -1;
	list = zj_get(doc, "results");
	many = list && list->t == ZJ_ARR;
	nk = many ? list->n : 1;
	for (k = 0; k < nk; k++) {
		one = many ? zj_dup(list->items[k]) : doc;
		if (zab_result_from_json(&r, one, path)) {
			zab_result_free(&r);
			if (many)
				zj_free(doc);
			return -1;
		}
		if (add_result(res, n, &r, arr, sut, path)) {
			if (many)
				zj_free(doc);
			return -1;
		}
	}
	if (many)
		zj_free(doc);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "detail", no_argument, NULL, OPT_DETAIL },
		{ "json", required_argument, NULL, 'j' },
		{ "export-json", required_argument, NULL, 'j' },
		{ "export-markdown", required_argument, NULL, OPT_EXPORT_MD },
		{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
		{ "sut", required_argument, NULL, OPT_SUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct zab_result *res[ZAB_MAX_ITEMS];
	struct zj *all = zj_new(ZJ_OBJ), *arr;
	const char *sut = NULL;
	struct out_opts oo;
	size_t n = 0, i;
	int c, k, ret = 2;

	out_init(&oo);
	zj_set(all, "zab", zj_num(1));
	arr = zj_set(all, "results", zj_new(ZJ_ARR));
	/* "-" first: files and --sut are processed in order (--sut applies to the files after it) */
	while ((c = getopt_long(argc, argv, "-s:j:h", opts, NULL)) != -1) {
		k = output_option(c, optarg, &oo);
		if (k < 0)
			goto out;
		if (k)
			continue;
		if (c == OPT_SUT) {
			sut = optarg;
		} else if (c == 'h') {
			usage(stdout);
			ret = 0;
			goto out;
		} else if (c == 1) {
			if (report_file(optarg, sut, res, &n, arr))
				goto out;
		} else {
			usage(stderr);
			goto out;
		}
	}
	if (!n) {
		cz_err("report: no FILE.json given");
		goto out;
	}
	if (outputs_open(&oo))
		goto out;
	ret = output(res, n, all, &oo);
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
	cz_cli_init("zab");
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
	if (!strcmp(argv[1], "compare"))
		return zab_cmd_compare(argc - 1, argv + 1);
	cz_err("unknown command '%s' (expected run, report or compare; see zab --help)", argv[1]);
	return 2;
}
