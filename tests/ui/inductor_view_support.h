// Helpers of the Inductor run view's tests: the recorded runs' paths, a scan that waits for its
// end, and a config's row in the configs table.
#pragma once

#include <QObject>
#include <QString>

#include <gtest/gtest.h>

#include "ui/models/inductor_run_models.h"
#include "ui/views/inductor_run_view.h"
#include "ui_test_support.h"

namespace occx::ui {

/// <build>/test-data/inductor/<name>.
inline QString inductorFixture(const char* name) {
  return QStringLiteral(OCCX_INDUCTOR_FIXTURES_DIR "/") + QLatin1String(name);
}

/// Opens `path` in `view` and waits for its scan to end (20 s at most).
inline bool scanAndWait(InductorRunView& view, const QString& path) {
  bool done = false;
  QObject::connect(
      &view, &InductorRunView::scanFinished, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(view.openPath(path).isEmpty());
  return waitFor([&] { return done; }, 20000);
}

/// The configs table's row of `config` ("X1 R2048 w16"), -1 when none.
inline int configRowOf(const InductorRunView& view, const QString& config) {
  for (int r = 0; r < view.configModel()->numRows(); ++r) {
    if (shortConfigText(*view.configModel()->row(r)) == config) return r;
  }
  return -1;
}

}  // namespace occx::ui
