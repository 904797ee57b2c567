#include "formats/snarkjs_json.hpp"

#include <vector>

#include <nlohmann/json.hpp>

#include "ec/jacobian.hpp"
#include "ec/subgroup.hpp"
#include "formats/decimal.hpp"
#include "formats/excerpt.hpp"
#include "formats/format_error.hpp"
#include "groth16/key_validation.hpp"
#include "io/strict_json.hpp"
#include "pairing/pairing.hpp"

namespace zkpipe::formats {

using groth16::G1Affine;
using groth16::G2Affine;
using Json = nlohmann::ordered_json;

namespace {

constexpr int kIndent = 1;  // JSON.stringify(value, null, 1)
constexpr const char* kProtocol = "groth16";
constexpr const char* kCurve = "bls12381";

// ---------------------------------------------------------------- writing

Json number(const ff::Fp& x) { return to_decimal(x); }
Json number(const ff::Fr& x) { return to_decimal(x); }
Json number(const ff::Fp2& x) { return Json::array({number(x.c0), number(x.c1)}); }

Json point(const G1Affine& p) {
  if (p.infinity) return Json::array({"0", "1", "0"});
  return Json::array({number(p.x), number(p.y), "1"});
}

Json point(const G2Affine& p) {
  if (p.infinity) return Json::array({number(ff::Fp2::zero()), number(ff::Fp2::one()), number(ff::Fp2::zero())});
  return Json::array({number(p.x), number(p.y), number(ff::Fp2::one())});
}

Json number(const ff::Fp6& x) { return Json::array({number(x.c0), number(x.c1), number(x.c2)}); }
Json number(const ff::Fp12& x) { return Json::array({number(x.c0), number(x.c1)}); }

std::string dump(const Json& j) { return j.dump(kIndent); }

// "name[i]", for error messages.
std::string indexed(std::string name, std::size_t i) {
  name += '[';
  name += std::to_string(i);
  name += ']';
  return name;
}

// ---------------------------------------------------------------- reading

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw FormatError(name_, (where.empty() ? "" : where + ": ") + what);
  }

  Json parse(std::string_view text) const {
    try {
      return io::parse_strict_json<Json>(text, {kMaxJsonDepth, kMaxJsonMembers});
    } catch (const io::StrictJsonError& e) {
      fail("", e.what());
    }
  }

  const Json& member(const Json& obj, const char* key, const std::string& where = "") const {
    if (!obj.is_object()) fail(where, "expected a JSON object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing \"") + key + "\"");
    return *it;
  }

  const Json& array(const Json& j, const std::string& where, std::size_t min, std::size_t max) const {
    if (!j.is_array() || j.size() < min || j.size() > max) {
      fail(where, min == max ? "expected an array of " + std::to_string(min) + " elements"
                             : "expected an array of " + std::to_string(min) + " to " + std::to_string(max) +
                                   " elements");
    }
    return j;
  }

  template <class Field>
  Field number(const Json& j, const std::string& where) const {
    if (!j.is_string()) fail(where, "expected a number as a decimal string");
    const auto& text = j.get_ref<const std::string&>();
    std::optional<Field> v;
    if constexpr (std::is_same_v<Field, ff::Fp>) v = parse_fp(text);
    else v = parse_fr(text);
    if (!v) {
      // Appended, not "\"" + excerpt(…): GCC 12 takes that prepend for an overlapping
      // copy (a false -Wrestrict) once parse() is inlined beside it.
      std::string what = "\"";
      what += excerpt(text);
      what += "\" is not a decimal integer below the field's modulus";
      fail(where, what);
    }
    return *v;
  }

  ff::Fp2 fp2(const Json& j, const std::string& where) const {
    array(j, where, 2, 2);
    return {number<ff::Fp>(j[0], indexed(where, 0)), number<ff::Fp>(j[1], indexed(where, 1))};
  }

  template <class Curve>
  typename Curve::Field coordinate(const Json& j, const std::string& where) const {
    if constexpr (std::is_same_v<typename Curve::Field, ff::Fp>) return number<ff::Fp>(j, where);
    else return fp2(j, where);
  }

  // [x, y] or [x, y, z]: affine when z is absent or 1, Jacobian otherwise.
  template <class Curve>
  ec::Affine<Curve> point(const Json& j, const std::string& where) const {
    using Field = typename Curve::Field;
    array(j, where, 2, 3);
    const Field x = coordinate<Curve>(j[0], indexed(where, 0));
    const Field y = coordinate<Curve>(j[1], indexed(where, 1));
    const Field z = j.size() == 3 ? coordinate<Curve>(j[2], indexed(where, 2)) : Field::one();
    ec::Affine<Curve> p;
    if (z.is_zero()) {
      p = ec::Affine<Curve>::identity();
    } else if (z == Field::one()) {
      p = ec::Affine<Curve>::from_xy(x, y);
    } else {
      const Field z_inv = z.inverse();
      const Field z_inv2 = z_inv.square();
      p = ec::Affine<Curve>::from_xy(x * z_inv2, y * z_inv2 * z_inv);
    }
    if (!p.is_on_curve()) fail(where, "the point is not on the curve");
    if (!ec::is_in_subgroup(p)) fail(where, "the point is not in the prime-order subgroup");
    return p;
  }

  void expect_string(const Json& obj, const char* key, const char* want) const {
    const Json& v = member(obj, key);
    if (!v.is_string() || v.get_ref<const std::string&>() != want) {
      fail(key, std::string("expected \"") + want + "\", found " + excerpt(v.dump()));
    }
  }

 private:
  std::string name_;
};

}  // namespace

std::string proof_to_json(const groth16::Proof& proof) {
  Json j;
  j["pi_a"] = point(proof.a);
  j["pi_b"] = point(proof.b);
  j["pi_c"] = point(proof.c);
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  return dump(j);
}

groth16::Proof proof_from_json(std::string_view text, const std::string& name) {
  Reader r(name);
  const Json j = r.parse(text);
  r.expect_string(j, "protocol", kProtocol);
  if (j.contains("curve")) r.expect_string(j, "curve", kCurve);
  groth16::Proof p;
  p.a = r.point<ec::G1Curve>(r.member(j, "pi_a"), "pi_a");
  p.b = r.point<ec::G2Curve>(r.member(j, "pi_b"), "pi_b");
  p.c = r.point<ec::G1Curve>(r.member(j, "pi_c"), "pi_c");
  return p;
}

std::string public_to_json(std::span<const ff::Fr> public_signals) {
  Json j = Json::array();
  for (const ff::Fr& x : public_signals) j.push_back(number(x));
  return dump(j);
}

std::vector<ff::Fr> public_from_json(std::string_view text, const std::string& name) {
  Reader r(name);
  const Json j = r.parse(text);
  if (!j.is_array()) r.fail("", "expected an array of decimal strings");
  std::vector<ff::Fr> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(r.number<ff::Fr>(j[i], indexed("", i)));
  return out;
}

std::string verifying_key_to_json(const groth16::VerifyingKey& vk) {
  Json j;
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  j["nPublic"] = vk.ic.size() - 1;
  j["vk_alpha_1"] = point(vk.alpha_g1);
  j["vk_beta_2"] = point(vk.beta_g2);
  j["vk_gamma_2"] = point(vk.gamma_g2);
  j["vk_delta_2"] = point(vk.delta_g2);
  j["vk_alphabeta_12"] = number(pairing::pairing(vk.alpha_g1, vk.beta_g2));
  Json ic = Json::array();
  for (const G1Affine& p : vk.ic) ic.push_back(point(p));
  j["IC"] = std::move(ic);
  return dump(j);
}

groth16::VerifyingKey verifying_key_from_json(std::string_view text, const std::string& name,
                                              groth16::InsecureKey insecure) {
  Reader r(name);
  const Json j = r.parse(text);
  r.expect_string(j, "protocol", kProtocol);
  r.expect_string(j, "curve", kCurve);
  groth16::VerifyingKey vk;
  vk.alpha_g1 = r.point<ec::G1Curve>(r.member(j, "vk_alpha_1"), "vk_alpha_1");
  vk.beta_g2 = r.point<ec::G2Curve>(r.member(j, "vk_beta_2"), "vk_beta_2");
  vk.gamma_g2 = r.point<ec::G2Curve>(r.member(j, "vk_gamma_2"), "vk_gamma_2");
  vk.delta_g2 = r.point<ec::G2Curve>(r.member(j, "vk_delta_2"), "vk_delta_2");
  const Json& ic = r.member(j, "IC");
  if (!ic.is_array() || ic.empty()) r.fail("IC", "expected a non-empty array of points");
  for (std::size_t i = 0; i < ic.size(); ++i) {
    vk.ic.push_back(r.point<ec::G1Curve>(ic[i], indexed("IC", i)));
  }
  if (j.contains("nPublic")) {
    const Json& n = j["nPublic"];
    if (!n.is_number_unsigned() || n.get<std::size_t>() + 1 != vk.ic.size()) {
      r.fail("nPublic", excerpt(n.dump()) + " does not match the " + std::to_string(vk.ic.size()) + " IC points");
    }
  }
  if (auto problem = groth16::verifying_key_problem(vk, insecure)) r.fail("", *problem);
  return vk;
}

}  // namespace zkpipe::formats
