/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet: one experiment over every SUT of an Ansible inventory.  The
 * engine is ansible-playbook with the playbook cusezero installs; zab packs
 * the experiment (pack.h), writes the play's variables as data Ansible
 * never templates, runs ansible-playbook and ansible-inventory (fork and
 * exec, no shell), and reads and records results through the store API.
 *   cmd/fleet.c the command: options, the campaign, the flow
 *   proc.c      running a program (no shell), capturing its output
 *   inv.c       the inventory's hosts and classes; the vars file
 *   results.c   results into the store, per-SUT states, the report
 *   bisect.c    --bisect: zab bisect on one SUT per class, the answers
 */
#ifndef TOOLS_ZAB_FLEET_FLEET_H
#define TOOLS_ZAB_FLEET_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct czs;

struct fleet_host {
	char *name;
	char *cls;              /* its inventory group: the SUT class */
	bool done;              /* a run stored for the campaign before this one */
	bool stored;            /* a run stored for the campaign now */
	char *state;            /* unreachable, install failed, ... complete */
	char *detail;           /* why, one line */
};

struct fleet {
	/* options */
	const char *exp, *inv, *store, *campaign, *name, *limit, *install, *pkg, *results, *html;
	unsigned forks, serial, timeout, min_per_class;
	bool dry;
	bool bisect;            /* --bisect: zab bisect per class, one SUT each (bisect.c) */
	bool device;            /* the experiment has device variants */
	char **zab_args;
	int nzab_args;
	/* derived */
	char *own_name, *own_campaign, *own_results, *ansible_dir, *self, *pkg_abs, *bundle;
	char sums[65];
	json_t *shipped;
	struct fleet_host *hosts;
	size_t nhosts;
};

/* ---- proc.c ------------------------------------------------------------ */
/* argv[0] on PATH (or a path): 0 when it is an executable file. */
int fleet_which(const char *prog);
/* Run argv with no shell; stdout into *out (malloc, NUL-terminated) unless
 * out is NULL (then it is ours), stderr's last line into err.  The exit
 * status, 128 + a signal, or -1 when it could not be started. */
int fleet_run(const char *const argv[], char **out, char *err, size_t errlen);
/* argv as a shell would need it quoted, for --dry-run. */
void fleet_print_argv(const char *const argv[]);

/* ---- inv.c ------------------------------------------------------------- */
/* f->hosts from ansible-inventory --list (within --limit): 0, or -1 after one line. */
int fleet_inventory(struct fleet *f);
/* The play's variables, every value from a user marked !unsafe: 0, or -1. */
int fleet_write_vars(const struct fleet *f, const char *path);

/* ---- results.c ---------------------------------------------------------- */
/* Which hosts have a run stored for the campaign (done, or stored when after). */
int fleet_mark_stored(struct fleet *f, struct czs *s, bool after);
/* Import results/HOST.json of the hosts that ran; read HOST.state. */
void fleet_collect(struct fleet *f, struct czs *s);
/* One line per SUT, "n of m SUTs complete" per class; the exit status. */
int fleet_summary(struct fleet *f, struct czs *s);
/* zab report --by sut-class over the campaign. */
void fleet_report(const struct fleet *f);

/* ---- bisect.c ------------------------------------------------------ */
/* --bisect: one SUT per class to run (the others marked done), said; how many. */
size_t fleet_bisect_pick(struct fleet *f);
/* After the play: the probes into the store, one answer per class; the exit status. */
int fleet_bisect_collect(struct fleet *f, struct czs *s, size_t todo);

#endif
