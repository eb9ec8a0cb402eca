"""Real servers for the scale-out tests: a throw-away PostgreSQL cluster, a Chroma server and Redis, on loopback.

Session-scoped fixtures; a test module imports them (``from tests.services import postgres_url,
chroma_url, redis_url  # noqa: F401``); ``redis_server`` is a Redis of the test's own, to stop and restart. Each starts its server once per test session in a temp folder and stops it
and deletes the folder at the end. When a binary is missing the tests are skipped, or fail when the
``CI`` variable is set (CI installs Debian's ``postgresql`` and the venv's chromadb, so a missing one
there is a broken build, not an optional extra; CI installs Debian's ``redis-server`` too).

PostgreSQL refuses to run as root: as root the cluster is created and run as the ``postgres`` OS user
through ``runuser -u postgres --``, in a folder owned by that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

POSTGRES_OS_USER = "postgres"
POSTGRES_SUPERUSER = "postgres"
DATABASE = "memory_lab"
START_ATTEMPTS = 3
CHROMA_START_TIMEOUT_S = 60.0
REDIS_START_TIMEOUT_S = 30.0


def unavailable(message: str) -> None:
    """Fail under CI (the servers are required there), skip elsewhere; ``message`` says what is missing."""
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI is set, so this is an error, not a skip)", pytrace=False)
    pytest.skip(message)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_bin_dir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``: on PATH, else Debian's newest version."""
    initdb = shutil.which("initdb")
    if initdb and (Path(initdb).parent / "pg_ctl").exists():
        return Path(initdb).parent

    def version(path: Path) -> float:
        try:
            return float(path.parent.name)
        except ValueError:
            return 0.0

    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    return next((folder for folder in found if (folder / "initdb").exists()), None)


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", POSTGRES_OS_USER, "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql://postgres:<password>@127.0.0.1:<port>/memory_lab`` of a fresh cluster.

    Password authentication is on (scram-sha-256) and the password holds URL-special characters, so
    tests can check it is scrubbed in both its raw and its percent-encoded form.
    """
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        unavailable("PostgreSQL server binaries not found (apt-get install -y postgresql)")
        return
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            unavailable("running as root needs runuser to start PostgreSQL as the postgres user")
        try:
            owner = pwd.getpwnam(POSTGRES_OS_USER)
        except KeyError:
            unavailable("running as root needs the postgres OS user (apt-get install -y postgresql)")
            return
    base = Path(tempfile.mkdtemp(prefix="memory_lab_pg_"))
    os.chmod(base, 0o700)
    if os.geteuid() == 0:
        os.chown(base, owner.pw_uid, owner.pw_gid)
    password = f"Pw-{secrets.token_hex(6)}/s3cr@t:%?"
    pwfile = base / "pwfile"
    pwfile.write_text(password + "\n")
    if os.geteuid() == 0:
        os.chown(pwfile, owner.pw_uid, owner.pw_gid)
    data, log = base / "data", base / "postgres.log"
    pg_ctl = str(bin_dir / "pg_ctl")
    started = False
    try:
        initdb = subprocess.run(
            _as_postgres(
                [
                    str(bin_dir / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    POSTGRES_SUPERUSER,
                    "--auth-local=trust",
                    "--auth-host=scram-sha-256",
                    f"--pwfile={pwfile}",
                    "-E",
                    "UTF8",
                    "--no-locale",
                    "--no-sync",
                ]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        pwfile.unlink()
        if initdb.returncode != 0:
            pytest.fail(f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}", pytrace=False)
        for _attempt in range(START_ATTEMPTS):
            port = free_port()
            options = (
                f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            start = subprocess.run(
                _as_postgres(
                    [pg_ctl, "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60", "start"]
                ),
                capture_output=True,
                text=True,
                timeout=90,
            )
            if start.returncode == 0:
                started = True
                break
        if not started:
            pytest.fail(f"PostgreSQL did not start:\n{start.stderr}\n{_tail(log)}", pytrace=False)
        import psycopg

        admin = f"postgresql://{POSTGRES_SUPERUSER}:{quote(password, safe='')}@127.0.0.1:{port}"
        with psycopg.connect(f"{admin}/postgres", autocommit=True, connect_timeout=10) as connection:
            connection.execute(f"CREATE DATABASE {DATABASE}")
        yield f"{admin}/{DATABASE}"
    finally:
        if started:
            subprocess.run(
                _as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(base, ignore_errors=True)


def chroma_executable() -> Path | None:
    """The ``chroma`` script next to this interpreter (the venv's), else the one on PATH."""
    sibling = Path(sys.executable).with_name("chroma")
    if sibling.exists():
        return sibling
    found = shutil.which("chroma")
    return Path(found) if found else None


def _heartbeat(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="session")
def chroma_url() -> Iterator[str]:
    """``http://127.0.0.1:<port>`` of a ``chroma run`` server on an empty temp folder."""
    executable = chroma_executable()
    if executable is None:
        unavailable("the chroma command (pip install chromadb) is not next to Python or on PATH")
        return
    base = Path(tempfile.mkdtemp(prefix="memory_lab_chroma_"))
    log = base / "chroma.log"
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    process: subprocess.Popen[bytes] | None = None
    try:
        for _attempt in range(START_ATTEMPTS):
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            with log.open("ab") as log_file:
                process = subprocess.Popen(
                    [
                        str(executable),
                        "run",
                        "--path",
                        str(base / "db"),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                    ],
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env=env,
                    start_new_session=True,
                )
            deadline = time.monotonic() + CHROMA_START_TIMEOUT_S
            while time.monotonic() < deadline and process.poll() is None and not _heartbeat(url):
                time.sleep(0.1)
            if process.poll() is None and _heartbeat(url):
                break
            _stop(process)
            process = None
        if process is None:
            pytest.fail(f"the Chroma server did not start:\n{_tail(log)}", pytrace=False)
        yield url
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(base, ignore_errors=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate a server we started (its own process group), then kill it if it lingers."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, 15)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 9)
        process.wait(timeout=10)


class RedisServer:
    """A throw-away ``redis-server`` on 127.0.0.1 with a password, in its own folder.

    The append-only file is on and synced after every write, so ``stop()`` then ``start()`` (same port,
    same folder) brings every key back with its remaining TTL, as a production server configured for
    durability would. The password holds URL-special characters, so tests can check it is scrubbed.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.password = f"Rp-{secrets.token_hex(6)}/s3cr@t:%?"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    @property
    def url(self) -> str:
        return f"redis://:{quote(self.password, safe='')}@127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start (or restart, on the same port and folder) the server and wait until it answers."""
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server not found (apt-get install -y redis-server)")
            return
        log = self.folder / "redis.log"
        restarting = self.started
        for _attempt in range(1 if restarting else START_ATTEMPTS):
            command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
            command += ["--requirepass", self.password, "--appendonly", "yes", "--appendfsync", "always"]
            command += ["--save", "", "--daemonize", "no", "--logfile", str(log)]
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True
            )
            deadline = time.monotonic() + REDIS_START_TIMEOUT_S
            while time.monotonic() < deadline and self.process.poll() is None:
                if self.answers():
                    self.started = True
                    return
                time.sleep(0.05)
            self.stop()
            self.port = self.port if restarting else free_port()  # someone took the port meanwhile
        pytest.fail(f"redis-server did not start:\n{_tail(log)}", pytrace=False)

    def answers(self) -> bool:
        """True when the server answers PING with our password."""
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, password=self.password, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """Shut the server down (SIGTERM: it flushes the append-only file first) and wait for it."""
        if self.process is not None:
            _stop(self.process)
            self.process = None


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``redis://:<password>@127.0.0.1:<port>/0`` of a server shared by the test session."""
    server = RedisServer(tmp_path_factory.mktemp("memory_lab_redis"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A running Redis of this test's own, which the test may stop and start again."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
