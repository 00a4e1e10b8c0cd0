#!/usr/bin/env python3
"""Records Inductor runs for the test fixtures of tests/data/inductor (needs a GPU, PyTorch, Triton).

Each case runs in its own process with a fresh Inductor cache. While Inductor compiles, the
CachingAutotuner is observed: every compiled config's n_regs, n_spills and shared memory as Triton
reports them at load time (cuFuncGetAttribute), and which configs the dynamic RBLOCK scaling added.
Afterwards the kernel modules, the .best_config files, the wrapper modules and the Triton folders
of the reduction kernels' configs (json, cubin, ttir, source, ptx) are copied to OUTDIR/<case>/ with
the absolute cache path replaced by a placeholder, and OUTDIR/<case>/recorded.json holds what
Triton reported. The whole caches stay in OUTDIR-caches/<case>/.

After compiling, each case's step (a model's forward and backward, a reference's call) runs under
torch.profiler in the same process, so the trace's kernels are the run's: one warm-up step and two
recorded ones. OUTDIR/<case>/trace.pt.trace.json.gz holds the Chrome trace (as
`export_chrome_trace` writes it, gzipped) and OUTDIR/<case>/key_averages.json the per-name totals
of `key_averages()` on that trace (device time in µs).

    python3 scripts/record-inductor-fixtures.py OUTDIR [CASE ...]
    python3 scripts/record-inductor-fixtures.py --rerun CACHE OUTDIR CASE

Cases: see CASES below. Runs the cases in parallel, one process each. --rerun runs one case's step
again in its existing Inductor cache CACHE (nothing is cleared: Inductor reuses its compiled kernels and
reads their .best_config files, e.g. after `occx inductor pin`) and writes the trace, key_averages.json
and recorded.json to OUTDIR.
"""
import json
import os
import shutil
import subprocess
import sys
import time

CASES = [
    "ref_sum", "ref_mean_var", "ref_log_softmax", "ref_layer_norm_bwd", "ref_log_softmax_vocab",
    "spill_log_softmax", "coordesc_sum", "dynamic_log_softmax",
    "blenderbot", "gpt2", "bert", "t5", "llama", "norms_bwd",
]
PLACEHOLDER = "<inductor-cache>"
SITE_PLACEHOLDER = "<site-packages>"


CACHE_ROOT = None  # set from OUTDIR: OUTDIR-caches/<case> holds each case's whole Inductor cache


def cache_dir_of(case):
    return os.path.join(CACHE_ROOT, case)


# ---------------------------------------------------------------- inside one case's process
def install_observer(records):
    from torch._inductor.runtime import triton_heuristics as th

    autotuner = th.CachingAutotuner
    original_scale = autotuner._dynamic_scale_rblock
    original_precompile = autotuner.precompile

    def scale(self, *args, **kwargs):
        before = len(self.compile_results)
        result = original_scale(self, *args, **kwargs)
        self._ox_added_from = before
        return result

    def precompile(self, *args, **kwargs):
        result = original_precompile(self, *args, **kwargs)
        try:
            record_kernel(self, records)
        except Exception as error:  # keep compiling; the record says what failed
            records.append({"error": repr(error)})
        return result

    if hasattr(autotuner, "_dynamic_scale_rblock"):
        autotuner._dynamic_scale_rblock = scale
    autotuner.precompile = precompile


def record_kernel(autotuner, records):
    meta = autotuner.inductor_meta or {}
    added_from = getattr(autotuner, "_ox_added_from", None)
    configs = []
    for index, result in enumerate(autotuner.compile_results):
        config = result.config
        configs.append({
            "kwargs": dict(config.kwargs),
            "num_warps": config.num_warps,
            "num_stages": config.num_stages,
            "added_by_scaling": added_from is not None and index >= added_from,
        })
    launchers = []
    for launcher in autotuner.launchers:
        config = launcher.config
        launchers.append({
            "kwargs": dict(config.kwargs),
            "num_warps": config.num_warps,
            "num_stages": config.num_stages,
            "n_regs": getattr(launcher, "n_regs", None),
            "n_spills": getattr(launcher, "n_spills", None),
            "shared": getattr(launcher, "shared", None),
            "cache_hash": getattr(launcher, "cache_hash", None),
        })
    records.append({
        "kernel_name": meta.get("kernel_name"),
        "launcher_attributes": sorted(a for a in dir(autotuner.launchers[0]) if not a.startswith("__"))
        if autotuner.launchers and not records else None,
        "heuristic_type": str(autotuner.heuristic_type),
        "size_hints": dict(autotuner.size_hints) if autotuner.size_hints else None,
        "filename": os.path.basename(autotuner.filename or ""),
        "compile_results": configs,
        "launchers": launchers,
    })


def driver_figures(cache):
    """Per Triton cache folder: what the CUDA driver says of its cubin (cuFuncGetAttribute and
    cuOccupancyMaxActiveBlocksPerMultiprocessor at the JSON's num_warps and dynamic shared memory)."""
    import ctypes
    import torch
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    cuda = ctypes.CDLL("libcuda.so.1")
    figures = {}
    root = os.path.join(cache, "triton", "0")
    for folder in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        path = os.path.join(root, folder)
        metas = [f for f in os.listdir(path) if f.endswith(".json") and not f.startswith("__grp__")]
        if not metas:
            continue
        meta = json.load(open(os.path.join(path, metas[0])))
        cubins = [f for f in os.listdir(path) if f.endswith(".cubin")]  # long names are cut short
        if not cubins:
            continue
        cubin_path = os.path.join(path, cubins[0])
        data = open(cubin_path, "rb").read()
        module, function = ctypes.c_void_p(), ctypes.c_void_p()
        if cuda.cuModuleLoadData(ctypes.byref(module), data) != 0:
            figures[folder] = {"error": "cuModuleLoadData failed"}
            continue
        cuda.cuModuleGetFunction(ctypes.byref(function), module, meta["name"].encode())
        attrs = {}
        for key, attr in (("max_threads_per_block", 0), ("shared_size_bytes", 1), ("const_size_bytes", 2),
                          ("local_size_bytes", 3), ("num_regs", 4)):
            value = ctypes.c_int()
            cuda.cuFuncGetAttribute(ctypes.byref(value), attr, function)
            attrs[key] = value.value
        shared = int(meta.get("shared", 0))
        if shared > 49152:
            cuda.cuFuncSetAttribute(function, 8, shared)
        blocks = ctypes.c_int()
        rc = cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(blocks), function,
                                                               32 * int(meta["num_warps"]), ctypes.c_size_t(shared))
        attrs["active_blocks_per_sm"] = blocks.value if rc == 0 else None
        attrs["dynamic_shared_bytes"] = shared
        attrs["threads_per_block"] = 32 * int(meta["num_warps"])
        figures[folder] = attrs
        cuda.cuModuleUnload(module)
    return figures


def run_reference(case):
    import torch
    import torch._inductor.config as inductor_config

    inductor_config.triton.persistent_reductions = False
    torch.manual_seed(0)
    dev = "cuda"
    if case == "ref_sum" or case == "coordesc_sum":
        if case == "coordesc_sum":
            inductor_config.coordinate_descent_tuning = True
        x = torch.randn(32768, 8192, device=dev, dtype=torch.float16)
        fn = torch.compile(lambda t: t.float().sum(dim=1))
        args = (x,)
    elif case == "ref_mean_var":
        x = torch.randn(32768, 8192, device=dev, dtype=torch.float16)
        fn = torch.compile(lambda t: torch.var_mean(t.float(), dim=1))
        args = (x,)
    elif case == "ref_log_softmax":
        x = torch.randn(32768, 8192, device=dev, dtype=torch.float16)
        fn = torch.compile(lambda t: torch.log_softmax(t.float(), dim=1))
        args = (x,)
    elif case == "ref_log_softmax_vocab":
        x = torch.randn(20736, 8008, device=dev, dtype=torch.float16)
        fn = torch.compile(lambda t: torch.log_softmax(t.float(), dim=1))
        args = (x,)
    elif case == "ref_layer_norm_bwd":
        a, b, c = (torch.randn(32768, 8192, device=dev, dtype=torch.float16) for _ in range(3))
        fn = torch.compile(lambda p, q, r: ((p.float() * q.float()).sum(dim=1),
                                            (p.float() * q.float() * r.float()).sum(dim=1)))
        args = (a, b, c)
    elif case == "spill_log_softmax":
        x = torch.randn(264, 30000, device=dev, dtype=torch.float32)
        fn = torch.compile(lambda t: torch.log_softmax(t, dim=1))
        args = (x,)
    elif case == "dynamic_log_softmax":
        fn = torch.compile(lambda t: torch.log_softmax(t.float(), dim=1), dynamic=True)
        for rows in (1000, 3000):
            fn(torch.randn(rows, 5000, device=dev, dtype=torch.float16))
        x = torch.randn(3000, 5000, device=dev, dtype=torch.float16)
        return lambda: fn(x)
    elif case == "norms_bwd":  # RMSNorm and LayerNorm forward and backward (bf16)
        hidden = 4096
        x = torch.randn(8192, hidden, device=dev, dtype=torch.bfloat16, requires_grad=True)
        w1 = torch.ones(hidden, device=dev, dtype=torch.bfloat16, requires_grad=True)
        norm = torch.nn.LayerNorm(hidden, device=dev, dtype=torch.bfloat16)

        def model(t):
            rms = t * torch.rsqrt(t.float().pow(2).mean(-1, keepdim=True) + 1e-6).to(t.dtype) * w1
            return norm(rms).float().sum()

        fn = torch.compile(model)

        def step():
            fn(x).backward()
        for _ in range(2):
            step()
        torch.cuda.synchronize()
        return step
    else:
        raise SystemExit(f"unknown case {case}")
    for _ in range(2):
        fn(*args)
    torch.cuda.synchronize()
    return lambda: fn(*args)


def run_model(case):
    import torch
    import transformers as tf

    torch.manual_seed(0)
    batch, seq = 16, 128
    if case == "blenderbot":
        cfg = tf.BlenderbotConfig(decoder_layers=2, encoder_layers=2, is_decoder=True,
                                  is_encoder_decoder=False)
        model = tf.BlenderbotForCausalLM(cfg)
    elif case == "gpt2":
        model = tf.GPT2LMHeadModel(tf.GPT2Config(n_layer=2))
    elif case == "bert":
        model = tf.BertForMaskedLM(tf.BertConfig(num_hidden_layers=2))
    elif case == "t5":
        model = tf.T5ForConditionalGeneration(tf.T5Config(num_layers=2, num_decoder_layers=2,
                                                          decoder_start_token_id=0, pad_token_id=0))
    elif case == "llama":  # a Llama-style 2-layer causal LM (RMSNorm), bf16
        model = tf.LlamaForCausalLM(tf.LlamaConfig(num_hidden_layers=2, hidden_size=1024,
                                                   intermediate_size=2816, num_attention_heads=16,
                                                   num_key_value_heads=16, vocab_size=32000))
    else:
        raise SystemExit(f"unknown case {case}")
    model = model.cuda().train()
    dtype = torch.bfloat16 if case == "llama" else torch.float16
    ids = torch.randint(0, model.config.vocab_size, (batch, seq), device="cuda")
    compiled = torch.compile(model)

    def step():
        with torch.autocast("cuda", dtype=dtype):
            out = compiled(input_ids=ids, labels=ids)
        out.loss.backward()
    for _ in range(2):
        step()
    torch.cuda.synchronize()
    return step


def record_trace(step, outdir):
    """Runs `step` under torch.profiler (one warm-up step, two recorded) and writes the gzipped Chrome
    trace and key_averages()'s per-name totals."""
    import gzip
    import torch
    from torch.profiler import ProfilerActivity, profile, schedule
    path = os.path.join(outdir, "trace.pt.trace.json")
    totals = []

    def ready(prof):
        prof.export_chrome_trace(path)
        for event in prof.key_averages():
            totals.append({
                "name": event.key,
                "count": event.count,
                "device_type": str(event.device_type),
                "device_time_total_us": getattr(event, "device_time_total", None),
                "self_device_time_total_us": getattr(event, "self_device_time_total", None),
            })

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=1, active=2, repeat=1), on_trace_ready=ready) as prof:
        for _ in range(3):
            step()
            torch.cuda.synchronize()
            prof.step()
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)
    with open(os.path.join(outdir, "key_averages.json"), "w") as f:
        json.dump({"steps": 2, "events": totals}, f, indent=0)


def child(case, outdir):
    records = []
    install_observer(records)
    started = time.time()
    if case in ("blenderbot", "gpt2", "bert", "t5", "llama"):
        step = run_model(case)
    else:
        step = run_reference(case)
    seconds = round(time.time() - started, 1)
    record_trace(step, outdir)
    import torch
    import triton
    with open(os.path.join(outdir, "recorded.json"), "w") as f:
        json.dump({
            "case": case,
            "torch": torch.__version__,
            "triton": triton.__version__,
            "gpu": torch.cuda.get_device_name(),
            "seconds": seconds,
            "kernels": records,
            "driver": driver_figures(os.environ["TORCHINDUCTOR_CACHE_DIR"]),
        }, f, indent=1)


# ---------------------------------------------------------------- collecting a case's files
def is_binary(path):
    with open(path, "rb") as f:
        return b"\0" in f.read(4096)


def same_length(placeholder, token):
    return ((placeholder[:-1] + "_" * len(token))[: len(token) - 1] + ">").encode()


def copy_neutral(src, dst, cache):
    """Copies a file with the cache path and Python's site-packages path replaced by placeholders
    (binary files: by a placeholder of the same length, so offsets stay valid)."""
    import site
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    data = open(src, "rb").read()
    replacements = [(cache, PLACEHOLDER)] + [(p, SITE_PLACEHOLDER) for p in site.getsitepackages()]
    binary = is_binary(src)
    for path, placeholder in replacements:
        token = path.encode()
        data = data.replace(token, same_length(placeholder, token) if binary else placeholder.encode())
    with open(dst, "wb") as f:
        f.write(data)


def collect(case, outdir):
    cache = cache_dir_of(case)
    kept = {"modules": 0, "triton": 0}
    keep_hashes = set()
    for root, _, files in os.walk(cache):
        if "/triton/" in root + "/":
            continue
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, cache)
            if name.endswith(".best_config"):
                copy_neutral(path, os.path.join(outdir, rel), cache)
                try:
                    keep_hashes.add(json.load(open(path)).get("triton_cache_hash"))
                except Exception:
                    pass
            elif name.endswith(".py"):
                text = open(path, errors="replace").read()
                if "@triton_heuristics." in text or "def call(args)" in text:
                    copy_neutral(path, os.path.join(outdir, rel), cache)
                    kept["modules"] += 1
    triton_root = os.path.join(cache, "triton")
    for root, _, files in os.walk(triton_root):
        if not any(f.startswith(("triton_red_", "triton_per_")) for f in files):
            continue  # pointwise and template kernels: listed from their modules, not analysed
        for name in files:
            if name.endswith((".llir", ".ttgir")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, cache)
            copy_neutral(path, os.path.join(outdir, rel), cache)
            kept["triton"] += 1
    return kept


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) == 5 and sys.argv[1] == "--rerun":
        cache, outdir, case = (os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), sys.argv[4])
        os.makedirs(outdir, exist_ok=True)
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_COMPILE_THREADS="1")
        env.pop("TRITON_CACHE_DIR", None)
        started = time.time()
        with open(os.path.join(outdir, "log.txt"), "w") as log:
            rc = subprocess.call([sys.executable, os.path.abspath(__file__), "--child", case, outdir],
                                 env=env, cwd=cache, stdout=log, stderr=subprocess.STDOUT)
        print(f"{case}: rerun rc={rc} {time.time() - started:.0f}s", flush=True)
        sys.exit(rc)
    global CACHE_ROOT
    outdir = os.path.abspath(sys.argv[1])
    CACHE_ROOT = outdir.rstrip("/") + "-caches"
    cases = sys.argv[2:] or CASES
    procs = {}
    for case in cases:
        cache = cache_dir_of(case)
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(cache)
        case_out = os.path.join(outdir, case)
        os.makedirs(case_out, exist_ok=True)
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_COMPILE_THREADS="1")
        env.pop("TRITON_CACHE_DIR", None)
        if case == "ref_mean_var":  # also a torch_compile_debug folder (written under the cwd)
            env["TORCH_COMPILE_DEBUG"] = "1"
        log = open(os.path.join(case_out, "log.txt"), "w")
        procs[case] = (subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", case, case_out],
                                        env=env, cwd=cache, stdout=log, stderr=subprocess.STDOUT),
                       time.time())
    for case, (proc, started) in procs.items():
        rc = proc.wait()
        kept = collect(case, os.path.join(outdir, case))
        print(f"{case}: rc={rc} {time.time() - started:.0f}s kept {kept}", flush=True)


if __name__ == "__main__":
    main()
