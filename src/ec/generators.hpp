// BLS12-381 group constants: the curve seed, the prime group order r, the
// cofactors, and the standard generators of G1 and G2 (as in the IETF
// pairing-friendly-curves draft, zcash and blst). tests/ec checks them: on the
// curve, of order r, and the cofactors annihilate every curve point with r.
#pragma once

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/hex_constant.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec {

// The curve seed is u = -0xd201000000010000; code works with |u| and the sign.
inline constexpr ff::u64 kSeedAbs = 0xd201000000010000;
inline constexpr bool kSeedIsNegative = true;

// r = u^4 - u^2 + 1, the order of G1 and G2 (the scalar field's modulus).
inline constexpr ff::Limbs<4> kGroupOrder = ff::FrParams::kModulus;

// #E(Fp) = h1 * r with h1 = (u - 1)^2 / 3.
inline constexpr ff::Limbs<2> kG1Cofactor = limbs_from_hex<2>("396c8c005555e1568c00aaab0000aaab");

// #E'(Fp2) = h2 * r.
inline constexpr ff::Limbs<8> kG2Cofactor = limbs_from_hex<8>(
    "5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa"
    "628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5");

inline constexpr Affine<G1Curve> kG1Generator = Affine<G1Curve>::from_xy(
    field_from_hex<ff::Fp>("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905"
                           "a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
    field_from_hex<ff::Fp>("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af6"
                           "00db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"));

inline constexpr Affine<G2Curve> kG2Generator = Affine<G2Curve>::from_xy(
    ff::Fp2{field_from_hex<ff::Fp>("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02"
                                   "b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
            field_from_hex<ff::Fp>("13e02b6052719f607dacd3a088274f65596bd0d09920b61a"
                                   "b5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
    ff::Fp2{field_from_hex<ff::Fp>("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a7"
                                   "6d429a695160d12c923ac9cc3baca289e193548608b82801"),
            field_from_hex<ff::Fp>("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af"
                                   "267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")});

}  // namespace zkpipe::ec
