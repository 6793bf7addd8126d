# SPDX-License-Identifier: GPL-2.0-or-later
# czsut.py: the SUT side of zab fleet, run by the role as root (python3 -,
# the text on its stdin: an environment variable would put it on the ssh
# command line, which Dropbear caps at 9000 bytes).
#   prefix PREFIX       check PREFIX as a work folder (made 0755 when absent;
#                       others may read it, nobody else write it)
#   prepare WORKDIR     check WORKDIR (made when absent), make a fresh run
#                       folder in it, print that folder's path
#   run RUNDIR SUMS TIMEOUT ZAB ARG...
#                       check RUNDIR and, against SUMS (the SHA-256 of its
#                       SHA256SUMS), every file shipped into it; take
#                       WORKDIR/lock (waiting at most TIMEOUT s) and exec
#                       ZAB ARG... in this same process
#                       With $CZ_KSRC_SUMS (the SHA-256 of RUNDIR/KSRC256SUMS,
#                       a manifest as below) RUNDIR/ksrc-cache must hold
#                       exactly the files it lists: zab then gets
#                       CUSEZERO_KSRC_CACHE (and the compiler's name and
#                       --version line from its files cc and cc-version).
#                       ZAB in PREFIX/bin: CUSEZERO_KCOMPAT is the prefix's
#                       share/cusezero/kcompat (when set nowhere else).
#   bisect RUNDIR SUMS TIMEOUT ZAB ARG...
#                       the same checks and lock as run, then ZAB bisect
#                       ARG... as a child (its answer into RUNDIR/bisect.txt,
#                       its exit status on the last line "exit N"), then the
#                       probes it stored (--store sqlite:RUNDIR/bisect.db) as
#                       RUNDIR/result.json (zab store export); exit 0 when
#                       bisect answered (0 a change, 1 none, 125 undecided)
#   check ZAB VERSION [fuse]
#                       the SUT can run: ZAB found, its version VERSION (when
#                       not ""), and /dev/fuse usable for device variants
#   manifest DIR        (on the controller) "SHA256  NAME" per file of DIR, a
#                       folder of prebuilt kernel-file objects (cz_ksrc_cache):
#                       regular files only, no folders or symlinks
# A work folder nobody else can have made or entered: every folder on the
# way is opened without following a symlink and must belong to root (or
# this user); each may be writable by others only when sticky, the work
# folder's parent not at all, and the work folder is ours with mode 0700.
# Missing folders are made (0755 on the way, 0700 the work folder), each
# only in a folder nobody else may write.
# Refusals are one line "czsut: ..." on stderr, exit 3 (lock: exit 124); so
# is any other error (main() turns an unforeseen exception into that line).
import errno, fcntl, hashlib, os, stat, subprocess, sys, time

ND = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def die(msg, code=3):
    sys.stderr.write("czsut: %s\n" % msg)
    sys.exit(code)


def owner_ok(st):
    return st.st_uid in (0, os.geteuid())


def opendir_at(fd, name, shown, missing_ok=False):
    """An fd on folder NAME in FD (no symlink followed); None when absent and MISSING_OK."""
    try:
        return os.open(name, ND, dir_fd=fd)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            die("%s: a symlink or not a folder: refused" % shown)
        if e.errno == errno.ENOENT:
            if missing_ok:
                return None
            die("%s: no such folder" % shown)
        die("%s: %s" % (shown, e.strerror))


def text_of(data, shown):
    """DATA (a shipped list) as text: refused unless it is UTF-8."""
    try:
        return data.decode()
    except UnicodeDecodeError as e:
        die("%s: not UTF-8 text (byte %d is 0x%02x): refused" % (shown, e.start, data[e.start]))


def work_folder(path, create, mode=0o700):
    """An fd on WORKDIR after checking every folder on the way (mode 0755: a prefix)."""
    if not path.startswith("/"):
        die("work folder %r: not an absolute path" % path)
    parts = [p for p in path.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        die("work folder %r: no . or .. components allowed" % path)
    fd, shown = os.open("/", ND), ""
    for i, p in enumerate(parts):
        shown += "/" + p
        last = i == len(parts) - 1
        pst = os.fstat(fd)
        nfd = opendir_at(fd, p, shown, create)
        if nfd is None:
            if pst.st_mode & 0o022:
                die("%s: its parent is writable by others: refused" % shown)
            try:
                os.mkdir(p, mode if last else 0o755, dir_fd=fd)
            except OSError as e:
                die("%s: cannot make it: %s" % (shown, e.strerror))
            nfd = opendir_at(fd, p, shown)
            os.fchmod(nfd, mode if last else 0o755)     # whatever the umask
        st = os.fstat(nfd)
        if not owner_ok(st):
            die("%s: owned by uid %d, not by root: refused" % (shown, st.st_uid))
        if last:
            if pst.st_mode & 0o022:
                die("%s: its parent is writable by others: refused" % shown)
            if st.st_uid != os.geteuid() or st.st_mode & (0o077 if mode == 0o700 else 0o022):
                die("%s: not ours or open to others (mode %o): refused" % (shown, st.st_mode & 0o7777))
        elif st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
            die("%s: writable by others and not sticky: refused" % shown)
        os.close(fd)
        fd = nfd
    return fd


def prepare(workdir):
    wfd = work_folder(workdir, True)
    name = "run." + os.urandom(8).hex()
    try:
        os.mkdir(name, 0o700, dir_fd=wfd)   # fresh: fails when it exists
    except OSError as e:
        die("%s/%s: %s" % (workdir.rstrip("/"), name, e.strerror))
    print(workdir.rstrip("/") + "/" + name)


def sha256_at(dfd, name):
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
    except OSError as e:
        die("shipped file %s: %s" % (name, e.strerror))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            die("shipped file %s: not a regular file" % name)
        h = hashlib.sha256()
        for b in iter(lambda: f.read(1 << 16), b""):
            h.update(b)
        return h.hexdigest(), h


def read_checked(dfd, name, shown, sums):
    """NAME's content, read once (no symlink, a regular file) and refused unless its SHA-256 is SUMS."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
    except OSError as e:
        die("shipped file %s: %s" % (shown, e.strerror))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            die("shipped file %s: not a regular file" % shown)
        data = f.read()
    got = hashlib.sha256(data).hexdigest()
    if got != sums:
        die("%s: SHA-256 %s, shipped %s: refused" % (shown, got, sums))
    return data


def run_folder(rundir):
    head, _, name = rundir.rstrip("/").rpartition("/")
    if not name.startswith("run."):
        die("run folder %r: not one prepare made" % rundir)
    wfd = work_folder(head, False)
    rfd = opendir_at(wfd, name, rundir)
    st = os.fstat(rfd)
    if st.st_uid != os.geteuid() or st.st_mode & 0o077:
        die("%s: not mode 0700 and ours: refused" % rundir)
    return wfd, rfd


def verify(rfd, sums):
    data = read_checked(rfd, "SHA256SUMS", "SHA256SUMS", sums)
    for line in text_of(data, "SHA256SUMS").splitlines():
        want, _, name = line.partition("  ")
        if not name or any(p in ("", ".", "..") for p in name.split("/")):
            die("SHA256SUMS: bad line %r (an empty, . or .. path component)" % line)
        sub, parts = rfd, name.split("/")
        for d in parts[:-1]:                # one folder at a time, no symlink
            sub = opendir_at(sub, d, name)
        got, _ = sha256_at(sub, parts[-1])
        if got != want:
            die("shipped file %s: SHA-256 %s, shipped %s: refused" % (name, got, want))


def manifest(path):
    try:
        dfd = os.open(path, ND)
    except OSError as e:
        die("cz_ksrc_cache %s: %s" % (path, e.strerror))
    try:
        names = sorted(os.listdir(dfd))
    except OSError as e:
        die("cz_ksrc_cache %s: %s" % (path, e.strerror))
    if not names:
        die("cz_ksrc_cache %s: no files" % path)
    lines = []
    for name in names:
        st = os.lstat(name, dir_fd=dfd)
        if not stat.S_ISREG(st.st_mode):
            die("cz_ksrc_cache %s/%s: not a regular file (no folders or symlinks)" % (path, name))
        lines.append("%s  %s\n" % (sha256_at(dfd, name)[0], name))
    sys.stdout.write("".join(lines))


def ksrc_cache(rfd, rundir, sums):
    """Check RUNDIR/ksrc-cache against KSRC256SUMS, the controller's list (SHA-256 SUMS)."""
    text = text_of(read_checked(rfd, "KSRC256SUMS", "KSRC256SUMS", sums), "KSRC256SUMS")
    want = {}
    for line in text.splitlines():
        h, _, name = line.partition("  ")
        if len(h) != 64 or not name or "/" in name or name in (".", ".."):
            die("ksrc cache manifest: bad line %r" % line)
        want[name] = h
    cfd = opendir_at(rfd, "ksrc-cache", rundir + "/ksrc-cache")
    st = os.fstat(cfd)
    if st.st_uid != os.geteuid() or st.st_mode & 0o022:
        die("%s/ksrc-cache: not ours or writable by others: refused" % rundir)
    got = sorted(os.listdir(cfd))
    if got != sorted(want):
        die("ksrc-cache: holds %s, shipped %s: refused" % (" ".join(got), " ".join(sorted(want))))
    for name, h in want.items():
        got, _ = sha256_at(cfd, name)
        if got != h:
            die("ksrc-cache/%s: SHA-256 %s, shipped %s: refused" % (name, got, h))
    os.environ["CUSEZERO_KSRC_CACHE"] = rundir.rstrip("/") + "/ksrc-cache"
    for name, var in (("cc", "CUSEZERO_KSRC_CC"), ("cc-version", "CUSEZERO_KSRC_CC_VERSION")):
        if name in want:
            data = read_checked(cfd, name, "ksrc-cache/" + name, want[name])
            os.environ[var] = (data.decode(errors="replace").splitlines() or [""])[0]
    os.close(cfd)


def lock(wfd, timeout, shown):
    try:
        fd = os.open("lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600, dir_fd=wfd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            die("%s: a symlink: refused" % shown)
        die("%s: %s" % (shown, e.strerror))
    if not stat.S_ISREG(os.fstat(fd).st_mode) or not owner_ok(os.fstat(fd)):
        die("lock: not a regular file of ours: refused")
    end = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > end:
                die("another experiment held the lock for %d s" % timeout, 124)
            time.sleep(0.2)
    os.set_inheritable(fd, True)            # held until zab exits


def kcompat(zab):
    """A prefix tarball unpacked elsewhere than its configured prefix: the kernel-file
    loader's headers are beside its zab, in PREFIX/share/cusezero/kcompat."""
    if os.environ.get("CUSEZERO_KCOMPAT") or not zab.startswith("/"):
        return
    d = os.path.join(os.path.dirname(os.path.dirname(zab)), "share", "cusezero", "kcompat")
    if os.path.isdir(d):
        os.environ["CUSEZERO_KCOMPAT"] = d


def enter(rundir, sums, timeout, zab):
    """The run folder checked against SUMS, the kernel-file cache, the lock taken; into it."""
    if not timeout.isdigit():
        die("timeout %r: not a whole number of seconds" % timeout)
    wfd, rfd = run_folder(rundir)
    verify(rfd, sums)
    if os.environ.get("CZ_KSRC_SUMS"):
        ksrc_cache(rfd, rundir, os.environ["CZ_KSRC_SUMS"])
    os.environ.pop("CZ_KSRC_SUMS", None)
    kcompat(zab)
    lock(wfd, int(timeout), rundir.rstrip("/").rpartition("/")[0] + "/lock")
    os.fchdir(rfd)
    return rfd


def run(rundir, sums, timeout, argv):
    enter(rundir, sums, timeout, argv[0])
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        die("%s: %s" % (argv[0], e.strerror), 127)


def bisect(rundir, sums, timeout, argv):
    """run's checks and lock, then zab bisect as a child and its stored probes exported."""
    rfd = enter(rundir, sums, timeout, argv[0])
    store = "sqlite:" + rundir.rstrip("/") + "/bisect.db"
    fd = os.open("bisect.txt", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=rfd)
    with os.fdopen(fd, "w") as out:
        try:
            rc = subprocess.run([argv[0], "bisect"] + argv[1:] + ["--store", store],
                                stdout=out).returncode
        except OSError as e:
            die("%s: %s" % (argv[0], e.strerror), 127)
        out.write("exit %d\n" % rc)
    if rc not in (0, 1, 125):
        die("zab bisect exit %d" % rc)
    if os.path.exists(rundir.rstrip("/") + "/bisect.db"):
        ex = subprocess.run([argv[0], "store", "export", "--store", store, "-o",
                             rundir.rstrip("/") + "/result.json"]).returncode
        if ex:
            die("zab store export exit %d" % ex)


def check(zab, version, device=""):
    if device == "fuse":
        try:
            os.close(os.open("/dev/fuse", os.O_RDWR | os.O_CLOEXEC))
        except OSError as e:
            die("/dev/fuse: %s (device variants need FUSE: modprobe fuse)" % e.strerror, 4)
    try:
        out = subprocess.run([zab, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=60).stdout.decode(errors="replace").strip()
    except OSError as e:
        die("zab %s: %s" % (zab, e.strerror), 127)
    except subprocess.TimeoutExpired:
        die("%s --version: no answer in 60 s" % zab, 4)
    words = out.split()
    if not words or words[0] != "zab" or len(words) < 3:
        die("%s --version: %r, not zab's answer" % (zab, out[:80]), 4)
    if version and words[2] != version:
        die("zab %s is version %r, the controller's is %s" % (zab, out, version), 4)


def main(a):
    if len(a) == 2 and a[0] == "prefix":
        os.close(work_folder(a[1], True, 0o755))
    elif len(a) == 2 and a[0] == "prepare":
        prepare(a[1])
    elif len(a) >= 5 and a[0] == "run":
        run(a[1], a[2], a[3], a[4:])
    elif len(a) >= 5 and a[0] == "bisect":
        bisect(a[1], a[2], a[3], a[4:])
    elif len(a) in (3, 4) and a[0] == "check":
        check(*a[1:])
    elif len(a) == 2 and a[0] == "manifest":
        manifest(a[1])
    else:
        die("usage: prefix PREFIX | prepare WORKDIR | run|bisect RUNDIR SUMS TIMEOUT ZAB ARG... |"
            " check ZAB VERSION [fuse] | manifest DIR", 2)


try:
    main(sys.argv[1:])
except OSError as e:            # a path not foreseen above: still one line
    die("%s: %s" % (e.filename if e.filename is not None else "error", e.strerror or e))
except Exception as e:
    die("%s: %s" % (type(e).__name__, e))
