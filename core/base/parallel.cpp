#include "core/base/parallel.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace occx {

std::size_t parallelFor(std::size_t count, int threads, const std::function<void(std::size_t)>& fn,
                        const std::atomic<bool>* cancel) {
  if (count == 0) return 0;
  const auto workers =
      static_cast<std::size_t>(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, count));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> ran{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto work = [&] {
    for (;;) {
      if (cancel != nullptr && cancel->load()) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
      }
      ran.fetch_add(1);
    }
  };
  if (workers == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(workers);
    for (std::size_t t = 0; t < workers; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  if (first_error) std::rethrow_exception(first_error);
  return ran.load();
}

int defaultWorkerThreads() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace occx
