/* runner.c: the lesson runners by engine (runner.h). */
#include "runner.h"

static const struct engine_runner *const engines[] = {
    [ENGINE_OPENCL] = &runner_opencl,
    [ENGINE_HOST] = &runner_host,
};

const struct engine_runner *runner_for_engine(enum lesson_engine engine)
{
    return engines[engine];
}
