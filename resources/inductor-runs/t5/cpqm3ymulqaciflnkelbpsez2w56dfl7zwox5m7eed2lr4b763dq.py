
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i1', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'out_ptr4': '*i1', 'out_ptr5': '*fp32', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__safe_softmax__to_copy_add_exp_expand_native_dropout_permute_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_14', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 128, 'r0_': 46137344}}
)
@triton.jit
def triton_red_fused__safe_softmax__to_copy_add_exp_expand_native_dropout_permute_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_14(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr4, out_ptr5, load_seed_offset, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    x0 = (xindex % 128)
    tmp1 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last').to(tl.int1)
    x1 = ((xindex // 128) % 8)
    _tmp9_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp9_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    _tmp17 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp2 = tl.load(in_ptr1 + (x1 + 8*r0_3 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.full([1, 1], -65504.0, tl.float32)
        tmp4 = tl.where(tmp1, tmp2, tmp3)
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tmp5.to(tl.float32)
        tmp7 = tmp0 + tmp6
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])

        _tmp9_max_next, _tmp9_sum_next = triton_helpers.online_softmax_combine(
            _tmp9_max, _tmp9_sum, tmp8, False
        )

        _tmp9_max = tl.where(r0_mask, _tmp9_max_next, _tmp9_max)
        _tmp9_sum = tl.where(r0_mask, _tmp9_sum_next, _tmp9_sum)
        tmp11 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp12 = tmp7 == tmp11
        tmp13 = tmp12 == 0
        tmp14 = tmp13.to(tl.int64)
        tmp15 = (tmp14 != 0)
        tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
        tmp18 = _tmp17 | tmp16
        _tmp17 = tl.where(r0_mask, tmp18, _tmp17)
        tmp20 = tl.load(in_ptr2 + load_seed_offset)
        tmp21 = r0_3 + 128*x4
        tmp22 = tl.rand(tmp20, (tmp21).to(tl.uint32))
        tmp23 = tl.full([1, 1], 0.1, tl.float32)
        tmp24 = tmp22 > tmp23
        tl.store(out_ptr4 + (r0_3 + 128*x4), tmp24, r0_mask)

    tmp9, tmp10 = triton_helpers.online_softmax_reduce(
        _tmp9_max, _tmp9_sum, 1, False)
    tmp9 = tmp9[:, None]
    tmp10 = tmp10[:, None]
    tmp19 = _tmp17.to(tl.int8)
    tmp17 = triton_helpers.any(tmp19, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp26 = tl.load(in_out_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp27 = tl.load(in_ptr1 + (x1 + 8*r0_3 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp38 = tl.load(out_ptr4 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.int1)
        tmp25 = tmp17 == 0
        tmp28 = tl.full([1, 1], -65504.0, tl.float32)
        tmp29 = tl.where(tmp1, tmp27, tmp28)
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tmp30.to(tl.float32)
        tmp32 = tmp26 + tmp31
        tmp33 = tmp32 - tmp9
        tmp34 = libdevice.exp(tmp33)
        tmp35 = (tmp34 / tmp10)
        tmp36 = tl.full([1, 1], 0.0, tl.float32)
        tmp37 = tl.where(tmp25, tmp36, tmp35)
        tmp39 = tmp38.to(tl.float32)
        tmp40 = tmp39 * tmp37
        tmp41 = tl.full([1, 1], 1.1111111111111112, tl.float32)
        tmp42 = tmp40 * tmp41
        tl.store(in_out_ptr0 + (r0_3 + 128*x4), tmp37, r0_mask)
        tl.store(out_ptr5 + (r0_3 + 128*x4), tmp42, r0_mask)
