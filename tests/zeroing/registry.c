/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: the registry's invariants.  Names are unique and [a-z0-9_];
 * every entry has a description and a function; a relocatable entry has
 * code_start < loop_head < code_end (compiled C: its section bounds it, no
 * loop head; a non-relocatable one says why);
 * compiled C / libc entries do not claim fault safety (they have no
 * exception table); a ZERO_F_QUIRK loop starts with its padding NOP; each
 * entry is for this architecture or portable;
 * zero_default() is usable; zero_lookup() finds every name and rejects
 * unknown ones; the help listing names every routine.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "zeroing.h"
#include "../tap.h"

static enum zero_arch this_arch(void)
{
#if defined(__x86_64__)
	return ZERO_ARCH_X86_64;
#elif defined(__aarch64__)
	return ZERO_ARCH_AARCH64;
#else
	return ZERO_ARCH_ANY;
#endif
}

static int name_ok(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/*
 * ZERO_F_QUIRK (label before .p2align): the loop's branch target must be a
 * padding NOP, executed on every iteration -- else the quirk is not there.
 */
static int starts_with_nop(const unsigned char *p)
{
#if defined(__x86_64__)
	/* nop; nopl/nopw (0f 1f); 66-prefixed nops; cs nopw */
	if (p[0] == 0x66)
		p++;
	return p[0] == 0x90 || (p[0] == 0x0f && p[1] == 0x1f) || (p[0] == 0x2e && p[1] == 0x0f);
#elif defined(__aarch64__)
	return p[0] == 0x1f && p[1] == 0x20 && p[2] == 0x03 && p[3] == 0xd5;   /* d503201f */
#else
	(void)p;
	return 1;
#endif
}

/* Is name a whole word at the start of a line of the help text? */
static int help_lists(const char *help, const char *name)
{
	size_t len = strlen(name);
	const char *p = help;

	while ((p = strstr(p, name))) {
		if ((p == help || p[-1] == '\n') && (p[len] == ' ' || p[len] == '\n'))
			return 1;
		p += len;
	}
	return 0;
}

int main(void)
{
	const struct zero_routine *def;
	char *help = NULL;
	size_t help_len = 0, i, j;
	FILE *f;

	tap_ok(zero_nroutines >= 2, "registry has %zu routines (memset and c_store_loop at least)",
	       zero_nroutines);

	for (i = 0; i < zero_nroutines; i++) {
		const struct zero_routine *r = &zero_routines[i];
		int dup = 0;

		for (j = 0; j < i; j++)
			dup |= !strcmp(zero_routines[j].name, r->name);
		tap_ok(name_ok(r->name) && !dup, "name '%s' is [a-z0-9_] and unique%s", r->name,
		       dup ? ": DUPLICATE" : "");
		tap_ok(r->desc && *r->desc && r->fn, "%s: has a description and a function", r->name);
		tap_ok(r->arch == ZERO_ARCH_ANY || r->arch == this_arch(),
		       "%s: arch %s is this machine's or portable", r->name, zero_arch_name(r->arch));
		tap_ok(zero_lookup(r->name) == r, "zero_lookup(\"%s\") finds the entry", r->name);
		if (r->code_start) {
			const char *s = r->code_start, *e = r->code_end, *l = r->loop_head;

			if (!l && r->arch == ZERO_ARCH_ANY)
				/* compiled C: bounded by its own section, the entry first */
				tap_ok(s && e && s < e && (const void *)r->fn == r->code_start,
				       "%s: compiled C: code_start == fn < code_end (+%td), no loop head",
				       r->name, e && s ? e - s : 0);
			else
				tap_ok(s && l && e && s < l && l < e,
				       "%s: code_start < loop_head < code_end (%+td, %+td)", r->name,
				       l ? l - s : 0, e ? e - s : 0);
			if (r->flags & ZERO_F_QUIRK)
				tap_ok(l && starts_with_nop((const unsigned char *)l),
				       "%s: quirk: the loop's branch target is padding (a NOP)", r->name);
		} else {
			tap_ok(r->no_reloc_why && *r->no_reloc_why && !r->loop_head && !r->code_end,
			       "%s: not relocatable, says why: %s", r->name,
			       r->no_reloc_why ? r->no_reloc_why : "(null)");
			/* Fault recovery needs exception-table entries: assembly only. */
			tap_ok(!(r->flags & ZERO_F_CLEAR_USER),
			       "%s: compiled code does not claim clear_user fault safety", r->name);
		}
	}
	tap_ok(zero_lookup("no_such_routine") == NULL, "zero_lookup of an unknown name is NULL");
	tap_ok(zero_lookup(NULL) == NULL, "zero_lookup(NULL) is NULL");
	tap_ok(zero_lookup("") == NULL, "zero_lookup(\"\") is NULL");

	def = zero_default();
	tap_ok(def && zero_usable(def, NULL), "zero_default() = %s is usable", def ? def->name : "NULL");
#if defined(__x86_64__)
	{
		const struct zero_cpu *c = zero_cpu();

		if (c->erms || c->fsrm || c->fsrs)
			tap_ok(def && !strcmp(def->name, "rep_stosb"),
			       "x86 with ERMS/FSRM: default is rep_stosb (as the kernel), got %s",
			       def ? def->name : "NULL");
		else
			tap_ok(def && !strcmp(def->name, "rep_stos_alternative"),
			       "x86 without ERMS/FSRM: default is rep_stos_alternative, got %s",
			       def ? def->name : "NULL");
	}
#elif defined(__aarch64__)
	/*
	 * __arch_clear_user (arch/arm64/lib/clear_user.S, Linux 6.12) takes its
	 * MOPS alternative when the CPU has FEAT_MOPS (ARM64_HAS_MOPS), which
	 * user space sees as HWCAP2_MOPS.  The run under a CPU model without
	 * MOPS (tests/zeroing/arm64-cpu-models.sh) covers the other side.
	 */
	if (zero_cpu()->mops)
		tap_ok(def && !strcmp(def->name, "clear_user_arm64_mops"),
		       "arm64 with HWCAP2_MOPS: default is clear_user_arm64_mops (as the kernel), got %s",
		       def ? def->name : "NULL");
	else
		tap_ok(def && !strcmp(def->name, "clear_user_arm64_fixed"),
		       "arm64 without HWCAP2_MOPS: default is clear_user_arm64_fixed, got %s",
		       def ? def->name : "NULL");
#endif

	f = open_memstream(&help, &help_len);
	if (!f) {
		printf("Bail out! open_memstream failed\n");
		return 1;
	}
	zero_print_help(f);
	fclose(f);
	for (i = 0; i < zero_nroutines; i++)
		tap_ok(help_lists(help, zero_routines[i].name), "help lists %s", zero_routines[i].name);
	tap_ok(strstr(help, "[default]") != NULL, "help marks the default");
	free(help);
	return tap_done();
}
