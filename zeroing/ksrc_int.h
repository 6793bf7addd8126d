/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: the steps of zero_ksrc_load() (ksrc.c), one module each. */
#ifndef ZEROING_KSRC_INT_H
#define ZEROING_KSRC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zeroing.h"

/* What to build: the parsed --source, --patch, --kconfig. */
struct ksrc_req {
	char path[4096];        /* the kernel file as given */
	char symbol[128];
	char label[128];        /* loop head label, or "" */
	int conv;               /* CZ_CONV_* */
	const char *const *patches;   /* applied in order */
	unsigned npatches;
	const char *const *configs;
	unsigned nconfigs;
};

/* A build: the relocatable object and its backward branches ("bb SECTION BRANCH TARGET"). */
struct ksrc_blob {
	unsigned char *obj;
	size_t objlen;
	char *meta;             /* NUL-terminated */
	size_t metalen;
};

void ksrc_blob_free(struct ksrc_blob *b);

/* ---- ksrc_build.c: private copy, patch, assemble ------------------------- */

/*
 * Assemble req's file (patched first) with the compatibility headers, or
 * find it in the cache; out holds the verified bytes (ksrc_blob_free).
 */
int ksrc_build(const struct ksrc_req *req, struct ksrc_blob *out, char *err, size_t errlen);

/* ---- ksrc_cache.c: the build cache, trusted only when nobody else can write it */

#define KSRC_SHA256_LEN 32

struct ksrc_cache {
	char path[4096];
	int fd;                 /* the checked directory */
	bool private_dir;       /* this process's own: removed by ksrc_cache_close */
};

/* The cache directory, checked (or a private one); -errno with one line in err. */
int ksrc_cache_open(struct ksrc_cache *c, char *err, size_t errlen);
void ksrc_cache_close(struct ksrc_cache *c);
/* The entry of key, verified (owner, mode, key, digest); -ENOENT when absent or untrusted. */
int ksrc_cache_get(const struct ksrc_cache *c, const char *key, struct ksrc_blob *b);
/* Store b as key's entry, written in tmpdir and renamed into place. */
int ksrc_cache_put(const struct ksrc_cache *c, const char *key, const struct ksrc_blob *b,
		   const char *tmpdir);
/* Remove a directory and the files in it (one level). */
void ksrc_rm_dir(const char *dir);
void ksrc_sha256_hex(const unsigned char digest[KSRC_SHA256_LEN],
		     char hex[2 * KSRC_SHA256_LEN + 1]);
/* The compat layer's root directory (for messages), or NULL if none found. */
const char *ksrc_compat_dir(void);

/* ---- ksrc_feat.c: alternatives' features --------------------------------- */

/* Parse FEATURE=on|off into a CZ_KF_* number and the forced state. */
int ksrc_feat_parse(const char *s, unsigned *feature, bool *on, char *err, size_t errlen);
/*
 * Whether an alternative on `feature` (CZ_KF_NOT included) is applied here:
 * *on.  tree: the kernel tree the file is in when it has this CPU's vendor
 * file -- REP_GOOD, ERMS, FSRM and FSRS are then decided by that release's
 * rules (kpath.h), else by CPUID.  0, or -errno with one line in err.
 */
int ksrc_feat_applies(const char *tree, unsigned feature, const unsigned *forced,
		      const bool *forced_on, unsigned nforced, bool *on, char *err, size_t errlen);
/*
 * The tree holding path (.../arch/x86/lib/FILE) when it has this CPU's
 * vendor file (arch/x86/kernel/cpu/<vendor>.c) and a top Makefile: its
 * root in out, true; false otherwise (x86-64 only).
 */
bool ksrc_feat_tree(const char *path, char *out, size_t outlen);
/* Whether this CPU can execute code that needs the feature (MOPS: no, ERMS: any x86). */
bool ksrc_feat_executable(unsigned feature);
const char *ksrc_feat_name(unsigned feature);

/* ---- ksrc_elf.c: the relocatable object -> an executable image ----------- */

struct ksrc_alt_applied {
	unsigned feature;       /* CZ_KF_*, with CZ_KF_NOT */
	bool applied;
	size_t site;            /* image offset */
};

#define KSRC_MAX_ALTS 64

struct ksrc_image {
	unsigned char *map;             /* PROT_READ|PROT_EXEC once done */
	size_t map_len;
	size_t text_len;                /* code bytes at map[0..text_len) */
	size_t entry, thunk;            /* image offsets of SYMBOL and cz_thunk */
	size_t func_end;                /* SYMBOL + its size (for the loop search) */
	size_t loop;                    /* image offset of the loop head, or SIZE_MAX */
	uint32_t (*extable)[2];         /* (insn, fixup) image offsets */
	size_t nextable;
	struct ksrc_alt_applied alts[KSRC_MAX_ALTS];
	unsigned nalts;
};

struct ksrc_load_req {
	const struct ksrc_blob *blob;
	const char *display;            /* the file's name in messages */
	const char *symbol, *label;
	const unsigned *forced;         /* --alt */
	const bool *forced_on;
	unsigned nforced;
	const char *tree;               /* features by its release's rules, or NULL: CPUID */
};

int ksrc_image_load(const struct ksrc_load_req *q, struct ksrc_image *im, char *err,
		    size_t errlen);
void ksrc_image_free(struct ksrc_image *im);

/* ---- ksrc_check.c: refuse a wrong routine before it is ever timed -------- */

/*
 * Fast exhaustive check of fn (what: its name in progress lines on stderr,
 * printed when the check takes over 2 s); 0, or -EINVAL with the first
 * failing case.
 */
int ksrc_check(zero_fn fn, const char *what, bool fault_safe, bool exact_fault, char *err,
	       size_t errlen);

/* ---- ksrc_tree.c: the tree of a kernel file, to tell two of one name apart */

#define KSRC_TREE_NAME_LEN 64

/* The release of the kernel tree holding path (its top Makefile): 0, or -1 when none is found. */
int ksrc_tree_release(const char *path, char *out, size_t len);
/*
 * A name per path (n files of one name from several trees): their releases
 * when they differ, else the nearest folder that differs.  0, or -1 when
 * nothing tells them apart.
 */
int ksrc_tree_names(const char *const *paths, unsigned n, char (*names)[KSRC_TREE_NAME_LEN]);

/* ---- kpath_load.c: --source kpath:TREE:PATH (kpath.h) -------------------- */

struct zero_ksrc_opts;
int ksrc_kpath_source(const struct zero_ksrc_opts *o, const struct zero_routine **out, char *err,
		      size_t errlen);

/* ---- registry.c: loaded routines join the built-in table ---------------- */

int zero_register(const struct zero_routine *r);

#endif
