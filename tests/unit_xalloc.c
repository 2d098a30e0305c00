/* unit_xalloc.c: the allocation helpers and their one way out. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "engine/xalloc.h"

START_TEST(test_xalloc_works)
{
    char *s = xstrdup("TS=16");
    int *v = xcalloc(4, sizeof *v);

    ck_assert_str_eq(s, "TS=16");
    ck_assert_int_eq(v[3], 0);
    v = xreallocarray(v, 1000, sizeof *v);
    v[999] = 7;
    ck_assert_int_eq(v[999], 7);
    free(v);
    free(s);
}
END_TEST

static void hook(void)
{
    /* The screen would give the terminal back here; the test leaves a trace. */
    fputs("hook ran\n", stderr);
}

/* An impossible size ends the process with status 3 after the hook (check runs this in a
   child process). */
START_TEST(test_xalloc_failure_exits)
{
    xalloc_on_failure(hook);
    (void)xreallocarray(NULL, SIZE_MAX / 2, 4);
    ck_abort_msg("xreallocarray returned");
}
END_TEST

Suite *xalloc_suite(void)
{
    Suite *s = suite_create("xalloc");
    TCase *tc = tcase_create("xalloc");

    tcase_add_test(tc, test_xalloc_works);
    tcase_add_exit_test(tc, test_xalloc_failure_exits, XALLOC_EXIT);
    suite_add_tcase(s, tc);
    return s;
}
