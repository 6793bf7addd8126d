/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench kernel: the running kernel's clear_user per 4 KiB chunk and page
 * clearing per 2 MiB fault, beside every usable routine timed the same way,
 * and the routine the kernel behaves like (zeroing/kref.h measures):
 *
 *   zbench kernel                         the table
 *   zbench kernel --format simple         the kernel's ns per 4 KiB chunk
 *   zbench kernel -s 16KB,64KB,256KB -r 101 --device /mnt/z/zero --json
 *
 * Exit status: 0, 1 when /dev/zero cannot be measured, 2 for a bad option.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kpath.h"
#include "kref.h"
#include "zbench.h"
#include "util.h"

/* Where scripts/kernel-sources.sh keeps the trees (VERSION/linux-source-*). */
#define KERNEL_TREES "/var/cache/cusezero-ksrc"

struct kernel_params {
	struct zero_kref_opts o;
	enum cz_format format;
	const struct zero_routine *list[64];
	const char *sizes_str;
	const char *tree;                       /* --tree: a tree or a folder of them */
	const char *alts[ZERO_KPATH_MAX_FORCED]; /* --alt F=on|off */
	unsigned nalts;
	/* the running kernel's path: the tree picked, what it resolves to, or why not */
	struct zero_kpath_pick pick;
	struct zero_kpath_res *res;
	char kwhy[1024];
};

static void kernel_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench kernel [options]\n\n"
		"    -s, --sizes <list>      pread sizes, 2 to %d, multiples of 4KB up to 16MB\n"
		"                            (default 16KB,256KB): the slope over them is the cost per chunk\n"
		"    -r, --rounds <n>        rounds, each timing everything at every size (default %d, 3..%d)\n"
		"    -f, --function <list>   routines beside the kernel, A,B,... (default: every usable\n"
		"                            built-in one; help lists them)\n"
		"        --device <file>     also measure FILE as a zero device (a cusezero FUSE file or\n"
		"                            CUSE node), and the routine it behaves like\n"
		"        --no-thp            skip the 2 MiB transparent-huge-page faults\n"
		"        --tree <dir>        the kernel tree (or folder of trees) the running kernel's\n"
		"                            clear_user is resolved with (default %s: its\n"
		"                            release's tree, else the nearest below it)\n"
		"        --alt <F=on|off>    resolve as if the kernel's flag F (REP_GOOD, ERMS, FSRM,\n"
		"                            FSRS) were so: a what-if\n"
		"        --format <fmt>      default | simple (the kernel's ns per 4 KiB chunk) | json\n"
		"        --json              same as --format json\n"
		"    -h, --help              this text\n\n"
		" Figures: ns per 4 KiB chunk, the median over rounds and its 95%% CI; vs kernel is\n"
		" the row's figure over the kernel's; the resolved row is what the running kernel's\n"
		" release runs here (zbench kpath), said to agree with the kernel or not.\n"
		" Exit status 0, 1 failure, 2 bad option.\n",
		ZERO_KREF_MAX_SIZES, ZERO_KREF_ROUNDS, ZERO_KREF_MAX_ROUNDS, KERNEL_TREES);
}

static void list_routines(void)
{
	const char *why;
	size_t i;

	printf("Available functions:\n");
	for (i = 0; i < zero_nroutines; i++)
		if (zero_usable(&zero_routines[i], &why))
			printf("\t%s ... %s\n", zero_routines[i].name, zero_routines[i].desc);
}

/* -s A,B,...: 0, or 2 after one line. */
static int parse_sizes(struct kernel_params *kp, const char *arg)
{
	char buf[256], *save = NULL, *tok;
	uint64_t v;

	kp->o.nsizes = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (kp->o.nsizes == ZERO_KREF_MAX_SIZES || cz_parse_size(tok, &v) || !v ||
		    v % ZERO_KREF_CHUNK || v > ZERO_KREF_MAX_SIZE) {
			cz_err("--sizes '%s': '%s' is not a multiple of 4KB up to 16MB, or more than %d sizes",
			       arg, tok, ZERO_KREF_MAX_SIZES);
			return 2;
		}
		kp->o.sizes[kp->o.nsizes++] = (size_t)v;
	}
	if (kp->o.nsizes < 2) {
		cz_err("--sizes '%s': give two sizes or more (the slope between them is the cost per chunk)",
		       arg);
		return 2;
	}
	return 0;
}

/* -f A,B,...: 0, 2 after one line, or -1 after "help"'s list. */
static int parse_functions(struct kernel_params *kp, const char *arg)
{
	char buf[1024], *save = NULL, *tok;
	const struct zero_routine *r;
	const char *why;

	if (!strcmp(arg, "help")) {
		list_routines();
		return -1;
	}
	kp->o.nroutines = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!(r = zb_resolve(tok))) {
			cz_err("--function '%s': no routine '%s' (zbench kernel -f help lists them)", arg, tok);
			return 2;
		}
		if (!zero_usable(r, &why)) {
			cz_err("--function '%s': '%s' is not usable on this CPU: %s", arg, tok, why);
			return 2;
		}
		if (kp->o.nroutines == CZ_ARRAY_SIZE(kp->list)) {
			cz_err("--function '%s': more than %zu routines", arg, CZ_ARRAY_SIZE(kp->list));
			return 2;
		}
		kp->list[kp->o.nroutines++] = r;
	}
	if (!kp->o.nroutines) {
		cz_err("--function '%s': name one routine or more", arg);
		return 2;
	}
	kp->o.routines = kp->list;
	return 0;
}

enum { OPT_DEVICE = 256, OPT_NO_THP, OPT_FORMAT, OPT_JSON, OPT_TREE, OPT_ALT };

/* --alt F=on|off: 0, or 2 after one line naming it. */
static int parse_alt(struct kernel_params *kp, const char *arg)
{
	struct zero_kpath_cpu scratch = { .nforced = 0 };
	char err[256];

	if (kp->nalts == ZERO_KPATH_MAX_FORCED) {
		cz_err("--alt '%s': at most %d", arg, ZERO_KPATH_MAX_FORCED);
		return 2;
	}
	if (zero_kpath_force(&scratch, arg, err, sizeof(err))) {
		cz_err("%s", err);
		return 2;
	}
	kp->alts[kp->nalts++] = arg;
	return 0;
}

/* The options: -1 to go on, else the exit status. */
static int kernel_parse(int argc, char **argv, struct kernel_params *kp)
{
	static const struct option opts[] = {
		{ "sizes",    required_argument, NULL, 's' },
		{ "rounds",   required_argument, NULL, 'r' },
		{ "function", required_argument, NULL, 'f' },
		{ "device",   required_argument, NULL, OPT_DEVICE },
		{ "no-thp",   no_argument,       NULL, OPT_NO_THP },
		{ "format",   required_argument, NULL, OPT_FORMAT },
		{ "json",     no_argument,       NULL, OPT_JSON },
		{ "tree",     required_argument, NULL, OPT_TREE },
		{ "alt",      required_argument, NULL, OPT_ALT },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char bad[8];
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:r:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': if ((ret = parse_sizes(kp, optarg))) return ret; break;
		case 'r':
			kp->o.rounds = cz_opt_uint("--rounds", optarg, 3, ZERO_KREF_MAX_ROUNDS);
			break;
		case 'f': if ((ret = parse_functions(kp, optarg))) return ret < 0 ? 0 : ret; break;
		case OPT_DEVICE: kp->o.device = optarg; break;
		case OPT_NO_THP: kp->o.no_thp = true; break;
		case OPT_TREE: kp->tree = optarg; break;
		case OPT_ALT: if ((ret = parse_alt(kp, optarg))) return ret; break;
		case OPT_JSON: kp->format = CZ_FORMAT_JSON; break;
		case OPT_FORMAT:
			if (cz_format_parse(optarg, &kp->format)) {
				cz_err("--format '%s': expected %s", optarg, CZ_FORMAT_NAMES);
				return 2;
			}
			break;
		case 'h': kernel_usage(stdout); return 0;
		default:
			cz_unknown_option(cz_getopt_bad(argv, optind, optopt, bad, sizeof(bad)));
		}
	}
	if (optind < argc) {
		cz_err("kernel: unexpected argument '%s' (see zbench kernel -h)", argv[optind]);
		return 2;
	}
	return -1;
}

/* ---- the running kernel's own path ------------------------------------------------------ */

/*
 * What the running kernel's release runs for clear_user on this CPU (with
 * --alt, on the CPU assumed), loaded as a routine into kp->o.resolved; else
 * kp->kwhy says why not (no tree, not x86-64, a release not understood).
 */
static void resolve_running(struct kernel_params *kp)
{
	const struct zero_routine *rt;
	struct zero_kpath_cpu cpu;
	struct utsname u;
	char err[1024];
	unsigned i;
	int ret;

	if (uname(&u)) {
		snprintf(kp->kwhy, sizeof(kp->kwhy), "uname: %s", strerror(errno));
		return;
	}
	ret = zero_kpath_cpu_host(&cpu, err, sizeof(err));
	for (i = 0; !ret && i < kp->nalts; i++)
		ret = zero_kpath_force(&cpu, kp->alts[i], err, sizeof(err));
	if (!ret)
		ret = zero_kpath_pick(kp->tree ? kp->tree : KERNEL_TREES, u.release, &kp->pick, err,
				      sizeof(err));
	if (!ret && !(kp->res = calloc(1, sizeof(*kp->res))))
		ret = -ENOMEM, snprintf(err, sizeof(err), "out of memory");
	if (!ret)
		ret = zero_kpath_resolve(kp->pick.tree, ZERO_KPATH_CLEAR_USER, &cpu, kp->res, err,
					 sizeof(err));
	if (!ret)
		ret = zero_kpath_load(kp->res, kp->alts, kp->nalts, &rt, err, sizeof(err));
	if (ret) {
		snprintf(kp->kwhy, sizeof(kp->kwhy), "%s", err);
		free(kp->res);
		kp->res = NULL;
		return;
	}
	kp->o.resolved = rt;
}

/* ---- output ----------------------------------------------------------------------------- */

/* The CPU's model string without the blanks CPUID pads it with. */
static const char *cpu_model(char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s", zero_cpu()->model[0] ? zero_cpu()->model : "unknown");
	for (n = strlen(buf); n && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
	return buf;
}

static void row(int w, const char *label, const struct zero_kref_est *e, double ratio)
{
	if (!e->ok) {
		printf("%-*s  not measured: %s\n", w, label, e->why);
		return;
	}
	printf("%-*s  %9.2f  [%8.2f, %8.2f]", w, label, e->ns, e->lo, e->hi);
	if (!isnan(ratio))
		printf("  %6.2f", ratio);
	printf("\n");
}

/* The resolved row's label: "resolved 6.12.118:clear_user". */
static void resolved_label(const struct zero_kref *k, char *buf, size_t len)
{
	snprintf(buf, len, "resolved %s", k->resolved.r ? k->resolved.r->name : "");
}

/* Which tree, what it runs and what was assumed: before the rows. */
static void print_kpath_head(const struct kernel_params *kp)
{
	unsigned i;

	if (!kp->res) {
		if (kp->pick.tree[0])
			printf("# kernel path: %s\n", kp->pick.how);
		printf("# kernel path: not resolved: %s\n", kp->kwhy);
		return;
	}
	printf("# kernel path: %s\n# %s\n", kp->pick.how, kp->res->summary);
	for (i = 0; i < kp->nalts; i++)
		printf("# assumed: %s (--alt): a what-if, not this kernel\n", kp->alts[i]);
}

/* The closest routine and the resolved path's verdict: after the rows. */
static void print_verdicts(const struct zero_kref *k, const struct kernel_params *kp)
{
	const struct zero_kref_routine *nearer;
	struct zero_kref_cmp c;
	char text[256], ntext[256];
	size_t i;

	for (i = 0; k->closest && i < k->nroutines; i++)
		if (k->routines[i].r == k->closest) {
			zero_kref_compare(&k->kernel, &k->routines[i].est, &c);
			zero_kref_cmp_text(&c, text, sizeof(text));
			printf("# closest: %s, %s\n", k->closest->name, text);
		}
	if (!k->resolved.r)
		return;
	zero_kref_compare(&k->kernel, &k->resolved.est, &c);
	zero_kref_cmp_text(&c, text, sizeof(text));
	printf("# resolved %s (%s): %s; ", k->resolved.r->name, kp->res->brief, text);
	switch (zero_kref_verdict(k, &nearer)) {
	case ZERO_KREF_AGREES_INSIDE:
		printf("agrees with the kernel (within its 95%% interval)\n");
		break;
	case ZERO_KREF_AGREES_NEAREST:
		printf("agrees with the kernel (no routine told apart from it lies between them)\n");
		break;
	case ZERO_KREF_DISAGREES:
		zero_kref_compare(&k->kernel, &nearer->est, &c);
		zero_kref_cmp_text(&c, ntext, sizeof(ntext));
		printf("DISAGREES: %s, told apart from it, lies between it and the kernel (%s): "
		       "the emulation is not to be trusted here\n", nearer->r->name, ntext);
		break;
	default:
		printf("no verdict: a figure is missing\n");
	}
}

static void print_table(const struct zero_kref *k, const struct kernel_params *kp)
{
	char sizes[256] = "", one[32], label[320], cpu[128];
	struct utsname u;
	int w = (int)strlen("kernel clear_user (/dev/zero)");
	size_t i;

	for (i = 0; i < k->opts.nsizes; i++)
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%s", i ? ", " : "",
			 cz_format_size(k->opts.sizes[i], one, sizeof(one)));
	zb_emul_note(CZ_FORMAT_DEFAULT);
	printf("# zbench kernel: the running kernel's clear_user per 4 KiB chunk, the slope of\n"
	       "# pread() time on /dev/zero over %s (drivers/char/mem.c read_zero)\n", sizes);
	printf("# CPU: %s; kernel %s; %u rounds: median and its 95%% CI; routines in 4 KiB calls\n",
	       cpu_model(cpu, sizeof(cpu)), uname(&u) ? "?" : u.release,
	       k->opts.rounds);
	print_kpath_head(kp);
	for (i = 0; i < k->nroutines; i++)
		w = (int)strlen(k->routines[i].r->name) > w ? (int)strlen(k->routines[i].r->name) : w;
	if (k->opts.device && (int)strlen(k->opts.device) + 7 > w)
		w = (int)strlen(k->opts.device) + 7;
	resolved_label(k, label, sizeof(label));
	if (k->resolved.r && (int)strlen(label) > w)
		w = (int)strlen(label);
	printf("%-*s  %9s  %20s  %s\n", w, "", "ns/4KiB", "95% CI        ", "vs kernel");
	row(w, "kernel clear_user (/dev/zero)", &k->kernel, NAN);
	if (k->resolved.r)
		row(w, label, &k->resolved.est, k->resolved.ratio);
	if (k->opts.device) {
		snprintf(label, sizeof(label), "device %s", k->opts.device);
		row(w, label, &k->device, k->device_ratio);
	}
	for (i = 0; i < k->nroutines; i++)
		row(w, k->routines[i].r->name, &k->routines[i].est, k->routines[i].ratio);
	printf("%-*s  ", w, "kernel 2 MiB THP fault, per page");
	if (k->thp.ok)
		printf("%9.2f  [%8.2f, %8.2f]  (%zu faults, THP %s)\n", k->thp.ns, k->thp.lo, k->thp.hi,
		       k->thp.n, k->thp_mode);
	else
		printf("not measured: %s\n", k->thp.why);
	print_verdicts(k, kp);
}

/* "kpath": the tree, how it was picked, what it runs; or why not resolved. */
static void kpath_json(json_t *d, const struct kernel_params *kp)
{
	json_t *o = cz_jset(d, "kpath", cz_jobj()), *a;
	unsigned i;

	if (kp->pick.tree[0])
		cz_jset(o, "how", cz_jstr(kp->pick.how));
	if (!kp->res) {
		cz_jset(o, "skipped", cz_jstr(kp->kwhy));
		return;
	}
	cz_jset(o, "tree", cz_jstr(kp->pick.tree));
	cz_jset(o, "release", cz_jstr(kp->pick.release));
	cz_jset(o, "own_release", json_boolean(kp->pick.own));
	cz_jset(o, "summary", cz_jstr(kp->res->summary));
	cz_jset(o, "brief", cz_jstr(kp->res->brief));
	a = cz_jset(o, "assumed", cz_jarr());
	for (i = 0; i < kp->nalts; i++)
		cz_jpush(a, cz_jstr(kp->alts[i]));
}

static void print_json(const struct zero_kref *k, const struct kernel_params *kp)
{
	json_t *d = cz_jobj(), *kj;
	struct utsname u;
	char cpu[128];

	cz_jset(d, "benchmark", cz_jstr("kernel"));
	zb_emul_json(d);
	cz_jset(d, "cpu", cz_jstr(cpu_model(cpu, sizeof(cpu))));
	if (!uname(&u))
		cz_jset(d, "kernel_release", cz_jstr(u.release));
	kpath_json(d, kp);
	kj = zero_kref_json(k);
	if (json_object_update(d, kj))
		cz_jset(d, "", NULL);	/* out of memory: exits */
	json_decref(kj);
	cz_json_dump(stdout, d, CZ_JSON_PRETTY);
	json_decref(d);
}

int zb_kernel_main(int argc, char **argv)
{
	struct kernel_params kp = { .format = zb_global_format };
	struct zero_kref k;
	char err[512];
	int ret = kernel_parse(argc, argv, &kp);

	if (ret >= 0)
		return ret;
	if (kp.format != CZ_FORMAT_SIMPLE)
		resolve_running(&kp);
	ret = zero_kref_measure(&kp.o, &k, err, sizeof(err));
	if (ret) {
		cz_err("kernel: %s", err);
		zero_kref_free(&k);
		free(kp.res);
		return ret == -EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAILURE;
	}
	if (kp.format == CZ_FORMAT_SIMPLE) {
		zb_emul_note(CZ_FORMAT_SIMPLE);
		printf("%.2f\n", k.kernel.ns);
	}
	else if (kp.format == CZ_FORMAT_JSON)
		print_json(&k, &kp);
	else
		print_table(&k, &kp);
	zero_kref_free(&k);
	free(kp.res);
	return cz_stdout_flush() ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
}
