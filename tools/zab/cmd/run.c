/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab run: the command line (or an experiment file) made into an experiment,
 * run, and its result written.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "czstore.h"
#include "cmd.h"
#include "cli.h"
#include "util.h"

/* A count option: a bad one is zab's usage error (lib/cli.h, one message for every count). */
static int parse_count(const char *opt, const char *s, unsigned min, unsigned *out)
{
	*out = cz_opt_uint(opt, s, min, 1000000);
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

static const struct option run_opts[] = {
	{ "experiment", required_argument, NULL, 'e' },
	{ "bench", required_argument, NULL, 'b' },
	{ "unit", required_argument, NULL, OPT_UNIT },
	{ "lower", no_argument, NULL, OPT_LOWER },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "variant", required_argument, NULL, 'v' },
	{ "only-variants", required_argument, NULL, OPT_ONLY_VARIANTS },
	{ "var", required_argument, NULL, OPT_VAR },
	{ "sessions", required_argument, NULL, 'S' },
	{ "warmups", required_argument, NULL, 'W' },
	{ "repeats", required_argument, NULL, 'R' },
	{ "runs", required_argument, NULL, 'R' },
	{ "time", no_argument, NULL, OPT_TIME },
	{ "prepare", required_argument, NULL, OPT_PREPARE },
	{ "parameter-list", required_argument, NULL, 'L' },
	{ "parameter-scan", required_argument, NULL, OPT_PSCAN },
	{ "parameter-step-size", required_argument, NULL, OPT_PSTEP },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "colocate", required_argument, NULL, OPT_COLOCATE },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "in-device", required_argument, NULL, OPT_INDEV },
	{ "verdict", required_argument, NULL, OPT_VERDICT },
	{ "kernel-ref", required_argument, NULL, OPT_KERNEL_REF },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "sut", required_argument, NULL, OPT_SUT },
	{ "sut-name", required_argument, NULL, OPT_SUT_NAME },
	{ "campaign", required_argument, NULL, OPT_CAMPAIGN_ID },
	ZAB_STORE_LONGOPTS,
	{ "no-store", no_argument, NULL, OPT_NO_STORE },
	{ "cusezero", required_argument, NULL, OPT_CUSEZERO },
	{ "dry-run", no_argument, NULL, OPT_DRY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NOPROGRESS },
	ZAB_OUTPUT_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct run_cli {
	const char *file, *sut, *title;
	const char *sut_name, *campaign, *store;   /* the store: --store URL; no_store: --no-store */
	bool no_store;
	char *bspecs[CZRES_MAX_ITEMS], *vspecs[CZRES_MAX_ITEMS], *vars[CZRES_MAX_ITEMS];
	char *units[CZRES_MAX_ITEMS], *groups[CZRES_MAX_ITEMS];
	bool lower[CZRES_MAX_ITEMS], timed[CZRES_MAX_ITEMS];
	const char *prepare;
	struct zab_param params[ZAB_MAX_PARAMS];
	size_t nparams;
	double step;               /* --parameter-step-size (0: 1) */
	size_t nb, nv, nvars;
	unsigned sessions, warmups, repeats, retries, timeout;
	bool has_s, has_w, has_r, has_retries, has_order, has_timeout, has_seed, has_coloc, has_indev;
	bool has_verdict, paired;
	bool has_kref, kref_off;   /* --kernel-ref yes|no */
	enum zab_order order;
	struct zab_colocate colocate;
	enum zab_indev in_device;
	char *base;
	const char *placement;   /* --placement, checked */
	const char *only;        /* --only-variants A,B,...: the rest dropped */
};

/* Options that belong to the last --bench.  0 or -1. */
static int bench_option(struct run_cli *cli, int c, const char *arg)
{
	if (!cli->nb) {
		cz_err("--%s must follow a --bench",
			c == OPT_UNIT ? "unit" : c == OPT_LOWER ? "lower" : c == OPT_TIME ? "time" :
			"group");
		return -1;
	}
	if (c == OPT_TIME)
		cli->timed[cli->nb - 1] = true;
	else if (c == OPT_UNIT)
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
		cz_err("--order '%s': expected random, interleave, sequential or abba", arg);
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
		cz_err("--placement '%s': expected fixed, random[:SET][@entry|@loop], sweep[:SET][@...] or rotate[:SET][@...]",
			arg);
		return -1;
	}
	case OPT_INDEV:
		cli->has_indev = true;
		if (!zab_indev_parse(arg, &cli->in_device))
			return 0;
		cz_err("--in-device '%s': expected auto, yes or no", arg);
		return -1;
	case OPT_VERDICT:
		cli->has_verdict = true;
		if (!czres_verdict_parse(arg, &cli->paired))
			return 0;
		cz_err("--verdict '%s': expected overlap or paired", arg);
		return -1;
	case OPT_KERNEL_REF:
		cli->has_kref = true;
		if (!zab_kref_parse(arg, &cli->kref_off))
			return 0;
		cz_err("--kernel-ref '%s': expected yes or no", arg);
		return -1;
	}
	return -1;
}

/* The next argument of an option taking several (hyperfine's --parameter-scan NAME LO HI). */
static const char *next_arg(int argc, char **argv, const char *opt)
{
	if (optind >= argc) {
		cz_err("%s: missing a value (see zab --help)", opt);
		return NULL;
	}
	return argv[optind++];
}

static int parse_double(const char *opt, const char *s, double *out)
{
	char *end;

	if (zab_number(s, false, &end, out) && !*end)
		return 0;
	cz_err("%s '%s': expected a number", opt, s);
	return -1;
}

/* -L NAME=A,B (or NAME A,B), --parameter-scan NAME LO HI, --parameter-step-size D. */
static int param_option(struct run_cli *cli, int c, const char *arg, int argc, char **argv)
{
	struct zab_param *p = &cli->params[cli->nparams];
	const char *eq = strchr(arg, '='), *opt = c == 'L' ? "--parameter-list" : "--parameter-scan";
	const char *a;

	if (c == OPT_PSTEP) {
		if (!parse_double("--parameter-step-size", arg, &cli->step) && cli->step > 0)
			return 0;
		cz_err("--parameter-step-size '%s': expected a number > 0", arg);
		return -1;
	}
	if (cli->nparams == ZAB_MAX_PARAMS) {
		cz_err("%s %s: more than %d parameters", opt, arg, ZAB_MAX_PARAMS);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	if (c == 'L' && eq) {
		p->name = cz_xasprintf("%.*s", (int)(eq - arg), arg);
		p->list = eq + 1;
	} else {
		p->name = cz_xstrdup(arg);
		if (c == 'L' && !(p->list = next_arg(argc, argv, opt)))
			return -1;
		if (c == OPT_PSCAN && (!(a = next_arg(argc, argv, opt)) || parse_double(opt, a, &p->lo) ||
				       !(a = next_arg(argc, argv, opt)) || parse_double(opt, a, &p->hi)))
			return -1;
	}
	cli->nparams++;
	if (!*p->name || strspn(p->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
	    strlen(p->name) || (p->list && !*p->list)) {
		cz_err("%s '%s': expected NAME VALUES (NAME: letters, digits, _; VALUES: A,B,...)", opt, arg);
		return -1;
	}
	return 0;
}

/* One run option: 0, 1 (--help printed) or -1 (error printed; or usage on stderr). */
static int run_option(struct run_cli *cli, struct zab_run_opts *ro, struct out_opts *oo, int c,
		      int argc, char **argv)
{
	uint64_t u;
	int k = zab_output_option(c, optarg, oo);

	if (k)
		return k < 0 ? -1 : 0;
	if (zab_store_option(c, optarg, &cli->store))
		return 0;
	switch (c) {
	case 'e':
		cli->file = optarg;
		return 0;
	case 'b':
	case 'v':
		if ((c == 'b' ? cli->nb : cli->nv) == CZRES_MAX_ITEMS) {
			cz_err("more than %d --%s options", CZRES_MAX_ITEMS,
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
	case OPT_TIME:
		return bench_option(cli, c, optarg);
	case OPT_PREPARE:
		cli->prepare = optarg;
		return 0;
	case OPT_ONLY_VARIANTS:
		cli->only = optarg;
		return 0;
	case 'L':
	case OPT_PSCAN:
	case OPT_PSTEP:
		return param_option(cli, c, optarg, argc, argv);
	case OPT_VAR:
		if (cli->nvars == CZRES_MAX_ITEMS || !strchr(optarg, '=')) {
			cz_err("--var '%s': expected NAME=VALUE", optarg);
			return -1;
		}
		cli->vars[cli->nvars++] = optarg;
		return 0;
	case 'r':
		return setting_option(cli, 'R', optarg) ? -1 : 0;
	case 'S': case 'W': case 'R': case OPT_RETRIES: case OPT_TIMEOUT: case OPT_ORDER:
	case OPT_COLOCATE: case OPT_INDEV: case OPT_PLACEMENT: case OPT_VERDICT: case OPT_KERNEL_REF:
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
	case OPT_SUT_NAME:
		cli->sut_name = optarg;
		return 0;
	case OPT_CAMPAIGN_ID:
		cli->campaign = optarg;
		return 0;
	case OPT_NO_STORE:
		cli->no_store = true;
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
		zab_usage_of(stdout, "run");
		return 1;
	}
	return -1;
}

/*
 * zab run CMD...: words that are no experiment file are commands, as
 * hyperfine's: each a variant (named after it) of one timed benchmark,
 * compared with zab's statistics and zab's options.
 */
static int run_commands(struct run_cli *cli, int argc, char **argv)
{
	char *name;
	size_t k;

	if (cli->file || cli->nb || cli->nv) {
		cz_err("run: unexpected argument '%s' (commands to compare take no --experiment, --bench or --variant)",
		       argv[optind]);
		return -1;
	}
	if (argc - optind > CZRES_MAX_ITEMS) {
		cz_err("run: more than %d commands", CZRES_MAX_ITEMS);
		return -1;
	}
	cli->bspecs[0] = (char *)"command=true";
	cli->groups[0] = (char *)"command";
	cli->timed[0] = cli->lower[0] = true;
	cli->nb = 1;
	for (; optind < argc; optind++) {
		/* the variant's name: the command, without the characters names may not hold */
		name = cz_xasprintf("%s", argv[optind]);
		for (k = 0; name[k]; k++)
			if (strchr("[]=,:{}\"", name[k]) || !isprint((unsigned char)name[k]))
				name[k] = '_';
		cli->vspecs[cli->nv++] = cz_xasprintf("%s:cmd=%s", name, argv[optind]);
		free(name);
	}
	return 0;
}

/* Parse run's command line: 0, 1 (--help: exit 0) or -1 (exit 2). */
static int run_parse(int argc, char **argv, struct run_cli *cli, struct zab_run_opts *ro,
		     struct out_opts *oo)
{
	char bad[8];
	int c, ret;

	/* One line naming a bad option, not the whole usage (":": a missing value is ':') */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:b:v:S:W:R:r:L:s:j:h", run_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			zab_bad_option(c, argv, bad, sizeof(bad));
			return -1;
		}
		ret = run_option(cli, ro, oo, c, argc, argv);
		if (ret)
			return ret;
	}
	if (optind < argc && !cli->file && optind + 1 == argc &&
	    !access(zab_find_experiment(argv[optind]), F_OK))
		cli->file = argv[optind++];
	if (optind < argc && run_commands(cli, argc, argv))
		return -1;
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
			e->vars[i].val = cz_xstrdup(eq + 1);
			return 0;
		}
	if (e->nvars == CZRES_MAX_ITEMS) {
		cz_err("--var '%s': more than %d variables", spec, CZRES_MAX_ITEMS);
		return -1;
	}
	e->vars[e->nvars].key = cz_xasprintf("%.*s", (int)(eq - spec), spec);
	e->vars[e->nvars++].val = cz_xstrdup(eq + 1);
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
	if (cli->has_verdict)
		e->paired = cli->paired;
	if (cli->has_kref)
		e->no_kernel_ref = cli->kref_off;
	for (b = 0; cli->has_indev && b < e->nbench; b++)
		e->bench[b].in_device = cli->in_device;
	if (cli->title) {
		free(e->name);
		e->name = cz_xstrdup(cli->title);
	}
	if (cli->base) {
		free(e->base);
		e->base = cz_xstrdup(cli->base);
	}
	if (cli->prepare) {
		free(e->prepare);
		e->prepare = *cli->prepare ? cz_xstrdup(cli->prepare) : NULL;
	}
}

/* Every benchmark's group: the program's name after {var} expansion ("{pread} ..." -> pread_z100k). */
static void default_groups(struct zab_experiment *e)
{
	size_t b;

	for (b = 0; b < e->nbench; b++) {
		if (!e->bench[b].group) {
			char *bad = NULL, *x = zab_expand(e->bench[b].cmd, e->vars, e->nvars, &bad);

			e->bench[b].group = cz_xstrdup(group_of(x ? x : e->bench[b].cmd));
			free(x);
			free(bad);
		}
		if (!e->bench[b].unit)
			e->bench[b].unit = cz_xstrdup("");
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
		bb->unit = cz_xstrdup(cli->units[i]);
		bb->group = cz_xstrdup(cli->groups[i]);
		bb->higher = !cli->lower[i];
		if (cli->timed[i])
			bb->measure = ZAB_MEASURE_TIME;
	}
	if (cli->nparams && zab_param_variants(e, cli->params, cli->nparams, cli->step,
						   cli->vspecs, cli->nv))
		return -1;
	for (i = 0; i < cli->nv && !cli->nparams; i++)
		if (zab_variant_spec(e, cli->vspecs[i]))
			return -1;
	for (i = 0; i < cli->nvars; i++)
		if (apply_var(e, cli->vars[i]))
			return -1;
	apply_settings(e, cli);
	if (zab_experiment_check(e) || zab_colocate_check(&e->colocate))
		return -1;
	/* after the check: a sequence's steps exist once it has expanded them */
	if (cli->only && zab_experiment_only(e, cli->only))
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
static int result_init(struct czres_result *r, const struct zab_experiment *e, const struct run_cli *cli)
{
	size_t v;

	r->sut = cli->sut ? cz_xstrdup(cli->sut) : zab_default_sut();
	r->title = cz_xstrdup(e->name ? e->name : (cli->file ? cli->file : "command line"));
	r->sessions = e->sessions;
	r->warmups = e->warmups;
	r->repeats = e->repeats;
	r->paired = e->paired;
	if (zab_result_rows(r, e))
		return -1;
	r->nv = e->nvar;
	for (v = 0; v < e->nvar; v++) {
		r->vname[v] = cz_xstrdup(e->var[v].name);
		r->vparams[v] = cz_xstrdup("");
		/* a sequence step's label, as the document's (resultjson.c) */
		if (e->var[v].seq && e->var[v].label && *e->var[v].label)
			r->vlabel[v] = cz_xstrdup(e->var[v].label);
		for (size_t i = 0; i < e->var[v].nvars; i++) {
			char *t = cz_xasprintf("%s%s=%s\n", r->vparams[v], e->var[v].vars[i].key,
					       e->var[v].vars[i].val);

			free(r->vparams[v]);
			r->vparams[v] = t;
		}
		if (e->base && !strcmp(e->base, e->var[v].name))
			r->base = v;
	}
	r->cells = calloc(r->nb * r->nv, sizeof(*r->cells));
	if (!r->cells)
		abort();
	return 0;
}

/*
 * What a run of the experiment file would record but its samples and the
 * facts of the run: its benchmarks' and variants' settings as zab run
 * writes them (the routine sources hashed now), so a stored run can be
 * held against the file by the pooling rule (czres_pool_check).  The
 * command's row of a benchmark whose measure its first run decides (no
 * unit, no measure) says "measure": "auto".  NULL after one line.
 */
json_t *zab_run_frame(const char *file)
{
	struct run_cli *cli = cz_xmalloc(sizeof(*cli));
	struct zab_experiment e = { .sessions = 1 };
	struct czres_result r = { 0 };
	json_t *doc = NULL;
	size_t b;

	memset(cli, 0, sizeof(*cli));
	cli->file = file;
	cli->sut = "frame";
	if (!run_build(&e, cli) && !result_init(&r, &e, cli)) {
		for (b = 0; b < r.nb; b++)
			r.b[b].timed = r.b[b].kind == CZRES_RK_CMD &&
				       e.bench[r.b[b].src].measure == ZAB_MEASURE_TIME;
		doc = zab_result_json(&r, &e, cz_jobj(), NULL, NULL, 0);
		for (b = 0; b < r.nb; b++)
			if (r.b[b].kind == CZRES_RK_CMD && e.bench[r.b[b].src].measure == ZAB_MEASURE_AUTO)
				cz_jset(json_array_get(json_object_get(doc, "benchmarks"), b), "measure",
					cz_jstr("auto"));
	}
	czres_result_free(&r);
	zab_experiment_free(&e);
	free(cli);
	return doc;
}

static void announce(const struct czres_result *r, const struct zab_experiment *e, uint64_t seed)
{
	cz_err("%s: %zu benchmark%s x %zu variants, %u session%s x (%u warm-up%s + %u repeat%s) = %zu runs; order %s, seed %llu (replay: --seed %llu)",
		r->title, e->nbench, e->nbench == 1 ? "" : "s", e->nvar, e->sessions,
		e->sessions == 1 ? "" : "s", e->warmups, e->warmups == 1 ? "" : "s", e->repeats,
		e->repeats == 1 ? "" : "s",
		(size_t)e->sessions * (e->warmups + e->repeats) * e->nbench * e->nvar,
		zab_order_name(e->order), (unsigned long long)seed, (unsigned long long)seed);
}

static void now_iso(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The run: its UUID, when, the campaign and the SUT's name (the store's keys). */
static json_t *run_json(const struct run_cli *cli, const char *started)
{
	json_t *o = cz_jobj();
	char uuid[37], ended[32];
	struct utsname u;

	czs_random_uuid(uuid);
	now_iso(ended, sizeof(ended));
	cz_jset(o, "uuid", cz_jstr(uuid));
	cz_jset(o, "started", cz_jstr(started));
	cz_jset(o, "ended", cz_jstr(ended));
	cz_jset(o, "campaign", cz_jstr(cli->campaign ? cli->campaign : ""));
	cz_jset(o, "sut_name", cz_jstr(cli->sut_name ? cli->sut_name :
				       !uname(&u) ? u.nodename : "unknown"));
	return o;
}

/*
 * The run into the store (a lost PostgreSQL connection is opened again);
 * failing that, its document kept in the state folder and named, so a
 * measured run is never lost: 0, or -1 after one line.
 */
static int record(struct czs *s, json_t *doc)
{
	const char *id = json_string_value(json_object_get(json_object_get(doc, "run"), "uuid"));
	char uuid[37], err[1024], e2[1024], kept[4400];
	bool already;
	int ret = czs_put_run(s, doc, "this run", uuid, &already, err, sizeof(err));

	if (!ret) {
		cz_err("recorded run %s in %s", uuid, czs_name(s));
		return 0;
	}
	if (czs_keep_unstored(doc, id ? id : "run", czs_url(s), kept, sizeof(kept), e2, sizeof(e2)))
		cz_err("this run: not stored in %s: %s; not kept either: %s", czs_name(s),
		       err[0] ? err : "not a zab result", e2);
	else
		cz_err("this run: not stored in %s: %s; kept in %s (zab store flush stores it)", czs_name(s),
		       err[0] ? err : "not a zab result", kept);
	return -1;
}

int zab_cmd_run(int argc, char **argv)
{
	static struct run_cli cli;
	struct zab_experiment e = { .sessions = 1 };
	struct zab_run_opts ro = { .progress = isatty(2) };
	struct czres_result r = { 0 }, *rp = &r;
	struct czs *store = NULL;
	json_t *devinfo = cz_jarr(), *sessinfo = cz_jarr(), *kref = NULL;
	struct out_opts oo;
	char started[32] = "";
	int ret = 2;

	memset(&cli, 0, sizeof(cli));
	zab_out_init(&oo);
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
		/* a store that cannot be opened fails now, not after the experiment */
		if (!cli.no_store && !(store = zab_store_open(cli.store)))
			goto out;
		if (zab_outputs_open(&oo))
			goto out;
		now_iso(started, sizeof(started));
		announce(&r, &e, ro.seed);
		/* before the sessions, once: no daemon of the run is up yet */
		if (!e.no_kernel_ref)
			kref = zab_kernel_ref(&e);
	}
	ret = zab_run(&e, &ro, &r, devinfo, sessinfo);
	if (ret < 0 || ro.dry_run) {
		zab_outputs_discard(&oo);
		if (ret == -EINTR)
			zab_reraise();
		ret = ret < 0 ? 2 : 0;
		goto out;
	}
	r.doc = zab_result_json(&r, &e, zab_environment(json_incref(kref)), devinfo, sessinfo, ro.seed);
	cz_jset(r.doc, "run", run_json(&cli, started));
	if (zab_output(&rp, 1, r.doc, &oo))
		ret = 1;
	if (store && record(store, r.doc))
		ret = 1;
out:
	czs_close(store);
	json_decref(devinfo);
	json_decref(sessinfo);
	json_decref(kref);
	czres_result_free(&r);
	zab_experiment_free(&e);
	return ret;
}
