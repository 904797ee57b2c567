// A non-owning reference to "how to compute this variable's value". Systems that
// keep no values (the recording system) never call it, so values that are costly to
// derive cost nothing during setup. It is only valid during the alloc call it is
// passed to, which is the only place it is used.
#pragma once

#include <concepts>
#include <type_traits>

#include "ff/fr.hpp"

namespace zkpipe::r1cs {

class ValueFn {
 public:
  template <class F>
    requires(std::invocable<const F&> && std::convertible_to<std::invoke_result_t<const F&>, ff::Fr> &&
             !std::same_as<std::remove_cvref_t<F>, ValueFn>)
  ValueFn(const F& f)  // NOLINT: implicit from any value-producing callable
      : obj_(&f), call_([](const void* obj) -> ff::Fr { return (*static_cast<const F*>(obj))(); }) {}

  ff::Fr operator()() const { return call_(obj_); }

 private:
  const void* obj_;
  ff::Fr (*call_)(const void*);
};

}  // namespace zkpipe::r1cs
