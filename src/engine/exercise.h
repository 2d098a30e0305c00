/* exercise.h: an exercise as data, read from an exercise file (format: exercises/FORMAT):
   a task, a starting kernel with gaps, hints, a solution and a goal. Engine code. */
#ifndef CLMM_EXERCISE_H
#define CLMM_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"

#define EXERCISE_MAX_HINTS 8
#define EXERCISE_MAX_SIZES 8
#define EXERCISE_MAX_REPEAT 20
#define EXERCISE_DEFAULT_REPEAT 3

enum exercise_speed {
    SPEED_NONE,                 /* verified is the whole goal */
    SPEED_TARGET,               /* at least `ratio` times lesson `versus` at `speed_size` */
    SPEED_PREDICT,              /* the student predicts the ratio to lesson `versus` first */
};

struct exercise {
    int number;
    int lesson;                 /* the lesson it belongs to */
    char *start_file;           /* the starting kernel, resolved: a kernel, or a gap file (a
                                   name ending in .gap: gaps.h) */
    char *start_name;           /* the workspace copy's name (a gap file's with .cl) */
    char *start_text;           /* a gap file's start, made from the lesson's kernel when the
                                   set was loaded; NULL for a starting kernel written whole */
    char *solution_file;        /* the solution kernel, resolved; NULL: the lesson's kernel */
    char *hints[EXERCISE_MAX_HINTS];
    size_t nhints;
    struct gemm_size sizes[EXERCISE_MAX_SIZES];
    size_t nsizes;
    int repeat;                 /* launches verified at each size */
    enum exercise_speed speed;
    int versus;                 /* the lesson the speed is compared with */
    double ratio;               /* SPEED_TARGET: the least speed-up over it */
    struct gemm_size speed_size;
    unsigned uses;              /* uses: what a hint may name (enum errmap_uses) */
    bool uses_given;            /* else read from the solution's kernel (check.c) */
    bool race_check;            /* race-check: checked under oclgrind's race check too where
                                   oclgrind is installed (races.h) */
    struct gemm_size race_size; /* race-check: SIZE: there, not at the first size */
    bool between_groups;        /* between-groups: yes: its work-groups pass results to each
                                   other; the check reads it for its fences (fences.h), and
                                   the race check counts races inside a group only */
    /* What the engine runs: the lesson keys of the file. l.number is the exercise's number,
       l.kernel_file the starting kernel until the workspace points it at the student's copy
       (practice_open), l.text the task. */
    struct lesson l;
};

struct exercise_set {
    struct exercise *items;     /* sorted by number */
    size_t count;
    char *dir;
};

/* Parses one exercise file's text; kernel_dirs as for lesson_parse (the starting kernel and
   the solution are looked up there). Malformed: -1 with "file:line: what was expected". */
int exercise_parse(const char *file, const char *text, const char *const *kernel_dirs,
                   struct exercise *x, struct error *e);
void exercise_free(struct exercise *x);

/* Loads every *.exercise file of dir; each must belong to a lesson of lessons, and compare
   with one, that exists. */
int exercise_set_load(const char *dir, const struct lesson_set *lessons, struct exercise_set *set,
                      struct error *e);
void exercise_set_free(struct exercise_set *set);

/* The text of x's starting kernel: its file, or (start_text) its lesson's kernel with the
   edits of its gap file. Malloc'd, its length in *len; NULL with the reason in e. */
char *exercise_start_text(const struct exercise *x, size_t *len, struct error *e);
const struct exercise *exercise_set_find(const struct exercise_set *set, int number);
/* Position in the set (0-based), or -1. */
int exercise_set_index(const struct exercise_set *set, int number);

/* The lesson that holds the solution: x->l with the solution's kernel file (the lesson's,
   for `solution: lesson`). Its strings belong to x or to lessons; do not free it. */
void exercise_solution_lesson(const struct exercise *x, const struct lesson_set *lessons, struct lesson *out);

/* "the speed-up over lesson 7 at 4096x4096x4096, at least 1.05x" and the like; empty for
   SPEED_NONE. */
void exercise_goal_describe(const struct exercise *x, char *buf, size_t len);

#endif
