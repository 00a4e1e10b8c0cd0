
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
    triton_meta={'signature': {'in_out_ptr0': '*i1', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr3': '*i1', 'out_ptr4': '*fp32', 'load_seed_offset': 'constexpr', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'load_seed_offset': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__safe_softmax__to_copy_add_arange_exp_expand_le_native_dropout_permute_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': False, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 5, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 32768, 'r0_': 29360128}}
)
@triton.jit
def triton_red_fused__safe_softmax__to_copy_add_arange_exp_expand_le_native_dropout_permute_prepare_softmax_online_scalar_tensor_sub_unsqueeze_view_where_9(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr3, out_ptr4, load_seed_offset, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
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
    x1 = ((xindex // 128) % 8)
    _tmp11_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp11_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    _tmp19 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp4 = tl.load(in_ptr1 + (x1 + 8*r0_3 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = r0_3
        tmp2 = x0
        tmp3 = tmp1 <= tmp2
        tmp5 = tl.full([1, 1], -65504.0, tl.float32)
        tmp6 = tl.where(tmp3, tmp4, tmp5)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tmp7.to(tl.float32)
        tmp9 = tmp0 + tmp8
        tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])

        _tmp11_max_next, _tmp11_sum_next = triton_helpers.online_softmax_combine(
            _tmp11_max, _tmp11_sum, tmp10, False
        )

        _tmp11_max = tl.where(r0_mask, _tmp11_max_next, _tmp11_max)
        _tmp11_sum = tl.where(r0_mask, _tmp11_sum_next, _tmp11_sum)
        tmp13 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp14 = tmp9 == tmp13
        tmp15 = tmp14 == 0
        tmp16 = tmp15.to(tl.int64)
        tmp17 = (tmp16 != 0)
        tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
        tmp20 = _tmp19 | tmp18
        _tmp19 = tl.where(r0_mask, tmp20, _tmp19)

    tmp11, tmp12 = triton_helpers.online_softmax_reduce(
        _tmp11_max, _tmp11_sum, 1, False)
    tmp11 = tmp11[:, None]
    tmp12 = tmp12[:, None]
    tmp21 = _tmp19.to(tl.int8)
    tmp19 = triton_helpers.any(tmp21, 1)[:, None]
    tl.store(out_ptr0 + (x4), tmp11, None)
    tl.store(out_ptr1 + (x4), tmp12, None)
    tmp22 = tmp19 == 0
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x4), tmp22, None)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_3 = r0_index
        tmp29 = tl.load(in_ptr0 + (r0_3 + 128*x4), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp33 = tl.load(in_ptr1 + (x1 + 8*r0_3 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp23 = tl.load(in_ptr2 + load_seed_offset)
        tmp24 = r0_3 + 128*x4
        tmp25 = tl.rand(tmp23, (tmp24).to(tl.uint32))
        tmp26 = tl.full([1, 1], 0.1, tl.float32)
        tmp27 = tmp25 > tmp26
        tmp28 = tmp27.to(tl.float32)
        tmp30 = r0_3
        tmp31 = x0
        tmp32 = tmp30 <= tmp31
        tmp34 = tl.full([1, 1], -65504.0, tl.float32)
        tmp35 = tl.where(tmp32, tmp33, tmp34)
        tmp36 = tmp35.to(tl.float32)
        tmp37 = tmp36.to(tl.float32)
        tmp38 = tmp29 + tmp37
        tmp39 = tmp38 - tmp11
        tmp40 = libdevice.exp(tmp39)
        tmp41 = (tmp40 / tmp12)
        tmp42 = tl.full([1, 1], 0.0, tl.float32)
        tmp43 = tl.where(tmp22, tmp42, tmp41)
        tmp44 = tmp28 * tmp43
        tmp45 = tl.full([1, 1], 1.1111111111111112, tl.float32)
        tmp46 = tmp44 * tmp45
        tl.store(out_ptr3 + (r0_3 + 128*x4), tmp27, r0_mask)
        tl.store(out_ptr4 + (r0_3 + 128*x4), tmp46, r0_mask)
