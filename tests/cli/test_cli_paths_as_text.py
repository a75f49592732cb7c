"""Folder and tool names a person typed print as text: ``opgate build`` and ``opgate new tool`` read them as Rich
markup, so a folder named ``[/]`` crashed them with a MarkupError traceback and ``[bold]b`` printed as ``b``;
``--catalog`` with a name too long for the file system raised OSError from ``Path.exists``."""

from __future__ import annotations

import os
import subprocess
import sys


def opgate(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = os.environ | {"COLUMNS": "2000", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True, timeout=120, env=env, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-2000:]
    return done


def test_build_names_a_folder_without_tools_as_it_is(tmp_path):
    for name in ("[/]", "[bold]b"):
        folder = tmp_path / name
        folder.mkdir(parents=True)  # "[/]" is the folders "[" and "]"
        done = opgate("build", str(folder))
        assert done.returncode == 1 and f"no tool folders in {folder}" in done.stdout, done.stdout


def test_new_tool_prints_names_and_folders_as_they_are(tmp_path):
    bad = opgate("new", "tool", "[/]x", str(tmp_path))
    assert bad.returncode == 2 and "[/]x" in bad.stdout + bad.stderr
    folder = tmp_path / "[bold]b"
    made = opgate("new", "tool", "kb-echo", str(folder))
    assert made.returncode == 0 and str(folder / "kb-echo") in made.stdout, made.stdout
    (tmp_path / "[red]file").write_text("a file, not a folder")
    unwritable = opgate("new", "tool", "kb-echo", str(tmp_path / "[red]file" / "[/]"))
    assert unwritable.returncode == 2 and "[red]file" in unwritable.stdout + unwritable.stderr


def test_a_catalogue_name_too_long_for_the_file_system_is_no_such_file(tmp_path):
    done = opgate("--db", str(tmp_path / "w.db"), "--catalog", "c" * 300, "help")
    assert done.returncode != 0 and "no such file or folder" in done.stdout + done.stderr, done.stdout + done.stderr


def test_config_and_demo_reset_print_paths_and_keys_as_they_are(tmp_path):
    folder = tmp_path / "[/]"
    folder.mkdir(parents=True)
    good = folder / "ok.toml"
    good.write_text('search = "default"\n')
    assert str(good) in opgate("--config", str(good), "config", "path").stdout
    checked = opgate("--config", str(good), "config", "check")
    assert checked.returncode == 0 and f"{good}: ok" in checked.stdout
    bad = folder / "bad.toml"
    bad.write_text('"[/]" = 1\n')
    refused = opgate("--config", str(bad), "config", "check")
    assert refused.returncode == 1 and "[/]" in refused.stdout
    not_a_workspace = folder / "x.db"
    not_a_workspace.write_text("not a database")
    reset = opgate("--db", str(not_a_workspace), "demo", "reset", "--yes")
    assert reset.returncode == 2 and "cannot reset:" in reset.stdout and "[/]" in reset.stdout, reset.stdout
