/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usable() predicates of the arm64 routines: FEAT_MOPS from HWCAP2_MOPS,
 * DC ZVA from DCZID_EL0 (both probed once in cpu.c).
 */
#include "zeroing.h"
#include "aarch64/routines.h"

#define ZR_PAGE_SIZE 4096u

bool zr_aarch64_have_mops(const char **why)
{
	if (zero_cpu()->mops)
		return true;
	*why = "no FEAT_MOPS (HWCAP2_MOPS clear; QEMU emulates it only from 8.2)";
	return false;
}

bool zr_aarch64_have_dczva(const char **why)
{
	const struct zero_cpu *c = zero_cpu();

	if (!c->dczva) {
		*why = "DC ZVA prohibited (DCZID_EL0.DZP set)";
		return false;
	}
	/* clear_page assumes whole blocks inside one page. */
	if (c->dczva_block > ZR_PAGE_SIZE) {
		*why = "DC ZVA block larger than a 4 KiB page";
		return false;
	}
	return true;
}
