/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_ksrc_load(): a kernel source file as a routine (ksrc.h).  The steps
 * are modules of their own: ksrc_build.c (private copy, patch, assemble,
 * cache), ksrc_elf.c (the object -> an image with relocations, alternatives
 * and exception table), ksrc_check.c (refuse a wrong routine); this file
 * parses the request, picks the defaults of the well-known files, adapts
 * the kernel's calling convention (the thunk, cz/thunk.S) and registers
 * the result under a name that says file, symbol, patch and settings.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kcompat/include/cz/records.h"
#include "ksrc.h"
#include "ksrc_int.h"

/*
 * Well-known files: the symbol run when none is named (the first one the
 * file defines) and its loop label when the first-backward-branch rule
 * picks a minor loop.  Kernel file names, as in Linux 6.1 .. 7.x.
 */
static const struct {
	const char *file, *symbols[3], *label;
} known[] = {
	/* x86 __clear_user without FSRS: 6.2+ rep_stos_alternative, 6.1 clear_user_original */
	{ "clear_page_64.S", { "rep_stos_alternative", "clear_user_original", "clear_page_orig" },
	  ".Lunrolled" },
	{ "memset_64.S", { "__memset", "memset", NULL }, NULL },
	{ "clear_user.S", { "__arch_clear_user", NULL, NULL }, NULL },
	{ "clear_page.S", { "__pi_clear_page", "clear_page", NULL }, NULL },
	{ "memset.S", { "__pi_memset", "__memset", "memset" }, NULL },
};

/* The convention a kernel symbol's name implies, or 0. */
static int conv_of(const char *sym)
{
	if (!strcmp(sym, "rep_stos_alternative") || !strncmp(sym, "clear_user_", 11))
		return CZ_CONV_X86_RCX;      /* 6.1's clear_user_original/_rep_good/_erms too */
#if defined(__x86_64__)
	if (strstr(sym, "clear_pages"))
		return CZ_CONV_X86_PAGES;    /* 7.x __clear_pages_unrolled */
#endif
	if (strstr(sym, "clear_page"))
		return CZ_CONV_CLEAR_PAGE;
	if (strstr(sym, "memset"))
		return CZ_CONV_MEMSET;
	if (strstr(sym, "clear_user"))
		return CZ_CONV_CLEAR_USER;
	return 0;
}

static int conv_named(const char *s)
{
	static const char *const names[] = { NULL, "clear_user", "rcx", "memset", "clear_page",
					     "pages" };
	int i;

	for (i = 1; i < 6; i++)
		if (!strcmp(s, names[i]))
			return i;
	return 0;
}

static const char *conv_desc(int conv)
{
	switch (conv) {
	case CZ_CONV_X86_RCX:
		return "rdi=dst rcx=n -> rcx not cleared";
	case CZ_CONV_MEMSET:
		return "memset(dst, 0, n)";
	case CZ_CONV_CLEAR_PAGE:
		return "clear_page per aligned page, byte head/tail";
	case CZ_CONV_X86_PAGES:
		return "rdi=pages rcx=bytes on the aligned pages, byte head/tail";
	}
	return "(dst, n) -> bytes not cleared";
}

/* PATH[:SYMBOL[@LABEL][%CONV]] -> req; a ':' followed by a '/' belongs to the path. */
static int parse_source(const char *src, struct ksrc_req *q, bool *sym_given, char *err,
			size_t errlen)
{
	const char *colon = strrchr(src, ':');
	char rest[300] = "", *at, *pct;

	if (colon && strchr(colon, '/'))
		colon = NULL;
	snprintf(q->path, sizeof(q->path), "%.*s", colon ? (int)(colon - src) : (int)strlen(src), src);
	if (colon)
		snprintf(rest, sizeof(rest), "%s", colon + 1);
	pct = strchr(rest, '%');
	if (pct) {
		*pct++ = 0;
		q->conv = conv_named(pct);
		if (!q->conv) {
			snprintf(err, errlen, "--source %s: unknown convention %s "
				 "(clear_user, rcx, memset, clear_page, pages)", src, pct);
			return -EINVAL;
		}
	}
	at = strchr(rest, '@');
	if (at) {
		*at++ = 0;
		snprintf(q->label, sizeof(q->label), "%s", at);
	}
	snprintf(q->symbol, sizeof(q->symbol), "%s", rest);
	*sym_given = rest[0] != 0;
#if defined(__x86_64__)
	if (strstr(q->path, "arch/arm64/")) {
#else
	if (strstr(q->path, "arch/x86/")) {
#endif
		snprintf(err, errlen, "%s: architecture mismatch: a file of another architecture's "
			 "tree (this cusezero runs %s code)", q->path, zero_arch_name(
#if defined(__x86_64__)
			 ZERO_ARCH_X86_64
#else
			 ZERO_ARCH_AARCH64
#endif
			 ));
		return -EINVAL;
	}
	return 0;
}

/* A well-known function's main loop label where the first-backward-branch rule picks another. */
static void default_label(struct ksrc_req *q)
{
	const char *base = strrchr(q->path, '/') ? strrchr(q->path, '/') + 1 : q->path;
	size_t i;

	for (i = 0; !q->label[0] && i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].label && !strcmp(base, known[i].file) && !strcmp(q->symbol, known[i].symbols[0]))
			snprintf(q->label, sizeof(q->label), "%s", known[i].label);
}

/* The default symbol of a well-known file: the first of its list it defines. */
static int default_symbol(struct ksrc_req *q, char *err, size_t errlen)
{
	const char *base = strrchr(q->path, '/') ? strrchr(q->path, '/') + 1 : q->path;
	FILE *f;
	char line[512];
	size_t i, j;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(base, known[i].file))
			continue;
		for (j = 0; j < 3 && known[i].symbols[j]; j++) {
			char want[160];
			bool found = false;

			snprintf(want, sizeof(want), "(%s)", known[i].symbols[j]);
			f = fopen(q->path, "r");
			while (f && !found && fgets(line, sizeof(line), f))
				found = !strncmp(line, "SYM_", 4) && strstr(line, want);
			if (f)
				fclose(f);
			if (found) {
				snprintf(q->symbol, sizeof(q->symbol), "%s", known[i].symbols[j]);
				return 0;
			}
		}
	}
	snprintf(err, errlen, "%s: name the function to run (--source %s:SYMBOL): "
		 "no default for this file", q->path, q->path);
	return -EINVAL;
}

int zero_ksrc_default_symbol(const char *path, char *out, size_t outlen)
{
	struct ksrc_req *q = calloc(1, sizeof(*q));
	char err[256];
	int ret;

	if (!q)
		return -ENOMEM;
	snprintf(q->path, sizeof(q->path), "%s", path);
	ret = default_symbol(q, err, sizeof(err));
	if (!ret)
		snprintf(out, outlen, "%s", q->symbol);
	free(q);
	return ret;
}

int zero_ksrc_add_alt(struct zero_ksrc_opts *o, const char *val, char *err, size_t errlen)
{
	unsigned f;
	bool on;

	if (ksrc_feat_parse(val, &f, &on, err, errlen))
		return -EINVAL;
	if (o->nalts >= ZERO_KSRC_MAX_SETTINGS) {
		snprintf(err, errlen, "--alt %s: at most %d", val, ZERO_KSRC_MAX_SETTINGS);
		return -E2BIG;
	}
	o->alts[o->nalts++] = val;
	return 0;
}

int zero_ksrc_add_config(struct zero_ksrc_opts *o, const char *val, char *err, size_t errlen)
{
	const char *eq = strchr(val, '=');
	size_t i;

	if (strncmp(val, "CONFIG_", 7) || !eq || eq == val + 7 || !eq[1]) {
		snprintf(err, errlen, "--kconfig %s: expected CONFIG_NAME=y|n|VALUE", val);
		return -EINVAL;
	}
	for (i = 0; val + i < eq; i++)
		if (!(val[i] == '_' || (val[i] >= 'A' && val[i] <= 'Z') || (val[i] >= '0' && val[i] <= '9'))) {
			snprintf(err, errlen, "--kconfig %s: bad symbol name", val);
			return -EINVAL;
		}
	for (i = 1; eq[i]; i++)
		if (!(eq[i] == '_' || eq[i] == 'x' || (eq[i] >= '0' && eq[i] <= '9') ||
		      (eq[i] >= 'a' && eq[i] <= 'z') || (eq[i] >= 'A' && eq[i] <= 'Z'))) {
			snprintf(err, errlen, "--kconfig %s: bad value (letters, digits, _)", val);
			return -EINVAL;
		}
	if (o->nconfigs >= ZERO_KSRC_MAX_SETTINGS) {
		snprintf(err, errlen, "--kconfig %s: at most %d", val, ZERO_KSRC_MAX_SETTINGS);
		return -E2BIG;
	}
	o->configs[o->nconfigs++] = val;
	return 0;
}

int zero_ksrc_option(struct zero_ksrc_set *s, int which, const char *arg, char *err,
		     size_t errlen)
{
	static const char *const names[] = { "--source", "--patch", "--alt", "--kconfig" };
	struct zero_ksrc_opts *o = s->n ? &s->o[s->n - 1] : NULL;

	if (which == 2 && !strcmp(arg, "help")) {
		zero_ksrc_print_features(stdout);
		return 1;
	}
	if (which == 0) {
		if (s->n >= ZERO_KSRC_MAX_SOURCES) {
			snprintf(err, errlen, "--source %s: at most %d", arg, ZERO_KSRC_MAX_SOURCES);
			return -E2BIG;
		}
		memset(&s->o[s->n], 0, sizeof(s->o[0]));
		s->o[s->n++].source = arg;
		return 0;
	}
	if (!o) {
		snprintf(err, errlen, "%s %s: give --source first (it applies to the last --source)",
			 names[which & 3], arg);
		return -EINVAL;
	}
	if (which == 1) {
		if (o->npatches >= ZERO_KSRC_MAX_PATCHES) {
			snprintf(err, errlen, "--patch %s: at most %d patches per --source (%s)", arg,
				 ZERO_KSRC_MAX_PATCHES, o->source);
			return -E2BIG;
		}
		o->patches[o->npatches++] = arg;
		return 0;
	}
	return which == 2 ? zero_ksrc_add_alt(o, arg, err, errlen) :
	       zero_ksrc_add_config(o, arg, err, errlen);
}

/*
 * "clear_user.S:__arch_clear_user+0001-align.patch,MOPS-off": file, symbol,
 * patch, forced features and settings, shortened with a hash of the whole
 * to fit the stats' name field (CUSEZERO_STATS_NAME, 40 bytes).  tree (the
 * same file from two trees, zero_ksrc_load_all): "6.12.118/clear_user.S:...".
 */
static char *routine_name(const struct zero_ksrc_opts *o, const struct ksrc_req *q, const char *prefix)
{
	const char *base = strrchr(q->path, '/') ? strrchr(q->path, '/') + 1 : q->path;
	char full[1024];
	size_t n, i;
	uint64_t h = 0xcbf29ce484222325ull;

	if (o->name)
		n = (size_t)snprintf(full, sizeof(full), "%s", o->name);
	else
		n = (size_t)snprintf(full, sizeof(full), "%s%s%s:%s", prefix ? prefix : "",
				     prefix ? "/" : "", base, q->symbol);
	for (i = 0; i < o->npatches && n < sizeof(full); i++)
		n += (size_t)snprintf(full + n, sizeof(full) - n, "+%s",
				      strrchr(o->patches[i], '/') ? strrchr(o->patches[i], '/') + 1 :
				      o->patches[i]);
	for (i = 0; i < o->nalts && n < sizeof(full); i++)
		n += (size_t)snprintf(full + n, sizeof(full) - n, ",%.*s-%s",
				      (int)strcspn(o->alts[i], "="), o->alts[i], strchr(o->alts[i], '=') + 1);
	for (i = 0; i < o->nconfigs && n < sizeof(full); i++)
		n += (size_t)snprintf(full + n, sizeof(full) - n, ",%.*s-%s",
				      (int)strcspn(o->configs[i] + 7, "="), o->configs[i] + 7,
				      strchr(o->configs[i], '=') + 1);
	if (strlen(full) > 39) {
		for (i = 0; full[i]; i++)
			h = (h ^ (unsigned char)full[i]) * 0x100000001b3ull;
		snprintf(full + 32, sizeof(full) - 32, "~%06llx", (unsigned long long)(h & 0xffffff));
	}
	return strdup(full);
}

/* prefix: the name's tree prefix (routine_name); ktree: the kernel tree whose features it got */
static int make_routine(const struct zero_ksrc_opts *o, const struct ksrc_req *q, const char *prefix,
			struct ksrc_image *im, const char *ktree, struct zero_routine **out)
{
	struct zero_routine *r = calloc(1, sizeof(*r));
	char desc[1200];
	unsigned i;
	size_t n;

	if (!r)
		return -ENOMEM;
	if (o->why)
		n = (size_t)snprintf(desc, sizeof(desc), "%s", o->why);
	else
		n = (size_t)snprintf(desc, sizeof(desc), "kernel source %s", q->path);
	for (i = 0; i < o->npatches && n < sizeof(desc); i++)
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, " + %s", o->patches[i]);
	if (n < sizeof(desc))
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, ", %s; %s", q->symbol,
				      conv_desc(q->conv));
	for (i = 0; i < im->nalts && n < sizeof(desc); i++)
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, "%s %s%s %s",
				      i ? "," : "; alternatives:", im->alts[i].feature & CZ_KF_NOT ? "!" : "",
				      ksrc_feat_name(im->alts[i].feature), im->alts[i].applied ? "patched" : "kept");
	if (im->nalts && n < sizeof(desc))
		n += (size_t)snprintf(desc + n, sizeof(desc) - n, " (%s)", ktree ?
				      "features as the tree's release derives them" : "features from CPUID");
	r->name = routine_name(o, q, prefix);
	r->desc = strdup(desc);
	r->arch = ZERO_ARCH_ANY;
#if defined(__x86_64__)
	r->arch = ZERO_ARCH_X86_64;
#elif defined(__aarch64__)
	r->arch = ZERO_ARCH_AARCH64;
#endif
	if ((q->conv == CZ_CONV_CLEAR_USER || q->conv == CZ_CONV_X86_RCX) && im->nextable)
		r->flags |= ZERO_F_CLEAR_USER;
	if (q->conv == CZ_CONV_CLEAR_PAGE || q->conv == CZ_CONV_X86_PAGES)
		r->flags |= ZERO_F_PAGE;
	r->fn = (zero_fn)(im->map + (q->conv == CZ_CONV_CLEAR_USER ? im->entry : im->thunk));
	r->code_start = im->map;
	r->code_end = im->map + im->text_len;
	r->place_entry = im->map + im->entry;
	r->loop_head = im->loop != (size_t)-1 ? im->map + im->loop : NULL;
	if (!r->name || !r->desc) {
		free((char *)r->name);
		free((char *)r->desc);
		free(r);
		return -ENOMEM;
	}
	*out = r;
	return 0;
}

static int forced_features(const struct zero_ksrc_opts *o, unsigned *f, bool *on, char *err,
			   size_t errlen)
{
	unsigned i;

	for (i = 0; i < o->nalts; i++)
		if (ksrc_feat_parse(o->alts[i], &f[i], &on[i], err, errlen))
			return -EINVAL;
	return 0;
}

static int load_req(const struct zero_ksrc_opts *o, struct ksrc_req *q, char *err, size_t errlen)
{
	struct stat st;
	bool sym_given;
	int ret;

	memset(q, 0, sizeof(*q));
	q->patches = o->patches;
	q->npatches = o->npatches;
	q->configs = o->configs;
	q->nconfigs = o->nconfigs;
	ret = parse_source(o->source, q, &sym_given, err, errlen);
	if (!ret && stat(q->path, &st)) {
		/* said first: the default symbol's search would only find none */
		ret = -errno;
		snprintf(err, errlen, "%s: %s (--source)", q->path, strerror(-ret));
	} else if (!ret && !S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file (--source names a kernel source file)",
			 q->path);
	}
	if (!ret && !sym_given)
		ret = default_symbol(q, err, errlen);
	if (ret)
		return ret;
	default_label(q);
	if (!q->conv)
		q->conv = conv_of(q->symbol);
	if (!q->conv) {
		snprintf(err, errlen, "%s: %s: calling convention unknown: name one with "
			 "%s:%s%%clear_user|rcx|memset|clear_page|pages", q->path, q->symbol, q->path, q->symbol);
		return -EINVAL;
	}
	return 0;
}

/* zero_ksrc_load(), its routine named with prefix (NULL: none) before the file's name */
static int load_one(const struct zero_ksrc_opts *o, const char *prefix, const struct zero_routine **out,
		    char *err, size_t errlen)
{
	struct ksrc_req q;
	struct ksrc_image im;
	struct ksrc_load_req lq;
	struct zero_routine *r = NULL;
	unsigned forced[ZERO_KSRC_MAX_SETTINGS];
	bool forced_on[ZERO_KSRC_MAX_SETTINGS];
	struct ksrc_blob blob = { 0 };
	char why[480], shown[PATH_MAX + 64], ktree[PATH_MAX];
	bool in_tree;
	int ret;

	err[0] = 0;
	if (!strncmp(o->source, "kpath:", 6)) {
		/* kpath_load.c resolves it and loads the result here: zero_sources_load() */
		snprintf(err, errlen, "--source %s: a kernel path, loaded by zero_sources_load()", o->source);
		return -EINVAL;
	}
	ret = load_req(o, &q, err, errlen);
	if (!ret)
		ret = forced_features(o, forced, forced_on, err, errlen);
	if (!ret)
		ret = ksrc_build(&q, &blob, err, errlen);
	if (ret)
		return ret;
	snprintf(shown, sizeof(shown), "%s%s", q.path, o->npatches ? " (patched)" : "");
	in_tree = ksrc_feat_tree(q.path, ktree, sizeof(ktree));
	lq = (struct ksrc_load_req){ .blob = &blob, .display = shown, .symbol = q.symbol,
				     .label = q.label, .forced = forced, .forced_on = forced_on,
				     .nforced = o->nalts, .tree = in_tree ? ktree : NULL };
	ret = ksrc_image_load(&lq, &im, err, errlen);
	ksrc_blob_free(&blob);
	if (ret)
		return ret;
	ret = make_routine(o, &q, prefix, &im, in_tree ? ktree : NULL, &r);
	/* the fault handler must know the table for the check's faults */
	if (!ret)
		ret = zero_fault_add_table((uintptr_t)im.map, im.text_len, im.extable, im.nextable);
	if (!ret) {
		ret = ksrc_check(r->fn, r->name, r->flags & ZERO_F_CLEAR_USER,
				 !strcmp(q.symbol, "rep_stos_alternative"), why, sizeof(why));
		if (ret)
			snprintf(err, errlen, "%s: %s is incorrect, not measured: %s", shown, q.symbol, why);
	}
	if (!ret)
		ret = zero_register(r);
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", shown, strerror(-ret));
		zero_fault_del_table((uintptr_t)im.map);
		if (r) {
			free((char *)r->name);
			free((char *)r->desc);
			free(r);
		}
		ksrc_image_free(&im);
		return ret;
	}
	/* the image (and its table in the fault handler) stays for the life of the process */
	*out = r;
	return 0;
}

int zero_ksrc_load(const struct zero_ksrc_opts *o, const struct zero_routine **out, char *err,
		   size_t errlen)
{
	return load_one(o, NULL, out, err, errlen);
}

/*
 * The requests of s whose routines would have one name (the same file name
 * and symbol from two kernel trees, say): each gets the name of its tree
 * (ksrc_tree_names) in tree[i], named[i] set.  A request that cannot be
 * read is left to its load to say so.  0, or -EINVAL when two are the same.
 */
static int tree_names(const struct zero_ksrc_set *s, char (*tree)[KSRC_TREE_NAME_LEN],
		      bool *named, char *err, size_t errlen)
{
	struct ksrc_req *q = calloc(s->n, sizeof(*q));
	char *key[ZERO_KSRC_MAX_SOURCES] = { NULL }, scratch[512];
	const char *paths[ZERO_KSRC_MAX_SOURCES];
	char names[ZERO_KSRC_MAX_SOURCES][KSRC_TREE_NAME_LEN];
	unsigned i, j, g[ZERO_KSRC_MAX_SOURCES], ng;
	int ret = q ? 0 : -ENOMEM;

	for (i = 0; q && i < s->n; i++)
		if (!load_req(&s->o[i], &q[i], scratch, sizeof(scratch)))
			key[i] = routine_name(&s->o[i], &q[i], NULL);
	for (i = 0; !ret && i < s->n; i++) {
		for (ng = 0, j = i; key[i] && !named[i] && j < s->n; j++)
			if (key[j] && !strcmp(key[i], key[j])) {
				paths[ng] = q[j].path;
				g[ng++] = j;
			}
		if (ng < 2)
			continue;
		if (ksrc_tree_names(paths, ng, names)) {
			snprintf(err, errlen, "--source %s: given twice (the same file, symbol, patches "
				 "and settings)", s->o[g[1]].source);
			ret = -EINVAL;
		}
		for (j = 0; !ret && j < ng; j++) {
			memcpy(tree[g[j]], names[j], KSRC_TREE_NAME_LEN);
			named[g[j]] = true;
		}
	}
	for (i = 0; i < s->n; i++)
		free(key[i]);
	free(q);
	return ret;
}

int zero_ksrc_load_all(const struct zero_ksrc_set *s, const struct zero_routine **out,
		       char *err, size_t errlen)
{
	char tree[ZERO_KSRC_MAX_SOURCES][KSRC_TREE_NAME_LEN];
	bool named[ZERO_KSRC_MAX_SOURCES] = { false };
	unsigned i;
	int ret = tree_names(s, tree, named, err, errlen);

	for (i = 0; !ret && i < s->n; i++)
		if (strncmp(s->o[i].source, "kpath:", 6))	/* kernel paths: zero_sources_load() */
			ret = load_one(&s->o[i], named[i] ? tree[i] : NULL, &out[i], err, errlen);
	return ret;
}
