/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An experiment and every file it names, as one folder a SUT can run from
 * (pack.c; zab pack, zab fleet): DIR/experiment, the experiment with each
 * file-valued key rewritten to name files/SHA256.EXT relative to itself,
 * DIR/files/ those files, and DIR/SHA256SUMS (sha256sum's format) over them.
 */
#ifndef TOOLS_ZAB_MODEL_PACK_H
#define TOOLS_ZAB_MODEL_PACK_H

#include <jansson.h>

/*
 * Pack the experiment FILE exp into dir (made here: it must not exist).
 * sums gets the SHA-256 of SHA256SUMS; *files (may be NULL) an array of
 * {"key", "path", "sha256"} per shipped file.  0, or -1 after one line.
 */
int zab_pack(const char *exp, const char *dir, char sums[65], json_t **files);
/* The same with relative names taken from base (NULL: exp's folder): for an
 * experiment written elsewhere, e.g. one with its sequences expanded. */
int zab_pack_from(const char *exp, const char *base, const char *dir, char sums[65],
		  json_t **files);

/* Remove what zab_pack made in dir (its files, then dir). */
void zab_pack_remove(const char *dir);

#endif
