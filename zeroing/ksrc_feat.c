/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The features alternative sites depend on, decided as the kernel decides
 * them at boot (arch/x86/kernel/alternative.c apply_alternatives(),
 * arch/arm64/kernel/alternative.c): from this CPU (zero_cpu(): CPUID on
 * x86-64, HWCAP2 on arm64), unless --alt FEATURE=on|off forces one side --
 * "patched or not" is itself an experiment.
 *
 * A file in a kernel tree that has this CPU's vendor file
 * (arch/x86/kernel/cpu/<vendor>.c) gets REP_GOOD, ERMS, FSRM and FSRS as
 * that release derives them (kpath.h: CPUID, then the vendor's rules --
 * 6.12 and 7.2 amd.c init_amd(): "AMD FSRM also implies FSRS", a flag
 * /proc/cpuinfo does not show); elsewhere, as below.
 *
 * Kernel-synthesised flags: X86_FEATURE_REP_GOOD is set by
 * arch/x86/kernel/cpu/intel.c for every family-6 Intel CPU and by amd.c for
 * family 0x10 and later, i.e. for every x86-64 CPU this runs on: it holds
 * here.  SMAP, UAO and PAN are about kernel access to user memory: never in
 * user space (stac/clac would fault at CPL 3).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kcompat/include/cz/records.h"
#include "ksrc.h"
#include "ksrc_int.h"
#include "kpath_int.h"

struct feat {
	unsigned id;
	const char *name;       /* as --alt takes it (the kernel's name without its prefix) */
	const char *kname;      /* the kernel's name */
	bool can_force_on;      /* its instructions run on any CPU of the architecture */
};

static const struct feat feats[] = {
	{ CZ_KF_ALWAYS, "ALWAYS", "X86_FEATURE_ALWAYS", true },
#if defined(__x86_64__)
	{ CZ_KF_X86_REP_GOOD, "REP_GOOD", "X86_FEATURE_REP_GOOD", true },
	{ CZ_KF_X86_ERMS, "ERMS", "X86_FEATURE_ERMS", true },
	{ CZ_KF_X86_FSRM, "FSRM", "X86_FEATURE_FSRM", true },
	{ CZ_KF_X86_FSRS, "FSRS", "X86_FEATURE_FSRS", true },
	{ CZ_KF_X86_XMM2, "XMM2", "X86_FEATURE_XMM2", true },
	{ CZ_KF_X86_AVX2, "AVX2", "X86_FEATURE_AVX2", false },
	{ CZ_KF_X86_AVX512F, "AVX512F", "X86_FEATURE_AVX512F", false },
	{ CZ_KF_X86_CLZERO, "CLZERO", "X86_FEATURE_CLZERO", false },
	{ CZ_KF_X86_SMAP, "SMAP", "X86_FEATURE_SMAP", false },
#elif defined(__aarch64__)
	{ CZ_KF_ARM64_HAS_MOPS, "MOPS", "ARM64_HAS_MOPS", false },
	{ CZ_KF_ARM64_HAS_UAO, "UAO", "ARM64_HAS_UAO", false },
	{ CZ_KF_ARM64_HAS_PAN, "PAN", "ARM64_HAS_PAN", false },
	{ CZ_KF_ARM64_HAS_DCPOP, "DCPOP", "ARM64_HAS_DCPOP", false },
	{ CZ_KF_ARM64_HAS_DCPODP, "DCPODP", "ARM64_HAS_DCPODP", false },
#endif
};
#define NFEATS (sizeof(feats) / sizeof(feats[0]))

static const struct feat *feat_by_id(unsigned id)
{
	size_t i;

	for (i = 0; i < NFEATS; i++)
		if (feats[i].id == id)
			return &feats[i];
	return NULL;
}

const char *ksrc_feat_name(unsigned feature)
{
	const struct feat *f = feat_by_id(feature & ~CZ_KF_NOT);

	return f ? f->name : "unknown";
}

/* What this CPU has, as the kernel would have found it. */
static bool cpu_has(unsigned id)
{
	const struct zero_cpu *c = zero_cpu();

	switch (id) {
	case CZ_KF_ALWAYS:
		return true;
#if defined(__x86_64__)
	case CZ_KF_X86_REP_GOOD:
	case CZ_KF_X86_XMM2:
		return true;
	case CZ_KF_X86_ERMS:
		return c->erms;
	case CZ_KF_X86_FSRM:
		return c->fsrm;
	case CZ_KF_X86_FSRS:
		return c->fsrs;
	case CZ_KF_X86_AVX2:
		return c->avx2;
	case CZ_KF_X86_AVX512F:
		return c->avx512f;
	case CZ_KF_X86_CLZERO:
		return c->clzero;
#elif defined(__aarch64__)
	case CZ_KF_ARM64_HAS_MOPS:
		return c->mops;
#endif
	}
	(void)c;
	return false;
}

bool ksrc_feat_executable(unsigned feature)
{
	const struct feat *f = feat_by_id(feature & ~CZ_KF_NOT);

	return f && (f->can_force_on || cpu_has(f->id));
}

int ksrc_feat_parse(const char *s, unsigned *feature, bool *on, char *err, size_t errlen)
{
	const char *eq = strchr(s, '=');
	size_t i, n;

	if (!eq || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off"))) {
		snprintf(err, errlen, "--alt %s: expected FEATURE=on|off", s);
		return -EINVAL;
	}
	n = (size_t)(eq - s);
	for (i = 0; i < NFEATS; i++) {
		if ((strlen(feats[i].name) == n && !strncasecmp(s, feats[i].name, n)) ||
		    (strlen(feats[i].kname) == n && !strncasecmp(s, feats[i].kname, n))) {
			*feature = feats[i].id;
			*on = !strcmp(eq + 1, "on");
			if (*on && !ksrc_feat_executable(feats[i].id)) {
				snprintf(err, errlen, "--alt %s: this CPU cannot execute %s's instructions",
					 s, feats[i].kname);
				return -EINVAL;
			}
			return 0;
		}
	}
	snprintf(err, errlen, "--alt %s: unknown feature %.*s (--alt help lists them)", s, (int)n, s);
	return -EINVAL;
}

/* REP_GOOD, ERMS, FSRM, FSRS: the features a release's vendor rules decide (kpath.h). */
static const char *release_feature(unsigned id)
{
#if defined(__x86_64__)
	switch (id) {
	case CZ_KF_X86_REP_GOOD: return "REP_GOOD";
	case CZ_KF_X86_ERMS: return "ERMS";
	case CZ_KF_X86_FSRM: return "FSRM";
	case CZ_KF_X86_FSRS: return "FSRS";
	}
#endif
	(void)id;
	return NULL;
}

bool ksrc_feat_tree(const char *path, char *out, size_t outlen)
{
	const char *a = strstr(path, "/arch/x86/lib/");
	struct zero_kpath_cpu cpu;
	char probe[4200], err[256];

	if (!a || (size_t)(a - path) >= outlen || zero_kpath_cpu_host(&cpu, err, sizeof(err)))
		return false;
	snprintf(out, outlen, "%.*s", (int)(a - path), path);
	snprintf(probe, sizeof(probe), "%s/arch/x86/kernel/cpu/%s.c", out, cpu.vendor);
	if (access(probe, R_OK))
		return false;
	snprintf(probe, sizeof(probe), "%s/Makefile", out);
	return !access(probe, R_OK);
}

int ksrc_feat_applies(const char *tree, unsigned feature, const unsigned *forced,
		      const bool *forced_on, unsigned nforced, bool *on, char *err, size_t errlen)
{
	unsigned id = feature & ~CZ_KF_NOT, i;
	const char *rf = release_feature(id);
	bool has = cpu_has(id), is_forced = false;

	for (i = 0; i < nforced; i++)
		if (forced[i] == id) {
			has = forced_on[i];
			is_forced = true;
		}
	if (tree && rf && !is_forced) {
		/* as the release derives it: CPUID, then its vendor file (6.12 amd.c: FSRM -> FSRS) */
		struct zero_kpath_cpu cpu;
		char release[32], why[512], detail[1024] = "";
		int ret = zero_kpath_cpu_host(&cpu, err, errlen);

		for (i = 0; !ret && i < nforced; i++)
			if (release_feature(forced[i])) {
				char set[32];

				snprintf(set, sizeof(set), "%s=%s", release_feature(forced[i]),
					 forced_on[i] ? "on" : "off");
				ret = zero_kpath_force(&cpu, set, err, errlen);
			}
		if (!ret)
			ret = kpath_release(tree, release, sizeof(release), err, errlen);
		if (!ret)
			ret = kpath_feature(tree, release, &cpu, rf, &has, why, sizeof(why), detail,
					    sizeof(detail), err, errlen);
		if (ret)
			return ret;
	}
	*on = feature & CZ_KF_NOT ? !has : has;
	return 0;
}

void zero_ksrc_print_features(FILE *out)
{
	size_t i;

	fprintf(out, "%-10s %-22s %-5s %s\n", "feature", "kernel name", "here", "forcible on");
	for (i = 0; i < NFEATS; i++)
		fprintf(out, "%-10s %-22s %-5s %s\n", feats[i].name, feats[i].kname,
			cpu_has(feats[i].id) ? "yes" : "no", feats[i].can_force_on ? "yes" : "no");
}
