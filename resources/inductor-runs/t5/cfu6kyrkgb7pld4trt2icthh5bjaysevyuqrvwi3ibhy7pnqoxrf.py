
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 131072, 'r0_': 16},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp16', 'in_ptr3': '*i1', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp16', 'in_ptr7': '*i1', 'in_ptr8': '*i64', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax_backward_data__to_copy_add_arange_embedding_dense_backward_expand_le_native_dropout_backward_permute_scalar_tensor_squeeze_sum_unsqueeze_view_where_17', 'mutated_arg_names': ['out_ptr2'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 9, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 29491200, 'r0_': 0}}
)
@triton.jit
def triton_per_fused__softmax_backward_data__to_copy_add_arange_embedding_dense_backward_expand_le_native_dropout_backward_permute_scalar_tensor_squeeze_sum_unsqueeze_view_where_17(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 131072
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    x0 = (xindex % 128)
    x1 = ((xindex // 128) % 128)
    r0_3 = r0_index
    x5 = xindex
    x6 = xindex // 128
    x4 = (xindex % 16384)
    x2 = xindex // 16384
    tmp3 = tl.load(in_ptr0 + (x5 + 131072*r0_3), None)
    tmp5 = tl.load(in_ptr1 + (x6 + 1024*r0_3), None, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr2 + (x5 + 131072*r0_3), None).to(tl.float32)
    tmp8 = tl.load(in_ptr3 + (x5 + 131072*r0_3), None).to(tl.int1)
    tmp20 = tl.load(in_ptr4 + (x5 + 131072*r0_3), None)
    tmp22 = tl.load(in_ptr5 + (x6 + 1024*r0_3), None, eviction_policy='evict_last')
    tmp23 = tl.load(in_ptr6 + (x5 + 131072*r0_3), None).to(tl.float32)
    tmp25 = tl.load(in_ptr7 + (x5 + 131072*r0_3), None).to(tl.int1)
    tmp35 = tl.load(in_ptr8 + (x4), None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 <= tmp1
    tmp4 = -tmp3
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tl.full([1, 1], 1.1111111111111112, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = tmp7 * tmp11
    tmp13 = tmp12 * tmp3
    tmp14 = tl.fma(tmp4, tmp5, tmp13)
    tmp15 = tl.full([1, 1], 0.0, tl.float32)
    tmp16 = tl.where(tmp2, tmp14, tmp15)
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp21 = -tmp20
    tmp24 = tmp23.to(tl.float32)
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp26 * tmp10
    tmp28 = tmp24 * tmp27
    tmp29 = tmp28 * tmp20
    tmp30 = tl.fma(tmp21, tmp22, tmp29)
    tmp31 = tl.where(tmp2, tmp30, tmp15)
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp34 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tmp36 = tl.full([1, 1], 32, tl.int32)
    tmp37 = tmp35 + tmp36
    tmp38 = tmp35 < 0
    tmp39 = tl.where(tmp38, tmp37, tmp35)
    tl.device_assert((0 <= tmp39) & (tmp39 < 32), "index out of bounds: 0 <= tmp39 < 32")
    tmp41 = tl.full([1, 1], -1, tl.int64)
    tmp42 = tmp35 == tmp41
    tmp43 = tmp19 + tmp34
    tmp44 = tl.where(tmp42, tmp15, tmp43)
    tl.atomic_add(out_ptr2 + (x2 + 8*tmp39), tmp44, None, sem='relaxed')
