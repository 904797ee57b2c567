// The scalars of the density-pruned A and B queries, in the keys' order: what the
// A and B MSMs multiply the key's points by. Every backend's reference (the CUDA
// one selects the same scalars on its device), and the CPU finish's G2 MSM.
#pragma once

#include <vector>

#include "ff/fr.hpp"
#include "groth16/witness.hpp"

namespace zkpipe::groth16 {

std::vector<ff::Fr> a_query_scalars(const Assignment& z);
std::vector<ff::Fr> b_query_scalars(const Assignment& z);

}  // namespace zkpipe::groth16
