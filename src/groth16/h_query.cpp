#include "groth16/h_query.hpp"

#include <bit>

namespace zkpipe::groth16 {

poly::EvaluationDomain h_query_domain(HQuery query, std::size_t domain_size) {
  if (query == HQuery::kMonomial) return poly::EvaluationDomain(domain_size);
  const ff::Fr generator = ff::Fr::from_u64(kSnarkjsRootGenerator);
  // ω_2N: the odd coset of the N-th roots inside the 2N-th roots.
  const auto log_double = static_cast<unsigned>(std::bit_width(domain_size - 1)) + 1;
  return poly::EvaluationDomain(domain_size, generator, poly::root_of_unity_from(generator, log_double));
}

}  // namespace zkpipe::groth16
