/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a kernel release runs for clear_user and clear_page on an x86-64
 * CPU, read from that release's own tree: the alternative construct of the
 * header that inlines the path (arch/x86/include/asm/uaccess_64.h
 * __clear_user, asm/page_64.h clear_page / clear_pages), its features
 * decided as the release decides them (CPUID, then the vendor file's
 * set_cpu_cap / clear_cpu_cap rules in arch/x86/kernel/cpu/<vendor>.c), the
 * last alternative that applies winning (asm/alternative.h:
 * "If CPU has feature2, function2 is used. Otherwise, if CPU has feature1,
 * function1 is used."), and the result: a function of a .S file of the
 * tree or an inline instruction sequence with the asm's register contract.
 * Whatever the tree says in a way not understood here is one line naming
 * the release and what is missing, never a guess.
 *
 *     --source kpath:TREE:PATH      (PATH: clear_user | clear_page)
 *
 * loads the resolved routine like any kernel file (ksrc.h); its --alt
 * settings are the what-if CPU's features.
 */
#ifndef ZEROING_KPATH_H
#define ZEROING_KPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "zeroing.h"

#define ZERO_KPATH_MAX_FORCED 16

/* The CPU a release is asked about: this one (CPUID) or one described. */
struct zero_kpath_cpu {
	char vendor[16];        /* amd, intel, hygon, centaur, zhaoxin, or "" */
	unsigned family, model; /* as the kernel computes c->x86, c->x86_model */
	bool erms, fsrm, fsrs;  /* the CPUID bits */
	bool described;         /* from --cpu, not CPUID */
	/* FEATURE=on|off: the kernel's final flag, whatever the rules say */
	char forced[ZERO_KPATH_MAX_FORCED][16];
	bool forced_on[ZERO_KPATH_MAX_FORCED];
	unsigned nforced;
};

/*
 * This CPU (x86-64 CPUID); -ENOTSUP elsewhere, with err.
 */
int zero_kpath_cpu_host(struct zero_kpath_cpu *c, char *err, size_t errlen);
/*
 * "VENDOR:FAMILY[/MODEL][:FEAT,FEAT...]" (e.g. amd:0x17:erms,fsrm,
 * intel:6/0x8f:erms,fsrm): a described CPU
 * with exactly those CPUID bits.  0, or -EINVAL with one line.
 */
int zero_kpath_cpu_parse(const char *s, struct zero_kpath_cpu *c, char *err, size_t errlen);
/* FEATURE=on|off (REP_GOOD, ERMS, FSRM, FSRS, with or without X86_FEATURE_). */
int zero_kpath_force(struct zero_kpath_cpu *c, const char *s, char *err, size_t errlen);

enum zero_kpath_path { ZERO_KPATH_CLEAR_USER, ZERO_KPATH_CLEAR_PAGE };

struct zero_kpath_res {
	char release[32];       /* "6.12.118", from the tree's Makefile */
	enum zero_kpath_path path;
	bool is_inline;
	char insn[256];         /* inline: the instructions ("rep stosb") */
	char symbol[256];       /* else: the function called */
	char file[4096];        /* its .S file, absolute */
	char site[160];         /* "arch/x86/include/asm/uaccess_64.h:192" */
	char contract[160];     /* the asm's operands, as the header has them */
	bool extable;           /* the site has _ASM_EXTABLE_UA(1b, 2b) */
	char summary[900];      /* one line: what runs and the deciding reason */
	char brief[200];        /* "call rep_stos_alternative (FSRS off)": for table labels */
	char detail[4096];      /* lines: each alternative and each feature's rule */
};

/* The tree's release from its top Makefile ("6.12.118"); -errno with one line. */
int zero_kpath_release(const char *root, char *out, size_t outlen, char *err, size_t errlen);

/* The tree a running kernel is resolved with (zero_kpath_pick). */
struct zero_kpath_pick {
	char tree[4096];
	char release[32];       /* the tree's */
	bool own;               /* of the running release's MAJOR.MINOR */
	char how[4400];         /* one line: which, and why that one */
};

/* "6.18.44-fc-v1300" -> {6, 18, 44} (parts absent 0); false without MAJOR.MINOR. */
bool zero_kpath_version(const char *s, unsigned v[3]);
/*
 * The tree for a kernel of release running: dir is a tree (its top
 * Makefile) or a folder of trees, itself or one level down
 * (VERSION/linux-source-*, scripts/kernel-sources.sh).  The tree of
 * running's MAJOR.MINOR when there is one (the newest of them), else the
 * newest release below it.  0 and *p, or -ENOENT (none) / -EINVAL (running
 * has no MAJOR.MINOR) with one line.
 */
int zero_kpath_pick(const char *dir, const char *running, struct zero_kpath_pick *p, char *err,
		    size_t errlen);
/* The same over several such dirs (where: how the line names them). */
int zero_kpath_pick_dirs(const char *const *dirs, size_t ndirs, const char *where,
			 const char *running, struct zero_kpath_pick *p, char *err, size_t errlen);

/*
 * The files of the tree at root the resolver reads (names relative to
 * root: the Makefile, the paths' headers, every vendor's rules file, every
 * .S of arch/x86/lib; those present), so that a copy of them alone resolves
 * as the tree does (zab pack).  0 and *out (free with
 * zero_kpath_files_free), or -errno with one line (no Makefile: -ENOENT).
 */
int zero_kpath_tree_files(const char *root, char ***out, size_t *n, char *err, size_t errlen);
void zero_kpath_files_free(char **f, size_t n);

/*
 * The routine a device runs when none is named: the built-in routine that
 * is what the running kernel runs for clear_user on this CPU (its
 * release's tree, else the nearest below, among $CUSEZERO_KERNEL_SOURCES
 * and /var/cache/cusezero-ksrc), else zero_default(); why (may be NULL)
 * gets one line saying which and why.  Decided once per process.
 */
const struct zero_routine *zero_device_default(char *why, size_t len);

/* "clear_user" / "clear_page" -> path; -EINVAL otherwise. */
int zero_kpath_path_parse(const char *s, enum zero_kpath_path *p);
const char *zero_kpath_path_name(enum zero_kpath_path p);

/*
 * Resolve path in the tree at root for cpu.  0 and *r, or a negative errno
 * with one line in err naming the release and what is missing.
 */
int zero_kpath_resolve(const char *root, enum zero_kpath_path path,
		       const struct zero_kpath_cpu *cpu, struct zero_kpath_res *r, char *err,
		       size_t errlen);

/*
 * Load r as a routine (zero_ksrc_load; an inline sequence is assembled as a
 * function of its own with the site's contract and exception entry).
 * alts: the --alt settings forwarded to the file's own alternatives.
 */
int zero_kpath_load(const struct zero_kpath_res *r, const char *const *alts, unsigned nalts,
		    const struct zero_routine **out, char *err, size_t errlen);
/* The same registered as name (NULL: "RELEASE:PATH"): one release loaded twice, with other --alt. */
int zero_kpath_load_as(const struct zero_kpath_res *r, const char *const *alts, unsigned nalts,
		       const char *name, const struct zero_routine **out, char *err, size_t errlen);

#endif
