"""The code fingerprint's memo: the same hash as hashing the files, and never a stale or damaged one."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from opgate.core.cache import _key
from opgate.core.cache._file import read_cache_file, write_cache_file


@pytest.fixture(autouse=True)
def _fresh_fingerprints():
    _key.code_fingerprint.cache_clear()
    yield
    _key.code_fingerprint.cache_clear()


@pytest.fixture
def copied_core(tmp_path, monkeypatch):
    """A copy of the fingerprinted source, with its stamp trusted at once (a real copy is seconds old only)."""
    core = tmp_path / "src" / "core"
    for name in _key._SHAPING:
        source = _key.CORE / name
        if source.is_dir():
            shutil.copytree(source, core / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            (core / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, core / name)
    shutil.copytree(_key.CORE.parent / "fixtures" / "catalog", tmp_path / "src" / "fixtures" / "catalog")
    monkeypatch.setattr(_key, "CORE", core)
    monkeypatch.setattr(_key, "_SETTLE_NS", 0)
    return core


def _memo(folder: Path) -> dict:
    found = read_cache_file(folder / "code.fingerprint", kind="code-fingerprint", key="code")
    return found.json("memo") if found is not None else {}


def test_the_memo_gives_the_hash_of_the_files(tmp_path):
    plain = _key.code_fingerprint()
    _key.code_fingerprint.cache_clear()
    assert _key.code_fingerprint(tmp_path) == plain
    assert list(_memo(tmp_path).values()) == [plain]
    _key.code_fingerprint.cache_clear()
    assert _key.code_fingerprint(tmp_path) == plain  # read back from the memo


def test_the_memo_is_what_is_read(copied_core, tmp_path):
    """A remembered value is used as it is: this is what makes the memo worth having, and why its stamp must be right."""
    memo = tmp_path / "memo"
    memo.mkdir()
    _key.code_fingerprint(memo)
    stamp = next(iter(_memo(memo)))
    write_cache_file(memo / "code.fingerprint", kind="code-fingerprint", key="code", sections={"memo": json.dumps({stamp: "f" * 64}).encode()})
    _key.code_fingerprint.cache_clear()
    assert _key.code_fingerprint(memo) == "f" * 64


@pytest.mark.parametrize("edit", ["append", "same size and time", "new file", "removed file"])
def test_an_edit_is_hashed_again(copied_core, tmp_path, edit):
    memo = tmp_path / "memo"
    memo.mkdir()
    before = _key.code_fingerprint(memo)
    words = copied_core / "search" / "related_words.json"
    info = words.stat()
    if edit == "append":
        words.write_bytes(words.read_bytes() + b" ")
    elif edit == "same size and time":
        data = bytearray(words.read_bytes())
        data[-2:-1] = b"X" if data[-2:-1] != b"X" else b"Y"
        words.write_bytes(bytes(data))
        os.utime(words, ns=(info.st_atime_ns, info.st_mtime_ns))  # only the change time tells
    elif edit == "new file":
        (copied_core / "search" / "extra_words.json").write_text("{}")
    else:
        (copied_core / "search" / "calibration.json").unlink()
    _key.code_fingerprint.cache_clear()
    after = _key.code_fingerprint(memo)
    _key.code_fingerprint.cache_clear()
    assert after != before
    assert after == _key.code_fingerprint()  # the files' real hash
    assert len(_memo(memo)) == 2  # both checkouts' stamps kept


@pytest.mark.parametrize("damage", [b"", b"not a cache file\n", "truncate", "flip"])
def test_a_damaged_memo_is_ignored_and_rewritten(copied_core, tmp_path, damage):
    memo = tmp_path / "memo"
    memo.mkdir()
    real = _key.code_fingerprint(memo)
    path = memo / "code.fingerprint"
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) - 10])
    elif damage == "flip":
        path.write_bytes(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    else:
        path.write_bytes(damage)
    _key.code_fingerprint.cache_clear()
    assert _key.code_fingerprint(memo) == real
    assert list(_memo(memo).values()) == [real]


def test_a_file_changed_just_now_is_not_trusted(copied_core, tmp_path, monkeypatch):
    monkeypatch.setattr(_key, "_SETTLE_NS", 10**18)  # every file is "just changed"
    memo = tmp_path / "memo"
    memo.mkdir()
    assert _key.code_fingerprint(memo) == _key.code_fingerprint()
    assert not (memo / "code.fingerprint").exists()


def test_an_unwritable_memo_folder_is_no_error(copied_core, tmp_path):
    assert _key.code_fingerprint(tmp_path / "missing") == _key.code_fingerprint()


@pytest.mark.parametrize("sections", [{"stamps": b"{}"}, {}, {"memo": b"[1, 2]"}, {"memo": b'{"a": 5}'}])
def test_a_whole_memo_of_another_shape_is_ignored_and_rewritten(copied_core, tmp_path, sections):
    """A memo file that is whole (its digest holds) but shaped otherwise, as another opgate sharing the cache folder may write it."""
    memo = tmp_path / "memo"
    memo.mkdir()
    write_cache_file(memo / "code.fingerprint", kind="code-fingerprint", key="code", sections=sections)
    assert _key.code_fingerprint(memo) == _key.code_fingerprint()
    assert list(_memo(memo).values())[-1] == _key.code_fingerprint()  # remembered (entries it cannot use are left as they were)


def test_a_file_replaced_by_rename_with_its_size_and_times_is_hashed_again(copied_core, tmp_path):
    """An editor or a checkout writes a new file and renames it over the old one: a new inode and change time, whatever its mtime says."""
    memo = tmp_path / "memo"
    memo.mkdir()
    before = _key.code_fingerprint(memo)
    words = copied_core / "search" / "related_words.json"
    info = words.stat()
    data = bytearray(words.read_bytes())
    data[-2:-1] = b"X" if data[-2:-1] != b"X" else b"Y"
    replacement = words.with_name("related_words.json.new")
    replacement.write_bytes(bytes(data))
    os.utime(replacement, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(replacement, words)
    assert words.stat().st_size == info.st_size and words.stat().st_mtime_ns == info.st_mtime_ns
    _key.code_fingerprint.cache_clear()
    after = _key.code_fingerprint(memo)
    _key.code_fingerprint.cache_clear()
    assert after != before and after == _key.code_fingerprint()


@pytest.mark.parametrize("blocked", ["folder is a file", "memo is a folder"])
def test_a_memo_that_cannot_be_written_is_no_error(copied_core, tmp_path, blocked):
    # Running as root, permissions do not stop a write; a file where the folder should be (or the reverse) does.
    if blocked == "folder is a file":
        folder = tmp_path / "memo"
        folder.write_text("not a folder")
    else:
        folder = tmp_path / "memo"
        (folder / "code.fingerprint").mkdir(parents=True)
    assert _key.code_fingerprint(folder) == _key.code_fingerprint()


def test_a_file_stamped_in_the_future_is_not_trusted(copied_core, tmp_path):
    """Clock skew (a checkout from a machine ahead of this one): the stamp waits until the clock has passed the file's time."""
    memo = tmp_path / "memo"
    memo.mkdir()
    words = copied_core / "search" / "related_words.json"
    ahead = time.time_ns() + 3600 * 10**9  # an hour ahead of the clock, whatever the checkout's age
    os.utime(words, ns=(ahead, ahead))
    assert _key.code_fingerprint(memo) == _key.code_fingerprint()
    assert not (memo / "code.fingerprint").exists()
