/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel source files as routines: the kernel's own zeroing assembly
 * (arch/x86/lib/clear_page_64.S, memset_64.S; arch/arm64/lib/clear_user.S,
 * clear_page.S, memset.S -- unmodified, optionally with a patch applied to a
 * private copy) assembled with cusezero's compatibility headers
 * (zeroing/kcompat/), loaded, its alternatives patched as the kernel patches
 * them at boot, its exception table joined to the fault handler's, checked,
 * and registered under a name that says file, symbol and patch.  From then
 * on it is a routine like the built-in ones: zero_lookup(), placement,
 * the device, zbench, zab.
 *
 *     PATH[:SYMBOL[@LABEL][%CONV]]
 *
 * SYMBOL: the function (default per well-known file, see ksrc.c); LABEL: its
 * loop head (default: the target of its first backward branch); CONV: the
 * calling convention when the symbol's name does not say it (clear_user,
 * rcx, memset, clear_page, pages: cz/records.h).
 */
#ifndef ZEROING_KSRC_H
#define ZEROING_KSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "zeroing.h"

#define ZERO_KSRC_MAX_SETTINGS 16
/* patches on one file: a series of this many steps at most */
#define ZERO_KSRC_MAX_PATCHES 64

struct zero_ksrc_opts {
	const char *source;                             /* PATH[:SYMBOL[@LABEL][%CONV]] */
	/* git format-patch or unified diffs, applied in this order to one private copy */
	const char *patches[ZERO_KSRC_MAX_PATCHES];
	unsigned npatches;
	const char *alts[ZERO_KSRC_MAX_SETTINGS];       /* FEATURE=on|off */
	unsigned nalts;
	const char *configs[ZERO_KSRC_MAX_SETTINGS];    /* CONFIG_X=y|n|VALUE */
	unsigned nconfigs;
	/* set by the release resolver (kpath.h): the routine's name and why it runs */
	const char *name, *why;
};

/*
 * Open the folder path for private use, walking it from "/" one component
 * at a time (O_NOFOLLOW; missing ones made 0700 when create): every folder
 * on the way owned by this user or root and not writable by others unless
 * sticky, a symbolic link followed only when this user or root owns it,
 * the folder itself owned by this user and writable by nobody else.  Its
 * descriptor, or -errno with why (one phrase) in why.  What the build
 * cache and zab's blob cache trust.
 */
int zero_safe_dir(const char *path, bool create, char *why, size_t wlen);

/*
 * The function --source PATH runs when no :SYMBOL is named (the first of a
 * well-known file's list the file defines: clear_page_64.S 6.1
 * clear_user_original, 6.2+ rep_stos_alternative).  0, or -EINVAL.
 */
int zero_ksrc_default_symbol(const char *path, char *out, size_t outlen);

/*
 * Option helpers for the programs: append --alt / --kconfig values after a
 * syntax check.  0, or -EINVAL / -E2BIG with a one-line reason in err.
 */
int zero_ksrc_add_alt(struct zero_ksrc_opts *o, const char *val, char *err, size_t errlen);
int zero_ksrc_add_config(struct zero_ksrc_opts *o, const char *val, char *err, size_t errlen);

/*
 * The part of patch that changes path (the diffs whose "+++" name is a
 * suffix of path's components) applied by GNU patch to in, written to out:
 * how zero_ksrc_load() applies each --patch, for a caller that wants to know
 * first whether a series applies.  0; -ENODATA when the patch changes no
 * such file; -errno otherwise; each with one line in err naming the patch.
 */
int zero_ksrc_apply_patch(const char *path, const char *in, const char *patch, const char *out,
			  char *err, size_t errlen);

/*
 * Build the file (or take it from the cache: one build per content), load,
 * patch alternatives, check (a wrong routine is refused, never timed) and
 * register it.  0 and *out, or a negative errno with one line in err naming
 * the file and, where there is one, the line, macro or symbol.  Nothing is
 * left loaded on failure.  Not thread-safe: call before starting threads.
 */
int zero_ksrc_load(const struct zero_ksrc_opts *o, const struct zero_routine **out,
		   char *err, size_t errlen);

/*
 * The options every program that takes a routine accepts, for a getopt_long
 * table: --source, --patch, --alt, --kconfig, with values base .. base + 3.
 * Each --source starts a new request; --patch, --alt and --kconfig apply to
 * the last --source before them (several --patch: applied in order).
 */
#define ZERO_KSRC_LONGOPTS(base)					\
	{ "source",  required_argument, NULL, (base) },			\
	{ "patch",   required_argument, NULL, (base) + 1 },		\
	{ "alt",     required_argument, NULL, (base) + 2 },		\
	{ "kconfig", required_argument, NULL, (base) + 3 }
#define ZERO_KSRC_MAX_SOURCES 8
#define ZERO_KSRC_USAGE							\
	"  --source PATH[:SYMBOL[@LABEL]]  a kernel source file as a routine\n"	\
	"                        (e.g. linux/arch/x86/lib/clear_page_64.S:clear_page_erms)\n" \
	"  --patch FILE          apply FILE (git format-patch) to a copy of it first\n"	\
	"                        (several: applied in the order given)\n"	\
	"  --alt FEATURE=on|off  force an alternative of the file (--alt help lists them)\n" \
	"  --kconfig CONFIG_X=y|n|VALUE  a CONFIG_ symbol of the file's build\n"

struct zero_ksrc_set {
	struct zero_ksrc_opts o[ZERO_KSRC_MAX_SOURCES];
	unsigned n;
};

/*
 * One of the ZERO_KSRC_LONGOPTS (which = 0..3).  0 to go on; 1 after
 * "--alt help" was printed (the program exits 0); -EINVAL with err.
 */
int zero_ksrc_option(struct zero_ksrc_set *s, int which, const char *arg, char *err,
		     size_t errlen);
/*
 * Load every request of s (zero_ksrc_load) but kernel paths into out[0 .. s->n).  The same
 * file name and symbol from two kernel trees (and the same patches and
 * settings) are two routines, each named with its tree before the file's
 * name: the tree's release (its top Makefile) when they differ, else the
 * nearest folder that tells the two apart ("6.12.118/clear_user.S:...").
 * 0, or -errno with err (-EINVAL: the same request twice).
 */
int zero_ksrc_load_all(const struct zero_ksrc_set *s, const struct zero_routine **out,
		       char *err, size_t errlen);
/*
 * What the programs call: zero_ksrc_load_all() for kernel files, then each
 * kernel path (kpath:TREE:PATH, kpath.h) resolved and loaded (srcload.c;
 * zero_ksrc_load_all leaves those to it).
 */
int zero_sources_load(const struct zero_ksrc_set *s, const struct zero_routine **out, char *err,
		      size_t errlen);

/* One line per supported feature name, for --alt help. */
void zero_ksrc_print_features(FILE *out);

#endif
