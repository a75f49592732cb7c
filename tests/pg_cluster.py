"""A throwaway PostgreSQL cluster for the test session, from Debian's binaries.

``initdb`` refuses to run as root, and CI runs as root: then the cluster
belongs to an unprivileged user (``postgres`` if the package created it,
else ``opgate-test``, created here) and its programs run through
``runuser``. The cluster listens on a Unix socket in its own temporary
folder only (no TCP port to collide with another run), trusts local
connections, and skips fsync: it lives as long as the session, and no
longer: a watchdog process (pg_watchdog.py) stops it and removes its folder
when the session ends, even when pytest itself is killed.

Each test gets a database of its own, holding opgate's schema and no rows.
Cloning one from a template costs about half a second on a busy disk, and
removing it again about a second, so a database a test is done with is
emptied (every table but the schema version, with triggers and reference
checks off) and handed to the next test instead.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

SUPERUSER = "opgate"
TEMPLATE = "opgate_template"
_FAST = ("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
         "-c", "max_connections=300", "-c", "listen_addresses=")


class ClusterError(RuntimeError):
    """PostgreSQL could not be started: the tests that need it fail (never skip)."""


def _bin_dir() -> Path:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").exists():
            return Path(candidate)
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise ClusterError("PostgreSQL's server programs (initdb, pg_ctl) are not installed; "
                       "install Debian's postgresql package (.ci/run does)")


def _service_user() -> str | None:
    """Who runs the server: None (the current user) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "opgate-test"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "opgate-test"],
                   check=True, capture_output=True)
    return "opgate-test"


class PgCluster:
    """A running cluster; :meth:`new_database` hands out fresh databases."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.user = _service_user()
        self.root = Path(tempfile.mkdtemp(prefix="opgate-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self._names = itertools.count(1)
        self._free: list[str] = []
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o755)
        self.admin: psycopg.Connection | None = None
        self._watchdog = self._start_watchdog()
        try:
            self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync")
            options = " ".join([*_FAST, "-c", f"unix_socket_directories={self.socket_dir}"])
            self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.root / "server.log"), "-o", options, "start")
            self.admin = psycopg.connect(self.url("postgres"), autocommit=True)
            self.admin.execute(f"CREATE DATABASE {TEMPLATE}")
            from opgate.core.store._pg_store import PostgresStore

            with PostgresStore(self.url(TEMPLATE)) as template:
                self.schema_version = template.schema_version
        except BaseException:
            self.stop()
            raise

    def _start_watchdog(self) -> subprocess.Popen:
        """The process that stops the cluster and removes its folder once this one closes its pipe or dies (see pg_watchdog.py)."""
        stop = self._command("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        return subprocess.Popen([sys.executable, str(Path(__file__).with_name("pg_watchdog.py")), str(self.root), *stop],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return command

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(self._command(program, *args), capture_output=True, text=True, cwd=self.root)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ClusterError(f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}\n{tail}")

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}"

    def new_database(self, *, migrated: bool = True) -> str:
        """A fresh database holding opgate's schema and nothing else (or nothing at all); its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        self.admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def borrow(self) -> str:
        """An empty, migrated database: one a finished test gave back, else a new one."""
        return self._free.pop() if self._free else self.new_database()

    def give_back(self, url: str) -> None:
        """Empty a database a test has finished with, for the next one (dropped if it cannot be reused)."""
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                             " WHERE datname = current_database() AND pid <> pg_backend_pid()")
                version = conn.execute("SELECT to_regclass('opgate_schema') IS NOT NULL AND"
                                       " (SELECT max(version) FROM opgate_schema) = %s", [self.schema_version]).fetchone()[0]
                if not version:
                    raise ValueError("not at the current schema version")
                tables = [r[0] for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'opgate_schema'")]
                conn.execute("SET session_replication_role = replica; "
                             + " ".join(f"DELETE FROM {t};" for t in tables))
        except (psycopg.Error, ValueError):
            self.drop(url)
            return
        self._free.append(url)

    def drop(self, url: str) -> None:
        name = url.split("?", 1)[0].rsplit("/", 1)[1]  # the socket folder in ?host= holds slashes too
        self.admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server and remove its folder: the watchdog does it once its pipe is closed."""
        try:
            if self.admin is not None:
                self.admin.close()
        finally:
            self._watchdog.stdin.close()
            self._watchdog.wait(timeout=60)
