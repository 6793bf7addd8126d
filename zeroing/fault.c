/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exception tables in user space, as the kernel does for clear_user():
 * each routine that may fault records (faulting instruction, fixup) pairs
 * with ZR_EXTABLE (asm.h).  On SIGSEGV/SIGBUS the handler looks the PC up --
 * translated back to the original code when it is inside a placed copy --
 * and resumes at the fixup, which computes the bytes not cleared and
 * returns.  A fault anywhere else gets the default action (a crash with a
 * core), never a silent recovery.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "zeroing.h"
#include "placement.h"

struct zero_extable_entry {
	int32_t insn;   /* relative to &insn */
	int32_t fixup;  /* relative to &fixup */
};

extern const struct zero_extable_entry __start_zero_extable[] __attribute__((weak));
extern const struct zero_extable_entry __stop_zero_extable[] __attribute__((weak));

/*
 * Loaded routines' tables (kernel source files, ksrc.c): a slot is claimed,
 * filled, then published by storing start last, so the handler -- which
 * may run at any moment on any thread -- never sees half an entry.
 */
static struct {
	_Atomic uintptr_t claim, start;
	size_t len, n;
	const uint32_t (*pairs)[2];
} tables[ZERO_FAULT_MAX_TABLES];

int zero_fault_add_table(uintptr_t start, size_t len, const uint32_t (*pairs)[2], size_t n)
{
	size_t i;

	for (i = 0; i < ZERO_FAULT_MAX_TABLES; i++) {
		uintptr_t expected = 0;

		if (!atomic_compare_exchange_strong(&tables[i].claim, &expected, 1))
			continue;
		tables[i].len = len;
		tables[i].n = n;
		tables[i].pairs = pairs;
		atomic_store(&tables[i].start, start);
		return 0;
	}
	return -ENOSPC;
}

void zero_fault_del_table(uintptr_t start)
{
	size_t i;

	for (i = 0; i < ZERO_FAULT_MAX_TABLES; i++)
		if (atomic_load(&tables[i].start) == start) {
			atomic_store(&tables[i].start, 0);
			atomic_store(&tables[i].claim, 0);
		}
}

static uintptr_t extable_lookup(uintptr_t pc)
{
	const struct zero_extable_entry *e;
	size_t i, k;

	for (i = 0; i < ZERO_FAULT_MAX_TABLES; i++) {
		uintptr_t start = atomic_load(&tables[i].start);

		if (!start || pc < start || pc >= start + tables[i].len)
			continue;
		for (k = 0; k < tables[i].n; k++)
			if (tables[i].pairs[k][0] == pc - start)
				return start + tables[i].pairs[k][1];
	}
	if (!__start_zero_extable)
		return 0;
	for (e = __start_zero_extable; e < __stop_zero_extable; e++)
		if ((uintptr_t)&e->insn + (intptr_t)e->insn == pc)
			return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
	return 0;
}

static uintptr_t *context_pc(void *uc_void)
{
	ucontext_t *uc = uc_void;

#if defined(__x86_64__)
	return (uintptr_t *)&uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t *)&uc->uc_mcontext.pc;
#else
	(void)uc;
	return NULL;
#endif
}

static void zero_fault_handler(int sig, siginfo_t *si, void *uc)
{
	uintptr_t *pcp = context_pc(uc), pc, fixup;
	size_t i;

	/* Sent by kill()/raise()/sigqueue() (si_code <= 0): not a fault of ours. */
	if (!pcp || si->si_code <= 0)
		goto crash;
	pc = *pcp;
	fixup = extable_lookup(pc);
	if (fixup) {
		*pcp = fixup;
		return;
	}
	for (i = 0; i < ZR_MAX_PLACED; i++) {
		uintptr_t start = atomic_load(&placed_regions[i].start);

		if (!start || pc < start || pc >= start + placed_regions[i].len)
			continue;
		fixup = extable_lookup(placed_regions[i].orig + (pc - start));
		if (fixup) {
			*pcp = start + (fixup - placed_regions[i].orig);
			return;
		}
	}
crash:
	/*
	 * Not ours: restore the default action.  A real fault dies when the
	 * return re-executes the instruction (the core shows the faulting
	 * PC); a sent signal would not come back, so send it again.
	 */
	signal(sig, SIG_DFL);
	if (si->si_code <= 0)
		raise(sig);
}

int zero_fault_install(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = zero_fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return 0;
}
