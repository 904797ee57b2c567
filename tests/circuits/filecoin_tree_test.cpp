// Filecoin's trees: tree_d (binary SHA-256) and the Poseidon trees with sub and top
// layers, against the references' roots.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "circuits/filecoin/core/fr32.hpp"
#include "circuits/filecoin/core/tree_d.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin_test_util.hpp"

namespace zkpipe::filecoin::core {
namespace {

using testing::bytes_from_hex;
using testing::fr_from_u64s;

// lotus zerocomm/zerocomm.go PieceComms: the commitment of a zero piece of padded
// size 128·2^i, i = 0…34. Its first and fifth entries are also filecoin-proofs
// tests/pieces.rs test_compute_comm_d_empty (SectorSize 128 and 2048).
constexpr std::string_view kZeroPieceComms[] = {
    "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",  // 128 bytes
    "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",  // 256 bytes
    "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",  // 512 bytes
    "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",  // 1024 bytes
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",  // 2048 bytes
    "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",  // 4096 bytes
    "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",  // 8192 bytes
    "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",  // 16384 bytes
    "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",  // 32768 bytes
    "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",  // 65536 bytes
    "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",  // 131072 bytes
    "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",  // 262144 bytes
    "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",  // 524288 bytes
    "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",  // 1048576 bytes
    "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",  // 2097152 bytes
    "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",  // 4194304 bytes
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",  // 8388608 bytes
    "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",  // 16777216 bytes
    "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",  // 33554432 bytes
    "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",  // 67108864 bytes
    "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",  // 134217728 bytes
    "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",  // 268435456 bytes
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",  // 536870912 bytes
    "ccc3c012f5b05e811a2bbfdd0f6833b84275b47bf229c0052a82484f3c1a5b3d",  // 1073741824 bytes
    "7df29b69773199e8f2b40b77919d048509eed768e2c7297b1f1437034fc3c62c",  // 2147483648 bytes
    "66ce05a3667552cf45c02bcc4e8392919bdeac35de2ff56271848e9f7b675107",  // 4294967296 bytes
    "d8610218425ab5e95b1ca6239d29a2e420d706a96f373e2f9c9a91d759d19b01",  // 8589934592 bytes
    "6d364b1ef846441a5a4a68862314acc0a46f016717e53443e839eedf83c2853c",  // 17179869184 bytes
    "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",  // 34359738368 bytes
    "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02",  // 68719476736 bytes
    "259d3d6b1f4d876d1185e1123af6f5501af0f67cf15b5216255b7b178d12051d",  // 137438953472 bytes
    "3f9a4d411da4ef1b36f35ff0a195ae392ab23fee7967b7c41b03d1613fc29239",  // 274877906944 bytes
    "fe4ef328c61aa39cfdb2484eaa32a151b1fe3dfd1f96dd8c9711fd86d6c58113",  // 549755813888 bytes
    "f55d68900e2d8381eccb8164cb9976f24b2de0dd61a31b97ce6eb23850d5e819",  // 1099511627776 bytes
    "aaaa8c4cb40aacee1e02dc65424b2a6c8e99f803b72f7929c4101d7fae6bff32",  // 2199023255552 bytes
};

TEST(TreeD, ZeroCommitmentsMatchLotus) {
  std::uint64_t size = 128;
  for (std::string_view hex : kZeroPieceComms) {
    EXPECT_EQ(zero_comm_d(size), bytes_from_hex<32>(hex)) << size << " bytes";
    size *= 2;
  }
}

// filecoin-proofs tests/pieces.rs test_compute_comm_d_empty: the empty 2 KiB sector,
// i.e. tree_d over the fr32 padding of 2032 zero bytes.
TEST(TreeD, EmptyTwoKibSectorMatchesFilecoinProofs) {
  const std::vector<std::uint8_t> padded = fr32::pad(std::vector<std::uint8_t>(2032, 0));
  ASSERT_EQ(padded.size(), 2048u);
  const hashers::Sha256Domain expected{252, 126, 146, 130, 150, 229, 22, 250, 173, 233, 134, 178, 143, 146, 212, 74,
                                       79,  36,  185, 53,  72,  82,  35, 55,  106, 121, 144, 39,  188, 24,  248, 51};
  const hash::merkle::Sha256Tree tree = build_tree_d(padded);
  EXPECT_EQ(tree.root(), expected);
  EXPECT_EQ(tree.height(), 6u);
  const hash::merkle::Sha256Path path = tree.path(37);
  EXPECT_EQ(hash::merkle::sha256_root_from_path(tree.leaf(37), path), expected);
}

TEST(TreeD, RejectsSizesThatAreNotPowersOfTwoNodes) {
  EXPECT_THROW(build_tree_d(std::vector<std::uint8_t>(96)), std::invalid_argument);
  EXPECT_THROW(build_tree_d(std::vector<std::uint8_t>(40)), std::invalid_argument);
  EXPECT_THROW(zero_comm_d(3000), std::invalid_argument);
}

// filecoin-hashers src/poseidon.rs tests::test_poseidon_hasher: the binary Poseidon
// tree over (1, 0, 0, 1); and tests::test_path: leaf 0 of four ones has path
// indices (0, 0).
TEST(PoseidonTree, BinaryTreeMatchesFilecoinHashers) {
  const PoseidonTree tree({Fr::one(), Fr::zero(), Fr::zero(), Fr::one()}, TreeShape{2, 0, 0});
  EXPECT_EQ(tree.root(),
            fr_from_u64s({0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb}));
  const PoseidonTree ones(std::vector<Fr>(4, Fr::one()), TreeShape{2, 0, 0});
  const PoseidonPath path = ones.path(0);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[0].index, 0u);
  EXPECT_EQ(path[1].index, 0u);
  EXPECT_EQ(root_from_path(Fr::one(), path), ones.root());
}

// filecoin-proofs src/constants.rs, SectorShape*.
TEST(PoseidonTree, SectorShapesMatchFilecoinProofs) {
  constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
  EXPECT_EQ(sector_tree_shape(2 * KiB), (TreeShape{8, 0, 0}));
  EXPECT_EQ(sector_tree_shape(8 * MiB), (TreeShape{8, 0, 0}));
  EXPECT_EQ(sector_tree_shape(512 * MiB), (TreeShape{8, 0, 0}));
  EXPECT_EQ(sector_tree_shape(4 * KiB), (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_tree_shape(16 * MiB), (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_tree_shape(1 * GiB), (TreeShape{8, 2, 0}));
  EXPECT_EQ(sector_tree_shape(16 * KiB), (TreeShape{8, 8, 0}));
  EXPECT_EQ(sector_tree_shape(32 * GiB), (TreeShape{8, 8, 0}));
  EXPECT_EQ(sector_tree_shape(32 * KiB), (TreeShape{8, 8, 2}));
  EXPECT_EQ(sector_tree_shape(64 * GiB), (TreeShape{8, 8, 2}));
  EXPECT_THROW(sector_tree_shape(3 * KiB), std::invalid_argument);
}

std::vector<Fr> leaves(std::size_t n) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(Fr::from_u64(1000 + i));
  return v;
}

Fr root_of_base(std::span<const Fr> leaves) {
  std::vector<Fr> level(leaves.begin(), leaves.end());
  while (level.size() > 1) {
    std::vector<Fr> up;
    for (std::size_t i = 0; i < level.size(); i += 8) {
      up.push_back(hashers::poseidon::hash(std::span(level).subspan(i, 8)));
    }
    level = std::move(up);
  }
  return level[0];
}

// The merkletree crate's compound trees (from_trees, from_sub_trees): leaves split
// in order into base trees, the sub root is the hash of `sub` base roots, the top
// root the hash of `top` sub roots; storage-proofs' paths add one level for each.
TEST(PoseidonTree, CompoundRootsAndPathsFollowTheMerkletreeLayout) {
  const std::vector<Fr> all = leaves(8 * 8 * 2 * 8);
  const std::span<const Fr> span(all);

  const PoseidonTree base(std::vector<Fr>(all.begin(), all.begin() + 64), TreeShape{8, 0, 0});
  EXPECT_EQ(base.root(), root_of_base(span.first(64)));

  const PoseidonTree sub2(std::vector<Fr>(all.begin(), all.begin() + 128), TreeShape{8, 2, 0});
  EXPECT_EQ(sub2.root(), hashers::poseidon::hash(
                             std::vector<Fr>{root_of_base(span.subspan(0, 64)), root_of_base(span.subspan(64, 64))}));

  std::vector<Fr> sub_roots;
  for (std::size_t g = 0; g < 2; ++g) {
    std::vector<Fr> base_roots;
    for (std::size_t t = 0; t < 8; ++t) base_roots.push_back(root_of_base(span.subspan((8 * g + t) * 64, 64)));
    sub_roots.push_back(hashers::poseidon::hash(base_roots));
  }
  const PoseidonTree top(all, TreeShape{8, 8, 2});
  EXPECT_EQ(top.root(), hashers::poseidon::hash(sub_roots));

  for (std::uint64_t leaf : {0u, 1u, 63u, 64u, 517u, 1023u}) {
    const PoseidonPath path = top.path(leaf);
    ASSERT_EQ(path.size(), 4u);  // two base levels, sub, top
    EXPECT_EQ(path[0].hashes.size(), 7u);
    EXPECT_EQ(path[2].hashes.size(), 7u);
    EXPECT_EQ(path[3].hashes.size(), 1u);
    EXPECT_EQ(path[2].index, (leaf / 64) % 8);
    EXPECT_EQ(path[3].index, leaf / 512);
    EXPECT_EQ(root_from_path(top.leaf(leaf), path), top.root()) << leaf;
    EXPECT_EQ(path_leaf_index(path, top.shape()), leaf);
    EXPECT_NE(root_from_path(top.leaf(leaf) + Fr::one(), path), top.root());
  }
}

TEST(PoseidonTree, RejectsLeafCountsAndShapesThatDoNotFit) {
  EXPECT_THROW(PoseidonTree(leaves(24), TreeShape{8, 0, 0}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(leaves(8), TreeShape{8, 2, 0}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(leaves(16), TreeShape{8, 0, 2}), std::invalid_argument);
  EXPECT_THROW(PoseidonTree(leaves(27), TreeShape{3, 0, 0}), std::invalid_argument);
  const PoseidonTree tree(leaves(8), TreeShape{8, 0, 0});
  EXPECT_THROW(tree.path(8), std::out_of_range);
  PoseidonPath bad = tree.path(0);
  bad[0].index = 8;
  EXPECT_THROW(root_from_path(tree.leaf(0), bad), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::core
