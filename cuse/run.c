/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cusezero run [OPTIONS] -- COMMAND...`: run an unmodified program against
 * the emulated device.  We start a daemon (a child that serves until we
 * stop it), then run COMMAND in a child that unshare()s its mount namespace,
 * makes every mount private (so nothing propagates back to the host), and
 * bind-mounts the device over /dev/zero.  The system's /dev/zero is never
 * touched: the bind exists only in COMMAND's namespace and dies with it.
 * COMMAND also gets CUSEZERO_DEVICE=<device path>.  Exit status: COMMAND's
 * (128 + signal if it was killed).  --colocate puts COMMAND on the CPU the
 * daemon serves on (doc/DESIGN.md, "Co-location").
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "front_cuse.h"
#include "front_fuse.h"
#include "lifecycle.h"
#include "log.h"
#include "mountpoint.h"
#include "params.h"
#include "run.h"
#include "cli.h"
#include "util.h"

static volatile pid_t run_child;

static void run_forward(int sig)
{
	if (run_child > 0)
		kill(run_child, sig);
}

/* Stop the daemon: SIGTERM, bounded wait, then SIGKILL. */
static void run_stop_daemon(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	kill(pid, SIGTERM);
	for (i = 0; i < 1000; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		nanosleep(&ts, NULL);
	}
	cz_err("run: the daemon did not stop on SIGTERM; killing it");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * A daemon that dropped privileges (--user) can neither unmount nor remove
 * the directory it served: fusermount3's auto_unmount unmounts once the
 * daemon is gone, and we, still root, remove the directory and the lock.
 */
static void run_cleanup_dropped(void)
{
	if (cz_params.fuse_mnt && cz_params.user)
		mp_done_unmounted();
}

static void __attribute__((noreturn)) run_exec(const char *dev, char **cmd)
{
	int err;

	if (unshare(CLONE_NEWNS)) {
		cz_err("run: unshare(CLONE_NEWNS): %s", strerror(errno));
		_exit(126);
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		cz_err("run: making / private: %s", strerror(errno));
		_exit(126);
	}
	if (mount(dev, "/dev/zero", NULL, MS_BIND, NULL)) {
		cz_err("run: bind %s over /dev/zero: %s", dev, strerror(errno));
		_exit(126);
	}
	setenv("CUSEZERO_DEVICE", dev, 1);
	if (cz_params.colocate && (err = cz_pin_cpu(cz_params.cpu))) {
		cz_err("run: --colocate: pinning COMMAND to CPU %d: %s",
			cz_params.cpu, strerror(-err));
		_exit(126);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execvp(cmd[0], cmd);
	cz_err("run: %s: %s", cmd[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

int run_main(char **cmd)
{
	char dev[4200];
	pid_t daemon_pid, pid, parent = getpid();
	int status, ret;

	if (cz_params.fuse_mnt)
		snprintf(dev, sizeof(dev), "%s", ff_zero_path());
	else
		snprintf(dev, sizeof(dev), "/dev/%s", cz_params.name);

	/* The daemon child detaches from the terminal (setsid in lc_ready): ^C reaches COMMAND only. */
	cz_params.foreground = false;
	cz_log_init(true, cz_params.debug);
	ret = lc_fork_until_ready(&daemon_pid);
	if (ret) {
		lc_start_failed();
		if (ret != -ECHILD)	/* else the daemon did */
			ff_release_mountpoint();
		return 1;
	}
	if (daemon_pid == 0) {
		lc_watch_parent(parent);
		ret = cz_params.fuse_mnt ? ff_serve() : fc_serve();
		if (ret)
			lc_start_failed();
		_exit(ret ? 1 : 0);
	}

	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTERM, run_forward);
	signal(SIGHUP, run_forward);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cz_err("run: fork: %s", strerror(errno));
		run_stop_daemon(daemon_pid);
		return 1;
	}
	if (pid == 0)
		run_exec(dev, cmd);
	run_child = pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	run_stop_daemon(daemon_pid);
	run_cleanup_dropped();
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
