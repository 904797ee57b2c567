// What the Filecoin jobs' request fields are checked against, refused naming the field
// ("filecoin_update.comm_r_old: 31 bytes, expected 32").
#pragma once

#include <string>
#include <string_view>

#include "ff/fr.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::jobs {

// INVALID_ARGUMENT "<field>: <what>".
ServiceError invalid_field(std::string_view field, const std::string& what);

// 32 bytes, a little-endian canonical field element (a commitment, PoSt randomness).
// Throws invalid_field otherwise.
ff::Fr le_field_element(const std::string& bytes, std::string_view field);

}  // namespace zkpipe::service::jobs
