/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option groups zab's commands share (cmd.h): one long option, one
 * code and one meaning for each, whichever command takes it.
 */
#include "cmd.h"

int zab_store_option(int c, const char *arg, const char **url)
{
	if (c != OPT_STORE_URL)
		return 0;
	*url = arg;
	return 1;
}
