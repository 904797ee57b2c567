#include <exception>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"zkpipe: a pipelined Groth16 proving engine for BLS12-381"};
  app.require_subcommand(1);
  zkpipe::cli::register_setup(app);
  zkpipe::cli::register_prove(app);
  zkpipe::cli::register_verify(app);
  zkpipe::cli::register_circuit(app);
  zkpipe::cli::register_bench(app);
  zkpipe::cli::register_groth16(app);
  zkpipe::cli::register_zkey(app);
  zkpipe::cli::register_vk(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A command's own verdict (a proof that does not verify: 1), already reported.
    return e.get_exit_code();
  } catch (const std::exception& e) {
    std::cerr << "zkpipe: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
