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

#include "kref.h"
#include "zbench.h"
#include "util.h"

struct kernel_params {
	struct zero_kref_opts o;
	enum cz_format format;
	const struct zero_routine *list[64];
	const char *sizes_str;
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
		"        --format <fmt>      default | simple (the kernel's ns per 4 KiB chunk) | json\n"
		"        --json              same as --format json\n"
		"    -h, --help              this text\n\n"
		" Figures: ns per 4 KiB chunk, the median over rounds and its 95%% CI; vs kernel is\n"
		" the row's figure over the kernel's.  Exit status 0, 1 failure, 2 bad option.\n",
		ZERO_KREF_MAX_SIZES, ZERO_KREF_ROUNDS, ZERO_KREF_MAX_ROUNDS);
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

enum { OPT_DEVICE = 256, OPT_NO_THP, OPT_FORMAT, OPT_JSON };

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

static void print_table(const struct zero_kref *k)
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
	for (i = 0; i < k->nroutines; i++)
		w = (int)strlen(k->routines[i].r->name) > w ? (int)strlen(k->routines[i].r->name) : w;
	if (k->opts.device && (int)strlen(k->opts.device) + 7 > w)
		w = (int)strlen(k->opts.device) + 7;
	printf("%-*s  %9s  %20s  %s\n", w, "", "ns/4KiB", "95% CI        ", "vs kernel");
	row(w, "kernel clear_user (/dev/zero)", &k->kernel, NAN);
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
	if (k->closest)
		printf("# the kernel's clear_user is like %s: %.2f vs %.2f ns per 4 KiB chunk (%.2fx)\n",
		       k->closest->name, k->kernel.ns, k->kernel.ns * k->closest_ratio, k->closest_ratio);
}

static void print_json(const struct zero_kref *k)
{
	json_t *d = cz_jobj(), *kj;
	struct utsname u;
	char cpu[128];

	cz_jset(d, "benchmark", cz_jstr("kernel"));
	zb_emul_json(d);
	cz_jset(d, "cpu", cz_jstr(cpu_model(cpu, sizeof(cpu))));
	if (!uname(&u))
		cz_jset(d, "kernel_release", cz_jstr(u.release));
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
	ret = zero_kref_measure(&kp.o, &k, err, sizeof(err));
	if (ret) {
		cz_err("kernel: %s", err);
		zero_kref_free(&k);
		return ret == -EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAILURE;
	}
	if (kp.format == CZ_FORMAT_SIMPLE) {
		zb_emul_note(CZ_FORMAT_SIMPLE);
		printf("%.2f\n", k.kernel.ns);
	}
	else if (kp.format == CZ_FORMAT_JSON)
		print_json(&k);
	else
		print_table(&k);
	zero_kref_free(&k);
	return cz_stdout_flush() ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
}
