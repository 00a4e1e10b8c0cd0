#include "ui/shell/help_text.h"

#include <QFile>
#include <QObject>
#include <QStringList>
#include <utility>

#include "core/sweep/backend.h"
#include "occx_config.h"

namespace occx::ui {

namespace {

QString keysText(const QList<QKeySequence>& keys) {
  QStringList out;
  for (const QKeySequence& k : keys)
    out << QStringLiteral("<b>%1</b>").arg(k.toString(QKeySequence::NativeText).toHtmlEscaped());
  return out.join(QObject::tr(" or "));
}

}  // namespace

QList<QKeySequence> exportCsvKeys() {
  return {QKeySequence(Qt::CTRL | Qt::Key_S), QKeySequence(Qt::CTRL | Qt::Key_E)};
}
QKeySequence exportPngKey() {
  return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
}
QKeySequence helpKey() {
  return QKeySequence(Qt::Key_F1);
}
QKeySequence lessonsKey() {
  return QKeySequence(Qt::Key_F2);
}
QKeySequence exportReportKey() {
  return QKeySequence(Qt::CTRL | Qt::Key_P);
}

QString backendStatusLine(const Backend& backend) {
  // What is there, not how the program was built: a newcomer reads "CUDA support: on" as "GPU present".
  QString gpu;
  const auto gpus = backend.detectedGpus();
  const Availability live = backend.liveAvailability();
  if (!gpus.empty()) {
    gpu = QObject::tr("GPU: %1").arg(QString::fromStdString(gpus.front().name));
    if (gpus.size() > 1) gpu += QObject::tr(" (+%1 more)").arg(static_cast<int>(gpus.size()) - 1);
  } else if (live.available) {
    gpu = QObject::tr("GPU: present");
  } else {
    const QString why = QString::fromStdString(live.reason);
    gpu = why.contains(QStringLiteral("libcuda")) || why.startsWith(QStringLiteral("No NVIDIA driver"))
              ? QObject::tr("GPU: none found (driver not installed)")
          : why.contains(QStringLiteral("sees no GPU"))  ? QObject::tr("GPU: none found (the driver sees no GPU)")
          : why.contains(QStringLiteral("CUDA Toolkit")) ? QObject::tr("GPU: not used (this build has no CUDA support)")
                                                         : QObject::tr("GPU: none found");
  }
  const Availability compile = backend.compileAvailability();
  const std::string version = backend.compilerVersion();
  const QString nvrtc =
      compile.available
          ? QObject::tr("NVRTC: available") +
                (version.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(version)))
          : QObject::tr("NVRTC: not in this build");
  return gpu + QStringLiteral(" · ") + nvrtc;
}

QString shortcutTableHtml() {
  const std::pair<QList<QKeySequence>, QString> rows[] = {
      {exportCsvKeys(), QObject::tr("File → Export CSV…")},
      {{exportPngKey()}, QObject::tr("File → Export PNG… (900 × 560 at 2×, any window size)")},
      {{QKeySequence(QKeySequence::Open)}, QObject::tr("File → Open Inductor run…")},
      {{exportReportKey()}, QObject::tr("File → Export report… (PDF and HTML)")},
      {{helpKey()}, QObject::tr("Help → Manual")},
      {{lessonsKey()}, QObject::tr("Help → Lessons (a panel beside the views)")},
      {{QKeySequence(QKeySequence::Quit)}, QObject::tr("File → Quit")},
  };
  QString html = QStringLiteral("<table cellspacing=\"2\">");
  for (const auto& [keys, what] : rows) {
    QList<QKeySequence> bound;
    for (const QKeySequence& k : keys) {
      if (!k.isEmpty()) bound << k;
    }
    if (bound.isEmpty()) continue;  // no such key in this platform's bindings
    html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(keysText(bound), what.toHtmlEscaped());
  }
  return html + QStringLiteral("</table>");
}

QString manualHtml(const QString& machine_html) {
  QFile f(QStringLiteral(":/help/manual.html"));
  QString html = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                             : QObject::tr("<p>The manual is missing from this build.</p>");
  html.replace(QStringLiteral("{{shortcuts}}"), shortcutTableHtml());
  html.replace(QStringLiteral("{{machine}}"), machine_html);
  return html;
}

QString machineFactsHtml(const Backend* backend, const QString& python_status) {
  const auto item = [](const QString& what, const QString& text) {
    return QStringLiteral("<li><b>%1:</b> %2</li>").arg(what.toHtmlEscaped(), text.toHtmlEscaped());
  };
  QString html = QStringLiteral("<ul>");
  if (backend == nullptr) {
    html += item(QObject::tr("GPU"), QObject::tr("not asked (no backend)"));
  } else {
    const auto gpus = backend->detectedGpus();
    if (gpus.empty()) {
      html += item(QObject::tr("GPU"),
                   QObject::tr("none found: %1").arg(QString::fromStdString(backend->liveAvailability().reason)));
    }
    for (const DeviceInfo& d : gpus) {
      html += item(QObject::tr("GPU %1").arg(d.ordinal),
                   QObject::tr("%1, driver supporting CUDA %2")
                       .arg(QString::fromStdString(d.label()), QString::fromStdString(d.driverCudaVersion())));
    }
    const Availability nvrtc = backend->compileAvailability();
    html += item(QObject::tr("NVRTC"),
                 nvrtc.available ? QString::fromStdString(backend->compilerVersion())
                                 : QObject::tr("not available: %1").arg(QString::fromStdString(nvrtc.reason)));
    const Availability cupti = backend->profilerAvailability();
    html += item(QObject::tr("CUPTI"),
                 cupti.available
                     ? QObject::tr("available (kernel records; achieved occupancy where profiling is permitted)")
                     : QObject::tr("not available: %1").arg(QString::fromStdString(cupti.reason)));
  }
  html += item(QObject::tr("Python with PyTorch and Triton"),
               python_status.isEmpty() ? QObject::tr("checking…") : python_status);
  return html + QStringLiteral("</ul>");
}

QString aboutHtml(bool can_compile) {
  return QObject::tr(
             "<h3>Occupancy Explorer %1</h3>"
             "<p>Explains why a GPU kernel configuration is fast or slow in terms of occupancy: the classic "
             "occupancy calculator for every compute capability from 5.0 to 12.x, with each step of the arithmetic "
             "shown.</p>"
             "<p><b>Works without a GPU:</b> the occupancy calculator, its plots and the derivation for every compute "
             "capability and the named GPUs in the built-in data; CSV, PNG and PDF exports; opening CSV files that "
             "<code>occx</code> wrote on another machine.</p>"
             "<p><b>Needs the CUDA Toolkit (no GPU):</b> compiling kernels with NVRTC to get real register and spill "
             "counts.</p>"
             "<p><b>Needs an NVIDIA GPU and driver:</b> detecting the local GPU, live runs with measured time and "
             "bandwidth, "
             "and achieved occupancy from CUPTI.</p>"
             "<p>This build: CUDA support %2.</p>"
             "<p><b>Keyboard shortcuts</b> (they work wherever the focus is, in a number box too):</p>%3")
      .arg(QStringLiteral(OCCX_VERSION), can_compile ? QObject::tr("on") : QObject::tr("off"), shortcutTableHtml());
}

}  // namespace occx::ui
