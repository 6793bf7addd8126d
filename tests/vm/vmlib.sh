# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by cuse-vm.sh: what differs between the x86-64 and the arm64
# VM, the kernel and module lookup, the device-test payload of the
# initramfs, and the relay of the VM's TAP to the host.

# A prerequisite is missing: a visible SKIP, or with CI=true (CI installs
# every one of them through scripts/setup deps) a failure.
vm_missing() {
	if [ "${CI:-}" = true ]; then
		echo "not ok 1 - CI: $* (scripts/setup deps installs it)"
		echo "1..1"
		exit 1
	fi
	skip_all "$*"
}

# vm_arch_setup ARCH: qemu, its machine options, console, busybox, cache dir.
vm_arch_setup() {
	case $1 in
	x86_64)
		qemu=${CZ_VM_QEMU:-qemu-system-x86_64}
		qemu_pkg=qemu-system-x86
		qemu_machine="-cpu max"
		console=ttyS0
		triplet=x86_64-linux-gnu
		vm_cache=
		busybox=${CZ_VM_BUSYBOX:-$(command -v busybox 2>/dev/null)}
		busybox_hint="Debian package busybox-static"
		host_suffix= ;;
	aarch64)
		# -cpu max: FEAT_MOPS and the rest of what QEMU 10 emulates; the
		# 6.12 kernel shows MOPS to user space (HWCAP2_MOPS, Linux >= 6.5).
		qemu=${CZ_VM_QEMU:-qemu-system-aarch64}
		qemu_pkg="qemu-system-arm, from bookworm-backports"
		qemu_machine="-M virt -cpu max"
		console=ttyAMA0
		triplet=aarch64-linux-gnu
		vm_cache=${CZ_VM_CACHE:-/var/cache/cusezero-vm/arm64}
		busybox=${CZ_VM_BUSYBOX:-$vm_cache/bin/busybox}
		busybox_hint="scripts/setup deps unpacks busybox-static:arm64 into $vm_cache"
		host_suffix=:arm64 ;;
	*)
		skip_all "no VM for the architecture $1 (x86_64 and aarch64 only)" ;;
	esac
}

vm_kver() { basename "$1" | sed 's/^vmlinuz-//; s/^Image-//'; }

# Sets kernel, kver and moddir.
vm_find_kernel() {
	if [ -n "${CZ_VM_KERNEL:-}" ]; then
		kernel=$CZ_VM_KERNEL
	elif [ -n "$vm_cache" ]; then
		# Image -> Image-VERSION, as scripts/setup leaves it.
		kernel=$vm_cache/Image
		[ -e "$kernel" ] || vm_missing "no arm64 kernel image $kernel (scripts/setup deps unpacks linux-image-arm64 from bookworm-backports there)"
		kernel=$vm_cache/$(readlink "$kernel" 2>/dev/null || echo Image)
	else
		kernel=
		for k in $(ls /boot/vmlinuz-* 2>/dev/null | sort -rV); do
			if [ -f "/lib/modules/$(vm_kver "$k")/modules.dep" ]; then kernel=$k; break; fi
		done
		[ -n "$kernel" ] ||
			vm_missing "no /boot/vmlinuz-VERSION with /lib/modules/VERSION (Debian package linux-image-amd64)"
	fi
	[ -f "$kernel" ] || vm_missing "kernel image $kernel not found"
	[ -r "$kernel" ] ||
		vm_missing "kernel image $kernel is not readable by uid $(id -u) (0600 on Debian): run as root or set CZ_VM_KERNEL"
	kver=$(vm_kver "$kernel")
	if [ -n "${CZ_VM_MODULES:-}" ]; then moddir=$CZ_VM_MODULES
	elif [ -n "$vm_cache" ]; then moddir=$vm_cache/lib/modules/$kver
	else moddir=/lib/modules/$kver; fi
	[ -f "$moddir/modules.dep" ] || vm_missing "$moddir/modules.dep not found (modules of $kernel)"
}

# Load order for cuse (modules.dep: "path: deps..."; a dependency's own
# dependencies follow it, so the reversed list loads leaves first).  Prints
# nothing for a built-in cuse (modules.builtin); fails when there is none.
vm_cuse_modules() {
	d=$(awk -v want=cuse '
		{ name = $1; sub(/:$/, "", name); n = name; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n)
		  if (n == want) { for (i = NF; i >= 2; i--) print $i; print name; exit } }' \
		"$1/modules.dep")
	if [ -z "$d" ]; then
		grep -q '/cuse\.ko' "$1/modules.builtin" 2>/dev/null
		return
	fi
	echo "$d"
}

# vm_copy_modules MODDIR DEST MODULES...: decompressed, plus DEST/order.
vm_copy_modules() {
	md=$1 dest=$2
	shift 2
	: >"$dest/order"
	for m in "$@"; do
		src=$md/$m
		[ -f "$src" ] || vm_missing "module $src (listed in modules.dep) not found"
		base=$(basename "$m")
		case $base in
		*.ko)	  cp "$src" "$dest/$base" ;;
		*.ko.xz)  base=${base%.xz};  xz -dc "$src" >"$dest/$base" ;;
		*.ko.zst) base=${base%.zst}; zstd -qdc "$src" >"$dest/$base" ;;
		*.ko.gz)  base=${base%.gz};  gzip -dc "$src" >"$dest/$base" ;;
		*)	  vm_missing "module $src: unknown compression" ;;
		esac || vm_missing "cannot decompress $src (install xz-utils / zstd)"
		echo "$base" >>"$dest/order"
	done
}

vm_is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | tr -d '\177')" = ELF ]; }

# The shared libraries (NEEDED, recursively) and the loader of ELF files,
# found in the multiarch and cross directories, copied under ROOT.
vm_copy_libs() {
	r=$1; shift
	libdir=$r/lib/$triplet
	mkdir -p "$libdir"
	todo="$*"
	while [ -n "$todo" ]; do
		next=
		for f in $todo; do
			interp=$(readelf -l "$f" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
			if [ -n "$interp" ] && [ ! -e "$r$interp" ]; then
				for c in "$interp" "/usr/$triplet/lib/$(basename "$interp")"; do
					[ -e "$c" ] || continue
					mkdir -p "$r$(dirname "$interp")"
					cp -L "$c" "$r$interp"
					break
				done
				[ -e "$r$interp" ] || vm_missing "loader $interp for $f not found (libc6$host_suffix)"
			fi
			for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
				[ -e "$libdir/$lib" ] && continue
				for d in /lib/$triplet /usr/lib/$triplet /usr/$triplet/lib; do
					[ -e "$d/$lib" ] || continue
					cp -L "$d/$lib" "$libdir/$lib"
					next="$next $libdir/$lib"
					break
				done
				[ -e "$libdir/$lib" ] || vm_missing "library $lib needed by $f not found for $triplet (apt-get install ...$host_suffix)"
			done
		done
		todo=$next
	done
}

# A program variable of the test environment: the ELF itself, also when
# scripts/test-arm64.sh's wrapper mode pointed it at a qemu-aarch64 script.
vm_prog() {
	if vm_is_elf "$1"; then echo "$1"; return; fi
	sed -n 's/^exec qemu-[a-z0-9_]* *\(-L [^ ]* *\)\{0,1\}\([^ ]*\) .*/\2/p' "$1" 2>/dev/null | head -n 1
}

# vm_add_device_tests ROOT "TESTS...": the device test scripts, the source's
# tests/ and experiments/, every executable of the build (at the same
# absolute paths), their libraries, the util-linux/procps/fuse3/coreutils
# tools the tests use where busybox lacks them and Perl's JSON::PP (from the
# VM cache),
# the environment automake gives a test, and the list for vminit.sh.
vm_add_device_tests() {
	r=$1 list=$2
	src=$(cd "$top_srcdir" && pwd) bld=$(cd "$top_builddir" && pwd)
	for t in $list; do
		[ -f "$src/$t" ] || vm_missing "device test $src/$t not found"
	done
	mkdir -p "$r$src" "$r$bld" "$r/usr/bin"
	cp -R "$src/tests" "$src/experiments" "$r$src/" || vm_missing "copying $src/tests"
	# kernel source files built on the host (tests/zab/ksrc-prebuild.sh): the
	# compat headers (part of the cache key) and the files, at their paths
	mkdir -p "$r$src/zeroing"
	cp -R "$src/zeroing/kcompat" "$r$src/zeroing/" || vm_missing "copying $src/zeroing/kcompat"
	if [ -s "$bld/tests/zab/ksrc-prebuilt/files" ]; then
		mkdir -p "$r$bld/tests/zab"
		cp -R "$bld/tests/zab/ksrc-prebuilt" "$r$bld/tests/zab/" ||
			vm_missing "copying $bld/tests/zab/ksrc-prebuilt"
		while read -r f; do
			mkdir -p "$r$(dirname "$f")" && cp "$f" "$r$f" || vm_missing "copying $f"
		done <"$bld/tests/zab/ksrc-prebuilt/files"
	fi
	elfs=
	for f in $(find "$bld" -type f -perm -u+x ! -name '*.o' ! -path '*/qemu-wrap/*' ! -path '*/.libs/*'); do
		vm_is_elf "$f" || continue
		mkdir -p "$r$(dirname "$f")"
		cp "$f" "$r$f"
		elfs="$elfs $f"
	done
	for t in fusermount3 pgrep setpriv script dash nice dd; do
		p=${vm_cache:+$vm_cache/usr/bin/$t}
		[ -n "$p" ] && [ -x "$p" ] || p=$(command -v $t 2>/dev/null)
		[ -n "$p" ] && [ -x "$p" ] || vm_missing "$t for the VM not found (scripts/setup deps unpacks it into $vm_cache)"
		cp "$p" "$r/usr/bin/$t"
		elfs="$elfs $p"
	done
	# Perl with JSON::PP for zload-fio.sh's parse of the JSON (optional: the
	# check skips, saying so, without it); its XS modules need only libc.
	if [ -n "$vm_cache" ] && [ -x "$vm_cache/usr/bin/perl" ]; then
		(cd "$vm_cache" && tar cf - usr/bin/perl usr/lib/*/perl-base usr/share/perl) |
			(cd "$r" && tar xf -) || vm_missing "copying perl from $vm_cache"
		elfs="$elfs $vm_cache/usr/bin/perl"
	fi
	chmod 4755 "$r/usr/bin/fusermount3"	# setuid root, as Debian installs it
	ln -sf /proc/self/mounts "$r/etc/mtab"
	ln -sf dash "$r/usr/bin/sh"	# first in the tests' PATH, as /bin/sh on Debian
	vm_copy_libs "$r" $elfs
	{
		for v in top_srcdir top_builddir; do
			eval "val=\$$v"
			echo "$v='$(cd "$val" && pwd)'; export $v"
		done
		echo "ZERO_ARCH='$arch'; export ZERO_ARCH"
		# the reproducer's no-argument run (1e6 calls) takes about a minute in TCG
		echo "CZ_LONG_RUN_MAX_S=150; export CZ_LONG_RUN_MAX_S"
		# a TCG guest is emulated hardware (lib/emul.h): the tests check output
		# formats, which would gain its "emulated" line; the caller's choice holds
		[ -z "${CUSEZERO_EMULATED:-}" ] ||
			echo "CUSEZERO_EMULATED='$CUSEZERO_EMULATED'; export CUSEZERO_EMULATED"
		for v in CUSEZERO ZEROCTL PREAD_Z100K ZLOAD ZBENCH ZAB; do
			eval "val=\${$v:-}"
			[ -n "$val" ] || continue
			echo "$v='$(vm_prog "$val")'; export $v"
		done
		# the soak's settings, when given (tests/cuse/soak.sh)
		for v in SOAK_SECONDS SOAK_KILLS SOAK_PHASES SOAK_RSS_KB; do
			eval "val=\${$v:-}"
			[ -z "$val" ] || echo "$v='$val'; export $v"
		done
	} >"$r/etc/cz-test-env"
	echo "$list" | tr ' ' '\n' | sed '/^$/d' >"$r/etc/cz-device-tests"
}

# vm_relay_tap TAPFILE SUMMARY: the checker's TAP and each device test's,
# renumbered into one stream (device test lines prefixed with its name, a
# test's "1..0 # SKIP" as one visible SKIP); SUMMARY gets "checker-plan
# checker-results device-tests-started device-tests-complete lines failed".
vm_relay_tap() {
	awk -v sumf="$2" '
	function emit(st, rest) { n++; if (st == "not ok") nf++; print st " " n rest }
	function named(rest) {
		if (sec == "") return rest
		if (rest ~ /^ *# *SKIP/) { sub(/^ *# *SKIP */, "", rest); return " # SKIP " sec ": " rest }
		sub(/^ *-? */, "", rest)
		return " - " sec ": " rest
	}
	/^@T / { sec = $2; splan = -1; sres = 0; ndev++; next }
	/^@E / {
		if ($3 == 0 && splan >= 0 && splan == sres) ndevok++
		else print "# " sec ": exit " $3 ", plan 1.." splan ", " sres " results"
		sec = ""; next
	}
	/^1\.\.[0-9]/ {
		m = $0; sub(/^1\.\./, "", m); np = m + 0
		if (sec == "") { if (plan == "") plan = np; next }
		splan = np
		if (np == 0) { r = $0; sub(/^1\.\.0 *(# *)?(SKIP|skip)? */, "", r); emit("ok", " # SKIP " sec ": " r) }
		next
	}
	/^(not )?ok( |$)/ {
		st = ($0 ~ /^not ok/) ? "not ok" : "ok"
		rest = $0; sub(/^(not )?ok *[0-9]*/, "", rest)
		if (sec == "") nt++; else sres++
		emit(st, named(rest)); next
	}
	/^Bail out!/ { emit("not ok", " - " (sec == "" ? "" : sec ": ") $0); next }
	/^#/ { print; next }
	{ print "# " $0 }
	END { print (plan == "" ? 0 : plan), nt + 0, ndev + 0, ndevok + 0, n + 0, nf + 0 > sumf }
	' "$1"
}
