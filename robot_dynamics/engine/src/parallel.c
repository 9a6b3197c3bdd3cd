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

#if defined(__GNUC__) || defined(__clang__)
#define RELAXED_LOAD(p_) __atomic_load_n(p_, __ATOMIC_RELAXED)
#define RELAXED_STORE(p_, v_) __atomic_store_n(p_, v_, __ATOMIC_RELAXED)
#define FETCH_ADD(p_, v_) __atomic_fetch_add(p_, v_, __ATOMIC_RELAXED)
#define HAVE_ATOMICS 1
#else                                   /* no atomics known here: one thread (see below) */
#define RELAXED_LOAD(p_) (*(p_))
#define RELAXED_STORE(p_, v_) (*(p_) = (v_))
#define FETCH_ADD(p_, v_) ((*(p_) += (v_)) - (v_))
#define HAVE_ATOMICS 0
#endif

/* Rows are handed out in grains from one shared counter, so a thread that the machine's other
 * work slows down takes fewer grains instead of holding up the batch (measured on a loaded
 * 2-core machine: a static half per thread waited for the slower one). */
typedef struct {
    long next, N, grain, failed;    /* next: the first row not yet handed out */
    int status, stop;
} Shared;

typedef struct {
    rd_model model;
    rd_row_fn fn;
    void *context;
    Shared *shared;
} Chunk;

static void *run_chunk(void *arg)
{
    Chunk *c = (Chunk *)arg;
    Shared *s = c->shared;
    while (!RELAXED_LOAD(&s->stop)) {
        long row = FETCH_ADD(&s->next, s->grain);
        long end = row + s->grain < s->N ? row + s->grain : s->N;
        if (row >= s->N) break;
        for (; row < end; ++row) {
            int status = c->fn(&c->model, row, c->context);
            if (status != 0) {                    /* the lowest failing row of those run */
#ifndef _WIN32
                static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
                pthread_mutex_lock(&lock);
#endif
                if (s->status == 0 || row < s->failed) {
                    s->status = status;
                    s->failed = row;
                }
#ifndef _WIN32
                pthread_mutex_unlock(&lock);
#endif
                RELAXED_STORE(&s->stop, 1);
                return NULL;
            }
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
    Shared shared;
    int t, made = 0, status = 0;
#ifndef _WIN32
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
#endif
    if (grain < 1) grain = 1;
    if (threads > N / grain) threads = (int)(N / grain);
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
#if defined(_WIN32) || !HAVE_ATOMICS
    threads = 1;
#endif
    memset(&shared, 0, sizeof shared);
    shared.N = N;
    shared.grain = grain;
    for (t = 0; t < threads; ++t, ++made) {
        Chunk *c = &chunks[t];
        memset(c, 0, sizeof *c);
        if (rd_model_fork(m, &c->model) != 0) { status = -1; break; }
        c->fn = fn; c->context = context; c->shared = &shared;
    }
    if (status == 0) {
#ifndef _WIN32
        for (t = 1; t < threads; ++t)
            started[t] = pthread_create(&ids[t], NULL, run_chunk, &chunks[t]) == 0;
        run_chunk(&chunks[0]);
        for (t = 1; t < threads; ++t)
            if (started[t]) pthread_join(ids[t], NULL);   /* no thread: chunk 0 took its rows */
#else
        run_chunk(&chunks[0]);
#endif
        status = shared.status;
        if (status != 0) *failed = shared.failed;
    }
    for (t = 0; t < made; ++t) rd_model_free(&chunks[t].model);
    return status;
}
