#include "service/jobs/request_fields.hpp"

#include <cstdint>
#include <optional>
#include <span>

#include "formats/field_bytes.hpp"

namespace zkpipe::service::jobs {

ServiceError invalid_field(std::string_view field, const std::string& what) {
  return {ErrorKind::invalid_argument, std::string(field) + ": " + what};
}

ff::Fr le_field_element(const std::string& bytes, std::string_view field) {
  if (bytes.size() != 32) throw invalid_field(field, std::to_string(bytes.size()) + " bytes, expected 32");
  const std::optional<ff::Fr> value =
      formats::fr_from_le_canonical(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  if (!value) throw invalid_field(field, "not a canonical field element (little-endian, below r)");
  return *value;
}

}  // namespace zkpipe::service::jobs
