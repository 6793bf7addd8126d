/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab: run A/B experiments (benchmarks x variants in S sessions of W warm-ups
 * and R repeats) and print the significance tables kernel reviewers read.
 * The commands are in cmd/ (cmd/cmd.h, one file each); the jobs beneath
 * them in model/, run/, views/, hf/ and fleet/ (doc/zab-layout.md).
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cli.h"

/* Each command gets argv from its own name on (argv[0] = "run"). */
static const struct zab_command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "bisect", zab_cmd_bisect },
	{ "judge", zab_cmd_judge },
	{ "expand", zab_cmd_expand },
	{ "hyperfine", zab_cmd_hyperfine },
	{ "run", zab_cmd_run },
	{ "report", zab_cmd_report },
	{ "compare", zab_cmd_compare },
	{ "history", zab_cmd_history },
	{ "store", zab_cmd_store },
	{ "fleet", zab_cmd_fleet },
	{ "pack", zab_cmd_pack },
};

int main(int argc, char **argv)
{
	cz_cli_init("zab");
	cz_version_arg(argc, argv, "zab");
	if (argc < 2) {
		zab_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		zab_usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	/* zab CMD...: hyperfine's command line (argv[0] is zab's) */
	if (zab_hf_mode(argv[1]))
		return zab_cmd_hyperfine(argc, argv);
	cz_err("unknown command '%s' (expected run, report, compare, history, bisect, judge, store, expand, fleet, pack or hyperfine; see zab --help)", argv[1]);
	return 2;
}
