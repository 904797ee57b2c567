// The shape of a SealCommitPhase1Output document (rust-fil-proofs' C1 output as
// serde_json writes it), as the C1 reader checks it token by token while it reads:
// a value of the wrong kind, an array longer than its kind allows, or a second
// variant in a one-variant map is refused at its first token, before anything below
// it is held; fields the reader does not use are read past and dropped.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace zkpipe::filecoin::api {

struct C1ValueShape {
  enum class Kind {
    object,   // known fields; others skipped
    variant,  // serde's externally tagged enum: one member, named by the variant
    array,
    number,
    string,
    null,
  };
  Kind kind;
  std::string_view what;                                                 // for an error: "expected <what>, got …"
  std::vector<std::pair<std::string_view, const C1ValueShape*>> fields;  // an object's
  const C1ValueShape* element = nullptr;                                 // an array's elements, a variant's value
  std::size_t max_elements = 0;  // an array's; 0: no bound here (the reader checks counts)

  // The shape of an object's field; null for a field the reader does not use.
  const C1ValueShape* field(std::string_view name) const;
};

// The document's root: an object holding registered_proof, vanilla_proofs, comm_r,
// comm_d, replica_id, seed and ticket.
const C1ValueShape& c1_output_shape();

}  // namespace zkpipe::filecoin::api
