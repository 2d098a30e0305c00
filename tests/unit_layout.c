/* unit_layout.c: where the panes of the interactive screen go. */
#include "units.h"
#include "tui/layout.h"

/* Every visible pane inside the body (between the top and bottom lines), no two overlapping,
   and together covering the body exactly. */
static void check_tiling(const struct screen_layout *l, int cols, int rows)
{
    long area = 0;

    for (int i = 0; i < PANE_COUNT; i++) {
        const struct rect *a = &l->pane[i];
        if (!rect_visible(a))
            continue;
        ck_assert_int_ge(a->y, 1);
        ck_assert_int_le(a->y + a->h, rows - 1);
        ck_assert_int_ge(a->x, 0);
        ck_assert_int_le(a->x + a->w, cols);
        area += (long)a->h * a->w;
        for (int j = i + 1; j < PANE_COUNT; j++) {
            const struct rect *b = &l->pane[j];
            if (!rect_visible(b))
                continue;
            ck_assert_msg(a->x + a->w <= b->x || b->x + b->w <= a->x || a->y + a->h <= b->y ||
                          b->y + b->h <= a->y, "panes %d and %d overlap at %dx%d", i, j, cols, rows);
        }
    }
    ck_assert_int_eq(area, (long)cols * (rows - 2));
}

START_TEST(test_layout_minimum)
{
    struct screen_layout l;

    layout_compute(79, 24, PANE_TEXT, PANE_TEXT, false, 0, &l);
    ck_assert(l.too_small);
    layout_compute(80, 23, PANE_TEXT, PANE_TEXT, false, 0, &l);
    ck_assert(l.too_small);
    layout_compute(80, 24, PANE_TEXT, PANE_TEXT, false, 0, &l);
    ck_assert(!l.too_small);
    ck_assert_int_eq(l.title.y, 0);
    ck_assert_int_eq(l.keys.y, 23);
    check_tiling(&l, 80, 24);
    /* Text on the left; the layout and the GFLOPS on the right, wide enough for their 36
       columns inside the borders, and the layout 10 rows high inside (its drawing's least). */
    ck_assert(rect_visible(&l.pane[PANE_TEXT]));
    ck_assert(!rect_visible(&l.pane[PANE_SOURCE]));
    ck_assert_int_ge(l.pane[PANE_LAYOUT].w - 2, 36);
    ck_assert_int_ge(l.pane[PANE_GFLOPS].w - 2, 36);
    ck_assert_int_ge(l.pane[PANE_LAYOUT].h - 2, 10);
    ck_assert_int_ge(l.pane[PANE_GFLOPS].h, 10);
}
END_TEST

/* Below 160 columns, the text and the source take turns on the left. */
START_TEST(test_layout_left_choice)
{
    struct screen_layout l;

    layout_compute(100, 30, PANE_SOURCE, PANE_TEXT, false, 0, &l);
    ck_assert(rect_visible(&l.pane[PANE_SOURCE]));
    ck_assert(!rect_visible(&l.pane[PANE_TEXT]));
    layout_compute(100, 30, PANE_GFLOPS, PANE_SOURCE, false, 0, &l);
    ck_assert(rect_visible(&l.pane[PANE_SOURCE]));
    ck_assert(rect_visible(&l.pane[PANE_GFLOPS]));
    layout_compute(100, 30, PANE_LAYOUT, PANE_GFLOPS, false, 0, &l);   /* not a left pane */
    ck_assert(rect_visible(&l.pane[PANE_TEXT]));
    check_tiling(&l, 100, 30);
}
END_TEST

START_TEST(test_layout_large)
{
    struct screen_layout l;

    /* Tall: text above source. */
    layout_compute(120, 50, PANE_TEXT, PANE_TEXT, false, 0, &l);
    for (int i = 0; i < PANE_COUNT; i++)
        ck_assert(rect_visible(&l.pane[i]));
    ck_assert_int_lt(l.pane[PANE_TEXT].y, l.pane[PANE_SOURCE].y);
    check_tiling(&l, 120, 50);
    /* Wide: three columns, in reading order. */
    layout_compute(200, 40, PANE_GFLOPS, PANE_TEXT, false, 0, &l);
    for (int i = 0; i < PANE_COUNT; i++)
        ck_assert(rect_visible(&l.pane[i]));
    ck_assert_int_lt(l.pane[PANE_TEXT].x, l.pane[PANE_SOURCE].x);
    ck_assert_int_lt(l.pane[PANE_SOURCE].x, l.pane[PANE_LAYOUT].x);
    ck_assert_int_eq(l.pane[PANE_LAYOUT].x, l.pane[PANE_GFLOPS].x);
    check_tiling(&l, 200, 40);
}
END_TEST

/* Every size from the minimum up tiles the screen. */
START_TEST(test_layout_every_size)
{
    struct screen_layout l;

    for (int cols = 80; cols <= 260; cols += 3)
        for (int rows = 24; rows <= 90; rows += 5)
            for (int focus = 0; focus < PANE_COUNT; focus++) {
                for (int want = 0; want <= 30; want += 10) {
                    layout_compute(cols, rows, (enum pane)focus, PANE_SOURCE, false, want, &l);
                    check_tiling(&l, cols, rows);
                }
                ck_assert(rect_visible(&l.pane[focus]));
            }
}
END_TEST

START_TEST(test_layout_zoom)
{
    struct screen_layout l;

    layout_compute(80, 24, PANE_SOURCE, PANE_TEXT, true, 0, &l);
    ck_assert_int_eq(l.pane[PANE_SOURCE].w, 80);
    ck_assert_int_eq(l.pane[PANE_SOURCE].h, 22);
    ck_assert(!rect_visible(&l.pane[PANE_TEXT]));
    ck_assert(!rect_visible(&l.pane[PANE_GFLOPS]));
    check_tiling(&l, 80, 24);
}
END_TEST

/* The classroom's 120x40 shows text and kernel together; the GFLOPS pane takes the rows its
   bars ask for from the work-group layout, which gives way where too little would be left,
   unless it has the focus. */
START_TEST(test_layout_bars_and_classroom)
{
    struct screen_layout l;

    layout_compute(120, 40, PANE_TEXT, PANE_TEXT, false, 0, &l);
    ck_assert(rect_visible(&l.pane[PANE_TEXT]) && rect_visible(&l.pane[PANE_SOURCE]));
    layout_compute(120, 40, PANE_TEXT, PANE_TEXT, false, 24, &l);
    ck_assert_int_eq(l.pane[PANE_GFLOPS].h, 24);
    ck_assert(rect_visible(&l.pane[PANE_LAYOUT]));
    check_tiling(&l, 120, 40);
    /* 80x24 and a ladder of 15 bars: the bars take the right column. */
    layout_compute(80, 24, PANE_TEXT, PANE_TEXT, false, 24, &l);
    ck_assert(!rect_visible(&l.pane[PANE_LAYOUT]));
    ck_assert_int_eq(l.pane[PANE_GFLOPS].h, 22);
    check_tiling(&l, 80, 24);
    layout_compute(80, 24, PANE_LAYOUT, PANE_TEXT, false, 24, &l);
    ck_assert(rect_visible(&l.pane[PANE_LAYOUT]));
    check_tiling(&l, 80, 24);
    /* A few bars: the usual share. */
    layout_compute(80, 24, PANE_TEXT, PANE_TEXT, false, 8, &l);
    ck_assert_int_eq(l.pane[PANE_LAYOUT].h, 12);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("layout");

    tcase_add_test(tc, test_layout_minimum);
    tcase_add_test(tc, test_layout_left_choice);
    tcase_add_test(tc, test_layout_large);
    tcase_add_test(tc, test_layout_every_size);
    tcase_add_test(tc, test_layout_zoom);
    tcase_add_test(tc, test_layout_bars_and_classroom);
    suite_add_tcase(s, tc);
    return s;
}
