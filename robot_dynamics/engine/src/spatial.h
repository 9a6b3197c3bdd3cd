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
 * The engine's one spatial algebra: 3-vectors and rotations, rigid placements, spatial motion
 * and force vectors, spatial inertias and the two cross products, written once over a scalar.
 *
 * THE FRAME CONVENTION (every kernel; Featherstone's Plucker coordinates, as in Pinocchio):
 *  - Body i carries frame {i}, its origin o_i on joint i's axis, placed by the model
 *    (robot_dynamics.model). A placement X_i = (R, p) puts {i} in its parent {i-1}:
 *    x_parent = R x_i + p, i.e. R maps coordinates in {i} to coordinates in {i-1} and p is
 *    o_i in {i-1}'s coordinates. At q = 0 it is the joint's (Rt, pt); place() adds the joint
 *    motion (Rodrigues about, or a slide along, `axis`, given in {i}). The world (base) pose
 *    of {i} is the composition X_1 ... X_i. Matrices are 3 x 3, row-major.
 *  - A spatial vector is ordered (angular; linear). Expressed in the axes of a frame F it is
 *    taken about F's origin: a motion (w; v) has v the velocity of the body-fixed point at F's
 *    origin, a force (n; f) has n the moment about F's origin. "Body" quantities are in {i}
 *    about o_i; "world" ones in the base axes about the base origin.
 *  - A spatial inertia (m, h = m c, Ib) has mass m, first moment h (c the centre of mass) and
 *    rotational inertia Ib about the origin of its frame: I (w; v) = (Ib w + h x v; m v - h x w).
 *  - Cross products (Featherstone, RBDA 2.31-2.32): motion s1 x s2, force s x* f.
 *  - Gravity enters once, as the base acceleration a0 = -g (in every kernel).
 *  The Newton-Euler recursion (rnea_body.h) carries Craig's classical linear acceleration of each
 *  origin o_i rather than the spatial one, in the same frames and about the same points.
 *
 * INSTANCES: engine.h includes this header for RD_T = double, names rd_* (rd_cross, rd_mv,
 * rd_placement, ...); lanes.h includes it again in the translation units of the batch kernels
 * for RD_T = VEC (2 or 4 doubles, GCC vector types), names rdv_*: the same operations lane by
 * lane, so a batch lane gives the bits of a single call (setup.py: no FMA contraction). A model
 * constant (an axis, a centre of mass, a rotational inertia: double) is an operand of the
 * variants named *_c (second operand constant) or c_* (first operand constant). Outputs may
 * alias inputs unless a function says otherwise.
 */
#ifndef RD_SPATIAL_DEFINERS
#define RD_SPATIAL_DEFINERS

#if defined(__GNUC__)
#define RD_INLINE inline __attribute__((always_inline))
#define RD_NOINLINE __attribute__((noinline, unused))  /* unused: no warning where not called */
#else
#define RD_INLINE inline
#define RD_NOINLINE
#endif

/* o = a x b */
#define RD_DEFINE_CROSS(name, TA, TB)                                                       \
    static inline void name(const TA *a, const TB *b, RD_T *o)                              \
    {                                                                                        \
        RD_T x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];                   \
        o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;                                \
    }
/* o = R v */
#define RD_DEFINE_MV(name, TR, TV)                                                          \
    static inline void name(const TR *R, const TV *v, RD_T *o)                              \
    {                                                                                        \
        RD_T x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];                                    \
        RD_T y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];                                    \
        o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;                  \
    }
/* o = A B (3 x 3); o must not alias A or B */
#define RD_DEFINE_MM(name, TA, TB)                                                          \
    static inline void name(const TA *A, const TB *B, RD_T *o)                              \
    {                                                                                        \
        for (int r = 0; r < 3; ++r)                                                          \
            for (int c = 0; c < 3; ++c)                                                      \
                o[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c]                     \
                               + A[3 * r + 2] * B[6 + c];                                    \
    }
/* a . b (3-vectors) */
#define RD_DEFINE_DOT3(name, TA, TB)                                                        \
    static inline RD_T name(const TA *a, const TB *b)                                        \
    {                                                                                        \
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];                                      \
    }

#endif  /* RD_SPATIAL_DEFINERS */

/* The double instance once; a vector instance once per translation unit (lanes.h). */
#if !defined(RD_T) && !defined(RD_SPATIAL_DOUBLE)
#define RD_SPATIAL_DOUBLE
#define RD_SPATIAL_INSTANCE 1           /* 1: this header defined the scalar, undefines it */
#define RD_T double
#define RD_SP(name) rd_##name
#define RD_SPLAT(x_) (x_)
#define RD_SIN_VERSINE rd_sin_versine
#define RD_PLACE_ATTR RD_NOINLINE      /* see place() */
#elif defined(RD_T)
#define RD_SPATIAL_INSTANCE 2           /* 2: lanes.h defined it and keeps it */
#endif

#ifdef RD_SPATIAL_INSTANCE

/* ---- 3-vectors and rotations ---- */
RD_DEFINE_CROSS(RD_SP(cross), RD_T, RD_T)
RD_DEFINE_CROSS(RD_SP(cross_c), RD_T, double)
RD_DEFINE_CROSS(RD_SP(c_cross), double, RD_T)
RD_DEFINE_MV(RD_SP(mv), RD_T, RD_T)
RD_DEFINE_MV(RD_SP(mv_c), RD_T, double)
RD_DEFINE_MV(RD_SP(c_mv), double, RD_T)
RD_DEFINE_MM(RD_SP(mm), RD_T, RD_T)
RD_DEFINE_MM(RD_SP(mm_c), RD_T, double)
RD_DEFINE_DOT3(RD_SP(dot3), RD_T, RD_T)
RD_DEFINE_DOT3(RD_SP(c_dot3), double, RD_T)

/* o = R^T v */
static inline void RD_SP(mtv)(const RD_T *R, const RD_T *v, RD_T *o)
{
    RD_T x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    RD_T y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    o[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}

/* ---- spatial vectors ---- */
static inline RD_T RD_SP(dot6)(const RD_T *a, const RD_T *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

static inline void RD_SP(add6)(RD_T *to, const RD_T *from)
{
    for (int k = 0; k < 6; ++k) to[k] += from[k];
}

/* motion cross product o = m x s (RBDA 2.31); o must not alias m or s */
static inline void RD_SP(crm)(const RD_T *m, const RD_T *s, RD_T *o)
{
    RD_T t[3];
    RD_SP(cross)(m, s, o); RD_SP(cross)(m + 3, s, o + 3); RD_SP(cross)(m, s + 3, t);
    o[3] += t[0]; o[4] += t[1]; o[5] += t[2];
}

/* force cross product o = m x* f (RBDA 2.32); o must not alias m or f */
static inline void RD_SP(crf)(const RD_T *m, const RD_T *f, RD_T *o)
{
    RD_T t[3];
    RD_SP(cross)(m, f, o); RD_SP(cross)(m + 3, f + 3, t); RD_SP(cross)(m, f + 3, o + 3);
    o[0] += t[0]; o[1] += t[1]; o[2] += t[2];
}

/* ---- rigid placements: X = (R, p) of a child frame in its parent ---- */
typedef struct { RD_T R[9], p[3]; } RD_SP(placement);

/* X of joint J's body at joint value q (robot_dynamics.kinematics.joint_transform):
 * revolute R = Rt + sin q RtK + (1 - cos q) RtK2, p = pt; prismatic R = Rt, p = pt + q Rt axis.
 * place_sv takes s = sin q and v = 1 - cos q computed beforehand (several joints at once).
 * Out of line on doubles (RD_PLACE_ATTR): inlined, its sines and Rodrigues terms crowd the
 * callers' loops (measured: gravity torques 8-14 % slower on 7-30 joints). */
static inline void RD_SP(place_sv)(const rd_joint *J, RD_T q, RD_T s, RD_T v,
                                   RD_SP(placement) *X)
{
    int k;
    if (J->type == RD_REVOLUTE) {
        for (k = 0; k < 9; ++k) X->R[k] = J->Rt[k] + s * J->RtK[k] + v * J->RtK2[k];
        for (k = 0; k < 3; ++k) X->p[k] = RD_SPLAT(J->pt[k]);
    } else {
        for (k = 0; k < 9; ++k) X->R[k] = RD_SPLAT(J->Rt[k]);
        for (k = 0; k < 3; ++k) X->p[k] = J->pt[k] + J->Rta[k] * q;
    }
}

static RD_PLACE_ATTR void RD_SP(place)(const rd_joint *J, RD_T q, RD_SP(placement) *X)
{
    RD_T s = RD_SPLAT(0.0), v = RD_SPLAT(0.0);
    if (J->type == RD_REVOLUTE) RD_SIN_VERSINE(q, &s, &v);
    RD_SP(place_sv)(J, q, s, v, X);
}

/* A constant placement (the tool frame's (tipR, tipp)) in every lane. */
static inline void RD_SP(placement_of)(const double *R, const double *p, RD_SP(placement) *X)
{
    for (int k = 0; k < 9; ++k) X->R[k] = RD_SPLAT(R[k]);
    for (int k = 0; k < 3; ++k) X->p[k] = RD_SPLAT(p[k]);
}

/* o = A B: the child B of the child A, in A's parent (R = A.R B.R, p = A.p + A.R B.p);
 * o must not alias A or B. */
static inline void RD_SP(compose)(const RD_SP(placement) *A, const RD_SP(placement) *B,
                                  RD_SP(placement) *o)
{
    RD_T t[3];
    RD_SP(mv)(A->R, B->p, t);
    for (int k = 0; k < 3; ++k) o->p[k] = A->p[k] + t[k];
    RD_SP(mm)(A->R, B->R, o->R);
}

/* A motion (w; v) given in the parent carried into the child: (R^T w; R^T (v - p x w)). */
static inline void RD_SP(motion_to_child)(const RD_SP(placement) *X, const RD_T *s, RD_T *o)
{
    RD_T t[3], u[3];
    RD_SP(cross)(X->p, s, t);
    for (int k = 0; k < 3; ++k) u[k] = s[3 + k] - t[k];
    RD_SP(mtv)(X->R, s, o); RD_SP(mtv)(X->R, u, o + 3);
}

/* A force (n; f) given in the child carried into the parent: (R n + p x R f; R f). */
static inline void RD_SP(force_to_parent)(const RD_SP(placement) *X, const RD_T *f, RD_T *o)
{
    RD_T t[3];
    RD_SP(mv)(X->R, f + 3, o + 3); RD_SP(mv)(X->R, f, o);
    RD_SP(cross)(X->p, o + 3, t);
    o[0] += t[0]; o[1] += t[1]; o[2] += t[2];
}

/* ---- spatial inertias (m, h, Ib) about a frame's origin ---- */
typedef struct { RD_T m, h[3], Ib[9]; } RD_SP(inertia);

/* f = I s: (Ib w + h x v; m v - h x w) for s = (w; v); f must not alias s */
static inline void RD_SP(inertia_apply)(const RD_SP(inertia) *In, const RD_T *s, RD_T *f)
{
    RD_T t[3], u[3];
    RD_SP(mv)(In->Ib, s, f);
    RD_SP(cross)(In->h, s + 3, t);
    RD_SP(cross)(In->h, s, u);
    for (int k = 0; k < 3; ++k) {
        f[k] += t[k];
        f[3 + k] = In->m * s[3 + k] - u[k];
    }
}

static inline void RD_SP(inertia_add)(RD_SP(inertia) *to, const RD_SP(inertia) *from)
{
    to->m += from->m;
    for (int k = 0; k < 3; ++k) to->h[k] += from->h[k];
    for (int k = 0; k < 9; ++k) to->Ib[k] += from->Ib[k];
}

/* The inertia of a body (mass m, centre of mass c and inertia Ic about it, in its frame),
 * its frame posed at (R, o) in a frame F, about F's origin in F's axes:
 * c' = R c + o, h = m c', Ib = R Ic R^T + m ((c'.c') 1 - c' c'^T). */
static inline void RD_SP(inertia_placed)(double m, const double *c, const double *Ic,
                                         const RD_T *R, const RD_T *o, RD_SP(inertia) *In)
{
    RD_T cw[3], T[9], cc;
    int r, k;
    RD_SP(mv_c)(R, c, cw);
    for (k = 0; k < 3; ++k) cw[k] += o[k];
    cc = RD_SP(dot3)(cw, cw);
    In->m = RD_SPLAT(m);
    for (k = 0; k < 3; ++k) In->h[k] = m * cw[k];
    RD_SP(mm_c)(R, Ic, T);                                       /* T = R Ic */
    for (r = 0; r < 3; ++r)                                      /* R Ic R^T + parallel axis */
        for (k = r; k < 3; ++k) {
            RD_T s = T[3 * r] * R[3 * k] + T[3 * r + 1] * R[3 * k + 1]
                     + T[3 * r + 2] * R[3 * k + 2];
            if (r == k) s += m * (cc - cw[r] * cw[k]);              /* (c'.c') 1 - c' c'^T */
            else s += m * -(cw[r] * cw[k]);
            In->Ib[3 * r + k] = In->Ib[3 * k + r] = s;
        }
}

/* ---- 6 x 6 spatial inertias (row-major; the articulated inertias of ABA are general ones) ---- */

/* o = A x for a 6 x 6 A */
static inline void RD_SP(mat6_apply)(const RD_T *A, const RD_T *x, RD_T *o)
{
    for (int r = 0; r < 6; ++r) {
        RD_T s = RD_SPLAT(0.0);
        for (int c = 0; c < 6; ++c) s += A[6 * r + c] * x[c];
        o[r] = s;
    }
}

/* o = R M R^T (3 x 3); o must not alias R or M */
static inline void RD_SP(rotate3)(const RD_T *R, const RD_T *M, RD_T *o)
{
    RD_T T[9];
    RD_SP(mm)(R, M, T);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            o[3 * r + c] = T[3 * r] * R[3 * c] + T[3 * r + 1] * R[3 * c + 1]
                           + T[3 * r + 2] * R[3 * c + 2];
}

/* The 6 x 6 matrix of the inertia (m, h, Ib): [[Ib, h x], [-h x, m 1]]. */
static inline void RD_SP(inertia6)(double m, const double *h, const double *Ib, RD_T *I6)
{
    const double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            I6[6 * r + c] = RD_SPLAT(Ib[3 * r + c]);
            I6[6 * r + c + 3] = RD_SPLAT(hx[3 * r + c]);
            I6[6 * (r + 3) + c] = RD_SPLAT(-hx[3 * r + c]);
            I6[6 * (r + 3) + c + 3] = RD_SPLAT(m * (r == c));
        }
}

/* out += X^T I X: a 6 x 6 inertia I given in the child carried into the parent. With blocks
 * I = [[A, B], [B^T, C]] rotated into the parent (A' = R A R^T, ...) and P = [p x]:
 * C'' = C', B'' = B' + P C', A'' = A' - B' P + P B'^T - P C' P. */
static inline void RD_SP(inertia6_to_parent)(const RD_SP(placement) *X, const RD_T *In,
                                             RD_T *out)
{
    RD_T A[9], B[9], C[9], Ar[9], Br[9], Cr[9], PC[9], BP[9], PCP[9];
    const RD_T *p = X->p, zero = RD_SPLAT(0.0);
    const RD_T Px[9] = {zero, -p[2], p[1], p[2], zero, -p[0], -p[1], p[0], zero};
    int r, c;
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            A[3 * r + c] = In[6 * r + c];
            B[3 * r + c] = In[6 * r + c + 3];
            C[3 * r + c] = In[6 * (r + 3) + c + 3];
        }
    RD_SP(rotate3)(X->R, A, Ar); RD_SP(rotate3)(X->R, B, Br); RD_SP(rotate3)(X->R, C, Cr);
    RD_SP(mm)(Px, Cr, PC); RD_SP(mm)(Br, Px, BP); RD_SP(mm)(PC, Px, PCP);
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            RD_T b = Br[3 * r + c] + PC[3 * r + c];
            RD_T a = Ar[3 * r + c] - BP[3 * r + c] - BP[3 * c + r] - PCP[3 * r + c];
            out[6 * r + c] += a;                     /* P B'^T = -(B' P)^T since P^T = -P */
            out[6 * r + c + 3] += b;
            out[6 * (c + 3) + r] += b;
            out[6 * (r + 3) + c + 3] += Cr[3 * r + c];
        }
}

#undef RD_PLACE_ATTR
#if RD_SPATIAL_INSTANCE == 1
#undef RD_T
#undef RD_SP
#undef RD_SPLAT
#undef RD_SIN_VERSINE
#endif
#undef RD_SPATIAL_INSTANCE
#endif  /* RD_SPATIAL_INSTANCE */
