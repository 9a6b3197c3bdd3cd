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

/* Batches 2 rows at a time on lanes.h's 2-lane vectors: inverse dynamics and gravity
 * (rnea_body.h), the mass matrix (crba_body.h) and forward dynamics (forward_body.h). */
#define RD_LANES 2
#include "lanes.h"
#include "rnea_body.h"
#include "crba_body.h"
#if RD_HAVE_LANES
#include "cholesky_body.h"
#endif
#include "forward_body.h"
