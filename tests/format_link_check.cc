// Linked with every object of taco_format and with taco_base only (CMakeLists.txt): the build
// fails when src/format calls into a layer above io. Running it checks nothing more.
int main() { return 0; }
