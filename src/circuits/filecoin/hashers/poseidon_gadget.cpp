#include "circuits/filecoin/hashers/poseidon_gadget.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "circuits/filecoin/hashers/poseidon_hash.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

namespace {

using r1cs::LC;
using r1cs::Variable;

Fr pow5(const Fr& x) { return x.square().square() * x; }

// neptune's Elt: a cell is either a variable or a linear combination. On a
// values-only system the combination is not built; only the value is kept.
struct Cell {
  LC lc;  // when num is empty
  Fr value;
  std::optional<AllocatedNum> num;

  static Cell of(const AllocatedNum& n) { return Cell{LC(), n.value(), n}; }
  static Cell constant(const Fr& c, bool build) {
    return Cell{build ? LC::constant(c) : LC(), c, std::nullopt};
  }
  LC combination() const { return num ? num->lc() : lc; }
};

class Synthesizer {
 public:
  Synthesizer(ConstraintSystem& cs, const Constants& c, const Fr& tag)
      : cs_(cs), c_(c), tag_(tag), build_(!cs.values_only()) {}

  AllocatedNum run(std::span<const AllocatedNum> preimage) {
    std::vector<Cell> cells;
    cells.reserve(c_.width());
    cells.push_back(Cell::constant(tag_, build_));
    for (const AllocatedNum& x : preimage) cells.push_back(Cell::of(x));

    const std::size_t half = c_.half_full_rounds();
    {
      auto s = cs_.scope("first round");
      first_full_round(cells);
    }
    for (std::size_t i = 1; i < half; ++i) {
      auto s = cs_.scope("initial full round", i);
      full_round(cells, true);
    }
    for (std::size_t i = 0; i < c_.partial_rounds(); ++i) {
      auto s = cs_.scope("partial round", i);
      partial_round(cells);
    }
    for (std::size_t i = 0; i + 1 < half; ++i) {
      auto s = cs_.scope("final full round", i);
      full_round(cells, true);
    }
    {
      auto s = cs_.scope("terminal full round");
      full_round(cells, false);
    }
    auto s = cs_.scope("hash result");
    return ensure_allocated(cells[1]);
  }

 private:
  const Fr& next_key() { return c_.compressed_round_constants.at(key_++); }

  void enforce(const LC& a, const LC& b, const LC& c) {
    if (build_) {
      cs_.enforce(a, b, c);
    } else {
      cs_.skip_constraints(1);
    }
  }

  LC plus_constant(const AllocatedNum& x, const Fr& k) const {
    LC lc = x.lc();
    lc.add(k, Variable::one());
    return lc;
  }

  AllocatedNum ensure_allocated(const Cell& cell) {
    if (cell.num) return *cell.num;
    const AllocatedNum v = AllocatedNum::alloc(cs_, cell.value);
    enforce(cell.lc, LC(Variable::one()), v.lc());
    return v;
  }

  AllocatedNum square(const AllocatedNum& x) {
    const AllocatedNum y = AllocatedNum::alloc(cs_, x.value().square());
    enforce(x.lc(), x.lc(), y.lc());
    return y;
  }

  // (x + pre)·x⁴ + post, constrained as (x + pre)·x⁴ = y − post.
  AllocatedNum mul_sum(const AllocatedNum& x4, const AllocatedNum& x, const std::optional<Fr>& pre,
                       const std::optional<Fr>& post) {
    Fr value = x.value();
    if (pre) value += *pre;
    value *= x4.value();
    if (post) value += *post;
    const AllocatedNum y = AllocatedNum::alloc(cs_, value);
    if (build_) {
      LC c = y.lc();
      if (post) c.add(-*post, Variable::one());
      cs_.enforce(pre ? plus_constant(x, *pre) : x.lc(), x4.lc(), c);
    } else {
      cs_.skip_constraints(1);
    }
    return y;
  }

  Cell sbox(const Cell& in, const std::optional<Fr>& post) {
    const AllocatedNum x = ensure_allocated(in);
    const AllocatedNum x2 = square(x);
    const AllocatedNum x4 = square(x2);
    return Cell::of(mul_sum(x4, x, std::nullopt, post));
  }

  // The first round's S-box on an input variable, with the round constant added
  // inside the constraints: (x + pre)² then x⁴, then (x + pre)·x⁴ + post.
  Cell sbox_pre_add(const Cell& in, const Fr& pre, const Fr& post) {
    const AllocatedNum x = ensure_allocated(in);
    const AllocatedNum x2 = AllocatedNum::alloc(cs_, (x.value() + pre).square());
    if (build_) {
      const LC shifted = plus_constant(x, pre);
      cs_.enforce(shifted, shifted, x2.lc());
    } else {
      cs_.skip_constraints(1);
    }
    const AllocatedNum x4 = square(x2);
    return Cell::of(mul_sum(x4, x, pre, post));
  }

  void first_full_round(std::vector<Cell>& cells) {
    const std::size_t t = c_.width();
    std::vector<Fr> pre(t);
    for (Fr& k : pre) k = next_key();
    std::vector<Fr> post(t);
    for (Fr& k : post) k = next_key();
    cells[0] = Cell::constant(pow5(cells[0].value + pre[0]) + post[0], build_);
    for (std::size_t i = 1; i < t; ++i) {
      auto s = cs_.scope("quintic s-box", i);
      cells[i] = sbox_pre_add(cells[i], pre[i], post[i]);
    }
    linear_layer(cells);
  }

  void full_round(std::vector<Cell>& cells, bool add_keys) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      auto s = cs_.scope("quintic s-box", i);
      std::optional<Fr> post;
      if (add_keys) post = next_key();
      cells[i] = sbox(cells[i], post);
    }
    linear_layer(cells);
  }

  void partial_round(std::vector<Cell>& cells) {
    const Fr key = next_key();
    cells[0] = sbox(cells[0], key);
    linear_layer(cells);
  }

  // Σ cells[i]·coeffs[i], as neptune's scalar_product.
  Cell scalar_product(const std::vector<Cell>& cells, const std::vector<Fr>& coeffs) const {
    Cell out{LC(), Fr::zero(), std::nullopt};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out.value += cells[i].value * coeffs[i];
      if (build_) {
        LC term = cells[i].combination();
        term *= coeffs[i];
        out.lc += term;
      }
    }
    if (build_) out.lc.compact();
    return out;
  }

  // The state as a row vector times the round's matrix (neptune's
  // product_mds_with_matrix), which makes every cell a linear combination.
  void times_matrix(std::vector<Cell>& cells, const SquareMatrix& m) const {
    const std::size_t t = cells.size();
    std::vector<Cell> out;
    out.reserve(t);
    std::vector<Fr> column(t);
    for (std::size_t j = 0; j < t; ++j) {
      for (std::size_t i = 0; i < t; ++i) column[i] = m.at(i, j);
      out.push_back(scalar_product(cells, column));
    }
    cells = std::move(out);
  }

  void times_sparse(std::vector<Cell>& cells, const SparseMatrix& m) const {
    const Cell first = scalar_product(cells, m.w_hat);
    for (std::size_t j = 1; j < cells.size(); ++j) {
      Cell& cell = cells[j];
      if (build_) {
        LC term = cells[0].combination();
        term *= m.v_rest[j - 1];
        cell.lc = cell.combination();
        cell.lc += term;
        cell.lc.compact();
      }
      cell.value += cells[0].value * m.v_rest[j - 1];
      cell.num.reset();
    }
    cells[0] = first;
  }

  void linear_layer(std::vector<Cell>& cells) {
    const std::size_t half = c_.half_full_rounds();
    const std::size_t r = round_++;
    if (r + 1 == half) {
      times_matrix(cells, c_.pre_sparse_matrix);
    } else if (r >= half && r < half + c_.partial_rounds()) {
      times_sparse(cells, c_.sparse_matrices[r - half]);
    } else {
      times_matrix(cells, c_.mds);
    }
  }

  ConstraintSystem& cs_;
  const Constants& c_;
  Fr tag_;
  bool build_;
  std::size_t key_ = 0;
  std::size_t round_ = 0;
};

}  // namespace

AllocatedNum hash(ConstraintSystem& cs, const Constants& c, std::span<const AllocatedNum> preimage) {
  if (preimage.size() != c.arity()) {
    throw std::invalid_argument("poseidon gadget: " + std::to_string(preimage.size()) + " inputs for arity " +
                                std::to_string(c.arity()));
  }
  auto s = cs.scope("poseidon");
  return Synthesizer(cs, c, merkle_tree_tag(c.arity())).run(preimage);
}

AllocatedNum hash_with_tag(ConstraintSystem& cs, const Constants& c, const Fr& tag,
                           std::span<const AllocatedNum> preimage) {
  if (preimage.size() != c.arity()) {
    throw std::invalid_argument("poseidon gadget: " + std::to_string(preimage.size()) + " inputs for arity " +
                                std::to_string(c.arity()));
  }
  auto s = cs.scope("poseidon");
  return Synthesizer(cs, c, tag).run(preimage);
}

AllocatedNum hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage) {
  return hash(cs, constants(preimage.size()), preimage);
}

AllocatedNum hash_md(ConstraintSystem& cs, std::span<const AllocatedNum> elements) {
  constexpr std::size_t kArity = 36;
  if (elements.size() < 2) throw std::invalid_argument("poseidon hash_md gadget: needs at least two elements");
  const Constants& c = constants(kArity);
  AllocatedNum acc = elements[0];
  std::vector<AllocatedNum> preimage;
  std::size_t chunk = 0;
  for (std::size_t next = 1; next < elements.size(); next += kArity - 1, ++chunk) {
    const std::size_t take = std::min(kArity - 1, elements.size() - next);
    preimage.assign(1, acc);
    preimage.insert(preimage.end(), elements.begin() + next, elements.begin() + next + take);
    for (std::size_t i = take + 1; i < kArity; ++i) {
      auto s = cs.scope("padding", i);
      preimage.push_back(AllocatedNum::alloc(cs, Fr::zero()));
    }
    auto s = cs.scope("hash md", chunk);
    acc = hash(cs, c, preimage);
  }
  return acc;
}

std::size_t hash_constraint_count(const Constants& c) {
  return 3 * c.arity() + 4 * (c.width() * (c.plain.full_rounds - 1) + c.partial_rounds()) + 1;
}

}  // namespace zkpipe::filecoin::hashers::poseidon
