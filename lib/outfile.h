/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files (pages, figures, JSON, expanded experiments, exports),
 * one rule for every program: the content goes to a fresh file made with
 * O_EXCL (never an existing file, never through a symbolic link) in the
 * output's folder, renamed onto the name given once it is whole.  A link
 * planted at the name is replaced, never followed, so no file it points
 * to is written; a reader never sees half a file.  A FIFO or character
 * device (a pipe, /dev/null, /dev/stdout: a link of the user's or root's
 * to one) is written in place: it has no content to replace.
 */
#ifndef LIB_OUTFILE_H
#define LIB_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

struct cz_out {
	FILE *f;        /* write here */
	char *path;     /* the name given */
	char *tmp;      /* the fresh file renamed onto path; NULL: path written in place */
	mode_t mode;    /* the file's mode at the end, less the umask */
};

/* Start path (mode e.g. 0666, less the umask; 0600 for private output): 0 or -errno. */
int cz_out_open(struct cz_out *o, const char *path, mode_t mode);
/* Finish: flushed, the mode set, renamed onto path: 0 or -errno (then path is untouched). */
int cz_out_commit(struct cz_out *o);
/* Give up: the fresh file removed, path untouched. */
void cz_out_discard(struct cz_out *o);

#endif
