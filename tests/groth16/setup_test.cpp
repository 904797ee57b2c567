// Setup from the compiled circuit (what `zkpipe setup` runs, and what the device
// setup shares) against setup from recorded matrices, the chunked parallel Lagrange
// basis against its formula term by term, and keys whose points live only on a
// device refusing host access with an error that names the device.
#include <gtest/gtest.h>

#include <stdexcept>

#include "groth16/qap.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::groth16 {
namespace {

using ff::Fr;

TEST(Setup, FromCompiledCircuitEqualsFromRecordedMatrices) {
  const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 3, 1);
  const ToxicWaste secrets = ToxicWaste::from_seed(9);
  const SetupScalars recorded = setup_scalars(record_matrices(circuit), secrets);
  const SetupScalars compiled = setup_scalars(compile_circuit(circuit), secrets);
  EXPECT_EQ(recorded.density, compiled.density);
  EXPECT_EQ(recorded.domain_size, compiled.domain_size);
  EXPECT_TRUE(recorded.ic == compiled.ic);
  EXPECT_TRUE(recorded.a == compiled.a);
  EXPECT_TRUE(recorded.b == compiled.b);
  EXPECT_TRUE(recorded.l == compiled.l);
  EXPECT_TRUE(recorded.h == compiled.h);
  EXPECT_EQ(setup(compiled, secrets), setup(record_matrices(circuit), secrets));
}

TEST(Setup, LagrangeBasisMatchesItsFormulaAcrossChunks) {
  // 2^16 points: several of the basis's parallel chunks (2^14 each).
  const poly::EvaluationDomain domain(std::size_t{1} << 16);
  const Fr tau = Fr::from_u64(0x1234567) * Fr::from_u64(0xfedcba987);
  const std::vector<Fr> basis = lagrange_basis_at(domain, tau);
  ASSERT_EQ(basis.size(), domain.size());
  const Fr scale = domain.vanishing_at(tau) * domain.size_inv();
  for (std::size_t j : {std::size_t{0}, std::size_t{1}, std::size_t{16383}, std::size_t{16384}, std::size_t{40000},
                        domain.size() - 1}) {
    const Fr omega_j = domain.omega().pow(j);
    EXPECT_EQ(basis[j], scale * omega_j * (tau - omega_j).inverse()) << "j = " << j;
  }
  Fr sum = Fr::zero();  // Σ L_j(τ) = 1: the basis interpolates the constant 1
  for (const Fr& l : basis) sum += l;
  EXPECT_EQ(sum, Fr::one());
}

TEST(Setup, TauInsideTheDomainIsRefused) {
  const poly::EvaluationDomain domain(std::size_t{1} << 15);
  EXPECT_THROW(lagrange_basis_at(domain, domain.omega().pow(20000)), std::invalid_argument);
}

TEST(PointArray, DeviceOnlyPointsRefuseHostAccessNamingTheDevice) {
  const int words = 0;  // stands for device memory: never dereferenced
  const PointArray<G1Affine> on_device(5, DevicePoints{3, &words}, nullptr);
  EXPECT_FALSE(on_device.on_host());
  EXPECT_EQ(on_device.size(), 5u);
  EXPECT_EQ(on_device.address(), &words);
  try {
    (void)on_device.span();
    FAIL() << "span() of device-only points must throw";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("device 3"), std::string::npos) << e.what();
  }
  const PointArray<G1Affine> on_host(std::vector<G1Affine>(5));
  EXPECT_TRUE(on_host.on_host());
  EXPECT_FALSE(on_host == on_device);
}

}  // namespace
}  // namespace zkpipe::groth16
