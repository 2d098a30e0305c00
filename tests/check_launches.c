/* check_launches.c: the lessons that split K or cut C in uneven ways, at sizes where their
   parts fall unevenly: several launches and a scratch buffer (split-K and its fix-up), bands
   of work-groups, whole waves and a tail split or dealt out in pieces; verified on an OpenCL
   device (POCL in CI). Built without POCL's optimizer (ladder.c says why). Exits 77 (skipped)
   when there is no OpenCL device. */
#include <check.h>
#include <string.h>

#include "ladder.h"

/* A lesson of several launches (lessons 15 and 18, split-K), or of one launch with a scratch
   buffer, at sizes where its parts fall unevenly: nothing divides (100x70x300), M*N not a
   multiple of 4 (97x61x35: a reduction of plain floats), a deep K (64x64x10000) and
   256x256x4096 (large enough to be estimated first, by partial launches that may cut the
   split: lesson 18's counters must be set to 0 again after them); with every allowed value
   of each parameter that its then-when lines or its scratch line name (SPLIT; lesson 18's
   LAST), the others at their defaults. Ranges of K that are empty (K = 35 or 300 with SPLIT
   = 16) included. */
START_TEST(test_several_launches)
{
    const struct lesson *l = &ladder_lessons.items[_i];
    static const struct gemm_size odd[] = {
        { 100, 70, 300 }, { 97, 61, 35 }, { 64, 64, 10000 }, { 256, 256, 4096 },
    };

    if (l->nlaunches < 2 && !l->scratch)
        return;
    for (size_t p = 0; p < l->nparams; p++) {
        bool named = l->scratch && strstr(l->scratch, l->params[p].name);
        for (size_t k = 1; k < l->nlaunches; k++)
            named = named || (l->launch[k].when && strstr(l->launch[k].when, l->params[p].name));
        for (size_t v = 0; named && v < l->params[p].nvalues; v++)
            for (size_t s = 0; s < sizeof odd / sizeof odd[0]; s++) {
                struct param_set ps;
                struct run_result r;
                param_set_defaults(l, &ps);
                ps.values[p] = l->params[p].values[v];
                ladder_run(l, &ps, odd[s], &r);
                ck_assert_msg(r.status == RUN_OK, "lesson %d with %s=%lld at %lldx%lldx%lld: %s: %s", l->number,
                              l->params[p].name, ps.values[p], odd[s].m, odd[s].n, odd[s].k,
                              run_status_name(r.status), r.error.msg);
                run_result_free(&r);
            }
    }
}
END_TEST

/* A lesson that can deal its work-groups out in bands of BAND rows of tiles (lesson 17), with
   BAND at its largest allowed value and 64 x 64 tiles: at sizes of 11 and 17 rows of tiles, a
   full band and a partial one, and two full bands and a partial one, and at 10 rows of whole
   tiles with K = 44, whole steps then a partial one (K % 8 = 4): every tile of C computed
   once, with and without a split. */
START_TEST(test_bands)
{
    const struct lesson *l = &ladder_lessons.items[_i];
    static const struct gemm_size tall[] = { { 700, 300, 40 }, { 1050, 200, 72 }, { 640, 128, 44 } };
    static const struct { const char *name; long long value; } fixed[] = {
        { "TSM", 64 }, { "TSN", 64 }, { "WM", 32 }, { "WIM", 4 },
    };
    int band = lesson_param_index(l, "BAND"), split = lesson_param_index(l, "SPLIT");
    struct param_set base;

    if (band < 0)
        return;
    param_set_defaults(l, &base);
    for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
        int i = lesson_param_index(l, fixed[f].name);
        ck_assert_msg(i >= 0, "lesson %d has BAND but no %s", l->number, fixed[f].name);
        base.values[i] = fixed[f].value;
    }
    for (size_t v = 0; v < l->params[band].nvalues; v++)
        if (l->params[band].values[v] > base.values[band])
            base.values[band] = l->params[band].values[v];
    ck_assert_int_gt(base.values[band], 0);
    for (int sp = 1; sp <= 2; sp++)
        for (size_t s = 0; s < sizeof tall / sizeof tall[0]; s++) {
            struct param_set ps = base;
            struct run_result r;
            if (split >= 0)
                ps.values[split] = sp;
            ladder_run(l, &ps, tall[s], &r);
            ck_assert_msg(r.status == RUN_OK, "lesson %d in bands of %lld at %lldx%lldx%lld, SPLIT=%d: %s: %s",
                          l->number, ps.values[band], tall[s].m, tall[s].n, tall[s].k, sp,
                          run_status_name(r.status), r.error.msg);
            ck_assert(r.verify.ok);
            run_result_free(&r);
        }
}
END_TEST

/* A lesson that shares out only the tiles left after whole waves of WAVE groups (lesson 19), with
   64 x 64 tiles and waves far smaller than the device's, so that the sizes below have whole
   waves and a tail: 700x300 (11 x 5 = 55 tiles; WAVE = 4 leaves 3, 7 leaves 6) with K = 40,
   a partial last step; 257x515x130 (5 x 9 = 45 tiles: 1 and 3 left), every edge uneven.
   SPLIT = 16 makes ranges of K that are empty. Each with the last group adding (LAST = 1)
   and with the second launch (LAST = 0). */
START_TEST(test_tail)
{
    const struct lesson *l = &ladder_lessons.items[_i];
    static const struct gemm_size shapes[] = { { 700, 300, 40 }, { 257, 515, 130 } };
    static const struct { const char *name; long long value; } fixed[] = {
        { "TSM", 64 }, { "TSN", 64 }, { "WM", 32 }, { "WIM", 4 },
    };
    static const long long waves[] = { 4, 7 }, splits[] = { 3, 16 };
    int wave = lesson_param_index(l, "WAVE"), split = lesson_param_index(l, "SPLIT"),
        last = lesson_param_index(l, "LAST"), pieces = lesson_param_index(l, "PIECES");
    struct param_set base;

    if (wave < 0)
        return;
    ck_assert_msg(split >= 0 && last >= 0, "lesson %d has WAVE but no SPLIT or LAST", l->number);
    param_set_defaults(l, &base);
    for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
        int i = lesson_param_index(l, fixed[f].name);
        ck_assert_msg(i >= 0, "lesson %d has WAVE but no %s", l->number, fixed[f].name);
        base.values[i] = fixed[f].value;
    }
    /* With pieces (PIECES = 1), the tail in shares of equal work instead of the split; their
       parts are added by the last group only. */
    for (int pc = 0; pc <= (pieces >= 0); pc++)
    for (size_t w = 0; w < 2; w++)
        for (size_t sp = 0; sp < 2; sp++)
            for (int la = pc; la <= 1; la++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                    struct param_set ps = base;
                    struct run_result r;
                    if (pieces >= 0)
                        ps.values[pieces] = pc;
                    ps.values[wave] = waves[w];
                    ps.values[split] = splits[sp];
                    ps.values[last] = la;
                    ladder_run(l, &ps, shapes[s], &r);
                    ck_assert_msg(r.status == RUN_OK && r.verify.ok,
                                  "lesson %d, PIECES=%d WAVE=%lld SPLIT=%lld LAST=%d at %lldx%lldx%lld: %s: %s",
                                  l->number, pc, waves[w], splits[sp], la, shapes[s].m, shapes[s].n, shapes[s].k,
                                  run_status_name(r.status), r.error.msg);
                    run_result_free(&r);
                }
}
END_TEST

static Suite *launches_suite(void)
{
    Suite *s = suite_create("launches");
    TCase *tc = tcase_create("shapes");

    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, test_several_launches, 0, (int)ladder_lessons.count);
    tcase_add_loop_test(tc, test_bands, 0, (int)ladder_lessons.count);
    tcase_add_loop_test(tc, test_tail, 0, (int)ladder_lessons.count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ladder_main("check_launches", launches_suite, true);
}
