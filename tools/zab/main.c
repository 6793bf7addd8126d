/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab: run A/B experiments (benchmarks x variants in S sessions of W warm-ups
 * and R repeats) and print the significance tables kernel reviewers read.
 */
#include <string.h>

#include "zab.h"
#include "cmd/cmd.h"
#include "cli.h"
#include "hf/hf.h"
#include "model/sequence.h"

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
	if (!strcmp(argv[1], "bisect"))
		return zab_cmd_bisect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "judge"))
		return zab_cmd_judge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "expand"))
		return zab_cmd_expand(argc - 1, argv + 1);
	if (!strcmp(argv[1], "hyperfine"))
		return zab_cmd_hyperfine(argc - 1, argv + 1);
	if (zab_hf_mode(argv[1]))
		return zab_cmd_hyperfine(argc, argv);
	if (!strcmp(argv[1], "run"))
		return zab_cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return zab_cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return zab_cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "history"))
		return zab_cmd_history(argc - 1, argv + 1);
	if (!strcmp(argv[1], "store"))
		return zab_cmd_store(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fleet"))
		return zab_cmd_fleet(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pack"))
		return zab_cmd_pack(argc - 1, argv + 1);
	cz_err("unknown command '%s' (expected run, report, compare, history, bisect, judge, store, expand, fleet, pack or hyperfine; see zab --help)", argv[1]);
	return 2;
}
