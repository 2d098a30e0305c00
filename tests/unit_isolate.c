/* unit_isolate.c: the messages to and from the child (isolate_wire.h) keep what they carry
   and refuse what is short; a child that cannot start is said as such, and the meaning of
   each signal that ends one. The child's work itself is tested end to end by practice.sh. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "engine/isolate.h"
#include "engine/isolate_wire.h"

START_TEST(test_wire_round_trip)
{
    struct wire w, back;
    struct wire_progress wp, got;
    int fds[2];
    char *a, *b, *c;

    memset(&wp, 0, sizeof wp);
    wp.p.phase = MEASURE_TIMED;
    wp.p.index = 3;
    wp.allowed_s = 12.5;
    wire_init(&w, WIRE_PROGRESS);
    wire_put(&w, &wp, sizeof wp);
    wire_put_string(&w, "a kernel's text");
    wire_put_string(&w, NULL);
    wire_put_string(&w, "");
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(wire_send(fds[1], &w), 0);
    ck_assert_int_eq(wire_receive(fds[0], &back), 0);
    ck_assert_uint_eq(back.kind, WIRE_PROGRESS);
    ck_assert(wire_get(&back, &got, sizeof got));
    ck_assert_int_eq(got.p.phase, MEASURE_TIMED);
    ck_assert_int_eq(got.p.index, 3);
    ck_assert(got.allowed_s == 12.5);
    a = wire_get_string(&back);
    b = wire_get_string(&back);
    c = wire_get_string(&back);
    ck_assert_str_eq(a, "a kernel's text");
    ck_assert_str_eq(b, "");
    ck_assert_str_eq(c, "");
    ck_assert(!back.bad);
    /* Past the end: zeros and NULL, and the message marked bad. */
    ck_assert(!wire_get(&back, &got, sizeof got));
    ck_assert_int_eq(got.p.index, 0);
    ck_assert_ptr_null(wire_get_string(&back));
    ck_assert(back.bad);
    free(a);
    free(b);
    free(c);
    wire_free(&w);
    wire_free(&back);
    /* The other end gone mid-message: -1. */
    ck_assert_int_eq(write(fds[1], "\x02\0\0\0\x10\0\0\0abc", 11), 11);
    close(fds[1]);
    ck_assert_int_eq(wire_receive(fds[0], &back), -1);
    close(fds[0]);
}
END_TEST

/* A program that is not there: the measurement says the child ended, it does not hang. */
START_TEST(test_isolate_no_program)
{
    struct isolate *iso = isolate_new("/nonexistent/clmm-tutor", NULL);
    struct device_info d;
    struct ocl cl;
    struct workspace w;
    struct lesson l;
    struct measure_config cfg;
    struct run_result r;

    memset(&d, 0, sizeof d);
    memset(&cl, 0, sizeof cl);
    memset(&w, 0, sizeof w);
    memset(&l, 0, sizeof l);
    cl.device = &d;
    w.cl = &cl;
    w.size = (struct gemm_size){ 64, 64, 64 };
    l.number = 5;
    l.file = "/nonexistent/05.lesson";
    measure_config_defaults(&cfg);
    run_result_init(&r);
    isolate_measure(iso, &w, &l, NULL, &cfg, &r);
    ck_assert_int_eq(r.status, RUN_ERROR);
    ck_assert_msg(strstr(r.error.msg, "the process running it ended with status 127") != NULL, "%s", r.error.msg);
    ck_assert_int_eq(isolate_pid(iso), 0);
    run_result_free(&r);
    isolate_free(iso);
}
END_TEST

START_TEST(test_isolate_signals)
{
    ck_assert(strstr(isolate_signal_meaning(SIGSEGV), "outside its buffers") != NULL);
    ck_assert(strstr(isolate_signal_meaning(SIGBUS), "outside its buffers") != NULL);
    ck_assert(strstr(isolate_signal_meaning(SIGFPE), "division by zero") != NULL);
    ck_assert(strstr(isolate_signal_meaning(SIGKILL), "out of memory") != NULL);
}
END_TEST

Suite *isolate_suite(void)
{
    Suite *s = suite_create("isolate");
    TCase *tc = tcase_create("wire");

    tcase_add_test(tc, test_wire_round_trip);
    tcase_add_test(tc, test_isolate_no_program);
    tcase_add_test(tc, test_isolate_signals);
    suite_add_tcase(s, tc);
    return s;
}
