/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file's absolute name (abspath.c). */
#ifndef LIB_ABSPATH_H
#define LIB_ABSPATH_H

/*
 * path made absolute against the current folder, a leading "./" dropped
 * (malloc'd); as given when absolute or when the folder is unknown.
 */
char *cz_absolute(const char *path);

#endif /* LIB_ABSPATH_H */
