
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16384, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i1', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp16', 'in_ptr5': '*i1', 'out_ptr0': '*fp32', 'out_ptr1': '*fp16', 'out_ptr2': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__safe_softmax__softmax_backward_data__to_copy_add_arange_expand_le_native_dropout_native_dropout_backward_permute_scalar_tensor_transpose_unsqueeze_view_where_15', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 4, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 196608, 'r0_': 56623104}}
)
@triton.jit
def triton_red_fused__safe_softmax__softmax_backward_data__to_copy_add_arange_expand_le_native_dropout_native_dropout_backward_permute_scalar_tensor_transpose_unsqueeze_view_where_15(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16384
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x4), None, eviction_policy='evict_last').to(tl.int1)
    x0 = (xindex % 128)
    x1 = ((xindex // 128) % 8)
    tmp11 = tl.load(in_ptr2 + (x4), None, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr3 + (x4), None, eviction_policy='evict_last')
    _tmp27 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp1 = tl.load(in_out_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp5 = tl.load(in_ptr1 + (x1 + 8*r0_3 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp18 = tl.load(in_ptr4 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp20 = tl.load(in_ptr5 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp2 = r0_3
        tmp3 = x0
        tmp4 = tmp2 <= tmp3
        tmp6 = tl.full([1, 1], -65504.0, tl.float32)
        tmp7 = tl.where(tmp4, tmp5, tmp6)
        tmp8 = tmp7.to(tl.float32)
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tmp1 + tmp9
        tmp12 = tmp10 - tmp11
        tmp13 = libdevice.exp(tmp12)
        tmp15 = (tmp13 / tmp14)
        tmp16 = tl.full([1, 1], 0.0, tl.float32)
        tmp17 = tl.where(tmp0, tmp16, tmp15)
        tmp19 = tmp18.to(tl.float32)
        tmp21 = tmp20.to(tl.float32)
        tmp22 = tl.full([1, 1], 1.1111111111111112, tl.float32)
        tmp23 = tmp21 * tmp22
        tmp24 = tmp19 * tmp23
        tmp25 = tmp24 * tmp17
        tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
        tmp28 = _tmp27 + tmp26
        _tmp27 = tl.where(r0_mask, tmp28, _tmp27)
        tmp29 = tmp21 * tmp17
        tmp30 = tmp29 * tmp22
        tmp31 = tmp30.to(tl.float32)
        tl.store(in_out_ptr0 + (r0_3 + 128*x4), tmp17, r0_mask)
        tl.store(out_ptr1 + (r0_3 + 128*x4), tmp31, r0_mask)
    tmp27 = tl.sum(_tmp27, 1)[:, None]
    tl.store(out_ptr0 + (x4), tmp27, None)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp32 = tl.load(in_out_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp34 = tl.load(in_ptr4 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp36 = tl.load(in_ptr5 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.int1)
        tmp33 = -tmp32
        tmp35 = tmp34.to(tl.float32)
        tmp37 = tmp36.to(tl.float32)
        tmp38 = tl.full([1, 1], 1.1111111111111112, tl.float32)
        tmp39 = tmp37 * tmp38
        tmp40 = tmp35 * tmp39
        tmp41 = tmp40 * tmp32
        tmp42 = tl.fma(tmp33, tmp27, tmp41)
        tmp43 = tmp42.to(tl.float32)
        tl.store(out_ptr2 + (r0_3 + 128*x4), tmp43, r0_mask)
