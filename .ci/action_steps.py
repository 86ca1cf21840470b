"""Run the GitHub Action's own steps (action.yml) here, as a runner would, on a copy of the game.

CI users install forge the Action's way: `pip install` of the repository (a wheel, not an
editable checkout) into a fresh Python, then `forge check` and `forge build` on their game.
This script runs those very `run:` steps, read from action.yml (not retyped), with the
inputs substituted as GitHub does and the runner's variables set; the `uses:` steps are
stood in for: setup-python by a fresh virtual environment first on PATH, upload-artifact by
checking that the folder it would upload has files. Exit status: the first failing step's.

    python3 .ci/action_steps.py GAME_COPY [--format github] [--build]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
_INPUT = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")
_EXPR = re.compile(r"\$\{\{.*?\}\}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", type=Path, help="the game project to check (a copy: build writes output/ there)")
    parser.add_argument("--format", default="github")
    parser.add_argument("--build", action="store_true")
    args = parser.parse_args()
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    work = Path(tempfile.mkdtemp(prefix="forge-action-"))
    # The game sits in a "workspace" as a checkout would, the Action's `root:` input naming it.
    workspace = args.game.resolve().parent
    inputs.update(root=args.game.resolve().name, format=args.format, build="true" if args.build else "false")
    env = _runner_env(work, workspace)
    try:
        for step in action["runs"]["steps"]:
            if not _runs(step, inputs):
                continue
            if "uses" in step:
                _stand_in(step["uses"], inputs, env, workspace)
                continue
            script = _INPUT.sub(lambda m: inputs[m.group(1)], step["run"])
            assert not _EXPR.search(script), f"an expression this script does not know: {script}"
            step_env = {**env, **{k: _INPUT.sub(lambda m: inputs[m.group(1)], str(v))
                                  for k, v in (step.get("env") or {}).items()}}
            print(f"::group::{step.get('name', 'run')}", flush=True)
            done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=workspace, env=step_env)
            print("::endgroup::", flush=True)
            if done.returncode:
                print(f"action step `{step.get('name')}` failed with exit {done.returncode}", file=sys.stderr)
                return done.returncode
        outputs = (work / "github_output").read_text(encoding="utf-8") if (work / "github_output").exists() else ""
        print(f"action outputs: {outputs.strip() or '(none)'}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _runner_env(work: Path, workspace: Path) -> dict:
    """The variables a runner sets, a fresh Python first on PATH, and `sudo` when root has none."""
    venv = work / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = work / "bin"
    bin_dir.mkdir()
    if shutil.which("sudo") is None and os.geteuid() == 0:  # a runner has sudo; root here needs none
        (bin_dir / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
        (bin_dir / "sudo").chmod(0o755)
    (work / "github_output").touch()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env.update(PATH=f"{venv / 'bin'}:{bin_dir}:{env.get('PATH', '')}", GITHUB_ACTION_PATH=str(REPO),
               GITHUB_OUTPUT=str(work / "github_output"), RUNNER_TEMP=str(work), GITHUB_WORKSPACE=str(workspace),
               GITHUB_ACTIONS="true")
    return env


def _runs(step: dict, inputs: dict) -> bool:
    """A step's `if:`, for the two forms action.yml uses."""
    condition = step.get("if")
    if condition is None:
        return True
    m = re.fullmatch(r"\s*inputs\.([\w-]+)\s*==\s*'([^']*)'\s*", condition)
    assert m, f"an `if:` this script does not know: {condition}"
    return inputs[m.group(1)] == m.group(2)


def _stand_in(uses: str, inputs: dict, env: dict, workspace: Path) -> None:
    if uses.startswith("actions/setup-python"):
        return  # the fresh venv first on PATH is the Python the Action would set up
    if uses.startswith("actions/upload-artifact"):
        folder = workspace / inputs["root"] / "output"
        assert folder.is_dir() and any(folder.iterdir()), f"upload-artifact would find no files in {folder}"
        print(f"upload-artifact: {sum(1 for p in folder.rglob('*') if p.is_file())} files in {folder}")
        return
    raise AssertionError(f"a step this script cannot stand in for: {uses}")


if __name__ == "__main__":
    sys.exit(main())
