#!/usr/bin/env python3
"""Writes the bundled Inductor runs of resources/inductor-runs/ from the recorded fixtures
(tests/data/inductor, unpacked by a build into BUILD/test-data/inductor): per run its scan CSV
(`occx inductor scan … --csv`, titled, paths replaced by the run's name) and its kernel modules
(the source pane shows them). tests/ui checks that every bundled CSV equals a fresh scan.

    python3 scripts/bundle-inductor-runs.py [BUILD_DIR] [--measured DIR]      (default build/release)

With --measured DIR (the output folder of `STEPS="build inductor triton-sweeps" scripts/gpu-sweep.sh DIR` on a
GPU machine), each DIR/<run>.runs.csv (`occx inductor run … --csv`) is bundled too, as
measured/<run>.csv, with the GPU machine's paths replaced by the run's name; without it, the
measured CSVs already bundled are kept.
"""
import os
import re
import shutil
import subprocess
import sys

TITLES = {
    "blenderbot": "BlenderbotForCausalLM training step, H200",
    "gpt2": "GPT2LMHeadModel training step, H200",
    "bert": "BertForMaskedLM training step, H200",
    "t5": "T5ForConditionalGeneration training step, H200",
    "spill_log_softmax": "log_softmax fp32 264 × 30000, persistent reductions off (the spill case), H200",
    "ref_sum": "row sum fp16 32768 × 8192, H200",
    "ref_mean_var": "var_mean fp16 32768 × 8192, H200",
    "ref_log_softmax": "log_softmax fp16 32768 × 8192, H200",
    "ref_log_softmax_vocab": "log_softmax fp16 20736 × 8008 (causal-LM vocabulary), H200",
    "ref_layer_norm_bwd": "two fused sums of products (layer-norm-backward-like) fp16 32768 × 8192, H200",
    "coordesc_sum": "row sum fp16 32768 × 8192 with coordinate descent, H200",
    "dynamic_log_softmax": "log_softmax fp16 with dynamic shapes, H200",
    "spill_log_softmax_w16": "the spill case with 16- and 32-warp configs compiled by Triton beside Inductor's, H200",
}


def bundle_measured(measured, out):
    dest = os.path.join(out, "measured")
    os.makedirs(dest, exist_ok=True)
    for run in TITLES:
        # A sweep of the run's kernel (`occx inductor sweep`, STEPS="triton-sweeps") has every config
        # the run compiled and the ones the sweep added: it is bundled in place of the plain run.
        src = os.path.join(measured, run + ".sweep.csv")
        if not os.path.exists(src):
            src = os.path.join(measured, run + ".runs.csv")
        if not os.path.exists(src):
            continue
        text = open(src, encoding="utf-8").read()
        recorded_input = None
        for line in text.splitlines():
            if line.startswith("# input: "):
                recorded_input = line[len("# input: "):]
        if recorded_input:
            text = text.replace(recorded_input.rstrip("/") + "/", "<" + run + ">/").replace(recorded_input, "<" + run + ">")
        text = re.sub(r"^# python: \S+ ", "# python: python3 ", text, flags=re.M)
        open(os.path.join(dest, run + ".csv"), "w", encoding="utf-8").write(text)
        print("measured", run)


def main():
    args = sys.argv[1:]
    measured = None
    if "--measured" in args:
        i = args.index("--measured")
        measured = args[i + 1]
        del args[i:i + 2]
    build = args[0] if args else "build/release"
    fixtures = os.path.join(build, "test-data", "inductor")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "inductor-runs")
    for entry in os.listdir(out) if os.path.isdir(out) else []:
        if entry != "measured":
            path = os.path.join(out, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    os.makedirs(out, exist_ok=True)
    if measured:
        bundle_measured(measured, out)
    for run, title in TITLES.items():
        src = os.path.join(fixtures, run)
        csv = os.path.join(out, run + ".csv")
        subprocess.run([os.path.join(build, "occx"), "inductor", "scan", src, "--no-home-cache", "-q", "--csv", csv],
                       check=True, stdout=subprocess.DEVNULL)
        text = open(csv, encoding="utf-8").read().replace(os.path.abspath(src), "<" + run + ">").replace(src, "<" + run + ">")
        text = "# title: " + title + "\n" + text
        open(csv, "w", encoding="utf-8").write(text)
        modules = os.path.join(out, run)
        os.makedirs(modules)
        for root, _, files in os.walk(src):
            if "/triton" in root or "torch_compile_debug" in root:
                continue
            for f in files:
                if not f.endswith(".py"):
                    continue
                body = open(os.path.join(root, f), encoding="utf-8").read()
                if "@triton_heuristics." in body and "def call(" not in body:
                    shutil.copy(os.path.join(root, f), os.path.join(modules, f))
        print(run, len(os.listdir(modules)), "modules")


if __name__ == "__main__":
    main()
