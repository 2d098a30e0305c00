/* ctext.h: a kernel's OpenCL C text read as tokens, for reading it as a reviewer would
   (fences.c): comments left out, preprocessor lines set aside with their #define macros
   kept, each token with its line; and the names the text declares as pointers to global
   memory. Not a compiler: enough to find calls, statements and a function's body. Engine
   code. */
#ifndef CLMM_CTEXT_H
#define CLMM_CTEXT_H

#include <stdbool.h>
#include <stddef.h>

#define CTEXT_TOKEN_MAX 160

struct ctext_token {
    char text[CTEXT_TOKEN_MAX];       /* an identifier, a number, a string with its quotes, or an
                                   operator */
    int line;
};

struct ctext_tokens {
    struct ctext_token *t;
    size_t n, cap;
};

struct ctext_macro {
    char name[CTEXT_TOKEN_MAX];
    struct ctext_tokens body;
};

struct ctext {
    struct ctext_tokens code;         /* the code outside preprocessor lines */
    struct ctext_macro *macros;
    size_t nmacros;
    char (*global)[CTEXT_TOKEN_MAX];  /* names declared as pointers to __global memory */
    size_t nglobal;
};

/* Reads src: its code's tokens, its macros and its global pointers' names. Free with
   ctext_free. */
void ctext_read(const char *src, struct ctext *t);
void ctext_free(struct ctext *t);

/* Token i of ts is s (false past the end); a token is an identifier. */
bool ctext_is(const struct ctext_tokens *ts, size_t i, const char *s);
bool ctext_ident(const struct ctext_token *t);
bool ctext_ident_char(char c);
/* The index just past the parenthesis that closes the one at open (end when none). */
size_t ctext_past_parens(const struct ctext_tokens *ts, size_t open, size_t end);
/* Tokens [from, to) hold s. */
bool ctext_mentions(const struct ctext_tokens *ts, size_t from, size_t to, const char *s);
/* tok names a pointer to global memory that the text declares. */
bool ctext_global(const struct ctext *t, const struct ctext_token *tok);
/* How many times word stands as an identifier in the code and in the macros' bodies; with
   call, only where a '(' follows it. */
int ctext_count(const struct ctext *t, const char *word, bool call);
/* The body of the function named name: the token after its { and the one of its }. */
bool ctext_find_function(const struct ctext_tokens *ts, const char *name, size_t *begin, size_t *end);

#endif
