
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 65536, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_add_mul_pow_sum_tanh_tanh_backward_view_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 50724864, 'r0_': 0}}
)
@triton.jit
def triton_red_fused__to_copy_add_mul_pow_sum_tanh_tanh_backward_view_3(in_out_ptr0, in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 49152
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 3072)
    x1 = xindex // 3072
    _tmp35 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (x0 + 3072*r0_2 + 393216*x1), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr0 + (x0 + 3072*r0_2 + 393216*x1), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp3 = tl.full([1, 1], 0.5, tl.float32)
        tmp4 = tmp2 * tmp3
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tmp1 * tmp5
        tmp7 = tmp2.to(tl.float32)
        tmp8 = tmp7 * tmp7
        tmp9 = tmp8 * tmp7
        tmp10 = tl.full([1, 1], 0.044715, tl.float32)
        tmp11 = tmp9 * tmp10
        tmp12 = tmp7 + tmp11
        tmp13 = tl.full([1, 1], 0.7978845608028654, tl.float32)
        tmp14 = tmp12 * tmp13
        tmp15 = libdevice.tanh(tmp14)
        tmp16 = tmp15 * tmp15
        tmp17 = tl.full([1, 1], 1.0, tl.float32)
        tmp18 = tmp17 - tmp16
        tmp19 = tmp6 * tmp18
        tmp20 = tmp19 * tmp13
        tmp21 = tmp20.to(tl.float32)
        tmp22 = tmp20 * tmp10
        tmp23 = tl.full([1, 1], 3.0, tl.float32)
        tmp24 = tmp8 * tmp23
        tmp25 = tmp22 * tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp21 + tmp26
        tmp28 = tmp15 + tmp17
        tmp29 = tmp1 * tmp28
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tmp30 * tmp3
        tmp32 = tmp27 + tmp31
        tmp33 = tmp32.to(tl.float32)
        tmp34 = tl.broadcast_to(tmp33, [XBLOCK, R0_BLOCK])
        tmp36 = _tmp35 + tmp34
        _tmp35 = tl.where(r0_mask, tmp36, _tmp35)
        tl.store(in_out_ptr0 + (x0 + 3072*r0_2 + 393216*x1), tmp32, r0_mask)
    tmp35 = tl.sum(_tmp35, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp35, None)
