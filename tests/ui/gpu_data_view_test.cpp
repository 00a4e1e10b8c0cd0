// The GPU data table off-screen: every limit with its source, the search filter, the CSV export of
// the rows shown, and the search remembered.
#include <gtest/gtest.h>

#include <QLineEdit>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>

#include "ui/views/gpu_data_view.h"

namespace occx::ui {
namespace {

TEST(GpuDataView, ShowsEveryLimitWithItsSourceAndFilters) {
  GpuDataView view;
  const int all = view.shownRows();
  // In the file's order: CC 5.0 first.
  EXPECT_EQ(view.tableView()->model()->index(0, 0).data().toString(), QStringLiteral("CC 5.0 (Maxwell)"));
  // 17 limits for each of the data's compute capabilities, then the GPUs' figures.
  const int archs = static_cast<int>(GpuDatabase::builtin().architectures().size());
  EXPECT_GT(all, 17 * archs);
  view.searchEdit()->setText(QStringLiteral("gpc_sm_counts"));
  ASSERT_EQ(view.shownRows(), 1);  // only the H200 has a recorded layout
  auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 1u);
  ASSERT_EQ(exports[0].table.rows.size(), 1u);
  const auto& row = exports[0].table.rows[0];
  EXPECT_EQ(row[0], "H200");
  EXPECT_EQ(row[4], "18 18 16 16 16 16 16 8 2 2 2 2");
  EXPECT_EQ(row[5].rfind("DRV", 0), 0u);
  EXPECT_EQ(exports[0].table.metaValue("search"), "gpc_sm_counts");

  // Case-insensitive, on every column: CC 9.0's barriers limit and its source.
  view.searchEdit()->setText(QStringLiteral("cudaoccmaxblockspersmblockbarrierlimit"));
  EXPECT_EQ(view.shownRows(), archs);
  view.searchEdit()->clear();
  EXPECT_EQ(view.shownRows(), all);
  EXPECT_NE(view.statusSummary().indexOf(QString::number(all)), -1);
}

TEST(GpuDataView, RemembersTheSearch) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings settings(dir.filePath(QStringLiteral("g.ini")), QSettings::IniFormat);
  {
    GpuDataView view;
    view.searchEdit()->setText(QStringLiteral("Hopper"));
    view.saveSettings(settings);
  }
  GpuDataView restored;
  restored.restoreSettings(settings);
  EXPECT_EQ(restored.searchEdit()->text(), QStringLiteral("Hopper"));
  EXPECT_EQ(restored.shownRows(), 17);  // CC 9.0's limits
}

}  // namespace
}  // namespace occx::ui
