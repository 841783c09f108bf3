"""Runs a tiny Inspect AI task on mockllm/model with fixed outputs carrying token usage (so
that no tokenizer is downloaded), its logs in the directory argv[1]. Run by test_inspect_hook
in a process of its own, with BENCHLEDGER_DB and BENCHLEDGER_WAVE as the test sets them, and the
task's name TASK_NAME (default ``arith``)."""

import os
import sys

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

SAMPLES = [("2+2?", "4", "4"), ("3*3?", "9", "9"), ("1+1?", "2", "3"), ("5-1?", "4", "4")]


def outputs():
    for i, (_, _, answer) in enumerate(SAMPLES):
        o = ModelOutput.from_content(model="mockllm/model", content=answer)
        o.usage = ModelUsage(
            input_tokens=100 + i, output_tokens=10 + i, total_tokens=110 + 2 * i
        )
        yield o


task = Task(
    name=os.environ.get("TASK_NAME", "arith"),
    dataset=[Sample(input=q, target=t) for q, t, _ in SAMPLES],
    solver=generate(),
    scorer=match(),
)
[log] = eval(
    task,
    model=get_model("mockllm/model", custom_outputs=list(outputs())),
    log_dir=sys.argv[1],
    display="none",
    max_samples=1,
)
print(log.status)
print(log.location)
