#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the arm64 fleet SUT's initramfs (tests/fleet/fleet-arm64.sh; runs
# as PID 1 in the VM).  Mounts the kernel file systems, loads the modules in
# /lib/modules/order (virtio_net and its dependencies), configures eth0 as
# QEMU's user network expects (10.0.2.15/24, gateway 10.0.2.2), starts
# Dropbear's sshd on port 22 (root, key login only: /root/.ssh/authorized_keys)
# and stays up until the host stops QEMU.  Console lines for the host start
# with "@@CZSUT@@"; "@@CZSUT@@ ready" means sshd listens (or never will:
# the host's ssh then says why).
/bin/busybox mkdir -p /dev /proc /sys /run /tmp
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs -o mode=0755 tmpfs /run
chmod 1777 /tmp
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
dmesg -n 1
say() { echo "@@CZSUT@@ $*"; }
echo
say "kernel $(uname -r), userspace up at $(cut -d' ' -f1 /proc/uptime) s"
for m in $(cat /lib/modules/order); do
	insmod "/lib/modules/$m" || say "insmod $m failed (exit $?)"
done
ip link set lo up
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2 ||
	say "eth0 not configured"
hostname arm64-sut
mkdir -p /etc/dropbear
# -R: host keys made on first connection; -s: no password logins; -E: log to
# the console; -F: foreground (this shell waits on it, then powers off).
dropbear -R -s -E -F -p 22 2>&1 | while IFS= read -r l; do say "dropbear: $l"; done &
n=0
while ! netstat -ltn 2>/dev/null | grep -q ':22 ' && [ $n -lt 150 ]; do sleep 0.2; n=$((n + 1)); done
say "ready at $(cut -d' ' -f1 /proc/uptime) s"
wait
say "dropbear exited"
poweroff -f
