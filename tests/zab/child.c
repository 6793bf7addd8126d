/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: lib/child.c, the one way zab's helpers run a program: exit
 * status, stdout captured in full (a megabyte, while stderr is written
 * too: no deadlock), stderr's first or last line, 127 and a line for a
 * program not found, 128 + N for a signal, stdin from /dev/null, and a
 * timeout that kills the child.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "child.h"
#include "../tap.h"

static int run(struct cz_child *c, unsigned flags, const char *script)
{
	static const char *argv[4];

	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = script;
	argv[3] = NULL;
	c->argv = argv;
	c->flags = flags;
	return cz_child_run(c);
}

int main(void)
{
	struct cz_child c = { 0 };
	const char *none[] = { "cz-no-such-program-here", NULL };
	int ret;

	ret = run(&c, CZ_CHILD_OUT | CZ_CHILD_ERR, "echo out; echo e1 >&2; echo e2 >&2; exit 3");
	tap_ok(ret == 3, "exit status 3: %d", ret);
	tap_ok(c.out && !strcmp(c.out, "out\n") && c.len == 4, "stdout captured: '%s'", c.out);
	tap_ok(!strcmp(c.err, "e1"), "stderr's first line: '%s'", c.err);
	free(c.out);
	ret = run(&c, CZ_CHILD_ERR | CZ_CHILD_ERR_LAST, "echo e1 >&2; echo e2 >&2; echo >&2");
	tap_ok(ret == 0 && !strcmp(c.err, "e2") && !c.out, "stderr's last line: '%s'", c.err);
	ret = run(&c, CZ_CHILD_OUT | CZ_CHILD_ERR,
		  "head -c 1000000 /dev/zero; head -c 300000 /dev/zero | tr '\\0' x >&2; echo end >&2");
	tap_ok(ret == 0 && c.len == 1000000, "a megabyte on stdout, 300 kB on stderr: %d, %zu bytes",
	       ret, c.len);
	free(c.out);
	c.argv = none;
	c.flags = CZ_CHILD_ERR;
	ret = cz_child_run(&c);
	tap_ok(ret == 127 && strstr(c.err, "cz-no-such-program-here: "),
	       "a program not found: 127, '%s'", c.err);
	ret = run(&c, 0, "kill -TERM $$");
	tap_ok(ret == 128 + SIGTERM && WIFSIGNALED(c.wstatus), "a signal: 128 + SIGTERM: %d", ret);
	ret = run(&c, CZ_CHILD_NULL_OUT, "echo lost; echo lost >&2; exit 200");
	tap_ok(ret == 200 && WIFEXITED(c.wstatus) && WEXITSTATUS(c.wstatus) == 200,
	       "exit 200, output to /dev/null: %d", ret);
	ret = run(&c, CZ_CHILD_OUT | CZ_CHILD_NULL_IN, "cat");
	tap_ok(ret == 0 && c.len == 0, "stdin from /dev/null: cat ends at once: %d", ret);
	free(c.out);
	c.timeout = 1;
	ret = run(&c, CZ_CHILD_OUT, "exec sleep 600");
	tap_ok(ret == 128 + SIGKILL && c.timed_out, "timeout 1 s: killed: %d, timed_out %d", ret,
	       c.timed_out);
	free(c.out);
	return tap_done();
}
