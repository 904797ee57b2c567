#include "engine/run_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace zkpipe::engine {

namespace {

constexpr std::array<Stage, 5> kPartitionStages = {Stage::synthesizing, Stage::queued, Stage::on_device,
                                                   Stage::pending_finalize, Stage::awaiting_dealloc};

constexpr std::array<std::pair<Hook, Hook>, 5> kStageBounds = {{
    {Hook::synth_start, Hook::synth_done},
    {Hook::synth_done, Hook::gpu_start},
    {Hook::gpu_start, Hook::abc_freed},
    {Hook::abc_freed, Hook::finalize_done},
    {Hook::finalize_done, Hook::dealloc_done},
}};

std::string micros(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e6);
  return buf;
}

double nearest_rank(const std::vector<double>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  auto rank = static_cast<std::size_t>(std::ceil(q * n));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// Joins `"key": value` pairs into a JSON object body.
class JsonArgs {
 public:
  void add(std::string_view key, const std::string& value) {
    if (!body_.empty()) body_.push_back(',');
    body_.append("\"").append(key).append("\":").append(value);
  }
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace

StageStats summarize(std::vector<double> values) {
  StageStats s;
  s.samples = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.p50 = nearest_rank(values, 0.50);
  s.p95 = nearest_rank(values, 0.95);
  return s;
}

void RunRecorder::on_hook(const HookEvent& event) {
  LedgerSample s;
  s.time = event.time;
  s.hook = event.hook;
  s.request = event.request;
  s.partition = event.partition;
  for (Stage stage : kAllStages) {
    s.count[index_of(stage)] = event.ledger[stage].count;
    s.bytes[index_of(stage)] = event.ledger[stage].bytes;
  }
  s.tracked = event.ledger.tracked;
  s.rss = event.rss;
  s.runtime = event.runtime;
  samples_.push_back(s);
}

void RunRecorder::on_partition_retired(const PartitionTimeline& timeline) {
  if (timeline.complete()) timelines_.push_back(timeline);
}

StageStats RunRecorder::stage_stats(Stage stage) const {
  std::vector<double> values;
  for (const PartitionTimeline& t : timelines_) {
    const double s = t.seconds_in(stage);
    if (!std::isnan(s)) values.push_back(s);
  }
  return summarize(std::move(values));
}

void RunRecorder::write_chrome_trace(std::ostream& out) const {
  constexpr int kPartitionsPid = 1;
  constexpr int kMemoryPid = 2;
  std::vector<std::string> events;
  auto process_name = [&](int pid, const std::string& name) {
    events.push_back(R"({"ph":"M","name":"process_name","pid":)" + std::to_string(pid) +
                     R"(,"tid":0,"args":{"name":")" + name + R"("}})");
  };
  process_name(kPartitionsPid, "partitions");
  process_name(kMemoryPid, "buffer ledger");

  std::vector<PartitionTimeline> rows = timelines_;
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
    return x.when(Hook::synth_start) < y.when(Hook::synth_start);
  });
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const PartitionTimeline& t = rows[row];
    const std::string tid = std::to_string(row + 1);
    const std::string label = "proof " + std::to_string(t.request) + " part " + std::to_string(t.partition + 1) +
                              "/" + std::to_string(t.partitions);
    events.push_back(R"({"ph":"M","name":"thread_name","pid":1,"tid":)" + tid + R"(,"args":{"name":")" + label +
                     R"("}})");
    for (std::size_t i = 0; i < kPartitionStages.size(); ++i) {
      const auto [from, to] = kStageBounds[i];
      JsonArgs args;
      args.add("proof", std::to_string(t.request));
      args.add("part", std::to_string(t.partition + 1));
      args.add("device", std::to_string(t.device));
      events.push_back(R"({"ph":"X","cat":"partition","name":")" + std::string(stage_name(kPartitionStages[i])) +
                       R"(","pid":1,"tid":)" + tid + R"(,"ts":)" + micros(t.when(from)) + R"(,"dur":)" +
                       micros(t.when(to) - t.when(from)) + R"(,"args":)" + args.str() + "}");
    }
  }

  for (const LedgerSample& s : samples_) {
    JsonArgs counts;
    JsonArgs bytes;
    for (Stage stage : kAllStages) {
      counts.add(stage_name(stage), std::to_string(s.count[index_of(stage)]));
      bytes.add(stage_name(stage), std::to_string(s.bytes[index_of(stage)]));
    }
    JsonArgs memory;
    memory.add("tracked", std::to_string(s.tracked));
    memory.add("rss", std::to_string(s.rss));
    memory.add("runtime", std::to_string(s.runtime));
    const std::string head = R"({"ph":"C","pid":2,"tid":0,"ts":)" + micros(s.time) + R"(,"name":")";
    events.push_back(head + R"(buffers per stage","args":)" + counts.str() + "}");
    events.push_back(head + R"(bytes per stage","args":)" + bytes.str() + "}");
    events.push_back(head + R"(memory","args":)" + memory.str() + "}");
  }

  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  for (std::size_t i = 0; i < events.size(); ++i) out << events[i] << (i + 1 < events.size() ? ",\n" : "\n");
  out << "]}\n";
}

}  // namespace zkpipe::engine
