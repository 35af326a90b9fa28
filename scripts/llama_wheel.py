"""llama.cpp built once per machine: a llama-cpp-python wheel kept in codeqa's own cache (used by scripts/setup).

Compiling llama.cpp takes 3-10 min on two cores; every fresh clone (CI) paid it again. pip's own wheel cache is no
answer: it can be disabled or pruned, and it reuses a wheel by name and version whatever CPU built it. Here a wheel
is keyed by what decides whether it runs and how it was built: the package version, the CPU's SIMD flags, the
compiler, CMAKE_ARGS, the Python and the C library. A key mismatch builds again. A wheel is built into a temporary
folder, checked (zip CRCs, the library inside), given its SHA-256, then renamed into place, so a killed build leaves
nothing that looks usable; the checks and the hash are repeated before each reuse. A lock file keeps two setups on
one machine from building or replacing the same entry at once.

Usage: python scripts/llama_wheel.py --spec llama-cpp-python==0.3.36 --cmake-args "…" --path-out FILE
(stdlib only: it runs before codeqa is installed; pip's output passes through for scripts/pip_progress.py).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

SAY = "[wheel cache] "  # scripts/pip_progress.py shows lines with this prefix
# /proc/cpuinfo flags that change what ggml compiles or may execute (x86, Arm, LoongArch); the rest (fpu, vme,
# mitigations…) would only make keys differ between identical CPUs.
SIMD_FLAG = re.compile(
    r"^(sse\d?\w*|ssse3|avx\w*|amx\w*|fma\w*|f16c|bmi\d|asimd\w*|sve\w*|sme\w*|i8mm|fphp|dotprod|lsx|lasx)$"
)
HASH_FILE = "wheel.sha256"
KEY_FILE = "key.json"


class WheelRefused(Exception):
    """A cached or freshly built wheel that must not be installed (truncated, corrupt, or without llama.cpp)."""


@dataclass(frozen=True)
class BuildKey:
    spec: str  # an exact pin (package==version), so the version is known before anything is downloaded
    cpu_flags: tuple[str, ...]
    compiler: str
    cmake_args: str
    python: str
    libc: str
    machine: str

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:20]


def cpu_flags(cpuinfo: str) -> tuple[str, ...]:
    """The SIMD flags of the first CPU listed in /proc/cpuinfo (x86 "flags", Arm "Features"), sorted."""
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() in ("flags", "features"):
            return tuple(sorted({flag for flag in value.split() if SIMD_FLAG.match(flag)}))
    return ()


def compiler_identity(env: dict[str, str]) -> str:
    """The first line of `--version` of the C and C++ compilers CMake will pick (CC/CXX, else cc/c++)."""
    lines = []
    for variable, default in (("CC", "cc"), ("CXX", "c++")):
        command = env.get(variable) or default
        try:
            result = subprocess.run([*command.split(), "--version"], capture_output=True, text=True, timeout=30)
            lines.append(result.stdout.splitlines()[0] if result.stdout else f"{command}: no version")
        except (OSError, subprocess.SubprocessError):
            lines.append(f"{command}: not found")
    return " | ".join(lines)


def this_machine(spec: str, cmake_args: str) -> BuildKey:
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        cpuinfo = ""
    return BuildKey(
        spec=spec,
        cpu_flags=cpu_flags(cpuinfo),
        compiler=compiler_identity(dict(os.environ)),
        cmake_args=cmake_args,
        python=f"{sys.implementation.name}{sys.version_info.major}.{sys.version_info.minor}",
        libc="-".join(platform.libc_ver()),
        machine=platform.machine(),
    )


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(os.environ.get("CODEQA_WHEEL_CACHE") or Path(base) / "codeqa" / "wheels") / "llama-cpp-python"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_wheel(wheel: Path, expected_sha256: str | None = None) -> None:
    """Raise WheelRefused unless ``wheel`` is a whole zip holding llama_cpp and its shared library."""
    if expected_sha256 is not None and sha256_of(wheel) != expected_sha256:
        raise WheelRefused(f"{wheel.name} does not match the SHA-256 recorded when it was built")
    try:
        with zipfile.ZipFile(wheel) as archive:
            broken = archive.testzip()
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        raise WheelRefused(f"{wheel.name} is not a readable wheel ({error})") from error
    if broken is not None:
        raise WheelRefused(f"{wheel.name} has a damaged member: {broken}")
    if "llama_cpp/__init__.py" not in names or not any(re.match(r"llama_cpp/lib/libllama\.", n) for n in names):
        raise WheelRefused(f"{wheel.name} holds no llama_cpp package with its libllama library")


def cached_wheel(entry: Path) -> Path | None:
    """The entry's wheel if it passes every check, else None."""
    wheels = sorted(entry.glob("*.whl"))
    if len(wheels) != 1 or not (entry / HASH_FILE).is_file():
        return None
    try:
        check_wheel(wheels[0], (entry / HASH_FILE).read_text().strip())
    except (WheelRefused, OSError):
        return None
    return wheels[0]


@contextmanager
def locked(cache: Path, say: Callable[[str], None]) -> Iterator[None]:
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / ".lock").open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"waiting for another setup that holds {cache / '.lock'}")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pip_wheel(key: BuildKey, into: Path) -> None:
    """Build the wheel with pip (its own cache off: it would hand back a wheel whatever CPU built it)."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "--progress-bar", "off"]
    env = {**os.environ, "CMAKE_ARGS": key.cmake_args}
    subprocess.run([*command, "--wheel-dir", str(into), key.spec], check=True, env=env)


def ensure(
    key: BuildKey,
    cache: Path,
    build: Callable[[BuildKey, Path], None] = pip_wheel,
    say: Callable[[str], None] = print,
) -> Path:
    """The path of a checked wheel for ``key``: the cached one, or one built now and cached."""
    entry = cache / key.digest()
    with locked(cache, say):
        if (wheel := cached_wheel(entry)) is not None:
            say(f"reusing {wheel} (built on this machine for the same CPU flags, compiler and CMAKE_ARGS)")
            return wheel
        for stale in [*cache.glob(".partial-*"), *([entry] if entry.exists() else [])]:
            say(f"removing {stale.name}: an unfinished build or a wheel that failed its checks")
            shutil.rmtree(stale, ignore_errors=True)
        partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=cache))
        try:
            say(f"no wheel cached for this machine yet ({entry.name}): building it once")
            build(key, partial)
            wheels = list(partial.glob("*.whl"))
            if len(wheels) != 1:
                raise WheelRefused(f"the build left {len(wheels)} wheels in {partial}, expected one")
            check_wheel(wheels[0])
            (partial / HASH_FILE).write_text(sha256_of(wheels[0]) + "\n")
            (partial / KEY_FILE).write_text(json.dumps(asdict(key), indent=2) + "\n")
            partial.chmod(0o755)  # mkdtemp's 0700 would hide the entry from other users of a shared cache
            os.replace(partial, entry)  # atomic: the entry appears whole or not at all
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        say(f"cached {entry / wheels[0].name}")
        return entry / wheels[0].name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", required=True, help="an exact pin, e.g. llama-cpp-python==0.3.36")
    parser.add_argument("--cmake-args", default="")
    parser.add_argument("--path-out", type=Path, required=True, help="file that receives the wheel's path")
    args = parser.parse_args(argv)
    if "==" not in args.spec:
        parser.error(f"--spec {args.spec!r} is not an exact pin (package==version): the cache key needs the version")
    say = lambda text: print(SAY + text, flush=True)  # noqa: E731
    try:
        wheel = ensure(this_machine(args.spec, args.cmake_args), default_cache(), say=say)
    except (WheelRefused, subprocess.CalledProcessError) as error:
        say(f"ERROR: {error}")
        return 1
    args.path_out.write_text(str(wheel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
