/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zab --help: the commands, their options and an example. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cli.h"
#include "hf/hf.h"

void zab_bad_option(int c, char **argv, char *buf, size_t len)
{
	/* "--bench" as written; the long option's code is no character to print */
	const char *opt = !strncmp(argv[optind - 1], "--", 2) || optopt <= 0 || optopt > 255 ?
			  argv[optind - 1] : cz_getopt_bad(argv, optind, optopt, buf, len);

	if (c == ':')
		cz_err("option '%s' needs a value (see zab --help)", opt);
	else
		cz_err_unknown_option(opt);
}

static void usage_files(FILE *f);

/* The commands, one synopsis each. */
static void usage_commands(FILE *f)
{
	fputs(
"usage: zab run [OPTIONS] [EXPERIMENT_FILE | COMMAND...]\n"
"       zab report [--verdict overlap|paired] [--style S] [--detail] [--export-* FILE]\n"
"                  [--sut CLASS] FILE.json...\n"
"         (files pooled only when their benchmarks and variants mean the same, and\n"
"          their (R)/(I) rule is one or --verdict gives it)\n"
"       zab report --layout-or-code OWN.json LAYOUTS.json\n"
"         (one experiment at own placements, then placement=random or rotate: code or layout?)\n"
"       zab compare OLD.json NEW.json   (benchstat-style old / new / delta / p)\n"
"       zab report --store URL --experiment NAME [--campaign ID [--min-per-class N]] [--sut-class C]\n"
"                  [--by sut-class]\n"
"         (--by sut-class: one column group per SUT class; files too)\n"
"       zab compare --store URL OLD NEW   (run sets: a UUID or 8+ of its characters, campaign:ID,\n"
"         sut-class:C, sut:NAME, experiment:NAME, comma-combined)\n"
"       zab history --store URL --experiment NAME --by kernel|cusezero|patch|series\n"
"                  [--benchmark B] [--variant V] [--sut-class C]\n"
"       zab history --by series ...   (a change sequence's steps, change points)\n"
"       zab bisect EXPERIMENT_FILE [--variant NAME] [--result CLASS] [--store URL] ...\n"
"         (the first step of a sequence that changes the figure vs its base)\n"
"       zab judge --source PATH:SYMBOL --good REV [--band PCT] [--sessions N] [--repeats N]\n"
"                 [--size SIZE] [--loops N] [--seed N]\n"
"         (git bisect run's command: this work tree's routine vs REV's)\n"
"       report, compare, history: --html FILE (a page: tables and figures, drawn by gnuplot)\n"
"         --plot FILE.svg|png [--figure NAME] (one figure: change, runs, order, layouts, sweep,\n"
"         history; NAME-2 ... for a second benchmark or class)\n"
"       zab store import|export|ls|flush ...   (the results store: man zab-store;\n"
"         export --kcidb: the runs' kernel change steps as a KCIDB v5 document)\n"
"       zab expand EXPERIMENT [-o FILE]   (change sequences -- series=, kernel=, git= --\n"
"         written out as variants NAME@K naming concrete files)\n"
"       zab fleet EXPERIMENT -i INVENTORY ...   (many SUTs through Ansible: man zab-fleet)\n"
"       zab fleet --bisect EXPERIMENT -i INVENTORY ...   (zab bisect on one SUT per class)\n"
"       zab pack EXPERIMENT DIR   (the experiment and every file it names, as one folder)\n"
"       zab hyperfine [HYPERFINE OPTIONS] COMMAND...   (or zab [OPTIONS] COMMAND...:\n"
"         hyperfine's options and meanings; zab hyperfine --help)\n",
	      f);
}

/* The last line of a command's --help: the page that documents it. */
void zab_help_end(FILE *f, const char *cmd)
{
	fprintf(f, "See zab-%s(1).\n", cmd);
}

static void usage_all(FILE *f)
{
	usage_commands(f);
	fputs(
"\n"
"An experiment is benchmarks (commands printing one number, or timed) x variants, run as\n"
"S sessions of W warm-ups (discarded) and R measured repeats.  Each session starts\n"
"fresh: new processes, and a new cusezero daemon per device variant.\n"
"\n"
"run options:\n"
"  -e, --experiment FILE  experiment file (INI, see experiments/README.md)\n"
"  -b, --bench NAME=CMD   a benchmark; CMD prints one number (e.g. --format simple);\n"
"                         printing none (first run, no --unit): its wall-clock time\n"
"      --time             the last --bench's value is its wall-clock time (seconds, lower)\n"
"      --unit UNIT        unit of the last --bench (e.g. bytes/sec)\n"
"      --lower            for the last --bench, lower is better (default higher)\n"
"      --group NAME       the Benchmark column of the last --bench (default: CMD's program)\n"
"  -v, --variant NAME[:KEY=VALUE,...]\n"
"                         a variant; KEYs: routine= align= align-point= chunk=\n"
"                         frontend=fuse|cuse threads= cusezero-args= (any of these =\n"
"                         a device variant), env.X= or X= (UPPER_CASE: environment),\n"
"                         var.X= ({X} in commands), cmd= (replaces the command,\n"
"                         {cmd} = the benchmark's; takes the rest of the spec)\n"
"      --only-variants A,B,...   run only these variants of the experiment (zab bisect's\n"
"                         probes: a sequence's base and one step)\n"
"      --var NAME=VALUE   {NAME} in every command\n"
"  -L, --parameter-list NAME=A,B,...  (or NAME A,B,...) each variant once per value,\n"
"                         named 'VARIANT NAME=A', {NAME} in its spec and commands\n"
"      --parameter-scan NAME LO HI   the same for LO..HI\n"
"      --parameter-step-size D       the step of --parameter-scan (default 1)\n"
"      --prepare CMD      run CMD before each run, not measured\n"
"  -S, --sessions N       sessions (default 1)\n"
"  -W, --warmups N        warm-up runs per session, discarded (default 0)\n"
"  -R, -r, --repeats N, --runs N   measured runs per session (default 3)\n"
"      --retries N        retry a failing run N times before marking the cell FAILED (default 0)\n"
"      --timeout SEC      kill a run after SEC seconds: a failed run (default 0: none)\n"
"      --order ORDER      random (default; seeded), interleave (ABAB), sequential (AABB),\n"
"                         abba (A B, B A, A B ... by round)\n"
"      --seed N           seed of the random order and of the co-location CPUs (printed)\n"
"      --colocate C       auto (default): with device variants, each session runs its\n"
"                         daemons' serving threads (--cpu N) and every\n"
"                         benchmark process on one CPU N, rotating per session;\n"
"                         N: always CPU N; off: let the scheduler place them\n"
"      --placement P      fixed (default), random[:SET] or sweep[:SET] (SET: offsets as in\n"
"                         zbench align, e.g. 0..60:4, default 0..63; @entry or @loop):\n"
"                         a code offset per measured run, the same for every variant of\n"
"                         the slot; rotate[:SET] (device variants, at most 64 offsets):\n"
"                         every offset in every run, the daemon rotating its placed\n"
"                         copies per request; statistics over layouts (doc/layouts.md)\n"
"      --verdict RULE     (R)/(I) at fixed placement: overlap (default; the 95% CIs do not\n"
"                         overlap) or paired (runs of one slot paired: the per-slot\n"
"                         change's 95% interval excludes 0); report takes it too\n"
"      --kernel-ref yes|no  measure the running kernel's clear_user per 4 KiB chunk and\n"
"                         the routine it is like once, before the sessions, into the\n"
"                         environment (default yes; zbench kernel)\n"
"      --in-device WHEN   auto (default: when every variant is a device variant), yes, no:\n"
"                         add the result classes taken from the daemon's counters over\n"
"                         each run: NAME in-device (bytes cleared per second of routine\n"
"                         time) and NAME in-device per chunk (routine ns per chunk)\n"
"      --base NAME        the base variant (default: the first)\n"
"      --name TITLE       experiment title\n"
"      --sut CLASS        SUT class in headings and JSON (default: the CPU model)\n"
"      --sut-name NAME    this SUT's name in the store (default: the hostname)\n"
"      --campaign ID      tag the run (a fleet's campaign) in the store\n"
"      --store URL        record the run there (default: $CUSEZERO_STORE, else\n"
"                         sqlite:$XDG_DATA_HOME/cusezero/results.db)\n"
"      --no-store         record nothing\n"
"      --cusezero PATH    the daemon (default: $CUSEZERO, beside zab, then $PATH)\n"
"      --dry-run          print the run order and exit\n"
"      --progress / --no-progress   progress bar on stderr (default: if a terminal)\n"
"output options (run and report; every output file is checked before the first run):\n"
"  -s, --style STYLE      box (default), grid, plain, markdown, detail, benchstat\n"
"      --detail           add the detailed view (CI, CV, median, U-test p)\n"
"  -j, --json FILE, --export-zab FILE\n"
"                         zab's JSON: every raw sample, the settings and the environment\n"
"                         ('-': stdout, the table then goes to stderr; report reads it)\n"
"      --export-markdown FILE   the table as Markdown\n"
"      --export-csv FILE  one row per cell: statistics, change, verdict (R, I, none)\n"
"      --export-json FILE, --export-hyperfine FILE\n"
"                         hyperfine's --export-json layout, one entry per cell\n",
	      f);
	usage_files(f);
}

void zab_usage(FILE *f)
{
	usage_all(f);
	fputs("\nSee zab(1), and zab-COMMAND(1) for each command.\n", f);
}

void zab_usage_of(FILE *f, const char *cmd)
{
	usage_all(f);
	fputc('\n', f);
	zab_help_end(f, cmd);
}

/* The experiment file, the commands' placeholders, the verdict, an example. */
static void usage_files(FILE *f)
{
	fputs(
"\n"
"Experiment file (INI; experiments/README.md):\n"
"  [experiment]        name= sessions= warmups= repeats= retries= timeout=\n"
"                      order= colocate= base= placement= verdict= kernel-ref= var.NAME=\n"
"                      prepare=\n"
"  [benchmark NAME]    cmd= unit= better=higher|lower group= in-device=\n"
"                      measure=auto|output|time\n"
"  [variant NAME]      routine= align= align-point= chunk= frontend= threads=\n"
"                      cusezero-args= env.NAME= var.NAME= cmd= arch= placement=\n"
"                      source=KERNEL.S[:SYMBOL] patch=FILE alt=FEATURE=on|off\n"
"                      kconfig=CONFIG_X=y|n (a kernel file)\n"
"\n"
"In commands: {dev} (device path; /dev/zero for non-device variants), {routine},\n"
"{align}, {chunk}, {variant}, {session}, {offset} and {point} (the run's placement;\n"
"-1 when fixed), and var.NAME / --var values.  Device variants also get\n"
"CUSEZERO_DEVICE; every run gets ZAB_BENCH, ZAB_VARIANT, ZAB_SESSION, ZAB_RUN,\n"
"ZAB_SEED, and ZAB_OFFSET, ZAB_POINT when placed.  The directory of zab (and in a build tree\n"
"its pread_z100k/ folder) is put first in PATH.\n"
"\n"
"Change is vs the base, oriented so that negative is worse; (R)/(I) mark a\n"
"regression/improvement whose 95% confidence intervals (Student t) do not overlap\n"
"(--verdict paired: whose per-slot change's 95% interval excludes 0).\n"
"Exit: 0 ok, 1 a cell FAILED, 2 bad usage or input.\n"
"\n"
"example:\n"
"  zab run -b 'pread=pread_z100k --format simple -n 20000 {dev}' --unit bytes/sec \\\n"
"      -v 'fast:routine=rep_stosb' -v 'slow:routine=c_store_loop' -S 3 -W 1 -R 3\n"
"  zab run -b 't=sleep 0.01' -v a -v b      (timed, as hyperfine)\n"
"  zab run -S 3 'sleep 0.1' 'sleep 0.2'    (COMMANDs: variants of one timed benchmark,\n"
"                                           zab's options and tables)\n",
	      f);
}

/* zab hyperfine --help: hyperfine 1.15's options, with hyperfine's meanings. */
void zab_hf_usage(FILE *f)
{
	fputs(
"usage: zab hyperfine [OPTIONS] COMMAND...\n"
"       zab [OPTIONS] COMMAND...   (the same when the first word is no zab command,\n"
"                                   option or existing file)\n"
"\n"
"hyperfine's command line with hyperfine's meanings (hyperfine(1)): paste a hyperfine\n"
"line with 'hyperfine' replaced by 'zab hyperfine'.\n"
"  -w, --warmup NUM          warm-up runs before each command's measured runs\n"
"  -m, --min-runs NUM        at least NUM runs (default 10)\n"
"  -M, --max-runs NUM        at most NUM runs (default: no limit)\n"
"  -r, --runs NUM            exactly NUM runs (default: as many as fit in 3 s)\n"
"  -s, --setup CMD           run once before each command's runs\n"
"  -p, --prepare CMD         run before each run (once, or once per command)\n"
"  -c, --cleanup CMD         run once after each command's runs\n"
"  -P, --parameter-scan VAR MIN MAX   one benchmark per value, {VAR} in commands\n"
"  -D, --parameter-step-size DELTA    the step of -P (default 1; integers without it)\n"
"  -L, --parameter-list VAR A,B,...   one benchmark per value (several -L: each combination)\n"
"  -S, --shell SHELL         the shell running the commands (default sh); none: -N\n"
"  -N                        no shell: the command split into words and executed\n"
"  -i, --ignore-failure      do not stop at a non-zero exit code\n"
"  -u, --time-unit UNIT      millisecond or second\n"
"  -n, --command-name NAME   the name of the next command ({VAR} expanded)\n"
"      --style TYPE          basic, full, nocolor, color (the same here) or none (no report)\n"
"      --show-output, --output null|inherit   the commands' output (default: /dev/null)\n"
"      --export-json FILE    hyperfine's JSON (results: command, mean, stddev, median,\n"
"                            user, system, min, max, times, exit_codes, parameters)\n"
"      --export-csv FILE, --export-markdown FILE   hyperfine's CSV and Markdown tables\n"
"Times are wall-clock seconds; the shell's start-up time is not subtracted.\n"
"Exit: 0 ok, 1 a command failed (or an export), 2 bad usage.\n",
	      f);
	zab_help_end(f, "hyperfine");
}
