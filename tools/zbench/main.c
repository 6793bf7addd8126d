/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench: in-process benchmarks of the zeroing routines, free of device
 * overhead, so that small effects (a loop straddling a cache line) show.
 *
 *   zbench memset -s 64KB -f rep_stosb -l 1000     perf bench mem memset
 *   zbench mmap -p 4KB -f demand -s 1GB -l 5       perf bench mem mmap
 *   zbench align -f rep_stosb --offsets 0..63      code-alignment sweep
 *
 * `zbench mem memset ...` and `zbench --format simple memset ...` are
 * accepted too, so a perf command line only needs "perf bench" replaced.
 */
#include <stdio.h>
#include <string.h>
#include <getopt.h>

#include "zbench.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: zbench [--format default|simple|json] <command> [options]\n"
		"\n"
		"  memset   time zeroing routines on a buffer (perf bench mem memset)\n"
		"  mmap     time mmap + first touch of every page (perf bench mem mmap)\n"
		"  align    place a routine at each code offset and compare throughput\n"
		"\n"
		"  zbench <command> -h   for the command's options; zbench memset -f help lists the routines\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		const char *arg = argv[i], *val = NULL;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strncmp(arg, "--format=", 9)) {
			val = arg + 9;
		} else if (!strcmp(arg, "--format") && i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "zbench: unknown option '%s'\n", arg);
			usage(stderr);
			return 129;
		}
		if (zb_parse_format(val, &zb_global_format)) {
			fprintf(stderr, "Unknown format descriptor: '%s'\n", val);
			return 1;
		}
		i++;
	}
	if (i < argc && !strcmp(argv[i], "mem"))
		i++;
	if (i >= argc) {
		usage(stderr);
		return 129;
	}

	/* Each command parses argv[i..] with getopt, its name as argv[0]. */
	optind = 1;
	if (!strcmp(argv[i], "memset"))
		return zb_memset_main(argc - i, argv + i);
	if (!strcmp(argv[i], "mmap"))
		return zb_mmap_main(argc - i, argv + i);
	if (!strcmp(argv[i], "align"))
		return zb_align_main(argc - i, argv + i);
	fprintf(stderr, "zbench: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 129;
}
