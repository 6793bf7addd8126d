/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --sched-idle's starvation guard (schedguard.c, a watchdog thread): the
 * calling SCHED_IDLE serving thread serves requests that wait on fd (POLLIN
 * while one waits); served counts them (NULL: count with sg_served).  Work
 * waiting two ticks (10 ms) with none served moves the fd's threads to
 * SCHED_OTHER for a back-off, then back.  sg_join returns a handle for
 * sg_served/sg_leave (-1: not guarded, logged).
 */
#ifndef CUSE_SCHEDGUARD_H
#define CUSE_SCHEDGUARD_H

#include <stdatomic.h>

int sg_join(int fd, atomic_uint_fast64_t *served);
void sg_served(int h);
void sg_leave(int h);	/* before the thread exits */
unsigned long sg_demotions(void);

#endif
