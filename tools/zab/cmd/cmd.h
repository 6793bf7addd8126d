/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's commands (cmd/, one file each; main.c's commands[] table), --help
 * (usage.c), and what the commands share beyond views/views.h.
 */
#ifndef TOOLS_ZAB_CMD_CMD_H
#define TOOLS_ZAB_CMD_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "views/views.h"

/* usage.c: zab --help, ending "See zab(1)."; a command's --help ends naming its page */
/* usage.c: zab --help, ending "See zab(1)."; a command's --help ends naming its page */
void zab_usage(FILE *f);
void zab_usage_of(FILE *f, const char *cmd);	/* zab --help's text, then "See zab-CMD(1)." */
void zab_help_end(FILE *f, const char *cmd);	/* "See zab-CMD(1)." */
void zab_usage_of(FILE *f, const char *cmd);	/* zab --help's text, then "See zab-CMD(1)." */
void zab_help_end(FILE *f, const char *cmd);	/* "See zab-CMD(1)." */
/* getopt's '?' (unknown option) or ':' (its value missing, "::" optstrings): one line. */
void zab_bad_option(int c, char **argv, char *buf, size_t len);
/*
 * The commands (main.c's commands[]): each gets argv from its name on and
 * returns zab's exit status.
 */
int zab_cmd_run(int argc, char **argv);         /* cmd/run.c */
int zab_cmd_report(int argc, char **argv);      /* cmd/report.c */
int zab_cmd_compare(int argc, char **argv);     /* cmd/compare.c */
int zab_cmd_history(int argc, char **argv);     /* cmd/history.c */
/* 0 a change found, 1 none, 125 could not decide, 2 usage (cmd/bisect.c) */
int zab_cmd_bisect(int argc, char **argv);
/* git bisect run's 0 good, 1 bad, 125 skip; 255 usage or set-up (cmd/judge.c) */
int zab_cmd_judge(int argc, char **argv);
int zab_cmd_store(int argc, char **argv);       /* cmd/store.c: import|export|ls */
int zab_cmd_expand(int argc, char **argv);      /* cmd/expand.c */
int zab_cmd_pack(int argc, char **argv);        /* cmd/pack.c */
int zab_cmd_fleet(int argc, char **argv);       /* cmd/fleet.c */
int zab_cmd_hyperfine(int argc, char **argv);   /* cmd/hyperfine.c */
/* Whether argv[1] starts hyperfine mode: not a zab command, not an experiment file. */
bool zab_hf_mode(const char *word);
/*
 * --store URL: the results store (store/czstore.h; default $CUSEZERO_STORE,
 * else the SQLite file under $XDG_DATA_HOME).  zab_store_option: 1 when c
 * was it (*url = arg), else 0 (cmd/options.c).
 */
#define ZAB_STORE_LONGOPTS { "store", required_argument, NULL, OPT_STORE_URL }
int zab_store_option(int c, const char *arg, const char **url);
/*
 * cmd/run.c: the document a run of the experiment file would start from:
 * its benchmarks and variants as recorded, no samples ("measure": "auto"
 * where the first run decides).  NULL after one line.
 */
json_t *zab_run_frame(const char *file);

#endif /* TOOLS_ZAB_CMD_CMD_H */
