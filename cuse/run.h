/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cusezero run [OPTIONS] -- COMMAND...` (run.c). */
#ifndef CUSE_RUN_H
#define CUSE_RUN_H

/* Start the device, run cmd with /dev/zero bound to it; COMMAND's exit status. */
int run_main(char **cmd);

#endif
