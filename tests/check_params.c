/* check_params.c: each allowed value of each parameter of every lesson, the others at their
   defaults, verified on an OpenCL device (POCL in CI) or refused with a reason; a switch's
   values at every size. Built without POCL's optimizer (ladder.c says why). Exits 77
   (skipped) when there is no OpenCL device. */
#include <check.h>
#include <stdio.h>

#include "ladder.h"

/* Each allowed value of each parameter, the others at their defaults: verified, or refused
   with a reason by one of the lesson's require lines or a device limit. A switch's values
   take out a part of the kernel, the edge code included: each is verified at every size. */
START_TEST(test_lesson_params)
{
    const struct lesson *l = &ladder_lessons.items[_i];
    const struct gemm_size s = { 96, 160, 48 };

    if (!ladder_runs_here(l)) {
        ladder_check_refused_here(l, NULL, "");
        return;
    }
    for (size_t p = 0; p < l->nparams; p++)
        for (size_t v = 0; v < l->params[p].nvalues; v++) {
            struct param_set ps;
            struct run_result r;
            param_set_defaults(l, &ps);
            ps.values[p] = l->params[p].values[v];
            ladder_run(l, &ps, s, &r);
            ck_assert_msg(r.status == RUN_OK || (r.status == RUN_REFUSED && r.error.msg[0]),
                          "lesson %d with %s=%lld: %s: %s", l->number, l->params[p].name,
                          l->params[p].values[v], run_status_name(r.status), r.error.msg);
            run_result_free(&r);
            if (l->params[p].is_switch && ps.values[p] != l->params[p].def) {
                char what[128];
                snprintf(what, sizeof what, " with %s=%lld", l->params[p].name, ps.values[p]);
                ladder_check_sizes_with(l, &ps, what);
            }
        }
}
END_TEST

static Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("values");

    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, test_lesson_params, 0, (int)ladder_lessons.count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ladder_main("check_params", params_suite, true);
}
