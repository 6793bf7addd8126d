/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Change sequences: a [variant NAME] with source= and one of
 *
 *   series = FILE      a quilt series file, a folder of git format-patch
 *                      output, or an mbox: step k = the file + patches 1..k
 *   kernel = V V ...   the same file (source= relative to the tree) from
 *                      several kernel trees, by version or path: one step each
 *   git = REPO A..B    the file (source= inside REPO) at A, then at every
 *                      commit of A..B that changes it
 *
 * expands into variants NAME@0 (the base) .. NAME@N, each naming concrete
 * files (git's: written to a content-addressed cache) and carrying its
 * provenance as plain keys (sequence, step, steps, label, kernel-version,
 * git-commit), which the run's JSON document repeats per variant.
 *
 *   sequence.c   the keys, a variant's sequence into steps, a step's variant
 *   seqexpand.c  zab expand: the expanded experiment file
 *   seqseries.c  series files, format-patch folders, mboxes -> patches
 *   seqgit.c     kernel trees and git ranges -> files; the blob cache;
 *                running git, tar and reading a tree's kernel version
 */
#ifndef TOOLS_ZAB_MODEL_SEQUENCE_H
#define TOOLS_ZAB_MODEL_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model.h"

/* One step of a sequence: what its variant runs and where it comes from. */
struct zab_seq_step {
	char *source;        /* the concrete file (absolute), without :SYMBOL */
	char **patches;      /* absolute paths, applied in order */
	size_t npatches;
	char *label;         /* subject, kernel version, or "HASH subject" */
	char *kversion;      /* the tree's kernel version, or NULL */
	char *commit;        /* git: the full commit hash, or NULL */
};

/* A variant's sequence, expanded. */
struct zab_seq {
	char *name;          /* the variant's name: steps are NAME@K */
	const char *kind;    /* "series", "kernel", "git" */
	struct zab_seq_step *step;
	size_t nstep;        /* steps 0 .. nstep - 1 */
};

/*
 * The sequence and provenance keys of a [variant]: 0, -EINVAL (bad value)
 * or -ENOENT (not one of them).
 */
int zab_seq_key(struct zab_variant *x, const char *k, const char *v);
/* Whether x names a sequence (series=, kernel= or git=). */
bool zab_seq_is(const struct zab_variant *x);
/* Free x's sequence and provenance fields. */
void zab_seq_variant_free(struct zab_variant *x);

/*
 * x's sequence, expanded into s (zab_seq_free): 0, or -1 after one line.
 * More than max steps is refused before the work of building them.
 */
int zab_seq_build(const struct zab_variant *x, size_t max, struct zab_seq *s);
void zab_seq_free(struct zab_seq *seqs, size_t n);
/*
 * Make v (a copy of the sequence variant) step k of s: its name NAME@K,
 * its daemon's --source and --patch the step's files, its provenance.
 */
void zab_seq_apply(struct zab_variant *v, const struct zab_seq *s, size_t k);

/* s with each control character written as \xNN (malloc'd): data shown on one line. */
char *zab_seq_escape(const char *s);
/* Whether s has no blank and no control character (one word of an experiment file). */
bool zab_seq_plain_name(const char *s);

/* ---- seqexpand.c ---- */

/*
 * zab expand: write in_path as an explicit experiment to out_path (NULL or
 * "-": stdout): every sequence variant replaced by its [variant NAME@K]
 * sections naming concrete files by absolute path, with the provenance
 * keys; everything else as written.  The result is an experiment on its
 * own (zab run, zab pack).  0; -EINVAL after one line when the experiment
 * is bad (a sequence that cannot expand included); another -errno after
 * one line when a file cannot be read or written.
 */
int zab_expand_file(const char *in_path, const char *out_path);

/* ---- seqseries.c ---- */

/* What a patch does to the sequence's file (zab_patch_touches). */
enum { ZAB_PATCH_NONE, ZAB_PATCH_CHANGES, ZAB_PATCH_DELETES };

/* A patch of a series: its file (absolute; NULL for an mbox message that changes no file of ours), its subject. */
struct zab_seq_patch {
	char *path, *subject;
	int touch;           /* ZAB_PATCH_* for the sequence's file */
};

/*
 * The patches of spec (quilt series file, format-patch folder, mbox; an
 * mbox's messages that change src written to the blob cache), in order;
 * more than max of them changing src is refused before any is written.
 * 0, or -1 after one line (where: "FILE:LINE" of the key, for messages).
 */
int zab_series_read(const char *spec, const char *where, const char *src, size_t max,
		    struct zab_seq_patch **out, size_t *n);
/*
 * What a patch's text does to file (a header name that is a trailing part
 * of it, as the patch is applied): ZAB_PATCH_NONE, _CHANGES or _DELETES.
 */
int zab_patch_touches(const char *text, const char *file);
void zab_series_free(struct zab_seq_patch *p, size_t n);
/* A patch's subject: Subject: without [PATCH k/N], else its first line, else its name. */
char *zab_patch_subject(const char *text, const char *name);

/* ---- seqgit.c ---- */

/*
 * Run argv (argv[0] looked up in PATH), its stdout into *out (NUL-ended,
 * *len bytes) and the first line of its stderr into errline.  The exit
 * status, or -errno when it could not run.
 */
int zab_run_capture(const char *const *argv, char **out, size_t *len, char *errline,
		    size_t errlen);
/*
 * Write data to the blob cache as BLOBS/SHA256/name (a file kept if it is
 * there with the right content), *path its absolute name.  0, or -1
 * after one line.
 */
int zab_blob_put(const void *data, size_t len, const char *name, char **path);
/*
 * A file about to be used: when it is a blob (.../blobs/SHA256/NAME), its
 * content checked against its name (a regular file of this user's or
 * root's, no symbolic link).  0 (also for any other file), or -1 after one
 * line.
 */
int zab_blob_check(const char *path);
/* The SHA-256 a blob's path names (64 hex digits in it), or NULL when path is no blob. */
const char *zab_blob_named(const char *path);
/*
 * Open path for reading when it is a regular file (a FIFO is not waited
 * on): the descriptor, or -1 with errno (EINVAL: *kind says what it is).
 */
int zab_open_regular(const char *path, const char **kind);
/*
 * The whole of path, a regular file of at most max bytes, NUL-ended into
 * *out (malloc'd): 0, or -errno (-EINVAL: *kind says what it is instead;
 * -EFBIG: longer than max).  zab's one whole-file reader.
 */
int zab_read_regular(const char *path, size_t max, char **out, size_t *len, const char **kind);
/* "a FIFO", "a symbolic link", ... for a file's mode. */
const char *zab_file_kind(mode_t mode);
/* The kernel version of the tree holding path (its top Makefile, or a linux-source-V folder); NULL. */
char *zab_tree_version(const char *path);
/* The kernel version a Makefile's text says (VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION); NULL. */
char *zab_makefile_version(const char *text);
/* kernel = TOKENS for source rel: steps in version order.  0, or -1 after one line. */
int zab_seq_kernel(const char *tokens, const char *rel, const char *where, size_t max,
		   struct zab_seq *s);
/* git = REPO A..B for source rel: the base and one step per commit.  0, or -1 after one line. */
int zab_seq_git(const char *spec, const char *rel, const char *where, size_t max,
		struct zab_seq *s);

#endif
