#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the initramfs built by cuse-vm.sh (runs as PID 1 in the VM).
# Mounts devtmpfs, loads the modules listed in /lib/modules/order (fuse.ko
# then cuse.ko, dependencies first), runs the static checker, then the device
# test scripts listed in /etc/cz-device-tests if any, and powers off.
# Everything meant for the host is printed on the serial console as lines
# "@@CZTAP@@ <TAP line>"; the host keeps only those, so kernel messages on
# the same console cannot corrupt the TAP stream.
/bin/busybox mkdir -p /dev /proc /sys /run /tmp
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
PATH=/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs -o mode=0755 tmpfs /run	# as on Debian: not writable by all
# /tmp stays on the initramfs' own (writable) root: a tmpfs there would hide a
# build tree copied in under /tmp (a checkout in mktemp -d).
mkdir -p /tmp && chmod 1777 /tmp
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts	# script(1) in the device tests needs a pty
# As Debian's udev rules do (50-udev-default.rules: KERNEL=="fuse", MODE="0666").
[ -c /dev/fuse ] && chmod 0666 /dev/fuse
dmesg -n 1

M=@@CZTAP@@
say() { echo "$M $*"; }
up() { cut -d' ' -f1 /proc/uptime; }
# The newline first: the firmware's escape sequences end without one.
echo
say "# vm: kernel $(uname -r), userspace up at $(up) s"

for m in $(cat /lib/modules/order); do
	insmod "/lib/modules/$m" || say "# vm: insmod $m failed (exit $?)"
done

# A file, not a pipe, keeps the checker's exit status; the loop adds the marker.
# /etc/cz-no-checker (cuse-vm.sh, CZ_VM_CHECKER=0): the device tests alone.
if [ -e /etc/cz-no-checker ]; then
	say "# vm: no CUSE checker in this boot"
	echo 0 >/tmp/vmcheck.rc
else
	{ /bin/vmcheck /bin/cusezero; echo $? >/tmp/vmcheck.rc; } 2>&1 |
		while IFS= read -r l; do echo "$M $l"; done
fi
rc=$(cat /tmp/vmcheck.rc 2>/dev/null)
if [ "$rc" != 0 ]; then
	say "# vm: checker exit status ${rc:-none}; last kernel messages:"
	dmesg | sed -n '/Run \/init/,$p' | tail -n 25 | while IFS= read -r l; do say "# dmesg: $l"; done
fi
# Device test scripts (a build foreign to the host: see cuse-vm.sh),
# run as automake would: from the build directory, with its environment.
# Each is framed by "@T NAME" and "@E NAME STATUS" for the host's relay.
if [ -s /etc/cz-device-tests ]; then
	# The host tests are of the FUSE front end, including its fallback when
	# there is no /dev/cuse: unload cuse as on a host without it.
	rmmod cuse 2>/dev/null || say "# vm: rmmod cuse failed: /dev/cuse stays"
	. /etc/cz-test-env
	PATH=/usr/bin:/bin
	for t in $(cat /etc/cz-device-tests); do
		say "@T $t"
		say "# vm: $t starts at $(up) s"
		{ (cd "$top_builddir" && timeout 300 /usr/bin/sh "$top_srcdir/$t" 2>/tmp/test.err)
		  echo $? >/tmp/test.rc; } | while IFS= read -r l; do echo "$M $l"; done
		sed 's/^/# stderr: /' /tmp/test.err | tail -n 20 | while IFS= read -r l; do say "$l"; done
		say "@E $t $(cat /tmp/test.rc 2>/dev/null)"
	done
fi
say "# vm: done at $(up) s"
echo "@@CZDONE@@ $rc"
sync
poweroff -f
