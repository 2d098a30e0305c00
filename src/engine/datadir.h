/* datadir.h: where the lessons and kernels are: the source tree when the program runs from
   its build tree, else the installed package data directory. */
#ifndef CLMM_DATADIR_H
#define CLMM_DATADIR_H

/* The directory holding lessons/ and kernels/; CLMM_TUTOR_DATADIR overrides it. */
const char *datadir_get(void);

#endif
