/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab expand: an experiment with its change sequences written out (model/seqexpand.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "model/sequence.h"

int zab_cmd_expand(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outp = NULL;
	char buf[64];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			outp = optarg;
			break;
		case 'h':
			printf("usage: zab expand EXPERIMENT [-o FILE]\n"
			       "  the experiment with every change sequence (series=, kernel=, git=)\n"
			       "  written out as [variant NAME@K] sections naming concrete files\n"
			       "  -o, --output FILE   write it to FILE (default: standard output)\n");
			zab_help_end(stdout, "expand");
			return 0;
		default:
			zab_bad_option(c, argv, buf, sizeof(buf));
			return 2;
		}
	}
	if (optind + 1 != argc) {
		cz_err("expand: name one experiment file (zab expand EXPERIMENT [-o FILE])");
		return 2;
	}
	c = zab_expand_file(zab_find_experiment(argv[optind]), outp);
	/* as zab run: a bad experiment is a usage error, an unwritable output a failure */
	return c == -EINVAL ? 2 : c ? 1 : 0;
}
