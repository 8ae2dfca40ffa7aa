// Linked into the test bundle only. XCTest on Linux builds its suites and test cases and then
// calls exit() without releasing them, so LeakSanitizer's check at exit reports every test case
// object (and what each holds) as leaked. The test process therefore skips that check; leaks in
// our code are caught where the process ends cleanly: the snapsort processes the CLI tests start,
// the run over samples/ in `make test-sanitize`, and the fuzzers, all with detect_leaks=1.
#include "sanitizer_options.h"

const char *__lsan_default_options(void) { return "leak_check_at_exit=0"; }

int snapsort_test_sanitizer_options_linked(void) { return 1; }
