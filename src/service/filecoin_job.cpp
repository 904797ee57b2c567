#include "service/filecoin_job.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "circuits/filecoin/c1_circuit.hpp"
#include "circuits/filecoin/sector_values.hpp"
#include "ec/serialization.hpp"
#include "formats/bellperson_vk.hpp"
#include "formats/format_error.hpp"

namespace zkpipe::service {

namespace {

// bellperson_vk.hpp's layout: α₁ β₁ β₂ γ₂ δ₁ δ₂, the IC count, then IC.
constexpr std::size_t kG1 = ec::kUncompressedSize<ec::G1Curve>;
constexpr std::size_t kG2 = ec::kUncompressedSize<ec::G2Curve>;
constexpr std::size_t kIcCountAt = 3 * kG1 + 3 * kG2;
constexpr std::size_t kIcAt = kIcCountAt + 4;

// `n` bytes of `file` from `offset`; fewer only where the file ends.
std::vector<std::uint8_t> read_at(const io::ReadOnlyFile& file, std::size_t offset, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(file.fd(), out.data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      throw formats::FormatError(file.name(), std::string("cannot read: ") + std::strerror(errno), {}, offset + got);
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  out.resize(got);
  return out;
}

}  // namespace

const filecoin::SealProof& filecoin_seal_proof(const v1::FilecoinPorepJob& job) {
  return *filecoin::parse_sector_values(job.sector_json(), kSectorField).registered_proof;
}

std::uint32_t filecoin_partitions(const v1::FilecoinPorepJob& job) {
  try {
    return static_cast<std::uint32_t>(filecoin_seal_proof(job).partitions());
  } catch (const std::exception&) {
    // Asked while answering and journaling, which must not throw.
    return 0;
  }
}

proving::FilecoinPorepInstance filecoin_instance(const v1::FilecoinPorepJob& job) {
  return proving::filecoin_porep_instance(job.c1_json(), kC1Field, job.sector_json(), kSectorField);
}

std::string filecoin_circuit_name(const filecoin::SealProof& proof) {
  return filecoin::stacked_circuit_shape(proof).name();
}

void check_filecoin_key_head(const io::ReadOnlyFile& params, std::size_t public_inputs) {
  const std::vector<std::uint8_t> head = read_at(params, 0, kIcAt);
  if (head.size() < kIcAt) {
    throw formats::FormatError(params.name(), "too short for a .params file: " + std::to_string(head.size()) +
                                                  " bytes, less than a verifying key");
  }
  const std::uint32_t ic = (std::uint32_t{head[kIcCountAt]} << 24) | (std::uint32_t{head[kIcCountAt + 1]} << 16) |
                           (std::uint32_t{head[kIcCountAt + 2]} << 8) | std::uint32_t{head[kIcCountAt + 3]};
  // Before any point is read: a count from another circuit (or not a .params file
  // at all) says all there is to say.
  if (ic != public_inputs + 1) {
    throw formats::FormatError(params.name(),
                               "the verifying key has " + std::to_string(ic) +
                                   " IC points; the seal proof's circuit has " + std::to_string(public_inputs) +
                                   " public inputs (" + std::to_string(public_inputs + 1) +
                                   " IC points): parameters of another circuit",
                               {}, kIcCountAt);
  }
  std::vector<std::uint8_t> vk = head;
  const std::vector<std::uint8_t> points = read_at(params, kIcAt, std::size_t{ic} * kG1);
  vk.insert(vk.end(), points.begin(), points.end());
  formats::decode_bellperson_vk(vk, params.name());
}

}  // namespace zkpipe::service
