"""deskworld's Harbor export through Harbor 0.25 itself (this folder's Python 3.12 venv; deskworld runs from
the main install, ../../.venv): the exported folders load with Harbor's own ``Task``, pass
``Task.is_valid_dir`` and Harbor's linter with its default rules (as ``harbor lint`` runs it), and the
reward.json that test.sh writes — after the oracle's solve.sh and after a do-nothing episode — is read by
Harbor's own verifier parser as reward 1 and 0. (Harbor's trials need Docker, absent here: the scripts run on
this machine through ``deskworld harbor try``, with their roots redirected.)

What is stood in: Docker Compose. Harbor's linter (``harbor.lint.compose``) runs ``docker compose -f
environment/docker-compose.yaml config --format json`` and lints the model it prints. Without Docker on this
machine, a stand-in ``docker`` on PATH prints the compose file's YAML as that JSON — as written, neither
validated nor normalised by Compose. Everything else is Harbor's real code: its lint rules run on that
model (a test below checks that they flag a privileged service), and the tests check the stand-in was
called for every folder. Where ``docker compose`` is installed, the real one is used and nothing is stood in.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harbor.constants import MAIN_SERVICE_NAME
from harbor.lint.models import DEFAULT_RULES, LintRule
from harbor.lint.task import lint_task
from harbor.models.task.artifacts import sidecar_services
from harbor.models.task.config import VerifierEnvironmentMode
from harbor.models.task.task import Task
from harbor.models.trial.paths import TrialPaths
from harbor.models.verifier.result import VerifierResult
from harbor.verifier.verifier import Verifier, VerifierOutputParseError

HERE = Path(__file__).resolve().parent
DESKWORLD = HERE.parents[1] / ".venv" / "bin" / "deskworld"
HARBOR = HERE / ".venv" / "bin" / "harbor"
TASKS = {"meridian/corvane-deductible": "meridian-corvane-deductible",          # an answer task
         "meridian/snooze-elevator-notice": "meridian-snooze-elevator-notice",  # edits the mailbox
         "meridian/corvane-deductible/v1": "meridian-corvane-deductible-v1"}    # an instance (meridian@1)
START = "http://desk:8780"


def deskworld(*args: str) -> str:
    res = subprocess.run([str(DESKWORLD), *args], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


STAND_IN = """\
import json, sys
import yaml
args = sys.argv[1:]
with open(LOG, "a") as log:
    log.write(json.dumps(args) + "\\n")
if args[:1] != ["compose"]:
    sys.exit("docker stand-in: only `docker compose config` and `docker compose version`")
if "version" in args:
    print("2.0.0-stand-in")
    sys.exit(0)
with open(args[args.index("-f") + 1]) as f:
    print(json.dumps({"name": "harbor-lint", **yaml.safe_load(f)}))
"""


@pytest.fixture(scope="module", autouse=True)
def docker_compose(tmp_path_factory):
    """The real ``docker compose`` when it is there (None); else the stand-in on PATH (see the module's
    doc) and the file it logs its calls to."""
    real = subprocess.run(["docker", "compose", "version"], capture_output=True) if shutil.which("docker") else None
    if real is not None and real.returncode == 0:
        yield None
        return
    bin_dir = tmp_path_factory.mktemp("docker-stand-in")
    log = bin_dir / "calls.jsonl"
    log.touch()
    (bin_dir / "docker").write_text(f"#!{sys.executable}\nLOG = {str(log)!r}\n" + STAND_IN)
    (bin_dir / "docker").chmod(0o755)
    old = os.environ["PATH"]
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{old}"
    yield log
    os.environ["PATH"] = old


def compose_files_read(log: Path | None) -> list[str]:
    """The compose files Harbor's linter had the stand-in read (``-f``)."""
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log else []
    return [c[c.index("-f") + 1] for c in calls if "config" in c and "-f" in c]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    if not DESKWORLD.exists():
        pytest.fail(f"{DESKWORLD} is missing: run 'make setup' at the repository's root first")
    out = tmp_path_factory.mktemp("harbor") / "tasks"
    deskworld("export-tasks", "--format", "harbor", "--tasks", ",".join(TASKS), "--out", str(out))
    return out


@pytest.mark.parametrize("tid", list(TASKS))
def test_harbor_loads_and_validates_the_folder(exported, docker_compose, tid):
    d = exported / TASKS[tid]
    assert Task.is_valid_dir(d)
    task = Task(d)
    assert task.name == f"deskworld/{TASKS[tid]}"
    assert task.config.metadata["task_id"] == tid
    assert START in task.instruction and "ANSWER:" in task.instruction and "/logs/agent/final_answer.txt" in task.instruction
    assert task.config.verifier.environment_mode == VerifierEnvironmentMode.SEPARATE
    # The end state is the desk sidecar's: its hook runs there (after main stops), its evidence is collected
    # from its filesystem; the agent's own service only hands over its final message.
    assert [(c.service, c.command) for c in task.config.verifier.collect][1] == ("desk", "deskworld harbor snapshot")
    assert task.config.verifier.collect[0].service == MAIN_SERVICE_NAME
    assert sidecar_services(task.config.artifacts) == {"desk"}
    assert [a.source for a in task.config.artifacts] == ["/var/lib/deskworld/evidence"]
    assert (task.paths.environment_dir / "docker-compose.yaml").is_file()
    assert task.config.environment.healthcheck.command.endswith(f"{START}/")
    assert lint_task(d, selected_rules=set(DEFAULT_RULES)) == []
    if docker_compose is not None:                 # Harbor's compose lint ran, on the stand-in's model
        assert str(d / "environment" / "docker-compose.yaml") in compose_files_read(docker_compose)
    # Beyond the defaults only the two opt-in rules speak: the base image is not pinned to a digest (none can
    # be looked up offline), and the agent runs as root (computer-1 starts X, a desktop and Chromium).
    assert {f.rule for f in lint_task(d)} <= {LintRule.UNPINNED_IMAGE, LintRule.ROOT_AGENT}


def test_harbor_lint_command_passes(exported, docker_compose):
    res = subprocess.run([str(HARBOR), "lint", *(str(exported / n) for n in TASKS.values())],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    if docker_compose is not None:
        read = compose_files_read(docker_compose)
        for name in TASKS.values():
            assert str(exported / name / "environment" / "docker-compose.yaml") in read


def test_harbor_lint_flags_a_privileged_desk_service(exported, tmp_path):
    """The compose lint is live on this layout (real Compose or the stand-in): the same folder with its
    desk service made privileged fails Harbor's default rules."""
    d = tmp_path / "privileged"
    shutil.copytree(exported / TASKS["meridian/snooze-elevator-notice"], d)
    compose = d / "environment" / "docker-compose.yaml"
    compose.write_text(compose.read_text().replace("\n  desk:\n", "\n  desk:\n    privileged: true\n", 1))
    assert "privileged: true" in compose.read_text()
    assert LintRule.COMPOSE_PRIVILEGED in {f.rule for f in lint_task(d, selected_rules=set(DEFAULT_RULES))}


def parse_with_harbor(reward_json: Path, trial_dir: Path) -> VerifierResult:
    """What Harbor's ``Verifier.verify`` does with the verifier dir it downloaded: parse reward.json."""
    paths = TrialPaths(trial_dir)
    paths.mkdir()
    shutil.copyfile(reward_json, paths.reward_json_path)
    verifier = Verifier(task=None, trial_paths=paths, environment=None)
    return VerifierResult(rewards=verifier._parse_reward_json())


@pytest.mark.parametrize("tid", ["meridian/corvane-deductible", "meridian/snooze-elevator-notice"])
def test_harbor_reads_the_rewards_of_a_do_nothing_and_an_oracle_trial(exported, tmp_path, tid):
    out = deskworld("harbor", "try", str(exported / TASKS[tid]), "--agent", "nothing", "--agent", "oracle",
                    "--work", str(tmp_path / "work"))
    paths = {line.split(":", 1)[0]: Path(line.rsplit("(", 1)[1].rstrip(")")) for line in out.splitlines()
             if line.startswith(("nothing:", "oracle:"))}
    nothing = parse_with_harbor(paths["nothing"], tmp_path / "trial-nothing")
    oracle = parse_with_harbor(paths["oracle"], tmp_path / "trial-oracle")
    assert nothing.rewards["reward"] == 0 and nothing.rewards["passed"] == 0
    assert oracle.rewards["reward"] == 1 and oracle.rewards["passed"] == 1
    assert oracle.rewards["checks_passed"] == oracle.rewards["checks_total"] >= 1
    # The detailed checks sit beside reward.json (Harbor rejects anything but numbers in it).
    assert (paths["oracle"].parent / "result.json").is_file()


def test_harbor_rejects_checks_inside_reward_json(tmp_path):
    """The reason the checks go to result.json: the same parser refuses a reward.json carrying them."""
    bad = tmp_path / "reward.json"
    bad.write_text('{"reward": 1.0, "checks": [{"passed": true}]}')
    with pytest.raises(VerifierOutputParseError, match="Non-numeric reward"):
        parse_with_harbor(bad, tmp_path / "trial")
