#include "bench_plot.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "progress.hpp"

namespace zkpipe::cli {

namespace {

constexpr double kWidth = 900;
constexpr double kPanelHeight = 240;
constexpr double kLeft = 80;
constexpr double kRight = 190;  // room for the legend
constexpr double kTop = 40;
constexpr double kGap = 60;

struct Series {
  std::string name;
  std::string color;
  std::function<double(const engine::LedgerSample&)> value;
};

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// One panel: axes, a step line per series, a legend.
void panel(std::ostream& svg, double top, const std::string& label, const std::vector<engine::LedgerSample>& samples,
           const std::vector<Series>& series, const std::function<std::string(double)>& tick_label) {
  const double t_end = std::max(samples.back().time, 1e-9);
  double y_max = 1;
  for (const auto& s : series) {
    for (const auto& x : samples) y_max = std::max(y_max, s.value(x));
  }
  const double plot_w = kWidth - kLeft - kRight;
  auto px = [&](double t) { return kLeft + plot_w * t / t_end; };
  auto py = [&](double v) { return top + kPanelHeight * (1 - v / y_max); };

  svg << "<rect x='" << kLeft << "' y='" << top << "' width='" << plot_w << "' height='" << kPanelHeight
      << "' fill='none' stroke='#888'/>\n";
  svg << "<text x='" << kLeft << "' y='" << top - 8 << "' font-size='13'>" << label << "</text>\n";
  for (int i = 0; i <= 4; ++i) {
    const double v = y_max * i / 4;
    svg << "<text x='" << kLeft - 6 << "' y='" << fmt(py(v) + 4) << "' font-size='11' text-anchor='end'>"
        << tick_label(v) << "</text>\n";
    const double t = t_end * i / 4;
    svg << "<text x='" << fmt(px(t)) << "' y='" << top + kPanelHeight + 14
        << "' font-size='11' text-anchor='middle'>" << format_seconds(t) << "</text>\n";
  }
  for (std::size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    svg << "<polyline fill='none' stroke-width='1.5' stroke='" << s.color << "' points='";
    double last = 0;
    for (const auto& x : samples) {
      const double v = s.value(x);
      svg << fmt(px(x.time)) << "," << fmt(py(last)) << " " << fmt(px(x.time)) << "," << fmt(py(v)) << " ";
      last = v;
    }
    svg << "'/>\n";
    const double ly = top + 14 + 16 * static_cast<double>(k);
    svg << "<line x1='" << kWidth - kRight + 12 << "' x2='" << kWidth - kRight + 32 << "' y1='" << ly - 4
        << "' y2='" << ly - 4 << "' stroke='" << s.color << "' stroke-width='3'/>\n";
    svg << "<text x='" << kWidth - kRight + 38 << "' y='" << ly << "' font-size='12'>" << s.name << "</text>\n";
  }
}

}  // namespace

void write_buffer_plot(const std::string& path, const std::vector<engine::LedgerSample>& samples,
                       std::size_t baseline_rss, const std::string& title) {
  if (samples.empty()) return;
  using memory::Stage;
  const std::array<std::pair<Stage, const char*>, 5> stages = {{
      {Stage::synthesizing, "#1f77b4"},
      {Stage::queued, "#d62728"},
      {Stage::on_device, "#2ca02c"},
      {Stage::pending_finalize, "#ff7f0e"},
      {Stage::awaiting_dealloc, "#9467bd"},
  }};
  std::vector<Series> counts;
  std::vector<Series> bytes;
  for (const auto& [stage, color] : stages) {
    const std::size_t i = memory::index_of(stage);
    counts.push_back({std::string(memory::stage_name(stage)), color,
                      [i](const engine::LedgerSample& s) { return static_cast<double>(s.count[i]); }});
    bytes.push_back({std::string(memory::stage_name(stage)), color,
                     [i](const engine::LedgerSample& s) { return static_cast<double>(s.bytes[i]); }});
  }
  bytes.push_back({"tracked total", "#000000", [](const engine::LedgerSample& s) { return static_cast<double>(s.tracked); }});
  bytes.push_back({"RSS - baseline", "#7f7f7f", [baseline_rss](const engine::LedgerSample& s) {
                     return std::max(0.0, static_cast<double>(s.rss) - static_cast<double>(baseline_rss));
                   }});

  std::ostringstream svg;
  const double height = kTop + 2 * kPanelHeight + kGap + 40;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << height
      << "' font-family='sans-serif'>\n<rect width='100%' height='100%' fill='white'/>\n";
  svg << "<text x='" << kLeft << "' y='18' font-size='15' font-weight='bold'>zkpipe buffers in flight: " << title
      << "</text>\n";
  panel(svg, kTop, "partitions per stage", samples, counts, [](double v) { return fmt(v); });
  panel(svg, kTop + kPanelHeight + kGap, "bytes per stage, tracked total, RSS above baseline", samples, bytes,
        [](double v) { return format_bytes(v); });
  svg << "</svg>\n";
  io::write_file_atomically(path, svg.str());
}

}  // namespace zkpipe::cli
