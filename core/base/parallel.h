// A small fixed pool of worker threads for independent items (parallel compilation in sweeps).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace occx {

/// Runs fn(i) for every i in [0, count) on `threads` worker threads (values < 1 mean 1; never more
/// threads than items). Items start in index order, each on whichever worker is free; the call
/// returns when every started item has finished. When `cancel` becomes true, no further item starts
/// (items already running finish). `fn` must not throw (core reports errors as values); if it does
/// anyway, the first exception is rethrown here after all workers have stopped.
/// Returns the number of items that ran.
std::size_t parallelFor(std::size_t count, int threads, const std::function<void(std::size_t)>& fn,
                        const std::atomic<bool>* cancel = nullptr);

/// Worker threads to use by default: the hardware's concurrency (at least 1).
int defaultWorkerThreads();

}  // namespace occx
