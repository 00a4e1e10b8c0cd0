#!/usr/bin/env python3
"""Compiles one Inductor kernel module at the configs asked for, with this Python's PyTorch and
Triton, into a Triton cache folder; needs no GPU.

    python3 triton_compile_configs.py REQUEST.json

REQUEST.json: {"module": "<path>/<module hash>.py", "cache_dir": "<Triton cache folder>",
               "configs": [{"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 16, "num_stages": 1}, ...]}

Writes one JSON object per line on standard output:
  {"event": "start", "python": ..., "torch": ..., "triton": ..., "kernel": ..., "target": "cuda:90"}
  {"event": "config", "index": i, "config": {...as asked}, "ok": true, "seconds": s, "how": "inductor" | "triton.compile",
   "triton_cache_hash": ..., "folder": ..., "shared": bytes, "num_warps": ..., "num_stages": ...}
  {"event": "config", "index": i, "config": {...}, "ok": false, "seconds": s, "error": "..."}
  {"event": "done", "seconds": s}
or, when this Python cannot compile at all, {"event": "error", "missing": "torch" | "triton" | "",
"error": "..."} and exit status 3.

The compile is Inductor's own (CachingAutotuner._precompile_config: the module's triton_meta, its
target compute capability, Inductor's options), so a config Inductor compiled lands in a folder of
the same name; in a PyTorch without that method, triton.compile with the same signature, constants
and target. Shipped inside occupancy-explorer, which writes it to a temporary folder and runs it.
"""
import importlib.util
import json
import os
import sys
import time


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def fail(missing, text):
    emit({"event": "error", "missing": missing, "error": text})
    return 3


def without_gpu_driver_check(triton_helpers):
    """Inductor's modules call set_driver_to_gpu() at import; without a GPU it finds no active
    backend. Compiling for an explicit target needs no driver, so make it a no-op then."""
    original = getattr(triton_helpers, "set_driver_to_gpu", None)
    if original is None:
        return

    def tolerant():
        try:
            original()
        except Exception:  # noqa: BLE001 - no GPU: nothing to set
            pass

    triton_helpers.set_driver_to_gpu = tolerant


def cache_folder(binary, cache_dir):
    """The Triton cache folder of a compiled kernel: asked of Triton's cache manager, else the
    folder under cache_dir whose <name>.json records the same hash."""
    try:
        from triton.runtime.cache import get_cache_manager
        folder = get_cache_manager(binary.hash).cache_dir
        if os.path.isdir(folder):
            return folder
    except Exception:  # noqa: BLE001 - other Triton versions
        pass
    name = binary.metadata.name if hasattr(binary.metadata, "name") else ""
    for entry in os.listdir(cache_dir):
        meta = os.path.join(cache_dir, entry, name + ".json")
        try:
            with open(meta) as f:
                if json.load(f).get("hash") == binary.hash:
                    return os.path.join(cache_dir, entry)
        except (OSError, ValueError):
            continue
    return ""


def device_of(kernel):
    """The DeviceProperties the module targets (Inductor keeps them as device_props and leaves
    the device index in triton_meta)."""
    device = getattr(kernel, "device_props", None)
    return device if device is not None else kernel.triton_meta.get("device")


def compile_direct(kernel, cfg):
    """triton.compile with the module's signature, constants and target, as Inductor passes them."""
    import copy
    import triton
    from triton.compiler.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    meta = copy.deepcopy(kernel.triton_meta)
    constants = dict(meta.get("constants", {}))
    for k, v in cfg.kwargs.items():
        constants[k] = v
    device = device_of(kernel)
    attrs = meta.get("configs", [None])[0] if meta.get("configs") else None
    src = ASTSource(kernel.fn, meta["signature"], constants, attrs)
    target = GPUTarget(device.type, device.cc, 32)
    options = {"num_warps": cfg.num_warps, "num_stages": cfg.num_stages, "debug": False, "sanitize_overflow": False}
    return triton.compile(src, target=target, options=options)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        request = json.load(f)
    cache_dir = os.path.abspath(request["cache_dir"])
    os.makedirs(cache_dir, exist_ok=True)
    os.environ["TRITON_CACHE_DIR"] = cache_dir
    sys.dont_write_bytecode = True
    t_start = time.monotonic()
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - ImportError and broken installs alike
        return fail("torch", f"{type(e).__name__}: {e}")
    try:
        import triton
    except Exception as e:  # noqa: BLE001
        return fail("triton", f"{type(e).__name__}: {e}")
    try:
        from torch._inductor.runtime import triton_helpers
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
        try:
            # The static launcher would load the cubin; a compile needs none of it.
            import torch._inductor.config as inductor_config
            inductor_config.use_static_cuda_launcher = False
        except Exception:  # noqa: BLE001
            pass
        without_gpu_driver_check(triton_helpers)
    except Exception as e:  # noqa: BLE001
        return fail("", f"this PyTorch has no Inductor runtime: {type(e).__name__}: {e}")

    module_path = request["module"]
    try:
        spec = importlib.util.spec_from_file_location("occx_kernel_module", module_path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001
        return fail("", f"{module_path}: cannot import the kernel module: {type(e).__name__}: {e}")
    kernels = [v for v in vars(mod).values() if isinstance(v, CachingAutotuner)]
    if len(kernels) != 1:
        return fail("", f"{module_path}: expected one Inductor kernel, found {len(kernels)}")
    kernel = kernels[0]
    device = device_of(kernel)
    emit({"event": "start", "python": sys.version.split()[0], "torch": torch.__version__, "triton": triton.__version__,
          "kernel": kernel.fn.__name__, "target": f"{getattr(device, 'type', '?')}:{getattr(device, 'cc', '?')}",
          "gpu": bool(torch.cuda.is_available()), "import_seconds": time.monotonic() - t_start})

    own_compile = hasattr(kernel, "_precompile_config")
    for index, c in enumerate(request["configs"]):
        t0 = time.monotonic()
        try:
            kwargs = {k: v for k, v in c.items() if k not in ("num_warps", "num_stages")}
            cfg = triton.Config(kwargs, num_warps=c["num_warps"], num_stages=c.get("num_stages", 1))
            if own_compile:
                how = "inductor"
                result = kernel._precompile_config(cfg)
                binary = getattr(result, "kernel", result)
            else:  # another PyTorch: compile as Inductor would
                how = "triton.compile"
                binary = compile_direct(kernel, cfg)
            meta = binary.metadata
            folder = cache_folder(binary, cache_dir)
            emit({"event": "config", "index": index, "config": c, "ok": True, "seconds": time.monotonic() - t0, "how": how,
                  "triton_cache_hash": os.path.basename(folder), "folder": folder, "shared": int(getattr(meta, "shared", 0)),
                  "num_warps": int(getattr(meta, "num_warps", cfg.num_warps)),
                  "num_stages": int(getattr(meta, "num_stages", cfg.num_stages))})
        except Exception as e:  # noqa: BLE001 - one failing config is a row, not the end
            text = f"{type(e).__name__}: {e}".strip().splitlines()
            emit({"event": "config", "index": index, "config": c, "ok": False, "seconds": time.monotonic() - t0,
                  "error": " ".join(line.strip() for line in text)[:600]})
    emit({"event": "done", "seconds": time.monotonic() - t_start})
    return 0


if __name__ == "__main__":
    sys.exit(main())
