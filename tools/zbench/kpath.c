/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench kpath: what each kernel release runs for clear_user and
 * clear_page on this CPU (or a described one), read from the releases' own
 * trees (zeroing/kpath.h), and why:
 *
 *   zbench kpath --tree /var/cache/cusezero-ksrc/6.12/linux-source-6.12
 *   zbench kpath --tree T1 --tree T2 --alt FSRS=off --path clear_user -v
 *   zbench kpath --tree T --cpu amd:0x19:erms,fsrm --load
 *
 * Exit status: 0, 1 when a release cannot be resolved (one line each on
 * stderr) or a routine not loaded, 2 for a bad option.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpath.h"
#include "zbench.h"
#include "util.h"

#define KP_MAX_TREES 16

struct kp_params {
	const char *trees[KP_MAX_TREES];
	unsigned ntrees;
	bool paths[2], verbose, load;
	const char *cpu_desc;
	const char *alts[ZERO_KPATH_MAX_FORCED];
	unsigned nalts;
};

static void kpath_usage(FILE *out)
{
	fprintf(out,
		"\n Usage: zbench kpath --tree DIR [--tree DIR ...] [options]\n\n"
		"    -t, --tree <dir>        a kernel tree (its top Makefile names the release)\n"
		"    -p, --path <name>       clear_user or clear_page (default: both)\n"
		"        --cpu <v:fam[/model][:f,..]>  a described CPU instead of this one: vendor (amd,\n"
		"                            intel, hygon, centaur, zhaoxin), family, model, CPUID bits\n"
		"                            (erms, fsrm, fsrs)\n"
		"        --alt <F=on|off>    assume the kernel's final flag F (REP_GOOD, ERMS, FSRM, FSRS)\n"
		"    -v, --verbose           each alternative and each vendor rule read, with file:line\n"
		"        --load              also assemble, check and register each routine (this CPU)\n"
		"    -h, --help              this text\n\n"
		" One line per release and path: what runs, and why.  --source kpath:DIR:PATH runs it\n"
		" in zbench memset, align and zab like any routine.  Exit status 0, 1 a release not\n"
		" resolved or a routine not loaded, 2 bad option.\n");
}

static int kpath_parse(int argc, char **argv, struct kp_params *kp)
{
	enum { OPT_CPU = 256, OPT_ALT, OPT_LOAD };
	static const struct option opts[] = {
		{ "tree",    required_argument, NULL, 't' },
		{ "path",    required_argument, NULL, 'p' },
		{ "cpu",     required_argument, NULL, OPT_CPU },
		{ "alt",     required_argument, NULL, OPT_ALT },
		{ "verbose", no_argument,       NULL, 'v' },
		{ "load",    no_argument,       NULL, OPT_LOAD },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum zero_kpath_path p;
	char bad[8];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "t:p:vh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (kp->ntrees == KP_MAX_TREES) {
				cz_err("kpath: --tree %s: at most %d trees", optarg, KP_MAX_TREES);
				return 2;
			}
			kp->trees[kp->ntrees++] = optarg;
			break;
		case 'p':
			if (zero_kpath_path_parse(optarg, &p)) {
				cz_err("kpath: --path '%s': expected clear_user or clear_page", optarg);
				return 2;
			}
			kp->paths[p] = true;
			break;
		case OPT_CPU: kp->cpu_desc = optarg; break;
		case OPT_ALT:
			if (kp->nalts == ZERO_KPATH_MAX_FORCED) {
				cz_err("kpath: --alt %s: at most %d", optarg, ZERO_KPATH_MAX_FORCED);
				return 2;
			}
			kp->alts[kp->nalts++] = optarg;
			break;
		case 'v': kp->verbose = true; break;
		case OPT_LOAD: kp->load = true; break;
		case 'h': kpath_usage(stdout); return 0;
		default:
			cz_unknown_option(cz_getopt_bad(argv, optind, optopt, bad, sizeof(bad)));
		}
	}
	if (optind < argc) {
		cz_err("kpath: unexpected argument '%s' (see zbench kpath -h)", argv[optind]);
		return 2;
	}
	if (!kp->ntrees) {
		cz_err("kpath: name a kernel tree with --tree (see zbench kpath -h)");
		return 2;
	}
	if (!kp->paths[0] && !kp->paths[1])
		kp->paths[0] = kp->paths[1] = true;
	return -1;
}

/* The CPU line: what the releases are asked about. */
static void print_cpu(const struct zero_kpath_cpu *c, const struct kp_params *kp)
{
	unsigned i;

	printf("# CPU: %s family %#x model %#x; CPUID erms %s, fsrm %s, fsrs %s (%s)\n", c->vendor,
	       c->family, c->model, c->erms ? "yes" : "no", c->fsrm ? "yes" : "no",
	       c->fsrs ? "yes" : "no", c->described ? "described by --cpu" : "this CPU");
	for (i = 0; i < c->nforced; i++)
		printf("# assumed: X86_FEATURE_%s %s (--alt)\n", c->forced[i], c->forced_on[i] ? "on" : "off");
	(void)kp;
}

static int one(const struct kp_params *kp, const struct zero_kpath_cpu *cpu, const char *tree,
	       enum zero_kpath_path p)
{
	struct zero_kpath_res *r = calloc(1, sizeof(*r));
	const struct zero_routine *rt;
	char err[1024];
	int ret;

	if (!r)
		return -ENOMEM;
	ret = zero_kpath_resolve(tree, p, cpu, r, err, sizeof(err));
	if (ret) {
		cz_err("kpath: %s", err);
		free(r);
		return ret;
	}
	printf("%s\n", r->summary);
	if (kp->verbose)
		printf("  runs: %s %s %s; contract: %s\n%s", r->is_inline ? r->insn : r->symbol,
		       r->is_inline ? "inline at" : "in", r->is_inline ? r->site : r->file, r->contract,
		       r->detail);
	if (kp->load) {
		ret = zero_kpath_load(r, kp->alts, kp->nalts, &rt, err, sizeof(err));
		if (ret)
			cz_err("kpath: %s", err);
		else
			printf("  loaded: %s (%s)\n", rt->name, rt->desc);
	}
	free(r);
	return ret;
}

int zb_kpath_main(int argc, char **argv)
{
	struct kp_params kp = { .ntrees = 0 };
	struct zero_kpath_cpu cpu;
	char err[512];
	unsigned i, p;
	int ret = kpath_parse(argc, argv, &kp), bad = 0;

	if (ret >= 0)
		return ret;
	if (kp.cpu_desc && kp.load) {
		cz_err("kpath: --load runs on this CPU: it does not go with --cpu %s", kp.cpu_desc);
		return 2;
	}
	ret = kp.cpu_desc ? zero_kpath_cpu_parse(kp.cpu_desc, &cpu, err, sizeof(err)) :
	      zero_kpath_cpu_host(&cpu, err, sizeof(err));
	for (i = 0; !ret && i < kp.nalts; i++)
		ret = zero_kpath_force(&cpu, kp.alts[i], err, sizeof(err));
	if (ret) {
		cz_err("kpath: %s", err);
		return ret == -EINVAL || ret == -E2BIG ? CZ_EXIT_USAGE : CZ_EXIT_FAILURE;
	}
	print_cpu(&cpu, &kp);
	for (i = 0; i < kp.ntrees; i++) {
		char release[32];

		/* not a tree: one line for it, not one per path */
		if (zero_kpath_release(kp.trees[i], release, sizeof(release), err, sizeof(err))) {
			cz_err("kpath: %s", err);
			bad = 1;
			continue;
		}
		for (p = 0; p < 2; p++)
			if (kp.paths[p] && one(&kp, &cpu, kp.trees[i], (enum zero_kpath_path)p))
				bad = 1;
	}
	if (cz_stdout_flush())
		return CZ_EXIT_FAILURE;
	return bad ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
}
