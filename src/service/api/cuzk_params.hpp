// The parameter file each cuzk circuit id ("porep-32g", "wpost-32g", …) is proved with:
// the daemon's [cuzk_params] list first, else Filecoin's published file for the
// circuit in the storage provider's parameter directory (filecoin_params, where
// paramfetch and lotus put them), so that a daemon pointed at that directory needs no
// list. A published file is checked against the .vk beside it: a file under the name
// whose verifying key is another's (a partial download, another set) is refused.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace zkpipe::service::api {

class CuzkParams {
 public:
  using List = std::map<std::string, std::filesystem::path, std::less<>>;

  // `filecoin_dir` empty: the list alone.
  CuzkParams(List listed, std::filesystem::path filecoin_dir);

  // The file for circuit_id (`registered`: the registered proof it was derived from,
  // for the message). Throws ServiceError: not_found naming the id and where it was
  // looked for; failed_precondition when a published file's verifying key is not the
  // .vk beside it.
  std::filesystem::path file_for(std::string_view circuit_id, std::string_view registered = {}) const;
  // The circuit id a file answers (the list's, or a published name's); the file's
  // path when none does.
  std::string circuit_id_of(const std::filesystem::path& file) const;

 private:
  List listed_;
  std::filesystem::path filecoin_dir_;
};

}  // namespace zkpipe::service::api
