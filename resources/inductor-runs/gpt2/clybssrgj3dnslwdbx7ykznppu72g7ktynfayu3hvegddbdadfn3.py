
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2048, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_out_ptr1': '*fp32', 'in_ptr0': '*i1', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp16', 'in_ptr5': '*fp32', 'in_ptr6': '*i64', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_add_embedding_dense_backward_native_dropout_native_dropout_backward_native_layer_norm_native_layer_norm_backward_view_11', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1', 'out_ptr2'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': True, 'num_load': 9, 'num_store': 3, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 32768, 'r0_': 42863616}}
)
@triton.jit
def triton_per_fused__to_copy_add_embedding_dense_backward_native_dropout_native_dropout_backward_native_layer_norm_native_layer_norm_backward_view_11(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2048
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 768*x3), r0_mask & xmask, other=0.0).to(tl.int1)
    tmp2 = tl.load(in_out_ptr0 + (r0_2 + 768*x3), r0_mask & xmask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_2 + 768*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
    tmp8 = tl.load(in_ptr2 + (x3), xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr3 + (x3), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr4 + (r0_2 + 768*x3), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp14 = tl.load(in_ptr5 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp25 = tl.load(in_out_ptr1 + (r0_2 + 768*x3), r0_mask & xmask, other=0.0)
    tmp37 = tl.load(in_ptr6 + (x3), xmask, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp4 = tmp2 + tmp3
    tmp5 = tmp1 * tmp4
    tmp6 = tl.full([1, 1], 1.1111111111111112, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp9 = tmp7 - tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp12.to(tl.float32)
    tmp15 = tmp13 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(r0_mask & xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tmp15 * tmp11
    tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(r0_mask & xmask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp26 = tl.full([1, 1], 0.0013020833333333333, tl.float32)
    tmp27 = tmp10 * tmp26
    tmp28 = tl.full([1, 1], 768.0, tl.float32)
    tmp29 = tmp15 * tmp28
    tmp30 = tmp29 - tmp19
    tmp31 = tmp11 * tmp24
    tmp32 = tmp30 - tmp31
    tmp33 = tmp27 * tmp32
    tmp34 = tmp25 + tmp33
    tmp35 = tmp1 * tmp6
    tmp36 = tmp34 * tmp35
    tmp38 = tl.full([1, 1], 50257, tl.int32)
    tmp39 = tmp37 + tmp38
    tmp40 = tmp37 < 0
    tmp41 = tl.where(tmp40, tmp39, tmp37)
    tl.device_assert(((0 <= tmp41) & (tmp41 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp41 < 50257")
    tmp43 = tl.full([1, 1], -1, tl.int64)
    tmp44 = tmp37 == tmp43
    tmp45 = tl.full([1, 1], 0.0, tl.float32)
    tmp46 = tl.where(tmp44, tmp45, tmp36)
    tl.store(in_out_ptr0 + (r0_2 + 768*x3), tmp11, r0_mask & xmask)
    tl.store(in_out_ptr1 + (r0_2 + 768*x3), tmp36, r0_mask & xmask)
    tl.atomic_add(out_ptr2 + (tl.broadcast_to(r0_2 + 768*tmp41, [XBLOCK, R0_BLOCK])), tmp46, r0_mask & xmask, sem='relaxed')
