/* units.h: the unit test suites of the engine, one per module. */
#ifndef CLMM_TESTS_UNITS_H
#define CLMM_TESTS_UNITS_H

#include <check.h>

Suite *expr_suite(void);
Suite *lesson_suite(void);
Suite *geometry_suite(void);
Suite *diagram_suite(void);
Suite *roofline_suite(void);
Suite *stats_suite(void);
Suite *verify_suite(void);
Suite *matrix_suite(void);
Suite *text_suite(void);
Suite *options_suite(void);
Suite *str_suite(void);
Suite *tune_suite(void);
Suite *params_suite(void);
Suite *layout_suite(void);
Suite *state_suite(void);
Suite *files_suite(void);
Suite *chart_suite(void);
Suite *diff_suite(void);
Suite *highlight_suite(void);
Suite *results_suite(void);
Suite *xalloc_suite(void);
Suite *measure_suite(void);
Suite *errmap_suite(void);
Suite *exercise_suite(void);
Suite *practice_suite(void);
Suite *progress_suite(void);
Suite *check_suite(void);
Suite *waves_suite(void);
Suite *ceilings_suite(void);
Suite *inside_suite(void);
Suite *races_suite(void);
Suite *fences_suite(void);
Suite *gaps_suite(void);
Suite *isolate_suite(void);
Suite *sources_suite(void);
Suite *hostcode_suite(void);
Suite *json_suite(void);
Suite *compare_suite(void);
Suite *clblastparams_suite(void);
Suite *needs_suite(void);
Suite *reference_suite(void);
Suite *plot_suite(void);
Suite *kernelargs_suite(void);

#endif
