/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine a result was measured on: the JSON environment and the default SUT name. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "kpath.h"
#include "emul.h"
#include "run.h"
#include "util.h"
#include "zeroing.h"

/*
 * What the CPU is, finer than its model string: x86 "VENDOR FAMILY/MODEL/
 * STEPPING" (AuthenticAMD 25/17/1), arm64 its MIDR fields from
 * /proc/cpuinfo ("0x41 0xd0c r0p1": implementer, part, variant, revision),
 * the microarchitecture a verdict belongs to.
 */
static void cpu_id(json_t *env)
{
	char line[256], vendor[64] = "", impl[16] = "", part[16] = "", var[16] = "", rev[16] = "";
	int fam = -1, model = -1, step = -1;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && strcmp(line, "\n")) {
		sscanf(line, "vendor_id : %63s", vendor);
		sscanf(line, "cpu family : %d", &fam);
		sscanf(line, "model : %d", &model);
		sscanf(line, "stepping : %d", &step);
		sscanf(line, "CPU implementer : %15s", impl);
		sscanf(line, "CPU part : %15s", part);
		sscanf(line, "CPU variant : %15s", var);
		sscanf(line, "CPU revision : %15s", rev);
	}
	fclose(f);
	if (vendor[0])
		snprintf(line, sizeof(line), "%s %d/%d/%d", vendor, fam, model, step);
	else if (impl[0])
		snprintf(line, sizeof(line), "%s %s r%sp%s", impl, part, var[0] ? var + (var[1] == 'x' ? 2 : 0) : "?", rev);
	else
		return;
	cz_jset(env, "cpu_id", cz_jstr(line));
}

json_t *zab_environment(json_t *kernel_ref)
{
	json_t *env = cz_jobj();
	const struct zero_cpu *cpu = zero_cpu();
	struct utsname u;
	const char *why;
	char dwhy[2048], *model = cz_xasprintf("%.*s", (int)czrep_trimmed_len(cpu->model), cpu->model);

	/* CPUID brand strings are padded with blanks (AMD's to 48 bytes): not part of the name */
	cz_jset(env, "cpu", cz_jstr(model[0] ? model : "unknown"));
	free(model);
	if (!uname(&u)) {
		cz_jset(env, "kernel", cz_jstr(u.release));
		cz_jset(env, "kernel_version", cz_jstr(u.version));
		cz_jset(env, "machine", cz_jstr(u.machine));
		cz_jset(env, "hostname", cz_jstr(u.nodename));
	}
	cz_jset(env, "default_routine", cz_jstr(zero_device_default(dwhy, sizeof(dwhy))->name));
	cz_jset(env, "default_routine_why", cz_jstr(dwhy));
	cpu_id(env);
	cz_jset(env, "cores", cz_jnum((double)sysconf(_SC_NPROCESSORS_ONLN)));
	cz_jset(env, "cusezero_version", cz_jstr(cz_version()));
	if (cz_emulated(&why)) {
		cz_jset(env, "emulated", json_true());
		cz_jset(env, "emulated_why", cz_jstr(why));
	}
	/* the running kernel's clear_user and the routine it is like (kref.c) */
	if (kernel_ref)
		cz_jset(env, "kernel_ref", kernel_ref);
	return env;
}

char *zab_default_sut(void)
{
	const struct zero_cpu *cpu = zero_cpu();
	const char *m = cpu->model[0] ? cpu->model : "unknown";
	char *s = cz_xmalloc(strlen(m) + 1), *d = s;

	/*
	 * Drop trademark marks, which would read like the tables' (R) regression
	 * mark, and collapse runs of blanks: "Intel(R) Xeon(R)  CPU" -> "Intel Xeon CPU".
	 * The raw model stays in the JSON environment.
	 */
	for (; *m; m++) {
		if (!strncmp(m, "(R)", 3) || !strncmp(m, "(r)", 3)) {
			m += 2;
			continue;
		}
		if (!strncmp(m, "(TM)", 4) || !strncmp(m, "(tm)", 4)) {
			m += 3;
			continue;
		}
		if (!(isspace((unsigned char)*m) && (d == s || d[-1] == ' ')))
			*d++ = isspace((unsigned char)*m) ? ' ' : *m;
	}
	while (d > s && d[-1] == ' ')
		d--;
	*d = 0;
	/* figures of an emulator are no figures of that CPU: the class says so */
	if (cz_emulated(NULL)) {
		char *e = cz_xasprintf("%s (emulated)", s);

		free(s);
		s = e;
	}
	return s;
}
