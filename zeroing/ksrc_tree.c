/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel tree a source file is in, for naming its routine when the same
 * file name and symbol come from two trees (zero_ksrc_load_all): the
 * release its top Makefile says, or the folder that tells the trees apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksrc_int.h"

/* "NAME = VALUE" of a top Makefile's first lines (VALUE may be empty): 1 if found. */
static int mk_var(const char *line, const char *name, char *val, size_t len)
{
	size_t n = strlen(name), e;

	if (strncmp(line, name, n))
		return 0;
	line += n;
	line += strspn(line, " \t");
	if (*line++ != '=')
		return 0;
	line += strspn(line, " \t");
	e = strcspn(line, " \t\r\n#");
	snprintf(val, len, "%.*s", (int)e, line);
	return 1;
}

/*
 * The release of dir's Makefile as the kernel's own Makefile makes
 * KERNELVERSION from it: VERSION.PATCHLEVEL[.SUBLEVEL]EXTRAVERSION (Linux
 * 6.12 Makefile, its first lines).  0, or -1 when it is no top Makefile.
 */
static int mk_release(const char *dir, char *out, size_t len)
{
	char path[4200], line[256], v[32] = "", p[32] = "", s[32] = "", x[64] = "";
	int n, got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "r");
	for (n = 0; f && n < 12 && fgets(line, sizeof(line), f); n++)
		got |= mk_var(line, "VERSION", v, sizeof(v)) | mk_var(line, "PATCHLEVEL", p, sizeof(p)) << 1 |
		       mk_var(line, "SUBLEVEL", s, sizeof(s)) << 2 | mk_var(line, "EXTRAVERSION", x, sizeof(x)) << 3;
	if (f)
		fclose(f);
	if ((got & 3) != 3 || !v[0] || !p[0])
		return -1;
	snprintf(out, len, "%s.%s%s%s%s", v, p, s[0] ? "." : "", s, x);
	return 0;
}

int ksrc_tree_release(const char *path, char *out, size_t len)
{
	char dir[4096], *slash;
	int up;

	snprintf(dir, sizeof(dir), "%s", path);
	/* arch/ARCH/lib/FILE: the top is three folders up; a few more for other layouts */
	for (up = 0; up < 8 && (slash = strrchr(dir, '/')) && slash > dir; up++) {
		*slash = 0;
		if (!mk_release(dir, out, len))
			return 0;
	}
	return -1;
}

/* Component k from the end (0: the file's folder) of path's folders, or "". */
static void dir_component(const char *path, unsigned k, char *out, size_t len)
{
	const char *end = strrchr(path, '/'), *start;

	out[0] = 0;
	while (end && end > path) {
		for (start = end - 1; start > path && *start != '/'; start--)
			;
		if (!k--) {
			start += *start == '/';
			snprintf(out, len, "%.*s", (int)(end - start), start);
			return;
		}
		end = start;
	}
}

/*
 * Names for n files of the same name from several trees: their releases
 * when those differ, else the nearest folder that differs between them
 * (linux-a/arch/... and linux-b/arch/...: linux-a and linux-b).  0, or
 * -1 when no such name tells them apart (the same file twice).
 */
int ksrc_tree_names(const char *const *paths, unsigned n, char (*names)[KSRC_TREE_NAME_LEN])
{
	char a[KSRC_TREE_NAME_LEN];
	unsigned i, j, k;
	int distinct = 1;

	for (i = 0; i < n && distinct; i++)
		distinct = !ksrc_tree_release(paths[i], names[i], KSRC_TREE_NAME_LEN);
	for (i = 0; i < n && distinct; i++)
		for (j = 0; j < i && distinct; j++)
			distinct = strcmp(names[i], names[j]) != 0;
	if (distinct)
		return 0;
	for (k = 0; k < 64; k++) {
		/* the nearest folder level where not all of them agree */
		dir_component(paths[0], k, a, sizeof(a));
		for (i = 1; i < n; i++) {
			dir_component(paths[i], k, names[i], KSRC_TREE_NAME_LEN);
			if (strcmp(a, names[i]))
				break;
		}
		if (i < n)
			break;
		if (!a[0])
			return -1;
	}
	for (i = 0; i < n; i++)
		dir_component(paths[i], k, names[i], KSRC_TREE_NAME_LEN);
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				return -1;
	return 0;
}
