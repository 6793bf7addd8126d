/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: the parts of the release resolver (kpath.h), one module each. */
#ifndef ZEROING_KPATH_INT_H
#define ZEROING_KPATH_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "kpath.h"

/* A text file as lines (the buffer is modified: NULs at line ends). */
struct kpath_text {
	char *buf;
	char **line;            /* line[0] is line 1 */
	size_t n;
};

/* 0, -errno when it cannot be read (nothing to free then). */
int kpath_text_read(const char *path, struct kpath_text *t);
void kpath_text_free(struct kpath_text *t);

/* VERSION.PATCHLEVEL.SUBLEVEL of root's Makefile; -errno with one line. */
int kpath_release(const char *root, char *out, size_t outlen, char *err, size_t errlen);

/* Appending to a fixed buffer, silently cut at its end. */
void kpath_cat(char *dst, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The kernel's final X86_FEATURE_<feat> (REP_GOOD, ERMS, FSRM, FSRS) for
 * cpu as the release in root derives it: *on, a short reason in why; each
 * rule read appended as a line to detail.  0, or -errno with one line in
 * err (the release, the file and line, what is not understood).
 */
int kpath_feature(const char *root, const char *release, const struct zero_kpath_cpu *cpu,
		  const char *feat, bool *on, char *why, size_t whylen, char *detail,
		  size_t detaillen, char *err, size_t errlen);

#endif
