"""By hand, not collected: run every guide program with another interpreter, e.g. a fresh virtual
environment holding only ``requirements.txt`` (``python -m venv V && V/bin/pip install -r requirements.txt``),
and check that each prints the prompts the page shows.

    python -m tests.guide_programs_in_venv V/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from memory_demos.migration import STEP_IDS, default_inputs, load_step, run_both, shown_programs
from memory_demos.providers.tokenizer import seed_tiktoken_cache
from tests.test_migration_programs import CASES, SIDES, _check_side


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("python", help="the interpreter to run the programs with")
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["TIKTOKEN_CACHE_DIR"] = str(seed_tiktoken_cache())
    started, runs = time.monotonic(), 0
    for step_id, language in CASES:
        step = load_step(step_id)
        inputs = default_inputs(step, language)
        run = run_both(step, inputs)
        for side, program in zip(SIDES, shown_programs(step), strict=True):
            folder = Path(tempfile.mkdtemp(prefix="guide_"))
            script = folder / f"{step_id}_{side}.py"
            script.write_bytes(program.path.read_bytes())
            (folder / "recording.json").write_text(json.dumps(getattr(run, f"{side}_recording")), "utf-8")
            result = subprocess.run(
                [args.python, "-I", str(script), "--replay", "recording.json", "--", *inputs],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                check=False,
            )
            if result.returncode != 0:
                print(f"{step_id} {language} {side}: exit {result.returncode}\n{result.stderr[-2000:]}")
                return 1
            _check_side(run, side, result.stdout)
            runs += 1
            print(f"{step_id} {language} {side}: prints the page's prompts", flush=True)
    print(f"{runs} programs of {len(STEP_IDS)} steps, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
