// The status bar's labels: text cut after a whole word with "…" and the whole text in the tooltip,
// never cut mid-word, and a minimum width of a few letters (so the widgets beside them keep theirs).
#include <gtest/gtest.h>

#include <QApplication>
#include <QFontMetrics>

#include "ui/widgets/elided_label.h"

namespace occx::ui {
namespace {

const QString kLine = QStringLiteral(
    "H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared memory · occupancy 100.0 % (64 of 64 "
    "warps), limited by threads and blocks");

TEST(ElideAtWord, WholeWhenItFits) {
  const QFontMetrics m(QApplication::font());
  EXPECT_EQ(elideAtWord(kLine, m, m.horizontalAdvance(kLine)), kLine);
}

TEST(ElideAtWord, CutsAfterAWholeWord) {
  const QFontMetrics m(QApplication::font());
  const QString ellipsis(QChar(0x2026));
  for (const QString& cut_inside : {QStringLiteral("limited b"), QStringLiteral("occupancy 10"),
                                    QStringLiteral("H100 SXM5 (CC 9.0, 13"), QStringLiteral("256 thr")}) {
    SCOPED_TRACE(cut_inside.toStdString());
    const int at = static_cast<int>(kLine.indexOf(cut_inside)) + static_cast<int>(cut_inside.size());
    const int width = m.horizontalAdvance(kLine.left(at) + ellipsis);
    const QString shown = elideAtWord(kLine, m, width);
    ASSERT_TRUE(shown.endsWith(ellipsis)) << shown.toStdString();
    EXPECT_LE(m.horizontalAdvance(shown), width);
    const QString kept = shown.chopped(1);
    ASSERT_TRUE(kLine.startsWith(kept)) << shown.toStdString();
    // What follows the kept text in the line is a separator: no word is cut.
    const QChar next = kLine.at(kept.size());
    EXPECT_TRUE(next.isSpace() || next == QLatin1Char(',') || next == QChar(0x00B7)) << shown.toStdString();
    EXPECT_FALSE(kept.endsWith(QLatin1Char(' ')));
  }
  // "limited b…" was the newcomer's cut: it is "limited…" now.
  const int at = static_cast<int>(kLine.indexOf(QStringLiteral("limited b"))) + 9;
  EXPECT_TRUE(
      elideAtWord(kLine, m, m.horizontalAdvance(kLine.left(at) + ellipsis)).endsWith(QStringLiteral("limited…")));
}

TEST(ElideAtWord, OneLongWordIsCutWhereItMust) {
  const QFontMetrics m(QApplication::font());
  const QString word = QStringLiteral("triton_red_fused_native_layer_norm_0");
  const QString shown = elideAtWord(word, m, m.horizontalAdvance(word) / 2);
  EXPECT_TRUE(shown.endsWith(QChar(0x2026)));
  EXPECT_GT(shown.size(), 3);
  EXPECT_TRUE(elideAtWord(word, m, 1).isEmpty());
}

TEST(ElidedLabel, ShowsTheWholeTextInItsTooltipWhileCut) {
  QWidget window;
  auto* label = new ElidedLabel(&window);
  label->setFullText(kLine);
  window.resize(300, 40);
  label->setGeometry(0, 0, 300, 30);
  window.show();
  QApplication::processEvents();
  EXPECT_TRUE(label->isElided());
  EXPECT_EQ(label->toolTip(), kLine);
  EXPECT_EQ(label->fullText(), kLine);
  EXPECT_LE(label->fontMetrics().horizontalAdvance(label->text()), label->contentsRect().width());
  EXPECT_LT(label->minimumSizeHint().width(), 80);  // a few letters, not the whole line
  label->setGeometry(0, 0, label->fontMetrics().horizontalAdvance(kLine) + 10, 30);
  QApplication::processEvents();
  EXPECT_FALSE(label->isElided());
  EXPECT_EQ(label->text(), kLine);
  EXPECT_TRUE(label->toolTip().isEmpty());
}

}  // namespace
}  // namespace occx::ui
