// The `taco` command line: one file per subcommand, public API only.
#include <iostream>

#include "taco/version.h"

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--version") {
    std::cout << "taco " << taco::kLibraryVersion << "\n";
    return 0;
  }
  std::cerr << "taco: usage: taco <command> ...\n";
  return 2;
}
