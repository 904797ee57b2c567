#include "circuits/filecoin/api/published_parameters.hpp"

#include <array>

namespace zkpipe::filecoin::api {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = kKiB * 1024;
constexpr std::uint64_t kGiB = kMiB * 1024;

struct Published {
  ParameterCircuit circuit;
  std::uint64_t sector_bytes;
  std::string_view name;
};

// parameters.json's .params entries (the SnapDeals Poseidon variant's two left out:
// zkpipe's SnapDeals jobs prove the SHA-256 variant).
constexpr std::array<Published, 20> kPublished = {{
    {ParameterCircuit::kPorep, kKiB * 2,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"},
    {ParameterCircuit::kPorep, kMiB * 8,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params"},
    {ParameterCircuit::kPorep, kMiB * 512,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params"},
    {ParameterCircuit::kPorep, kGiB * 32,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"},
    {ParameterCircuit::kPorep, kGiB * 64,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params"},
    {ParameterCircuit::kWindowPost, kKiB * 2,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params"},
    {ParameterCircuit::kWindowPost, kMiB * 8,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.params"},
    {ParameterCircuit::kWindowPost, kMiB * 512,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params"},
    {ParameterCircuit::kWindowPost, kGiB * 32,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params"},
    {ParameterCircuit::kWindowPost, kGiB * 64,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params"},
    {ParameterCircuit::kWinningPost, kKiB * 2,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params"},
    {ParameterCircuit::kWinningPost, kMiB * 8,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params"},
    {ParameterCircuit::kWinningPost, kMiB * 512,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.params"},
    {ParameterCircuit::kWinningPost, kGiB * 32,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params"},
    {ParameterCircuit::kWinningPost, kGiB * 64,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params"},
    {ParameterCircuit::kSnapDeals, kKiB * 2,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params"},
    {ParameterCircuit::kSnapDeals, kMiB * 8,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.params"},
    {ParameterCircuit::kSnapDeals, kMiB * 512,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.params"},
    {ParameterCircuit::kSnapDeals, kGiB * 32,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params"},
    {ParameterCircuit::kSnapDeals, kGiB * 64,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params"},
}};

}  // namespace

std::optional<std::string_view> published_params_name(ParameterCircuit circuit, std::uint64_t sector_bytes) {
  for (const Published& p : kPublished) {
    if (p.circuit == circuit && p.sector_bytes == sector_bytes) return p.name;
  }
  return std::nullopt;
}

}  // namespace zkpipe::filecoin::api
