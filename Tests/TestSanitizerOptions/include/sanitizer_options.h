#ifndef SNAPSORT_TEST_SANITIZER_OPTIONS_H
#define SNAPSORT_TEST_SANITIZER_OPTIONS_H

/* LeakSanitizer reads this from the executable that defines it: the test bundle only. */
const char *__lsan_default_options(void);

int snapsort_test_sanitizer_options_linked(void);

#endif
