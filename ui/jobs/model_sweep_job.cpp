#include "ui/jobs/model_sweep_job.h"

#include <optional>
#include <utility>

#include "core/triton/sweep_cache.h"

namespace occx::ui {

namespace {

/// A model sweep's result with the run its targets point into.
struct SweptStep {
  std::shared_ptr<const triton::InductorRun> run;
  step::ModelSweepResult result;
};

}  // namespace

ModelSweepJob::ModelSweepJob(QObject* parent) : Job(parent) {}

quint64 ModelSweepJob::start(const std::shared_ptr<Backend>& backend, int ordinal,
                             std::shared_ptr<const triton::InductorRun> run, step::ModelSweepPlan plan,
                             step::ModelSweepOptions options, const std::string& cache_dir) {
  auto shared_plan = std::make_shared<const step::ModelSweepPlan>(std::move(plan));
  auto cache = cache_dir.empty() ? nullptr : std::make_shared<triton::SweepCache>(cache_dir);
  return launch([this, backend, ordinal, run = std::move(run), shared_plan, options, cache](
                    quint64 id, const std::atomic<bool>* cancel) mutable {
    options.sweep.cache = cache.get();
    auto report = [&](const step::ModelSweepProgress& p) { post(id, [this, id, p] { emit progress(id, p); }); };
    std::optional<step::ModelSweepResult> result;
    std::optional<Error> error = withRunnerOrNone(
        backend, ordinal,
        [&](GpuRunner* runner) { result = step::sweepModel(*shared_plan, options, runner, report, cancel); },
        "the sweep");
    if (!error && !result) error = Error{"the sweep did not run"};
    if (error) {
      const QString message = QString::fromStdString(error->message);
      postEnd(id, [this, id, message] { emit failed(id, message); });
      return;
    }
    // The result's targets point into the run: the run lives as long as the result does.
    auto kept = std::make_shared<SweptStep>(SweptStep{run, std::move(*result)});
    std::shared_ptr<const step::ModelSweepResult> shared(kept, &kept->result);
    postEnd(id, [this, id, shared] { emit finished(id, shared); });
  });
}

}  // namespace occx::ui
