#!/usr/bin/env python3
"""Compiles an Inductor kernel module at configs Inductor did not pick, with the local PyTorch and
Triton, into a Triton cache folder that `occx inductor scan/run` reads beside the kernel's own.

    python3 scripts/triton-compile-configs.py MODULE.py CACHE_DIR XBLOCK:R0_BLOCK:NUM_WARPS[:NUM_STAGES] ...

MODULE.py is a kernel module from an Inductor cache; CACHE_DIR the Triton cache to write
(e.g. <run>/triton/0). Prints one JSON line per compiled config: the config, n_regs, n_spills and
shared memory as Triton reports them. Needs a GPU of the kernel's architecture (Inductor loads each
compiled kernel to count its registers).
"""
import importlib.util
import json
import os
import sys


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    module_path, cache_dir = sys.argv[1], sys.argv[2]
    os.makedirs(cache_dir, exist_ok=True)
    os.environ["TRITON_CACHE_DIR"] = os.path.abspath(cache_dir)
    import triton
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    spec = importlib.util.spec_from_file_location("occx_kernel_module", module_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    kernels = [v for v in vars(mod).values() if isinstance(v, CachingAutotuner)]
    if len(kernels) != 1:
        print(f"{module_path}: expected one Inductor kernel, found {len(kernels)}", file=sys.stderr)
        return 1
    kernel = kernels[0]
    configs = []
    for text in sys.argv[3:]:
        parts = [int(p) for p in text.split(":")]
        if len(parts) not in (3, 4):
            print(f"config '{text}': expected XBLOCK:R0_BLOCK:NUM_WARPS[:NUM_STAGES]", file=sys.stderr)
            return 2
        kwargs = {"XBLOCK": parts[0], "R0_BLOCK": parts[1]}
        configs.append(triton.Config(kwargs, num_warps=parts[2], num_stages=parts[3] if len(parts) == 4 else 1))
    kernel.configs = configs
    kernel.inductor_meta = dict(kernel.inductor_meta, dynamic_scale_rblock=False)
    kernel.precompile()
    for launcher in kernel.launchers:
        print(json.dumps({"config": dict(launcher.config.kwargs, num_warps=launcher.config.num_warps,
                                         num_stages=launcher.config.num_stages),
                          "n_regs": launcher.n_regs, "n_spills": launcher.n_spills, "shared": launcher.shared}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
