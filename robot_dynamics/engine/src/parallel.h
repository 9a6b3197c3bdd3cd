// Copyright 2026 robot_dynamics contributors
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

/*
 * Batches on several threads: rows handed out in grains from a shared counter, one forked
 * model (its own workspace, the joints shared) per thread. No Python API is used here: the
 * caller releases the GIL around rd_parallel_rows.
 */
#ifndef RD_PARALLEL_H
#define RD_PARALLEL_H

#include "engine.h"

/* fn(model, row, context) computes one row; 0, or a non-zero status that stops the batch. */
typedef int (*rd_row_fn)(rd_model *m, long row, void *context);

/* Run fn over rows [0, N) on up to `threads` threads, `grain` rows at a time. Returns 0, a
 * row's non-zero status (*failed: the lowest failing row of those run), or -1 without memory. */
int rd_parallel_rows(const rd_model *m, long N, int threads, long grain, rd_row_fn fn,
                     void *context, long *failed);

/* Threads to use: $ROBOT_DYNAMICS_THREADS, else the online processors (at most 8). */
int rd_default_threads(void);

#endif
