/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench: in-process benchmarks of the zeroing routines, free of device
 * overhead, so that small effects (a loop straddling a cache line) show.
 *
 *   zbench memset -s 64KB -f rep_stosb -l 1000     perf bench mem memset
 *   zbench mmap -p 4KB -f demand -s 1GB -l 5       perf bench mem mmap
 *   zbench align -f rep_stosb --offsets 0..63      code-alignment sweep
 *   zbench kernel                                  the running kernel as reference
 *   zbench kpath --tree LINUX                      what that release runs here, and why
 *
 * `zbench mem memset ...` and `zbench --format simple memset ...` are
 * accepted too, so a perf command line only needs "perf bench" replaced.
 * Exit statuses: memset and mmap keep perf bench's (129 for an unknown
 * option, 1 for a bad value, as tools/perf/bench/mem-functions.c); what perf
 * has no counterpart for (--version, a --format a command cannot print)
 * follows the project's 0 / 1 / 2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <getopt.h>

#include "zbench.h"
#include "util.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: zbench [-f|--format default|simple|json] <command> [options]\n"
		"\n"
		"  memset   time zeroing routines on a buffer (perf bench mem memset)\n"
		"  mmap     time mmap + first touch of every page (perf bench mem mmap)\n"
		"  align    place a routine at each code offset and compare throughput\n"
		"  kernel   the running kernel's clear_user per 4 KiB chunk and the routine it is like\n"
		"  kpath    what a kernel tree's release runs for clear_user and clear_page, and why\n"
		"\n"
		"  -f, --format FMT  output format of memset and mmap: default, simple, json\n"
		"  -h, --help     this text\n"
		"  -V, --version  the version\n"
		"\n"
		"  zbench <command> -h   for the command's options; zbench memset -f help lists the routines\n"
		"GB = 2^30 bytes in perf's lines.  Exit status: 0 ok, 1 failure or bad value,\n"
		"129 unknown option (perf's), 2 a --format the command cannot print.\n");
}

#define ZB_FMT(f) (1u << ZB_FORMAT_##f)

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned formats;	/* the --format values the command honours */
} zb_commands[] = {
	{ "memset", zb_memset_main, ZB_FMT(DEFAULT) | ZB_FMT(SIMPLE) | ZB_FMT(JSON) },
	{ "mmap",   zb_mmap_main,   ZB_FMT(DEFAULT) | ZB_FMT(SIMPLE) | ZB_FMT(JSON) },
	{ "align",  zb_align_main,  ZB_FMT(DEFAULT) },
	{ "kernel", zb_kernel_main, ZB_FMT(DEFAULT) | ZB_FMT(SIMPLE) | ZB_FMT(JSON) },
	{ "kpath",  zb_kpath_main,  ZB_FMT(DEFAULT) },
};

/* Global options before the command; -1 to go on, else an exit status. */
static int parse_global(int argc, char **argv, int *i, bool *format_set)
{
	while (*i < argc && argv[*i][0] == '-') {
		const char *arg = argv[*i], *val = NULL;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return CZ_EXIT_OK;
		}
		if (!strcmp(arg, "-V") || !strcmp(arg, "--version")) {
			cz_version_print(stdout, "zbench");
			return CZ_EXIT_OK;
		}
		/* perf bench's global -f/--format. */
		if (!strncmp(arg, "--format=", 9)) {
			val = arg + 9;
		} else if ((!strcmp(arg, "--format") || !strcmp(arg, "-f")) && *i + 1 < argc) {
			val = argv[++*i];
		} else {
			cz_err_unknown_option(arg);
			return 129;	/* perf's usage_with_options() */
		}
		if (cz_format_parse(val, &zb_global_format)) {
			fprintf(stderr, "Unknown format descriptor: '%s'\n", val);	/* perf's */
			return CZ_EXIT_FAILURE;
		}
		*format_set = true;
		++*i;
	}
	return -1;
}

int main(int argc, char **argv)
{
	bool format_set = false;
	int i = 1, ret;
	size_t c;

	cz_cli_init("zbench");
	ret = parse_global(argc, argv, &i, &format_set);
	if (ret >= 0)
		return ret;
	if (i < argc && !strcmp(argv[i], "mem"))
		i++;
	if (i >= argc) {
		usage(stderr);
		return 129;
	}
	for (c = 0; c < CZ_ARRAY_SIZE(zb_commands); c++) {
		if (strcmp(argv[i], zb_commands[c].name))
			continue;
		/* A format the command cannot print is refused, never ignored. */
		if (format_set && !(zb_commands[c].formats & (1u << zb_global_format))) {
			fprintf(stderr, "zbench: --format %s: %s has no such output (see zbench %s -h)\n",
				zb_global_format == CZ_FORMAT_JSON ? "json" : "simple", argv[i], argv[i]);
			return CZ_EXIT_USAGE;
		}
		/* Each command parses argv[i..] with getopt, its name as argv[0]. */
		optind = 1;
		return zb_commands[c].fn(argc - i, argv + i);
	}
	fprintf(stderr, "zbench: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 129;
}
