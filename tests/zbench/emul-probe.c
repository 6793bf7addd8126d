/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: prints what lib/emul.h detects, "emulated: REASON" or
 * "native", for tests/zbench/emul.sh, which also builds it for arm64 and
 * runs it under qemu-aarch64.
 */
#include <stdio.h>

#include "emul.h"

int main(void)
{
	char why[256];

	if (cz_emul_detect(why, sizeof(why)))
		printf("emulated: %s\n", why);
	else
		printf("native\n");
	return 0;
}
