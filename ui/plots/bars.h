// Bars as the views' plots draw them: filled with the series' colour, outlined a shade darker,
// 0.6 of a slot wide. One definition for the bar plots (occupancy per config, measured times,
// the utilization chart).
#pragma once

#include <QColor>
#include <QPen>
#include <QString>

#include "qcustomplot.h"

namespace occx::ui {

/// New bars named `name` in `color` on `key_axis` (the categories) against `value_axis`; owned by the plot.
inline QCPBars* makeBars(QCPAxis* key_axis, QCPAxis* value_axis, const QString& name, const QColor& color) {
  auto* bars = new QCPBars(key_axis, value_axis);
  bars->setName(name);
  bars->setBrush(color);
  bars->setPen(QPen(color.darker(130)));
  bars->setWidth(0.6);
  return bars;
}

}  // namespace occx::ui
