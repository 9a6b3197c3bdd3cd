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
 * Forward kinematics in the base frame, the tool's geometric Jacobian (Craig 5.7) and the
 * kinetic and potential energies, as robot_dynamics.algorithms.kinematics.
 */
#include <string.h>

#include "engine.h"

/* World pose (R_i, o_i) of every body and its joint's motion subspace about the base origin:
 * revolute S = [z; o x z], prismatic S = [0; z], z the joint axis in the base frame. */
void rd_world(rd_model *m, const double *q)
{
    for (int i = 0; i < m->n; ++i) rd_place(m->J + i, q[i], &m->w.X[i]);
    rd_world_placed(m);
}

/* rd_world from the placements already in w.X (the Newton-Euler pass leaves them there). */
void rd_world_placed(rd_model *m)
{
    const int n = m->n;
    rd_work *w = &m->w;
    rd_placement world = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}, next;
    double t[3];
    int i;
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        rd_compose(&world, &w->X[i], &next);                     /* X_1 ... X_i */
        world = next;
        memcpy(w->R[i], world.R, sizeof world.R);
        memcpy(w->o[i], world.p, sizeof world.p);
        rd_mv(world.R, J->axis, t);
        if (J->type == RD_REVOLUTE) {
            memcpy(w->S[i], t, sizeof t);
            rd_cross(world.p, t, w->S[i] + 3);
        } else {
            w->S[i][0] = w->S[i][1] = w->S[i][2] = 0.0;
            memcpy(w->S[i] + 3, t, sizeof t);
        }
    }
}

/* The tool frame in the base: the last body's world placement composed with the tool's. */
static void tip(const rd_model *m, double *R, double *p)
{
    const int last = m->n - 1;
    rd_placement body, tool, world;
    memcpy(body.R, m->w.R[last], sizeof body.R);
    memcpy(body.p, m->w.o[last], sizeof body.p);
    rd_placement_of(m->tipR, m->tipp, &tool);
    rd_compose(&body, &tool, &world);
    memcpy(R, world.R, sizeof world.R);
    memcpy(p, world.p, sizeof world.p);
}

void rd_tip_pose(rd_model *m, const double *q, double *T)
{
    double R[9], p[3];
    rd_world(m, q);
    tip(m, R, p);
    for (int r = 0; r < 3; ++r) {
        T[4 * r] = R[3 * r]; T[4 * r + 1] = R[3 * r + 1]; T[4 * r + 2] = R[3 * r + 2];
        T[4 * r + 3] = p[r];
    }
    T[12] = T[13] = T[14] = 0.0;
    T[15] = 1.0;
}

/* Rows [v; w] of the tool frame, base-frame axes (tip_frame 0) or tool-frame axes (1). */
void rd_jacobian(rd_model *m, const double *q, int tip_frame, double *Jac)
{
    const int n = m->n;
    double R[9], p[3], col[6], d[3];
    int i, k;
    rd_world(m, q);
    tip(m, R, p);
    for (i = 0; i < n; ++i) {
        const double *z = m->w.S[i];
        if (m->J[i].type == RD_REVOLUTE) {
            for (k = 0; k < 3; ++k) d[k] = p[k] - m->w.o[i][k];
            rd_cross(z, d, col);
            memcpy(col + 3, z, 3 * sizeof(double));
        } else {
            memcpy(col, z + 3, 3 * sizeof(double));
            col[3] = col[4] = col[5] = 0.0;
        }
        if (tip_frame) {
            rd_mtv(R, col, col);
            rd_mtv(R, col + 3, col + 3);
        }
        for (k = 0; k < 6; ++k) Jac[n * k + i] = col[k];
    }
}

/* Sum over bodies of 1/2 m v.v + v.(w x h) + 1/2 w.Io w (velocities of each frame's origin,
 * in its own frame), plus the rotors' 1/2 rotor qd^2. */
double rd_kinetic_energy(rd_model *m, const double *q, const double *qd)
{
    const int n = m->n;
    double s[6] = {0, 0, 0, 0, 0, 0}, *w = s, *v = s + 3, t[3], Iw[3], energy = 0.0;
    int i, k;
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        rd_placement X;
        rd_place(J, q[i], &X);
        rd_motion_to_child(&X, s, s);                       /* the parent's motion in {i} */
        for (k = 0; k < 3; ++k) {
            if (J->type == RD_REVOLUTE) w[k] += J->axis[k] * qd[i];
            else v[k] += J->axis[k] * qd[i];
        }
        rd_cross(w, J->h, t);
        rd_mv(J->Io, w, Iw);
        energy += 0.5 * J->m * rd_dot3(v, v) + rd_dot3(v, t) + 0.5 * rd_dot3(w, Iw)
                  + 0.5 * J->rotor * qd[i] * qd[i];
    }
    return energy;
}

/* -sum m_i g.c_i with g.o_i carried along the chain in body frames (zero at the base). */
double rd_potential_energy(rd_model *m, const double *q)
{
    const int n = m->n;
    double g[3] = {m->g[0], m->g[1], m->g[2]}, go = 0.0, energy = 0.0;
    for (int i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        rd_placement X;
        rd_place(J, q[i], &X);
        go += rd_dot3(g, X.p);
        rd_mtv(X.R, g, g);
        energy -= J->m * go + rd_dot3(g, J->h);
    }
    return energy;
}
