/* races.h: a student's kernel under oclgrind's checks of data races and of every access,
   run in a child process (isolate.h) at the exercise's first size, one launch; and what
   oclgrind's log says, with the lines of the student's file (the kernel is built as the
   student wrote it, so oclgrind's line numbers are the file's). A CPU device runs the
   work-items of a group one after another, which hides most missing barriers: this is
   where a race shows there. Engine code. */
#ifndef CLMM_RACES_H
#define CLMM_RACES_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

/* One access of a message: its line in the file, that line, and who made it. */
struct race_access {
    int line;                   /* 0: not given */
    char code[160];
    char who[120];              /* "work-item (1,0,0) of group (1,0,0)" */
};

/* What the log says: how many messages, of which data races, and the first. */
struct race_log {
    int messages;
    int races;
    char first[160];            /* its first line: "Read-write data race at local memory ..." */
    struct race_access access[2];   /* a race's two accesses; another message's one */
    int naccess;
    int between_groups;         /* races between work-groups left out (races_parse_groups) */
};

/* Reads oclgrind's log text. */
void races_parse(const char *log, struct race_log *out);

/* The same; with within_groups, a race between two work-groups is left out (counted in
   between_groups): OpenCL 1.2 promises nothing between the groups of one launch, so
   oclgrind reports every read of another group's results as a race, even after the fences
   and the count that make it right on a GPU (fences.h checks those). */
void races_parse_groups(const char *log, bool within_groups, struct race_log *out);

/* The sentence a report gives: "work-items race for local memory: line 65 (acc += ...) reads
   what line 51 (Btile[...] = ...) of another work-item writes, with no barrier between them:
   look for a missing barrier". */
void races_describe(const struct race_log *rl, const char *file, char *buf, size_t len);

/* Whether oclgrind can be run ($OCLGRIND, else oclgrind on PATH); its command in buf. */
bool races_available(char *buf, size_t len);

/* The check of r (already run) again under oclgrind, when asked or when the exercise asks
   for it (race-check: yes) and oclgrind is there: a verified or wrong result whose kernel
   races becomes CHECK_RACE with what oclgrind found. r->races says what was done. */
void races_run(const struct exercise *x, const struct lesson_set *lessons, const struct check_options *o,
               bool asked, struct check_report *r);

#endif
