/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab pack: an experiment and every file it names as one folder (model/pack.c). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cmd.h"
#include "model/pack.h"

/* zab pack EXPERIMENT DIR: the bundle, and one line per shipped file. */
int zab_cmd_pack(int argc, char **argv)
{
	char sums[65];
	json_t *files, *f;
	size_t i;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: zab pack EXPERIMENT DIR   (the experiment and every file it names, as DIR)\n");
		zab_help_end(stdout, "pack");
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		if (argc > 3)
			cz_err("pack: unexpected argument '%s' (expected EXPERIMENT DIR)", argv[3]);
		else if (argc > 1 && argv[argc - 1][0] == '-')
			cz_err("pack: unknown option '%s' (expected EXPERIMENT DIR)", argv[argc - 1]);
		else
			cz_err("pack: expected EXPERIMENT DIR");
		return 2;
	}
	if (zab_pack(argv[1], argv[2], sums, &files))
		return 1;
	json_array_foreach(files, i, f)
		printf("%s = %s: %s\n", json_string_value(json_object_get(f, "key")),
		       json_string_value(json_object_get(f, "path")),
		       json_string_value(json_object_get(f, "sha256")));
	printf("%s/SHA256SUMS: %s\n", argv[2], sums);
	json_decref(files);
	return 0;
}
