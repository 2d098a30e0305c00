/* sources.h: the documents the lessons follow, read from the SOURCES file of the lesson
   directory (format: lessons/FORMAT), and the ones a lesson's sources line cites. */
#ifndef CLMM_SOURCES_H
#define CLMM_SOURCES_H

#include <stddef.h>

#include "error.h"

#define SOURCES_FILE_MAX (64 << 10) /* bytes of a SOURCES file */
#define SOURCES_MAX 100             /* documents in one file */
#define SOURCES_VALUE_MAX 500       /* bytes of one value */
#define SOURCES_ID_DIGITS 3         /* an id is three digits: 000 to 999 */

/* One document: every field is given in the file (an author or address the document does
   not give is written as such there, in words). */
struct source {
    char id[SOURCES_ID_DIGITS + 1];
    char *title;
    char *author;
    char *address;
    char *about;                /* what the document is, in one line */
};

struct source_set {
    struct source *items;       /* in file order */
    size_t count;
};

/* Parses a SOURCES file's text of len bytes; file names it in messages ("file:line: what was
   expected"). On an error the set is left empty. */
int sources_parse(const char *file, const char *text, size_t len, struct source_set *set, struct error *e);

/* Reads and parses path, a regular file of at most SOURCES_FILE_MAX bytes. No such file is
   no error: the set is empty. */
int sources_load(const char *path, struct source_set *set, struct error *e);
void sources_free(struct source_set *set);

/* The document with this id, or NULL. */
const struct source *sources_find(const struct source_set *set, const char *id);

/* The documents of set that text (a lesson's sources line) cites, in the order first cited,
   each once: an id is a run of exactly three digits, so "4096" or "16x16" cite nothing.
   Writes at most max of them to out; returns how many there are. */
size_t sources_cited(const struct source_set *set, const char *text, const struct source **out, size_t max);

/* The lesson's sources line followed by the documents it cites, as explanation markup
   (lessons/FORMAT): "Sources: LINE", then one list item per document with its title,
   author and address. malloc'd. */
char *sources_markup(const struct source_set *set, const char *text);

#endif
