"""The llama.cpp wheel cache (scripts/llama_wheel.py): one build per machine, keyed by what makes a build differ.

The build itself is the one step stood in for here (a real one takes minutes): the stand-in writes a small wheel
with the files the checks look for, and counts how often it was asked. scripts/test runs the real build and reuse.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("llama_wheel", ROOT / "scripts" / "llama_wheel.py")
assert _spec is not None and _spec.loader is not None
llama_wheel = importlib.util.module_from_spec(_spec)
sys.modules["llama_wheel"] = llama_wheel
_spec.loader.exec_module(llama_wheel)

X86 = "processor\t: 0\nflags\t\t: fpu vme sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c bmi1 avx2 bmi2 hypervisor\n"
KEY = llama_wheel.BuildKey(
    spec="llama-cpp-python==0.3.36",
    cpu_flags=llama_wheel.cpu_flags(X86),
    compiler="cc (Debian 12.2.0-14) 12.2.0 | c++ (Debian 12.2.0-14) 12.2.0",
    cmake_args="-DGGML_NATIVE=OFF",
    python="cpython3.11",
    libc="glibc-2.36",
    machine="x86_64",
)


class StandInBuild:
    """Writes a small wheel shaped like llama-cpp-python's; records each call."""

    def __init__(self, pause: float = 0.0, fail: bool = False) -> None:
        self.calls = 0
        self.pause = pause
        self.fail = fail

    def __call__(self, key, into: Path) -> None:
        self.calls += 1
        time.sleep(self.pause)
        wheel = into / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl"
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, content in (("llama_cpp/__init__.py", b"from .llama_cpp import *\n"),
                                  ("llama_cpp/lib/libllama.so", b"\x7fELF" + bytes(range(256)) * 400)):  # fmt: skip
                archive.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), content)  # same bytes every build
        if self.fail:
            raise subprocess.CalledProcessError(1, ["pip", "wheel"])


def quiet(text: str) -> None:
    pass


def test_the_cpu_flags_that_matter_are_read_from_cpuinfo():
    assert KEY.cpu_flags == ("avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "sse", "sse2", "sse4_1", "sse4_2", "ssse3")
    arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes asimddp sve i8mm cpuid\n"
    assert llama_wheel.cpu_flags(arm) == ("asimd", "asimddp", "i8mm", "sve")
    assert llama_wheel.cpu_flags("") == ()


def test_a_different_cpu_compiler_version_or_cmake_args_is_a_different_key():
    assert KEY.digest() == dataclasses.replace(KEY).digest()  # the same inputs, the same key
    without_avx2 = X86.replace(" avx2", "")
    with_avx512 = X86.replace("avx2", "avx2 avx512f avx512bw")
    other_vm = X86.replace("hypervisor", "")  # a flag ggml never looks at: the same key
    assert dataclasses.replace(KEY, cpu_flags=llama_wheel.cpu_flags(other_vm)).digest() == KEY.digest()
    variants = [
        dataclasses.replace(KEY, cpu_flags=llama_wheel.cpu_flags(without_avx2)),
        dataclasses.replace(KEY, cpu_flags=llama_wheel.cpu_flags(with_avx512)),
        dataclasses.replace(KEY, compiler="clang version 16.0.6"),
        dataclasses.replace(KEY, spec="llama-cpp-python==0.3.37"),
        dataclasses.replace(KEY, cmake_args="-DGGML_NATIVE=OFF -DGGML_AVX2=OFF"),
        dataclasses.replace(KEY, python="cpython3.12"),
    ]
    digests = {variant.digest() for variant in variants}
    assert len(digests) == len(variants) and KEY.digest() not in digests


def test_one_build_then_reuse_and_a_new_key_builds_again(tmp_path: Path):
    build = StandInBuild()
    first = llama_wheel.ensure(KEY, tmp_path, build=build, say=quiet)
    again = llama_wheel.ensure(KEY, tmp_path, build=build, say=quiet)
    assert first == again and build.calls == 1
    assert (first.parent / "key.json").read_text().count("GGML_NATIVE=OFF") == 1  # says what it was built for
    other = llama_wheel.ensure(dataclasses.replace(KEY, cmake_args="-DGGML_AVX2=OFF"), tmp_path, build=build, say=quiet)
    assert other.parent != first.parent and build.calls == 2


def test_a_truncated_or_altered_wheel_is_refused_and_rebuilt(tmp_path: Path):
    build = StandInBuild()
    wheel = llama_wheel.ensure(KEY, tmp_path, build=build, say=quiet)
    whole = wheel.read_bytes()
    wheel.write_bytes(whole[: len(whole) // 2])  # a copy cut short (disk full, killed cp)
    with pytest.raises(llama_wheel.WheelRefused, match="not a readable wheel"):
        llama_wheel.check_wheel(wheel)
    said: list[str] = []
    rebuilt = llama_wheel.ensure(KEY, tmp_path, build=build, say=said.append)
    assert build.calls == 2 and rebuilt.read_bytes() == whole
    assert any("failed its checks" in line for line in said)
    flipped = bytearray(whole)
    flipped[len(whole) // 3] ^= 0xFF  # a flipped bit inside: still a zip by its directory, not by its hash
    rebuilt.write_bytes(bytes(flipped))
    with pytest.raises(llama_wheel.WheelRefused, match="SHA-256"):
        llama_wheel.check_wheel(rebuilt, (rebuilt.parent / "wheel.sha256").read_text().strip())
    llama_wheel.ensure(KEY, tmp_path, build=build, say=quiet)
    assert build.calls == 3


def test_a_wheel_without_llama_cpp_is_refused(tmp_path: Path):
    empty = tmp_path / "llama_cpp_python-0.3.36-py3-none-any.whl"
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("llama_cpp/__init__.py", "")
    with pytest.raises(llama_wheel.WheelRefused, match="libllama"):
        llama_wheel.check_wheel(empty)


def test_a_failed_build_leaves_nothing_that_looks_usable(tmp_path: Path):
    with pytest.raises(subprocess.CalledProcessError):
        llama_wheel.ensure(KEY, tmp_path, build=StandInBuild(fail=True), say=quiet)
    assert not (tmp_path / KEY.digest()).exists()
    assert not list(tmp_path.glob(".partial-*"))
    (tmp_path / ".partial-killed").mkdir()  # what a build killed with SIGKILL leaves behind
    build = StandInBuild()
    llama_wheel.ensure(KEY, tmp_path, build=build, say=quiet)
    assert build.calls == 1 and not (tmp_path / ".partial-killed").exists()


def test_two_setups_at_once_build_once(tmp_path: Path):
    build = StandInBuild(pause=0.5)
    said: list[str] = []
    results: list[Path] = []
    threads = [
        threading.Thread(target=lambda: results.append(llama_wheel.ensure(KEY, tmp_path, build=build, say=said.append)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
        time.sleep(0.1)
    for thread in threads:
        thread.join(30)
    assert len(results) == 2 and results[0] == results[1] and build.calls == 1
    assert any(line.startswith("waiting for another setup") for line in said)
    llama_wheel.check_wheel(results[0], (results[0].parent / "wheel.sha256").read_text().strip())


def test_the_command_wants_an_exact_version(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "llama_wheel.py"), "--spec", "llama-cpp-python>=0.3", "--path-out",
         str(tmp_path / "out")], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and "not an exact pin" in result.stderr
