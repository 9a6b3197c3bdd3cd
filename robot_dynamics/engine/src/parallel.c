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
 * Batches on several threads (see parallel.h): POSIX threads; one thread elsewhere.
 */
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <pthread.h>
#include <unistd.h>
#endif

#include "parallel.h"

#define MAX_THREADS 64

typedef struct {
    rd_model model;
    rd_row_fn fn;
    void *context;
    long begin, end, failed;
    int status;
} Chunk;

static void *run_chunk(void *arg)
{
    Chunk *c = (Chunk *)arg;
    for (long row = c->begin; row < c->end; ++row) {
        int status = c->fn(&c->model, row, c->context);
        if (status != 0) {
            c->status = status;
            c->failed = row;
            break;
        }
    }
    return NULL;
}

int rd_default_threads(void)
{
    const char *text = getenv("ROBOT_DYNAMICS_THREADS");
    long value = text != NULL && *text ? strtol(text, NULL, 10) : 0;
#ifndef _WIN32
    if (value <= 0) value = sysconf(_SC_NPROCESSORS_ONLN);
    if (value > 8 && (text == NULL || !*text)) value = 8;
#endif
    if (value < 1) value = 1;
    return value > MAX_THREADS ? MAX_THREADS : (int)value;
}

int rd_parallel_rows(const rd_model *m, long N, int threads, long grain, rd_row_fn fn,
                     void *context, long *failed)
{
    Chunk chunks[MAX_THREADS];
    long per;
    int t, made = 0, status = 0;
#ifndef _WIN32
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
#endif
    if (grain < 1) grain = 1;
    if (threads > N / grain) threads = (int)(N / grain);
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
#ifdef _WIN32
    threads = 1;
#endif
    per = (N + threads - 1) / threads;
    for (t = 0; t < threads; ++t, ++made) {
        Chunk *c = &chunks[t];
        memset(c, 0, sizeof *c);
        if (rd_model_fork(m, &c->model) != 0) { status = -1; break; }
        c->fn = fn; c->context = context;
        c->begin = t * per;
        c->end = c->begin + per < N ? c->begin + per : N;
    }
    if (status == 0) {
#ifndef _WIN32
        for (t = 1; t < threads; ++t)
            started[t] = pthread_create(&ids[t], NULL, run_chunk, &chunks[t]) == 0;
        run_chunk(&chunks[0]);
        for (t = 1; t < threads; ++t) {
            if (started[t]) pthread_join(ids[t], NULL);
            else run_chunk(&chunks[t]);              /* no thread: do it here */
        }
#else
        run_chunk(&chunks[0]);
#endif
        for (t = 0; t < threads; ++t)
            if (chunks[t].status != 0) {
                status = chunks[t].status;
                *failed = chunks[t].failed;
                break;
            }
    }
    for (t = 0; t < made; ++t) rd_model_free(&chunks[t].model);
    return status;
}
