/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Run-time control shared by both front ends (control.c): ioctls and control-file text. */
#ifndef CUSE_CONTROL_H
#define CUSE_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

bool ctl_may_change(uid_t uid);
/* cmd, in/out as the kernel's restricted ioctl delivers them; *out_len = bytes to return. */
int ctl_ioctl(uid_t uid, unsigned int cmd, const void *in, size_t in_size,
	      void *out, size_t out_size, size_t *out_len);
/* One or more whitespace/newline separated "key=value" / "reset" commands. */
int ctl_command(uid_t uid, const char *text, size_t len);
/* Current settings as control-file text ("routine=...\nalign=...\n..."). */
int ctl_format_settings(char *buf, size_t len);

#endif
