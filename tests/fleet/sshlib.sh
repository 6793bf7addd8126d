# SPDX-License-Identifier: GPL-2.0-or-later
# Loopback SUTs for zab fleet: a real sshd per SUT on 127.0.0.N (root,
# key login only), and the Ansible settings for them.  Sourced by
# tests/fleet/fleet.sh and bench/fleet.sh with T set to a private folder.
#   ssh_keys              a client key ($T/id) and its authorized_keys
#   sshd_start N          sshd for SUT N on 127.0.0.N ($SSHD, else /usr/sbin/sshd); port in $T/sutN/port
#   sshd_stop N
#   inventory_line N      "sutN ansible_host=... ansible_port=... cz_prefix=... cz_workdir=..."
#   ansible_env           the environment ansible-playbook needs for them
# Only loopback addresses: nothing else may receive traffic here.

ssh_keys() {
	mkdir -p /run/sshd && chmod 755 /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$T/id" && cat "$T/id.pub" >"$T/authorized_keys" &&
		chmod 600 "$T/authorized_keys"
}

sshd_start() {
	d=$T/sut$1
	mkdir -p "$d"
	[ -f "$d/host" ] || ssh-keygen -q -t ed25519 -N '' -f "$d/host"
	port=$((22000 + $$ % 5000 + $1))
	cat >"$d/sshd_config" <<-CFG
	ListenAddress 127.0.0.$1
	Port $port
	HostKey $d/host
	PidFile $d/sshd.pid
	AuthorizedKeysFile $T/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	UsePAM no
	StrictModes no
	Subsystem sftp internal-sftp
	CFG
	${SSHD:-/usr/sbin/sshd} -f "$d/sshd_config" -E "$d/sshd.log" || return 1
	echo "$port" >"$d/port"
}

sshd_stop() {
	pkill -f "$T/sut$1/sshd_config" 2>/dev/null
}

inventory_line() {
	echo "sut$1 ansible_host=127.0.0.$1 ansible_port=$(cat "$T/sut$1/port") cz_prefix=$T/sut$1/prefix cz_workdir=$T/sut$1/work"
}

ansible_env() {
	ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_NOCOLOR=1
	ANSIBLE_LOCAL_TEMP=$T/ansible-local ANSIBLE_REMOTE_TEMP=$T/ansible-remote
	ANSIBLE_SSH_ARGS="-o ControlMaster=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=5"
	# ssh multiplexing keys by host, port and user: a test that restarts an
	# sshd on the same address must not meet another test's master
	ANSIBLE_SSH_CONTROL_PATH_DIR=$T/ansible-cp
	export ANSIBLE_HOST_KEY_CHECKING ANSIBLE_RETRY_FILES_ENABLED ANSIBLE_NOCOLOR ANSIBLE_LOCAL_TEMP \
		ANSIBLE_REMOTE_TEMP ANSIBLE_SSH_ARGS ANSIBLE_SSH_CONTROL_PATH_DIR
}

inventory_vars() {
	cat <<-VARS

	[all:vars]
	ansible_user=root
	ansible_ssh_private_key_file=$T/id
	ansible_python_interpreter=/usr/bin/python3
	VARS
}
