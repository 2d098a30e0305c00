/* isolate_wire.h: the messages between the tool and its child (isolate.h), inside the
   engine. Both ends are the same program, so fixed parts travel as the structs' bytes; the
   strings after them, each as its length and its bytes. A message: its kind, its length,
   its bytes. */
#ifndef CLMM_ISOLATE_WIRE_H
#define CLMM_ISOLATE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "check.h"
#include "measure.h"

/* The child reads jobs on this descriptor and writes its messages on the next. */
#define ISOLATE_JOB_FD 3
#define ISOLATE_REPORT_FD 4

/* The largest message: a check report and a build log, or a kernel's text. */
#define WIRE_MAX (4u << 20)

enum wire_kind {
    WIRE_MEASURE = 1,           /* parent: a measure job */
    WIRE_CHECK,                 /* parent: a check job */
    WIRE_PROGRESS,              /* child: a measure_progress, with its time limit */
    WIRE_STEP,                  /* child: a check's isolate_step */
    WIRE_RUN,                   /* child: the run_result, then its error's detail */
    WIRE_REPORT,                /* child: the check_report, then its build log */
    WIRE_FAILED,                /* child: the job could not be done; an error message */
};

/* The measure_config that travels (cancel and progress are each side's own). */
struct wire_config {
    double budget_s;
    int reps;
    double launch_limit_s;
    bool force, check_timing;
    uint64_t seed;
};

struct wire_device {
    int index;                  /* device_info.index in the parent's list; -1: the child's
                                   first device, whatever it is (under oclgrind, oclgrind's) */
    char name[256];             /* the device and its platform, which the child looks for */
    char platform[256];
    int device_index;           /* its place in its platform */
};

/* WIRE_MEASURE, then the strings: the lesson file, the kernel's text (empty: read it). */
struct wire_measure {
    struct wire_device device;
    int lesson;                 /* the number the file must give */
    bool has_params;
    struct param_set params;
    struct gemm_size size;
    uint64_t seed;
    size_t guard;
    struct wire_config cfg;
};

/* WIRE_CHECK, then the strings: the exercise file, the lessons' directory, the student's
   file, the name its build log gives it. */
struct wire_check {
    struct wire_device device;
    int exercise;
    bool has_prediction;
    double prediction;
    bool speed_size_given;
    struct gemm_size speed_size;
    struct wire_config cfg;
    double timeout_s;
    bool once;                  /* the first size only, one launch, no speed (races.h) */
};

/* WIRE_PROGRESS */
struct wire_progress {
    struct measure_progress p;
    double allowed_s;           /* this step's limit; 0: none */
};

/* A message being made or read. */
struct wire {
    unsigned char *bytes;
    size_t len, cap, at;        /* at: where reading has got to */
    uint32_t kind;
    bool bad;                   /* read past the end */
};

void wire_init(struct wire *w, uint32_t kind);
void wire_free(struct wire *w);
void wire_put(struct wire *w, const void *data, size_t len);
void wire_put_string(struct wire *w, const char *s);   /* NULL travels as "" */
/* Copies len bytes out; false (and zeros) when the message is shorter. */
bool wire_get(struct wire *w, void *data, size_t len);
/* A malloc'd copy of the next string; NULL when the message is short. */
char *wire_get_string(struct wire *w);

/* Writes the whole message; -1 when the other end is gone. */
int wire_send(int fd, const struct wire *w);
/* Reads one whole message into w (kind and bytes); 0, or -1 at the end of the stream or on
   a message that is malformed or too large. */
int wire_receive(int fd, struct wire *w);

void wire_config_from(struct wire_config *wc, const struct measure_config *cfg);
void wire_config_to(const struct wire_config *wc, struct measure_config *cfg);

#endif
