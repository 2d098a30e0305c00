/* check_units.c: runs the unit test suites of the engine. */
#include <stdlib.h>

#include "units.h"

int main(void)
{
    Suite *(*const suites[])(void) = {
        expr_suite, lesson_suite, geometry_suite, diagram_suite, stats_suite,
        verify_suite, matrix_suite, text_suite, options_suite, str_suite, tune_suite, params_suite,
        layout_suite, state_suite, files_suite, chart_suite, diff_suite, highlight_suite, results_suite,
        xalloc_suite, measure_suite, errmap_suite, exercise_suite, practice_suite, progress_suite, check_suite,
        roofline_suite, waves_suite, ceilings_suite, inside_suite, sources_suite, hostcode_suite, json_suite,
        clblastparams_suite, needs_suite, compare_suite, reference_suite, plot_suite, kernelargs_suite,
        races_suite, isolate_suite, fences_suite, gaps_suite,
    };
    SRunner *sr = srunner_create(NULL);
    int failed;

    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
