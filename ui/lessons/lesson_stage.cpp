#include "ui/lessons/lesson_stage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/inductor/bounds.h"
#include "core/inductor/rblock_scaling.h"
#include "core/occupancy/occupancy.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/text.h"
#include "ui/plots/cluster_size_plot.h"
#include "ui/plots/measured_times_plot.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/views/calculator_view.h"
#include "ui/views/inductor_config_pane.h"
#include "ui/views/inductor_measured_pane.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/rblock_scaling_view.h"

namespace occx::ui {
namespace {

/// "the value is out of range" for a control that kept another value after being set.
QString refused(const QString& name, const QString& value, const QString& allowed) {
  return QStringLiteral("%1 = %2 is not allowed: %3").arg(name, value, allowed);
}

/// A whole number in `value`; false when it is not one.
bool parseWhole(const QString& value, qint64& out) {
  bool ok = false;
  out = value.trimmed().toLongLong(&ok);
  return ok;
}

/// Sets a number through `apply`, then checks the control kept it (views clamp to their ranges).
QString setNumber(const QString& name, const QString& value, const QString& allowed,
                  const std::function<void(qint64)>& apply, const std::function<qint64()>& get) {
  qint64 v = 0;
  if (!parseWhole(value, v)) return QStringLiteral("%1 = %2 is not a whole number").arg(name, value);
  apply(v);
  return get() == v ? QString() : refused(name, value, allowed);
}

QString allowedOf(const QSpinBox* spin) {
  return QStringLiteral("%1 … %2").arg(spin->minimum()).arg(spin->maximum());
}

QString allowedOf(const QComboBox* combo) {
  QStringList items;
  for (int i = 0; i < combo->count(); ++i) items << combo->itemText(i);
  return items.join(QStringLiteral(", "));
}

QString allowedOf(const QTabWidget* tabs) {
  QStringList items;
  for (int i = 0; i < tabs->count(); ++i) items << QStringLiteral("\"%1\"").arg(tabs->tabText(i));
  return items.join(QStringLiteral(", "));
}

/// A page of `tabs` by its title.
LessonStage::Name pageName(const QString& key, const QString& what, QTabWidget* tabs) {
  LessonStage::Name n{key, what, true, true, {}, {}, {}};
  n.set = [key, tabs](const QString& value) {
    for (int i = 0; i < tabs->count(); ++i) {
      if (tabs->tabText(i).compare(value.trimmed(), Qt::CaseInsensitive) == 0) {
        tabs->setCurrentIndex(i);
        return QString();
      }
    }
    return refused(key, value, QStringLiteral("one of ") + allowedOf(tabs));
  };
  n.read = [tabs] { return tabs->tabText(tabs->currentIndex()); };
  n.widget = [tabs] { return tabs; };
  return n;
}

/// A device list by a GPU's name ("H200", "H100 SXM5"), an alias, or a compute capability ("CC 9.0").
LessonStage::Name deviceName(const QString& key, DeviceSelector* selector) {
  LessonStage::Name n{key, QStringLiteral("GPU (a name of the GPU data, e.g. H200, or CC 9.0)"), true, true, {}, {},
                      {}};
  n.set = [key, selector](const QString& value) {
    const QString v = value.trimmed();
    for (const DeviceTarget& t : selector->targets()) {
      bool match =
          t.key.compare(v, Qt::CaseInsensitive) == 0 || selector->shortName(t.key).compare(v, Qt::CaseInsensitive) == 0;
      if (t.gpu != nullptr) {
        match = match || q(t.gpu->name).compare(v, Qt::CaseInsensitive) == 0;
        for (const auto& alias : t.gpu->aliases) match = match || q(alias).compare(v, Qt::CaseInsensitive) == 0;
      }
      if (match && selector->setCurrentKey(t.key)) return QString();
    }
    return refused(key, value, QStringLiteral("a GPU of the GPU data (H200, H100 SXM5, A100 SXM4 80GB, …) or CC 9.0"));
  };
  n.read = [selector] {
    const DeviceTarget& t = selector->currentTarget();
    return t.gpu != nullptr ? q(t.gpu->name) : selector->shortName(t.key);
  };
  n.widget = [selector] { return selector; };
  return n;
}

/// A read-out of `view` with a widget to frame.
LessonStage::Name readOut(const QString& key, const QString& what, std::function<QString()> read,
                          std::function<QWidget*()> widget) {
  return LessonStage::Name{key, what, false, true, {}, std::move(read), std::move(widget)};
}

/// A place to look at, neither set nor read.
LessonStage::Name placeName(const QString& key, const QString& what, std::function<QWidget*()> widget) {
  return LessonStage::Name{key, what, false, false, {}, {}, std::move(widget)};
}

QString number(double v, int decimals) {
  return QString::number(v, 'f', decimals);
}

const inductor::Decision* decisionOf(const RblockScalingView* view, inductor::Policy policy) {
  for (const auto& d : view->decisions()) {
    if (d.policy == policy) return &d;
  }
  return nullptr;
}

InductorConfigPane* configPane(const InductorRunView* view) {
  return view->findChild<InductorConfigPane*>(QStringLiteral("inductorConfigs"));
}

const std::string* scanDecision(const triton::ScanRow& row, inductor::Policy policy) {
  switch (policy) {
    case inductor::Policy::kOld:
      return &row.old_decision;
    case inductor::Policy::kNew:
      return &row.new_decision;
    case inductor::Policy::kReviewMin:
      return &row.review_min_decision;
    case inductor::Policy::kExact:
      return &row.exact_decision;
    case inductor::Policy::kSpills:
      return &row.spills_decision;
  }
  return nullptr;
}

/// The measured picks of the kernel shown, nullptr when it has none.
const triton::KernelPicks* picksOf(const InductorRunView* view) {
  const int k = view->selectedKernel();
  if (k < 0 || k >= static_cast<int>(view->run().kernels.size())) return nullptr;
  const RunKernelEntry& e = view->run().kernels[static_cast<std::size_t>(k)];
  return measuredPicksOf(view->run(), e.kernel, e.module);
}

/// The config text of measured row `row` of the run, "" when none.
QString measuredConfigText(const InductorRunView* view, int row) {
  const auto& rows = view->run().measured.rows;
  if (row < 0 || row >= static_cast<int>(rows.size())) return {};
  return q(rows[static_cast<std::size_t>(row)].configText());
}

}  // namespace

bool lessonValueMatches(const QString& shown, const QString& written) {
  const QString w = written.trimmed();
  const QString s = shown.trimmed();
  bool w_ok = false;
  bool s_ok = false;
  const double wv = w.toDouble(&w_ok);
  const double sv = s.toDouble(&s_ok);
  if (w_ok && s_ok) {
    const qsizetype dot = w.indexOf(QLatin1Char('.'));
    const int decimals = dot < 0 ? 0 : static_cast<int>(w.size() - dot - 1);
    return std::abs(sv - wv) < 0.5 * std::pow(10.0, -decimals) - 1e-12;
  }
  return s.compare(w, Qt::CaseInsensitive) == 0;
}

LessonStage::LessonStage(LessonViews views) : views_(views) {
  addCalculatorNames();
  addCalculatorReadOuts();
  addClusterNames();
  addCalculatorExtras();
  addRblockNames();
  addRblockPolicyNames();
  addInductorNames();
  addInductorReadOuts();
  addMeasuredExtras();
}

QStringList LessonStage::tabNames() {
  return {QStringLiteral("calculator"), QStringLiteral("rblock"), QStringLiteral("inductor")};
}

QWidget* LessonStage::viewOf(const QString& tab) const {
  if (tab == QLatin1String("calculator")) return views_.calculator;
  if (tab == QLatin1String("rblock")) return views_.rblock;
  if (tab == QLatin1String("inductor")) return views_.inductor;
  return nullptr;
}

QString LessonStage::showTab(const QString& tab) {
  QWidget* view = viewOf(tab);
  if (view == nullptr) {
    return QStringLiteral("tab '%1' is not a view lessons know: allowed %2")
        .arg(tab, tabNames().join(QStringLiteral(", ")));
  }
  views_.tabs->setCurrentWidget(view);
  return {};
}

QString LessonStage::currentTab() const {
  const QWidget* current = views_.tabs->currentWidget();
  if (current == views_.calculator) return QStringLiteral("calculator");
  if (current == views_.rblock) return QStringLiteral("rblock");
  if (current == views_.inductor) return QStringLiteral("inductor");
  return {};
}

void LessonStage::add(Name name) {
  names_.push_back(std::move(name));
}

const LessonStage::Name* LessonStage::find(const QString& name) const {
  for (const Name& n : names_) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

QString LessonStage::set(const QString& name, const QString& value) {
  const Name* n = find(name);
  if (n == nullptr) return QStringLiteral("unknown name '%1'").arg(name);
  if (!n->settable) return QStringLiteral("'%1' is a read-out: a step cannot set it").arg(name);
  return n->set(value);
}

Expected<QString> LessonStage::read(const QString& name) const {
  const Name* n = find(name);
  if (n == nullptr) return Error("unknown name '" + name.toStdString() + "'");
  if (!n->readable) return Error("'" + name.toStdString() + "' is a place to look at, not a read-out");
  return n->read();
}

bool LessonStage::shows(const QString& name, const QString& written) const {
  auto v = read(name);
  return v && lessonValueMatches(*v, written);
}

QWidget* LessonStage::widget(const QString& name) const {
  const Name* n = find(name);
  return n == nullptr ? nullptr : n->widget();
}

void LessonStage::addCalculatorNames() {
  CalculatorView* c = views_.calculator;
  add(deviceName(QStringLiteral("calculator.gpu"), c->deviceSelector()));
  struct Field {
    const char* key;
    const char* what;
    QSpinBox* spin;
    std::function<void(OccupancyInput&, qint64)> put;
    std::function<qint64(const OccupancyInput&)> get;
  };
  const Field fields[] = {
      {"threads_per_block", "Threads per block", c->threadsSpin(),
       [](OccupancyInput& in, qint64 v) { in.threads_per_block = static_cast<int>(v); },
       [](const OccupancyInput& in) { return qint64{in.threads_per_block}; }},
      {"registers_per_thread", "Registers per thread", c->registersSpin(),
       [](OccupancyInput& in, qint64 v) { in.registers_per_thread = static_cast<int>(v); },
       [](const OccupancyInput& in) { return qint64{in.registers_per_thread}; }},
      {"static_shared_memory_bytes", "Static shared memory per block, bytes", c->staticSmemSpin(),
       [](OccupancyInput& in, qint64 v) { in.static_smem_bytes = v; },
       [](const OccupancyInput& in) { return in.static_smem_bytes; }},
      {"dynamic_shared_memory_bytes", "Dynamic shared memory per block, bytes", c->dynamicSmemSpin(),
       [](OccupancyInput& in, qint64 v) { in.dynamic_smem_bytes = v; },
       [](const OccupancyInput& in) { return in.dynamic_smem_bytes; }},
      {"block_barriers", "Block barriers", c->barriersSpin(),
       [](OccupancyInput& in, qint64 v) { in.block_barriers = static_cast<int>(v); },
       [](const OccupancyInput& in) { return qint64{in.block_barriers}; }},
      {"grid_blocks", "Blocks in the grid (0 = none)", c->gridSpin(),
       [](OccupancyInput& in, qint64 v) { in.grid_blocks = v; },
       [](const OccupancyInput& in) { return in.grid_blocks; }},
  };
  for (const Field& f : fields) {
    const QString key = QStringLiteral("calculator.") + QLatin1String(f.key);
    QSpinBox* spin = f.spin;
    Name n{key,
           QString::fromUtf8(f.what) + QStringLiteral(" (") + allowedOf(spin) + QStringLiteral(")"),
           true,
           true,
           {},
           {},
           [spin] { return spin; }};
    n.set = [c, key, spin, put = f.put, get = f.get](const QString& value) {
      return setNumber(
          key, value, allowedOf(spin),
          [c, put](qint64 v) {
            OccupancyInput in = c->input();
            put(in, v);
            c->setInput(in);
          },
          [c, get] { return get(c->input()); });
    };
    n.read = [c, get = f.get] { return QString::number(get(c->input())); };
    add(std::move(n));
  }
  Name carveout{QStringLiteral("calculator.carveout_percent"),
                QStringLiteral("Shared-memory carveout preference, % (default, or 0 … 100)"),
                true,
                true,
                {},
                {},
                [c] { return c->carveoutSpin(); }};
  carveout.set = [c](const QString& value) {
    const bool is_default = value.trimmed().compare(QLatin1String("default"), Qt::CaseInsensitive) == 0;
    return setNumber(
        QStringLiteral("calculator.carveout_percent"), is_default ? QStringLiteral("-1") : value,
        QStringLiteral("default or 0 … 100"),
        [c](qint64 v) {
          OccupancyInput in = c->input();
          in.carveout_percent = static_cast<int>(v);
          c->setInput(in);
        },
        [c] { return qint64{c->input().carveout_percent}; });
  };
  carveout.read = [c] {
    const int v = c->input().carveout_percent;
    return v < 0 ? QStringLiteral("default") : QString::number(v);
  };
  add(std::move(carveout));
  add(pageName(QStringLiteral("calculator.plot_page"), QStringLiteral("The page of plots under the result"),
               c->plotTabs()));
}

void LessonStage::addCalculatorReadOuts() {
  CalculatorView* c = views_.calculator;
  auto limits = [c]() -> QWidget* { return c->limitsTable(); };
  auto details = [c]() -> QWidget* { return c->detailsTable(); };
  auto result = [c]() -> QWidget* { return c->occupancyLabel(); };
  struct Out {
    const char* key;
    const char* what;
    std::function<QString(const OccupancyResult&)> get;
    std::function<QWidget*()> widget;
  };
  const auto whole = [](int v) { return v == kUnlimited ? QStringLiteral("unlimited") : QString::number(v); };
  const Out outs[] = {
      {"warps_per_block", "Warps per block",
       [](const OccupancyResult& r) { return QString::number(r.warps_per_block); }, details},
      {"active_blocks_per_sm", "Active blocks per SM",
       [](const OccupancyResult& r) { return QString::number(r.active_blocks_per_sm); }, details},
      {"active_warps_per_sm", "Active warps per SM",
       [](const OccupancyResult& r) { return QString::number(r.active_warps_per_sm); }, result},
      {"max_warps_per_sm", "Most warps an SM holds",
       [](const OccupancyResult& r) { return QString::number(r.max_warps_per_sm); }, details},
      {"occupancy_percent", "Theoretical occupancy, %",
       [](const OccupancyResult& r) { return number(100.0 * r.occupancy, 1); }, result},
      {"limiter", "The limit that binds (warps, registers, shared memory, blocks, barriers)",
       [](const OccupancyResult& r) { return q(limiterNames(r.limiters)); }, limits},
      {"block_limit_warps", "Blocks per SM the warps allow",
       [whole](const OccupancyResult& r) { return whole(r.block_limit_warps); }, limits},
      {"block_limit_registers", "Blocks per SM the registers allow",
       [whole](const OccupancyResult& r) { return whole(r.block_limit_registers); }, limits},
      {"block_limit_shared_memory", "Blocks per SM the shared memory allows",
       [whole](const OccupancyResult& r) { return whole(r.block_limit_shared_memory); }, limits},
      {"block_limit_blocks", "Blocks per SM the SM's block slots allow",
       [whole](const OccupancyResult& r) { return whole(r.block_limit_blocks); }, limits},
      {"block_limit_barriers", "Blocks per SM the barriers allow",
       [whole](const OccupancyResult& r) { return whole(r.block_limit_barriers); }, limits},
      {"registers_per_warp_allocated", "Registers allocated per warp (rounded up to the allocation unit)",
       [](const OccupancyResult& r) { return QString::number(r.registers_per_warp_allocated); }, details},
      {"shared_memory_per_block_allocated", "Shared memory allocated per block, bytes (with the runtime's 1 KB)",
       [](const OccupancyResult& r) { return QString::number(r.shared_memory_per_block_allocated); }, details},
  };
  for (const Out& o : outs) {
    add(readOut(
        QStringLiteral("calculator.") + QLatin1String(o.key), QString::fromUtf8(o.what),
        [c, get = o.get] { return get(c->result()); }, o.widget));
  }
  add(placeName(QStringLiteral("calculator.limits_table"), QStringLiteral("The table of limits"), limits));
  add(placeName(QStringLiteral("calculator.derivation"), QStringLiteral("The derivation in words"),
                [c] { return c->derivationBrowser(); }));
  add(placeName(QStringLiteral("calculator.plots"), QStringLiteral("The impact plots"), [c] { return c->plotTabs(); }));
  add(placeName(QStringLiteral("calculator.registers_plot"), QStringLiteral("Occupancy against registers per thread"),
                [c] { return c->registersPlot()->widget(); }));
  add(placeName(QStringLiteral("calculator.block_size_plot"), QStringLiteral("Occupancy against block size"),
                [c] { return c->blockSizePlot()->widget(); }));
}

void LessonStage::addClusterNames() {
  CalculatorView* c = views_.calculator;
  QSpinBox* size = c->clusterSizeSpin();
  Name cluster{QStringLiteral("calculator.cluster_size"),
               QStringLiteral("Thread-block cluster size in blocks (0 = no clusters; 1 … 8, up to 16 non-portable)"),
               true,
               true,
               {},
               {},
               [size] { return size; }};
  cluster.set = [size](const QString& value) {
    return setNumber(
        QStringLiteral("calculator.cluster_size"), value, allowedOf(size),
        [size](qint64 v) { size->setValue(static_cast<int>(v)); }, [size] { return qint64{size->value()}; });
  };
  cluster.read = [size] { return QString::number(size->value()); };
  add(std::move(cluster));
  QCheckBox* check = c->nonPortableCheck();
  Name non_portable{QStringLiteral("calculator.non_portable_clusters"),
                    QStringLiteral("Cluster sizes above the portable 8 allowed (yes or no)"),
                    true,
                    true,
                    {},
                    {},
                    [check] { return check; }};
  non_portable.set = [check](const QString& value) {
    const QString v = value.trimmed().toLower();
    if (v != QLatin1String("yes") && v != QLatin1String("no")) {
      return refused(QStringLiteral("calculator.non_portable_clusters"), value, QStringLiteral("yes or no"));
    }
    check->setChecked(v == QLatin1String("yes"));
    return check->isChecked() == (v == QLatin1String("yes"))
               ? QString()
               : refused(QStringLiteral("calculator.non_portable_clusters"), value,
                         QStringLiteral("no: this GPU has no cluster sizes above 8"));
  };
  non_portable.read = [check] { return check->isChecked() ? QStringLiteral("yes") : QStringLiteral("no"); };
  add(std::move(non_portable));
  auto table = [c]() -> QWidget* { return c->clustersTable(); };
  auto of = [c](const std::function<QString(const ClusterResult&)>& f) {
    return [c, f] { return c->clusters() ? f(*c->clusters()) : QString(); };
  };
  add(readOut(QStringLiteral("calculator.cluster.max_active"),
              QStringLiteral("Clusters active on the GPU at once (the GPC model)"),
              of([](const ClusterResult& r) { return QString::number(r.max_active_clusters); }), table));
  add(readOut(QStringLiteral("calculator.cluster.naive_max_active"),
              QStringLiteral("The naive figure: floor(active blocks on the GPU / cluster size)"),
              of([](const ClusterResult& r) { return QString::number(r.naive_max_active_clusters); }), table));
  add(readOut(QStringLiteral("calculator.cluster.blocks_per_sm"),
              QStringLiteral("Blocks per SM a clustered launch keeps (min(active blocks per SM, the layout's cap))"),
              of([](const ClusterResult& r) { return QString::number(r.blocks_per_sm_in_clusters); }), table));
  add(readOut(QStringLiteral("calculator.cluster.active_blocks"),
              QStringLiteral("Blocks active in clusters on the GPU"),
              of([](const ClusterResult& r) { return QString::number(r.active_blocks_in_clusters); }), table));
  add(readOut(QStringLiteral("calculator.cluster.occupancy_percent"),
              QStringLiteral("Blocks active in clusters ÷ blocks active without clusters, % (one decimal)"),
              of([](const ClusterResult& r) { return number(100.0 * r.cluster_occupancy, 1); }), table));
  add(readOut(QStringLiteral("calculator.cluster.max_potential_size"),
              QStringLiteral("Largest cluster size with at least one active cluster"),
              of([](const ClusterResult& r) { return QString::number(r.max_potential_cluster_size); }), table));
  add(readOut(
      QStringLiteral("calculator.cluster.gpc_layout"), QStringLiteral("SMs per GPC as the driver packs clusters"),
      [c] {
        QStringList sms;
        for (int s : c->clusterLayout().gpc_sm_counts) sms << QString::number(s);
        return sms.isEmpty() ? QStringLiteral("unknown") : sms.join(QStringLiteral(", "));
      },
      table));
  add(placeName(QStringLiteral("calculator.clusters_table"),
                QStringLiteral("The table of clusters and best block size"), table));
  add(placeName(QStringLiteral("calculator.cluster_size_plot"), QStringLiteral("Active clusters against cluster size"),
                [c] { return c->clusterSizePlot()->widget(); }));
}

void LessonStage::addCalculatorExtras() {
  CalculatorView* c = views_.calculator;
  add(readOut(
      QStringLiteral("calculator.shared_memory_per_sm_config"),
      QStringLiteral("Shared memory per SM the runtime configures (the carveout it picks), bytes"),
      [c] { return QString::number(c->result().shared_memory_per_sm_config); },
      [c]() -> QWidget* { return c->detailsTable(); }));
  add(placeName(QStringLiteral("calculator.shared_memory_plot"),
                QStringLiteral("Occupancy against shared memory per block"),
                [c] { return c->sharedMemoryPlot()->widget(); }));
  add(placeName(QStringLiteral("calculator.ask_driver"),
                QStringLiteral("Ask the driver (with a GPU: the driver's answers beside the model's)"),
                [c]() -> QWidget* { return c->askDriverButton(); }));
}

void LessonStage::addRblockNames() {
  RblockScalingView* r = views_.rblock;
  add(deviceName(QStringLiteral("rblock.gpu"), r->deviceSelector()));
  struct Field {
    const char* key;
    const char* what;
    QWidget* control;
    QString allowed;
    std::function<void(RblockInputs&, qint64)> put;
    std::function<qint64(const RblockInputs&)> get;
  };
  const Field fields[] = {
      {"xnumel", "Rows of the reduction (xnumel)", r->xnumelSpin(), allowedOf(r->xnumelSpin()),
       [](RblockInputs& in, qint64 v) { in.xnumel = v; }, [](const RblockInputs& in) { return in.xnumel; }},
      {"rnumel", "Reduction length (rnumel)", r->rnumelSpin(), allowedOf(r->rnumelSpin()),
       [](RblockInputs& in, qint64 v) { in.rnumel = v; }, [](const RblockInputs& in) { return in.rnumel; }},
      {"xblock", "XBLOCK", r->xblockCombo(), allowedOf(r->xblockCombo()),
       [](RblockInputs& in, qint64 v) { in.xblock = static_cast<int>(v); },
       [](const RblockInputs& in) { return qint64{in.xblock}; }},
      {"rblock", "RBLOCK (R0_BLOCK)", r->rblockCombo(), allowedOf(r->rblockCombo()),
       [](RblockInputs& in, qint64 v) { in.rblock = static_cast<int>(v); },
       [](const RblockInputs& in) { return qint64{in.rblock}; }},
      {"num_warps", "num_warps", r->numWarpsCombo(), allowedOf(r->numWarpsCombo()),
       [](RblockInputs& in, qint64 v) { in.num_warps = static_cast<int>(v); },
       [](const RblockInputs& in) { return qint64{in.num_warps}; }},
      {"n_regs", "Registers per thread of the compiled kernel (n_regs)", r->nRegsSpin(), allowedOf(r->nRegsSpin()),
       [](RblockInputs& in, qint64 v) {
         in.n_regs = static_cast<int>(v);
         in.n_regs_known = true;
       },
       [](const RblockInputs& in) { return qint64{in.n_regs}; }},
      {"n_spills", "Spilled registers (n_spills)", r->nSpillsSpin(), allowedOf(r->nSpillsSpin()),
       [](RblockInputs& in, qint64 v) { in.n_spills = static_cast<int>(v); },
       [](const RblockInputs& in) { return qint64{in.n_spills}; }},
  };
  for (const Field& f : fields) {
    const QString key = QStringLiteral("rblock.") + QLatin1String(f.key);
    QWidget* control = f.control;
    Name n{key,
           QString::fromUtf8(f.what) + QStringLiteral(" (") + f.allowed + QStringLiteral(")"),
           true,
           true,
           {},
           {},
           [control] { return control; }};
    n.set = [r, key, allowed = f.allowed, put = f.put, get = f.get](const QString& value) {
      qint64 v = 0;
      if (!parseWhole(value, v) || v < 0 || v > (qint64{1} << 31)) return refused(key, value, allowed);
      return setNumber(
          key, value, allowed,
          [r, put](qint64 x) {
            RblockInputs in = r->inputs();
            put(in, x);
            r->setInputs(in);
          },
          [r, get] { return get(r->inputs()); });
    };
    n.read = [r, get = f.get] { return QString::number(get(r->inputs())); };
    add(std::move(n));
  }
  auto table = [r]() -> QWidget* { return r->decisionTable(); };
  add(readOut(
      QStringLiteral("rblock.total_blocks"), QStringLiteral("Blocks of the grid: ceil(size hint x / XBLOCK)"),
      [r] { return r->decisions().empty() ? QString() : QString::number(r->decisions().front().total_blocks); },
      table));
  add(placeName(QStringLiteral("rblock.bounds_plot"), QStringLiteral("The bounds against registers per thread"),
                [r] { return r->boundsPlot()->widget(); }));
  add(placeName(QStringLiteral("rblock.decision_table"), QStringLiteral("The decision per policy"), table));
  add(placeName(QStringLiteral("rblock.arithmetic"), QStringLiteral("Each bound's arithmetic"),
                [r] { return r->arithmeticBrowser(); }));
}

void LessonStage::addRblockPolicyNames() {
  RblockScalingView* r = views_.rblock;
  auto table = [r]() -> QWidget* { return r->decisionTable(); };
  for (inductor::Policy p : inductor::boundPolicies()) {
    const QString policy = q(std::string(inductor::policyKey(p)));
    const QString prefix = QStringLiteral("rblock.") + policy;
    auto with = [r, p](const std::function<QString(const inductor::Decision&)>& f) {
      return [r, p, f] {
        const inductor::Decision* d = decisionOf(r, p);
        return d == nullptr ? QString() : f(*d);
      };
    };
    add(readOut(prefix + QStringLiteral(".decision"),
                QStringLiteral("The %1 bound's decision: scale, no scaling, duplicate, not applicable").arg(policy),
                with([](const inductor::Decision& d) { return q(std::string(inductor::outcomeName(d.outcome))); }),
                table));
    add(readOut(prefix + QStringLiteral(".bound"), QStringLiteral("The %1 bound: blocks per SM").arg(policy),
                with([](const inductor::Decision& d) { return QString::number(d.bound_blocks_per_sm); }), table));
    add(readOut(prefix + QStringLiteral(".capacity"),
                QStringLiteral("The %1 bound × SMs: blocks resident at once").arg(policy),
                with([](const inductor::Decision& d) { return QString::number(d.capacity_blocks); }), table));
    add(readOut(
        prefix + QStringLiteral(".new_rblock"),
        QStringLiteral("The halved RBLOCK the %1 bound would add (0 when none)").arg(policy),
        with([](const inductor::Decision& d) { return QString::number(d.new_config ? d.new_config->r0_block : 0); }),
        table));
  }
}

void LessonStage::addInductorNames() {
  InductorRunView* v = views_.inductor;
  Name run{QStringLiteral("inductor.run"),
           QStringLiteral("The bundled Inductor run shown (its key, e.g. spill_log_softmax_w16)"),
           true,
           true,
           {},
           {},
           [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("bundledRunCombo")); }};
  run.set = [v](const QString& value) { return v->openBundled(value.trimmed()); };
  run.read = [v] {
    for (const BundledRun& b : bundledInductorRuns()) {
      if (b.title == v->run().title) return b.key;
    }
    return v->run().title;
  };
  add(std::move(run));
  Name kernel{QStringLiteral("inductor.kernel"),
              QStringLiteral("The kernel selected (its name)"),
              true,
              true,
              {},
              {},
              [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("kernelTable")); }};
  kernel.set = [v](const QString& value) {
    const auto& kernels = v->run().kernels;
    QStringList names;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      if (q(kernels[i].kernel) == value.trimmed() && v->selectKernel(static_cast<int>(i))) return QString();
      names << q(kernels[i].kernel);
    }
    return refused(QStringLiteral("inductor.kernel"), value,
                   QStringLiteral("a kernel of the run: ") + names.join(QStringLiteral(", ")));
  };
  kernel.read = [v] {
    const int k = v->selectedKernel();
    return k < 0 ? QString() : q(v->run().kernels[static_cast<std::size_t>(k)].kernel);
  };
  add(std::move(kernel));
  Name config{QStringLiteral("inductor.config"),
              QStringLiteral("The config selected, as \"X1 R32768 w16\""),
              true,
              true,
              {},
              {},
              [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("configTable")); }};
  config.set = [v](const QString& value) {
    const InductorConfigPane* pane = configPane(v);
    QStringList texts;
    const auto& rows = pane->configs();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (shortConfigText(rows[i]) == value.trimmed() && v->selectConfig(static_cast<int>(i))) return QString();
      texts << shortConfigText(rows[i]);
    }
    return refused(QStringLiteral("inductor.config"), value,
                   QStringLiteral("a config of the kernel: ") + texts.join(QStringLiteral(", ")));
  };
  config.read = [v] { return v->selectedConfig() == nullptr ? QString() : shortConfigText(*v->selectedConfig()); };
  add(std::move(config));
  add(pageName(QStringLiteral("inductor.page"), QStringLiteral("The page beside the configs"), v->detailTabs()));
  add(placeName(QStringLiteral("inductor.kernel_list"), QStringLiteral("The list of kernels"),
                [v] { return v->findChild<QWidget*>(QStringLiteral("kernelTable")); }));
  add(placeName(QStringLiteral("inductor.config_table"), QStringLiteral("The configs of the kernel"),
                [v] { return v->findChild<QWidget*>(QStringLiteral("configTable")); }));
  add(placeName(QStringLiteral("inductor.measured"), QStringLiteral("The Measured page: times and each policy's pick"),
                [v] { return v->findChild<QWidget*>(QStringLiteral("inductorMeasured")); }));
  add(placeName(QStringLiteral("inductor.picks_table"), QStringLiteral("Each policy's pick and its regret"),
                [v] { return v->findChild<QWidget*>(QStringLiteral("picksTable")); }));
}

void LessonStage::addInductorReadOuts() {
  InductorRunView* v = views_.inductor;
  auto table = [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("configTable")); };
  auto picks_table = [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("picksTable")); };
  auto ofRow = [v](const std::function<QString(const triton::ScanRow&)>& f) {
    return [v, f] { return v->selectedConfig() == nullptr ? QString() : f(*v->selectedConfig()); };
  };
  auto opt = [](const std::optional<std::int64_t>& x) { return x ? QString::number(*x) : QString(); };
  add(readOut(QStringLiteral("inductor.config.registers"),
              QStringLiteral("Registers per thread of the config (n_regs)"),
              ofRow([opt](const triton::ScanRow& r) { return opt(r.n_regs); }), table));
  add(readOut(QStringLiteral("inductor.config.spills"), QStringLiteral("Registers spilled by the config (n_spills)"),
              ofRow([opt](const triton::ScanRow& r) { return opt(r.n_spills); }), table));
  add(readOut(QStringLiteral("inductor.config.occupancy_percent"),
              QStringLiteral("Theoretical occupancy of the config, %"),
              ofRow([](const triton::ScanRow& r) { return r.occupancy_pct ? number(*r.occupancy_pct, 1) : QString(); }),
              table));
  add(readOut(QStringLiteral("inductor.config.origin"),
              QStringLiteral("Where the config came from (candidate, added by scaling, other)"),
              ofRow([](const triton::ScanRow& r) { return q(r.origin); }), table));
  add(readOut(QStringLiteral("inductor.config.time_us"),
              QStringLiteral("Measured device time of the config (median, L2 cold, µs)"),
              ofRow([v](const triton::ScanRow& r) {
                const triton::MeasuredConfig* m = measuredRowOf(v->run(), r);
                return m == nullptr || !m->ok() ? QString() : number(m->measured.timeUs(), 3);
              }),
              table));
  for (inductor::Policy p : inductor::kPolicies) {
    const QString policy = q(std::string(inductor::policyKey(p)));
    add(readOut(QStringLiteral("inductor.decision.") + policy,
                QStringLiteral("The %1 policy's decision for the config").arg(policy),
                ofRow([p](const triton::ScanRow& r) { return q(*scanDecision(r, p)); }), table));
    add(readOut(
        QStringLiteral("inductor.pick.") + policy,
        QStringLiteral("The config the %1 policy's autotuning would pick (measured)").arg(policy),
        [v, p] {
          const triton::KernelPicks* k = picksOf(v);
          const PolicyPick* pick = k == nullptr ? nullptr : k->pick(p);
          return pick == nullptr ? QString() : measuredConfigText(v, pick->row);
        },
        picks_table));
    add(readOut(
        QStringLiteral("inductor.regret.") + policy,
        QStringLiteral("The %1 pick's time / the best time (1 = the best)").arg(policy),
        [v, p] {
          const triton::KernelPicks* k = picksOf(v);
          const PolicyPick* pick = k == nullptr ? nullptr : k->pick(p);
          return pick == nullptr || pick->regret <= 0.0 ? QString() : number(pick->regret, 3);
        },
        picks_table));
  }
  add(readOut(
      QStringLiteral("inductor.run.bound_disagreements"),
      QStringLiteral("Configs of the run on which the old and new bounds decide differently"),
      [v] {
        const auto& rows = v->run().rows;
        return QString::number(
            std::count_if(rows.begin(), rows.end(), [](const triton::ScanRow& r) { return r.bounds_disagree; }));
      },
      [v] { return v->findChild<QWidget*>(QStringLiteral("runSummary")); }));
  add(readOut(
      QStringLiteral("inductor.best.config"), QStringLiteral("The fastest measured config of the kernel"),
      [v] {
        const triton::KernelPicks* k = picksOf(v);
        return k == nullptr ? QString() : measuredConfigText(v, k->best_row);
      },
      picks_table));
  add(readOut(
      QStringLiteral("inductor.best.time_us"), QStringLiteral("The fastest config's time, µs"),
      [v] {
        const triton::KernelPicks* k = picksOf(v);
        return k == nullptr || k->best_row < 0 ? QString() : number(k->best_time_us, 3);
      },
      picks_table));
}

void LessonStage::addMeasuredExtras() {
  InductorRunView* v = views_.inductor;
  add(readOut(
      QStringLiteral("inductor.config.spread_percent"),
      QStringLiteral("Spread of the config's timed runs: interquartile range ÷ median, % (two decimals)"),
      [v] {
        const triton::ScanRow* r = v->selectedConfig();
        const triton::MeasuredConfig* m = r == nullptr ? nullptr : measuredRowOf(v->run(), *r);
        return m == nullptr || !m->ok() ? QString() : number(m->measured.timeStats().spread_pct, 2);
      },
      [v]() -> QWidget* { return v->findChild<QWidget*>(QStringLiteral("configTable")); }));
  add(placeName(QStringLiteral("inductor.measured_plot"), QStringLiteral("The measured times, one bar per config"),
                [v]() -> QWidget* {
                  auto* pane = v->findChild<InductorMeasuredPane*>(QStringLiteral("inductorMeasured"));
                  return pane == nullptr ? nullptr : pane->plot()->widget();
                }));
}

QString LessonStage::validate(const lessons::Lesson& lesson, const QString& source) const {
  auto at = [&source](int line, const QString& what) {
    return QStringLiteral("%1 line %2: %3").arg(source).arg(line).arg(what);
  };
  auto known = [this](const QString& name, bool want_set, bool want_read) -> QString {
    const Name* n = find(name);
    if (n == nullptr) return QStringLiteral("unknown name '%1' (docs/lessons.md lists the names)").arg(name);
    if (want_set && !n->settable) return QStringLiteral("'%1' is a read-out: a step cannot set it").arg(name);
    if (want_read && !n->readable) return QStringLiteral("'%1' is a place to look at, not a read-out").arg(name);
    return {};
  };
  for (const lessons::Step& step : lesson.steps) {
    if (!step.tab.empty() && !tabNames().contains(q(step.tab))) {
      return at(step.tab_line, QStringLiteral("tab '%1' is not a view lessons know: allowed %2")
                                   .arg(q(step.tab), tabNames().join(QStringLiteral(", "))));
    }
    for (const auto& b : step.settings) {
      if (QString e = known(q(b.name), true, false); !e.isEmpty()) return at(b.line, e);
    }
    for (const auto* list : {&step.expects, &step.expects_after_try}) {
      for (const auto& b : *list) {
        if (QString e = known(q(b.name), false, true); !e.isEmpty()) return at(b.line, e);
      }
    }
    for (std::size_t i = 0; i < step.highlights.size(); ++i) {
      if (QString e = known(q(step.highlights[i]), false, false); !e.isEmpty()) return at(step.highlight_lines[i], e);
    }
    if (step.question) {
      for (const auto& b : step.question->try_settings) {
        if (QString e = known(q(b.name), true, false); !e.isEmpty()) return at(b.line, e);
      }
      if (QString e = known(q(step.question->check), false, true); !e.isEmpty()) return at(step.question->line, e);
    }
  }
  return {};
}

}  // namespace occx::ui
