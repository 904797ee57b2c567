#include "r1cs/compiled_r1cs.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <utility>

namespace zkpipe::r1cs {

namespace coefficient_code {

Fr decode(std::uint32_t code, std::span<const Fr> table) {
  if (!is_small(code)) return table[table_index(code)];
  const std::int64_t k = small_value(code);
  const Fr magnitude = Fr::from_u64(static_cast<std::uint64_t>(k < 0 ? -k : k));
  return k < 0 ? -magnitude : magnitude;
}

}  // namespace coefficient_code

std::size_t CompiledR1cs::matrix_bytes() const {
  std::size_t bytes = coefficient_table.size_bytes();
  for (const CompiledMatrix* m : {&a, &b, &c}) {
    bytes += m->row_offsets.size_bytes() + m->columns.size_bytes() + m->coefficients.size_bytes();
  }
  return bytes;
}

std::size_t CompilingSystem::LimbsHash::operator()(const Fr::Repr& r) const {
  std::uint64_t h = 0x9e3779b97f4a7c15;
  for (std::uint64_t limb : r) h = (h ^ limb) * 0xff51afd7ed558ccd;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

CompilingSystem::CompilingSystem() { alloc_input([] { return Fr::one(); }); }

CompilingSystem::CompilingSystem(Segment, SegmentBase base)
    : segment_(base),
      num_inputs_(base.inputs),
      num_aux_(base.aux),
      a_aux_density_(base.aux),
      b_input_density_(base.inputs),
      b_aux_density_(base.aux) {}

Variable CompilingSystem::alloc(ValueFn /*value*/) {
  if (num_aux_ > Variable::kMaxIndex) throw std::length_error("CompilingSystem: too many aux variables");
  a_aux_density_.push_back();
  b_aux_density_.push_back();
  return Variable::aux(static_cast<std::uint32_t>(num_aux_++));
}

Variable CompilingSystem::alloc_input(ValueFn /*value*/) {
  if (num_inputs_ > Variable::kMaxIndex) throw std::length_error("CompilingSystem: too many inputs");
  b_input_density_.push_back();
  return Variable::input(static_cast<std::uint32_t>(num_inputs_++));
}

std::uint32_t CompilingSystem::code_of(const Fr& coefficient) {
  if (coefficient.is_one()) return coefficient_code::of_small(1);
  const auto [it, inserted] = codes_.try_emplace(coefficient.mont(), 0);
  if (!inserted) return it->second;
  // Classified once per distinct coefficient: its canonical value, or p minus it, small.
  const Fr::Repr canonical = coefficient.to_canonical();
  const Fr::Repr negated = (-coefficient).to_canonical();
  // 31-bit two's complement holds −2^30 … 2^30 − 1.
  auto small = [](const Fr::Repr& r, std::uint64_t limit) -> std::optional<std::int64_t> {
    for (std::size_t i = 1; i < r.size(); ++i) {
      if (r[i] != 0) return std::nullopt;
    }
    if (r[0] > limit) return std::nullopt;
    return static_cast<std::int64_t>(r[0]);
  };
  constexpr auto kLimit = static_cast<std::uint64_t>(coefficient_code::kSmallLimit);
  if (auto k = small(canonical, kLimit - 1)) {
    it->second = coefficient_code::of_small(*k);
  } else if (auto m = small(negated, kLimit)) {
    it->second = coefficient_code::of_small(-*m);
  } else {
    if (table_.size() >= coefficient_code::kTableFlag) throw std::length_error("CompilingSystem: too many coefficients");
    it->second = coefficient_code::of_table_index(static_cast<std::uint32_t>(table_.size()));
    table_.push_back(coefficient);
  }
  return it->second;
}

void CompilingSystem::append(Matrix& m, const LC& lc, DensityBitmap* input_density, DensityBitmap* aux_density) {
  for (const Term& t : lc.terms()) {
    m.columns.push_back(t.var);
    m.coefficients.push_back(code_of(t.coeff));
    if (t.var.is_aux()) {
      if (aux_density) aux_density->set(t.var.index());
    } else if (input_density) {
      input_density->set(t.var.index());
    }
  }
  m.offsets.push_back(m.columns.size());
}

void CompilingSystem::enforce(const LC& a, const LC& b, const LC& c) {
  append(a_, a, nullptr, &a_aux_density_);
  append(b_, b, &b_input_density_, &b_aux_density_);
  append(c_, c, nullptr, nullptr);
  if (progress_ && (num_constraints() & 0xffff) == 0) progress_(num_constraints());
}

void CompilingSystem::reserve(Matrix& m, const Matrix& segment, std::size_t copies, std::size_t extra_rows,
                              std::size_t extra_entries) {
  m.offsets.reserve(m.offsets.size() + copies * (segment.offsets.size() - 1) + extra_rows);
  m.columns.reserve(m.columns.size() + copies * segment.columns.size() + extra_entries);
  m.coefficients.reserve(m.coefficients.size() + copies * segment.coefficients.size() + extra_entries);
}

void CompilingSystem::append_copies(Matrix& m, const Matrix& segment, std::size_t copies,
                                    const SegmentPlacement& placement, const std::vector<std::uint32_t>& codes) {
  const std::size_t rows = segment.offsets.size() - 1;
  const std::size_t nnz = segment.columns.size();
  const std::size_t first_row = m.offsets.size();
  const std::size_t first_entry = m.columns.size();
  m.offsets.resize(first_row + copies * rows);
  m.columns.resize(first_entry + copies * nnz);
  m.coefficients.resize(first_entry + copies * nnz);
  // Each copy writes its own ranges: the copies of a large circuit on all cores.
  tbb::parallel_for(std::size_t{0}, copies, [&](std::size_t k) {
    const std::uint64_t entry_base = first_entry + k * nnz;
    std::uint64_t* offsets = m.offsets.data() + first_row + k * rows;
    for (std::size_t r = 0; r < rows; ++r) offsets[r] = entry_base + segment.offsets[r + 1];
    Variable* columns = m.columns.data() + entry_base;
    std::uint32_t* coefficients = m.coefficients.data() + entry_base;
    for (std::size_t e = 0; e < nnz; ++e) {
      columns[e] = placement.place(segment.columns[e], k);
      const std::uint32_t code = segment.coefficients[e];
      coefficients[e] = coefficient_code::is_small(code) ? code : codes[coefficient_code::table_index(code)];
    }
  });
}

std::unique_ptr<ConstraintSystem> CompilingSystem::new_segment() const {
  if (segment_) throw std::logic_error("new_segment on a CompilingSystem segment");
  return std::make_unique<CompilingSystem>(Segment{}, SegmentBase{num_inputs_, num_aux_});
}

void CompilingSystem::append_segment(const ConstraintSystem& part, std::size_t copies) {
  const auto* compiled = dynamic_cast<const CompilingSystem*>(&part);
  if (compiled == nullptr || !compiled->segment_) {
    throw std::invalid_argument("CompilingSystem::append_segment: not a CompilingSystem segment");
  }
  const CompilingSystem& segment = *compiled;
  const SegmentBase base = *segment.segment_;
  const SegmentPlacement placement =
      place_copies(base, segment.num_inputs_, segment.num_aux_, num_inputs_, num_aux_, copies);
  // The segment's wide coefficients as codes of this system's table.
  std::vector<std::uint32_t> codes;
  codes.reserve(segment.table_.size());
  for (const Fr& coefficient : segment.table_) codes.push_back(code_of(coefficient));
  // The Groth16 input constraints that follow: a row per input, its entry in A.
  const std::size_t input_rows = num_inputs_ + copies * placement.own_inputs;
  for (auto [m, own] : {std::pair{&a_, &segment.a_}, std::pair{&b_, &segment.b_}, std::pair{&c_, &segment.c_}}) {
    reserve(*m, *own, copies, input_rows, m == &a_ ? input_rows : 0);
    append_copies(*m, *own, copies, placement, codes);
  }
  append_density_copies(a_aux_density_, segment.a_aux_density_, base.aux, copies);
  append_density_copies(b_aux_density_, segment.b_aux_density_, base.aux, copies);
  append_density_copies(b_input_density_, segment.b_input_density_, base.inputs, copies);
  num_inputs_ += copies * placement.own_inputs;
  num_aux_ += copies * placement.own_aux;
  if (progress_) progress_(num_constraints());
}

CompiledR1cs CompilingSystem::finish() && {
  if (segment_) throw std::logic_error("CompilingSystem::finish: a segment is appended, not finished");
  struct Storage {
    Matrix a, b, c;
    std::vector<Fr> table;
  };
  auto storage = std::make_shared<Storage>(Storage{std::move(a_), std::move(b_), std::move(c_), std::move(table_)});
  for (Matrix* m : {&storage->a, &storage->b, &storage->c}) {
    m->offsets.shrink_to_fit();
    m->columns.shrink_to_fit();
    m->coefficients.shrink_to_fit();
  }
  auto view = [](const Matrix& m) { return CompiledMatrix{m.offsets, m.columns, m.coefficients}; };
  CompiledR1cs r;
  r.num_inputs = num_inputs_;
  r.num_aux = num_aux_;
  r.num_constraints = storage->a.offsets.size() - 1;
  r.a = view(storage->a);
  r.b = view(storage->b);
  r.c = view(storage->c);
  r.coefficient_table = storage->table;
  r.a_aux_density = std::move(a_aux_density_);
  r.b_input_density = std::move(b_input_density_);
  r.b_aux_density = std::move(b_aux_density_);
  r.storage = std::move(storage);
  return r;
}

}  // namespace zkpipe::r1cs
