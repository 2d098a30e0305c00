/* fences.h: whether a kernel whose work-groups pass results to each other (lesson 18: each
   group writes its part, counts itself in with an atomic, and the last group reads the
   others' parts) has the two device-scope fences that make it right on a GPU: one after
   the group's stores and before its count (release), one after the count and before it
   reads the other groups' parts (acquire). A missing fence gives no wrong result on a CPU
   device, and only rarely on a GPU, so the check reads the kernel's text for them. It is
   a reading, not a proof: it finds the entry's first atomic read-modify-write (the count)
   and looks, statement by statement, for a fence on each side of it before any store
   (before it) or any read of memory (after it). Engine code. */
#ifndef CLMM_FENCES_H
#define CLMM_FENCES_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

enum fences_verdict {
    FENCES_RIGHT,               /* both fences where they belong */
    FENCES_NO_COUNT,            /* the entry has no atomic read-modify-write: nothing to order */
    FENCES_NO_ENTRY,            /* the entry function is not in the text */
    FENCES_NO_RELEASE,          /* no device fence between the last store and the count */
    FENCES_NO_ACQUIRE,          /* no device fence between the count and the first read */
};

struct fences_audit {
    enum fences_verdict verdict;
    int count_line;             /* the count's line in the file; 0: none */
    int line;                   /* NO_RELEASE: the store after which no fence comes (0: none
                                   before the count at all); NO_ACQUIRE: the first read */
    char message[900];          /* in words, with the lines */
};

/* Reads source (a kernel file's text) for entry's fences. */
void fences_audit(const char *source, const char *entry, struct fences_audit *out);

/* For an exercise whose groups pass results between them (between-groups: yes): a verified
   result whose kernel (o->file) lacks a fence becomes CHECK_FENCE, with the audit's words in
   r->message. Nothing for other exercises or verdicts. */
void fences_run(const struct exercise *x, const struct check_options *o, struct check_report *r);

#endif
