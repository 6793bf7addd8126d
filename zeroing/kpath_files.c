/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_kpath_tree_files(): the files of a kernel tree the resolver reads
 * (kpath.h), so that a copy of them alone resolves as the tree does -- what
 * zab pack ships for a kpath source, for a SUT to resolve on its own CPU:
 * the top Makefile (the release), the headers that inline the paths and
 * the Intel model names the rules use, every vendor's rules file (the SUT's
 * vendor is not known here), and every .S of arch/x86/lib (the function a
 * path calls is looked for in all of them).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kpath.h"

static const char *const tree_files[] = {
	"Makefile",
	"arch/x86/include/asm/uaccess_64.h",
	"arch/x86/include/asm/page_64.h",
	"arch/x86/include/asm/intel-family.h",
	"arch/x86/kernel/cpu/amd.c",
	"arch/x86/kernel/cpu/centaur.c",
	"arch/x86/kernel/cpu/hygon.c",
	"arch/x86/kernel/cpu/intel.c",
	"arch/x86/kernel/cpu/zhaoxin.c",
};

#define KPATH_LIB "arch/x86/lib"

static bool regular(const char *root, const char *rel)
{
	char path[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* name appended to f[*n] (malloc); false when out of memory. */
static bool push(char ***f, size_t *n, size_t *cap, const char *name)
{
	char **g;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		if (!(g = realloc(*f, *cap * sizeof(*g))))
			return false;
		*f = g;
	}
	return ((*f)[*n] = strdup(name)) ? (++*n, true) : false;
}

int zero_kpath_tree_files(const char *root, char ***out, size_t *n, char *err, size_t errlen)
{
	char dir[4200], rel[4400];
	size_t i, cap = 0, first;
	struct dirent *de;
	bool ok = true;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (!regular(root, "Makefile")) {
		snprintf(err, errlen, "%s: no Makefile: not a kernel tree", root);
		return -ENOENT;
	}
	for (i = 0; ok && i < sizeof(tree_files) / sizeof(tree_files[0]); i++)
		if (regular(root, tree_files[i]))
			ok = push(out, n, &cap, tree_files[i]);
	snprintf(dir, sizeof(dir), "%s/%s", root, KPATH_LIB);
	first = *n;
	d = opendir(dir);
	while (ok && d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		snprintf(rel, sizeof(rel), "%s/%s", KPATH_LIB, de->d_name);
		if (len > 2 && !strcmp(de->d_name + len - 2, ".S") && regular(root, rel))
			ok = push(out, n, &cap, rel);
	}
	if (d)
		closedir(d);
	if (ok && *n > first)
		qsort(*out + first, *n - first, sizeof(**out), cmp_str);
	if (!ok) {
		zero_kpath_files_free(*out, *n);
		*out = NULL;
		*n = 0;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

void zero_kpath_files_free(char **f, size_t n)
{
	size_t i;

	for (i = 0; f && i < n; i++)
		free(f[i]);
	free(f);
}
