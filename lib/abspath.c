/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file's absolute name, the way zab's experiment files and fleet name files. */
#include <limits.h>
#include <unistd.h>

#include "abspath.h"
#include "alloc.h"

char *cz_absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return cz_xstrdup(path);
	return cz_xasprintf("%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
}
