/**
 * One implicit step of the bar as projected Newton on the incremental potential Φ: the
 * Hessian's constant part factorised once from the top end (only the contact row changes),
 * the predictor, the Newton loop with the 1D collision filter and Armijo backtracking on the
 * exact ΔΦ, and the Newmark (or implicit Euler) kinematic update. The state and the scratch
 * are allocated once per run; the per-step functions allocate nothing.
 *
 * @module
 */

import {
  type BarMatrices,
  barMatrices,
  solveTridiagonal,
  type SymmetricTridiagonal,
  tridiagonalMultiply,
} from "./fem.ts";
import type { ImplicitSettings } from "./newmark_options.ts";

const ARMIJO = 1e-4;
const GQ = 0.5 / Math.sqrt(3);

/**
 * The bar's matrices and the Newton Hessian H = M + wK (w = βh², or h² for implicit Euler),
 * whose constant part is factorised once from the top end so that only the contact row
 * changes between iterations.
 *
 * @internal
 */
export interface NewtonSystem {
  readonly mats: BarMatrices;
  /** Mass matrix (consistent or lumped). */
  readonly M: SymmetricTridiagonal;
  /** Stiffness matrix. */
  readonly K: SymmetricTridiagonal;
  /** Nodes N + 1. */
  readonly n: number;
  /** Weight of the potential energy in Φ. */
  readonly w: number;
  /** Diagonal and off-diagonal of H. */
  readonly hd: Float64Array;
  readonly ho: Float64Array;
  /** 1/Dᵢ of the top-down factorisation, i ≥ 1. */
  readonly invD: Float64Array;
  /** hoᵢ/D_{i+1}. */
  readonly coef: Float64Array;
  /** Pivot of row 0 without the contact Hessian. */
  readonly d0Base: number;
}

/**
 * Assemble the matrices and factorise the constant part of the Hessian from the top end.
 *
 * @internal
 */
export function assembleNewtonSystem(s: ImplicitSettings): NewtonSystem {
  const N = s.N;
  const mats = barMatrices(N, s.bar);
  const M = s.massKind === "consistent" ? mats.consistentMass : mats.lumpedMass;
  const K = mats.stiffness;
  const md = M.diag, mo = M.off, kd = K.diag, ko = K.off;
  const n = N + 1;
  const h = s.h;
  const w = s.euler ? h * h : s.beta * h * h;
  const hd = new Float64Array(n);
  const ho = new Float64Array(N);
  for (let i = 0; i < n; i++) hd[i] = md[i] + w * kd[i];
  for (let i = 0; i < N; i++) ho[i] = mo[i] + w * ko[i];
  const invD = new Float64Array(n); // 1/Dᵢ for i ≥ 1
  const coef = new Float64Array(N); // hoᵢ/D_{i+1}
  let D = hd[N];
  invD[N] = 1 / D;
  for (let i = N - 1; i >= 1; i--) {
    coef[i] = ho[i] * invD[i + 1];
    D = hd[i] - ho[i] * coef[i];
    invD[i] = 1 / D;
  }
  coef[0] = ho[0] * invD[1];
  const d0Base = hd[0] - ho[0] * coef[0];
  return { mats, M, K, n, w, hd, ho, invD, coef, d0Base };
}

/**
 * The state of an implicit run, the Newton scratch (allocated once) and the counters.
 *
 * @internal
 */
export interface ImplicitState {
  /** Positions, velocities, accelerations yₙ, vₙ, aₙ. */
  readonly y: Float64Array;
  readonly v: Float64Array;
  readonly a: Float64Array;
  /** yₙ of the step in progress. */
  readonly yPrev: Float64Array;
  /** Predictor increment dỹ = ỹ − yₙ. */
  readonly yt: Float64Array;
  /** Static force K(yₙ − X) + f_g. */
  readonly fs: Float64Array;
  /** Newton increment dy = y − yₙ, gradient, direction and solve scratch. */
  readonly dy: Float64Array;
  readonly g: Float64Array;
  readonly p: Float64Array;
  readonly tmp: Float64Array;
  readonly tmp2: Float64Array;
  /** Contact gradient e′ and Hessian e″ at the current iterate (0 outside the support). */
  e1: number;
  e2: number;
  /** Newton iterations and convergence of the step in progress. */
  iterations: number;
  converged: boolean;
  /** Smallest end position over every iterate (m). */
  minGap: number;
  /** Steps that hit the cap or whose line search stalled. */
  unconverged: number;
  /** Newton iterations of each step. */
  readonly newtonIterations: Uint16Array;
}

/**
 * Initial state: the bar at height h0 moving at v0, a₀ from M a₀ = −∇Ψ(y₀).
 *
 * @internal
 */
export function initialState(s: ImplicitSettings, sys: NewtonSystem): ImplicitState {
  const n = sys.n;
  const X = sys.mats.restPositions;
  const nm = sys.mats.nodalMass;
  const f = () => new Float64Array(n);
  const st: ImplicitState = {
    y: f(),
    v: f(),
    a: f(),
    yPrev: f(),
    yt: f(),
    fs: f(),
    dy: f(),
    g: f(),
    p: f(),
    tmp: f(),
    tmp2: f(),
    e1: 0,
    e2: 0,
    iterations: 0,
    converged: false,
    minGap: 0,
    unconverged: 0,
    newtonIterations: new Uint16Array(s.steps),
  };
  const { y, v, a, tmp, tmp2 } = st;
  for (let i = 0; i < n; i++) {
    y[i] = s.bar.height + X[i];
    v[i] = s.v0;
  }
  for (let i = 0; i < n; i++) tmp2[i] = y[i] - X[i];
  tridiagonalMultiply(sys.K, tmp2, tmp);
  for (let i = 0; i < n; i++) tmp[i] = -(tmp[i] + nm[i] * s.G);
  if (s.pot) tmp[0] -= s.pot.gradient(y[0]);
  solveTridiagonal(sys.M, tmp, a, tmp2);
  st.minGap = y[0];
  return st;
}

/**
 * Predict: save yₙ, the predictor increment dỹ = h vₙ + (½ − β) h² aₙ (h vₙ for implicit
 * Euler) and the static force fs = K(yₙ − X) + f_g. Newton works on the increment
 * dy = y − yₙ (small numbers, so the Newmark acceleration (dy − dỹ)/(βh²) keeps full precision).
 *
 * @internal
 */
export function predict(s: ImplicitSettings, sys: NewtonSystem, st: ImplicitState): void {
  const { y, v, a, yPrev, yt, fs } = st;
  const kd = sys.K.diag, ko = sys.K.off;
  const X = sys.mats.restPositions, nm = sys.mats.nodalMass;
  const h = s.h, G = s.G, N = s.N, n = sys.n;
  const c2 = s.euler ? 0 : (0.5 - s.beta) * h * h;
  for (let i = 0; i < n; i++) {
    yPrev[i] = y[i];
    yt[i] = h * v[i] + c2 * a[i];
    let f = kd[i] * (y[i] - X[i]) + nm[i] * G;
    if (i > 0) f += ko[i - 1] * (y[i - 1] - X[i - 1]);
    if (i < N) f += ko[i] * (y[i + 1] - X[i + 1]);
    fs[i] = f;
  }
}

/**
 * Newton solve of one step: minimise Φ over the increment dy by projected Newton with the
 * collision filter and Armijo backtracking. Starts from the predictor ỹ when it lies outside
 * the contact potential's support (or the potential is unfiltered), otherwise from yₙ, which
 * is always feasible. Sets `iterations`, `converged` and `minGap`.
 *
 * @internal
 */
export function newtonSolve(s: ImplicitSettings, sys: NewtonSystem, st: ImplicitState): void {
  const { dy, yt, p } = st;
  const n = sys.n;
  const y0Prev = st.yPrev[0];
  const fromPredictor = !s.filtered || y0Prev + yt[0] >= s.activeBelow;
  for (let i = 0; i < n; i++) dy[i] = fromPredictor ? yt[i] : 0;
  let its = 0;
  let converged = false;
  while (its < s.maxIt) {
    its++;
    const x0 = y0Prev + dy[0];
    newtonGradient(sys, st);
    contactTerms(s, sys, st, x0);
    const pmax = newtonDirection(s, sys, st);
    if (pmax < s.tolP) {
      converged = true;
      break;
    }
    const alpha = lineSearch(s, sys, st, x0, collisionFilter(s, x0, p[0]));
    if (alpha === 0) {
      // no decrease possible at machine precision: accept the iterate as converged if the
      // step is small, otherwise count the step as unconverged
      converged = pmax < 1e3 * s.tolP;
      break;
    }
    for (let i = 0; i < n; i++) dy[i] += alpha * p[i];
    const x0New = y0Prev + dy[0];
    if (x0New < st.minGap) st.minGap = x0New;
    // inside the region where Φ is exactly quadratic a full Newton step is the minimiser
    if (alpha === 1 && x0 >= s.activeBelow && x0New >= s.activeBelow) {
      converged = true;
      break;
    }
  }
  st.iterations = its;
  st.converged = converged;
}

/** Gradient of the quadratic part of Φ: g = M(dy − dỹ) + w[K·dy + fs]. */
function newtonGradient(sys: NewtonSystem, st: ImplicitState): void {
  const { g, dy, yt, fs } = st;
  const md = sys.M.diag, mo = sys.M.off, kd = sys.K.diag, ko = sys.K.off;
  const w = sys.w, n = sys.n;
  g[0] = md[0] * (dy[0] - yt[0]) + w * (kd[0] * dy[0] + fs[0]);
  for (let i = 1; i < n; i++) {
    const r = mo[i - 1] * (dy[i] - yt[i]) + w * ko[i - 1] * dy[i];
    g[i - 1] += r;
    g[i] = md[i] * (dy[i] - yt[i]) + w * (kd[i] * dy[i] + fs[i]) +
      mo[i - 1] * (dy[i - 1] - yt[i - 1]) + w * ko[i - 1] * dy[i - 1];
  }
}

/** Contact terms at the end position x0: e′, e″ inside the support, and w·e′ added to g₀. */
function contactTerms(s: ImplicitSettings, sys: NewtonSystem, st: ImplicitState, x0: number): void {
  st.e1 = 0;
  st.e2 = 0;
  if (s.pot && x0 < s.activeBelow) {
    st.e1 = s.pot.gradient(x0);
    st.e2 = s.pot.hessian(x0);
    st.g[0] += sys.w * st.e1;
  }
}

/**
 * Newton direction: the Thomas solve H p = −g with the prefactorised top part and the
 * contact Hessian (clamped at 0) on row 0. Returns ‖p‖∞.
 */
function newtonDirection(s: ImplicitSettings, sys: NewtonSystem, st: ImplicitState): number {
  const { g, p, tmp } = st;
  const { coef, ho, invD } = sys;
  const N = s.N, n = sys.n;
  const e2 = st.e2;
  const D0 = sys.d0Base + sys.w * (e2 > 0 ? e2 : 0);
  tmp[N] = -g[N];
  for (let i = N - 1; i >= 0; i--) tmp[i] = -g[i] - coef[i] * tmp[i + 1];
  p[0] = tmp[0] / D0;
  let pmax = Math.abs(p[0]);
  for (let i = 1; i < n; i++) {
    const pi = (tmp[i] - ho[i - 1] * p[i - 1]) * invD[i];
    p[i] = pi;
    const ap = pi < 0 ? -pi : pi;
    if (ap > pmax) pmax = ap;
  }
  return pmax;
}

/** The 1D collision filter: the largest step α ≤ 1 that keeps 90 % of the gap x0. */
function collisionFilter(s: ImplicitSettings, x0: number, p0: number): number {
  let alpha = 1;
  if (s.filtered && p0 < 0) alpha = Math.min(1, (0.9 * x0) / -p0);
  return alpha;
}

/**
 * Armijo backtracking from `alpha` on the exact ΔΦ(α) = α·g_Q·p + ½α²·pᵀ(M + wK)p + w·Δe
 * (Δe by two-point Gauss for short steps). Returns the accepted α, or 0 when none above
 * 1e-20 decreases Φ.
 */
function lineSearch(
  s: ImplicitSettings,
  sys: NewtonSystem,
  st: ImplicitState,
  x0: number,
  alpha: number,
): number {
  const { g, p } = st;
  const { hd, ho } = sys;
  const N = s.N, w = sys.w, pot = s.pot, activeBelow = s.activeBelow;
  const p0 = p[0];
  let gp = 0;
  let pHp = 0;
  for (let i = 0; i < N; i++) {
    gp += g[i] * p[i];
    pHp += p[i] * (hd[i] * p[i] + 2 * ho[i] * p[i + 1]);
  }
  gp += g[N] * p[N];
  pHp += hd[N] * p[N] * p[N];
  const gqp = gp - w * st.e1 * p0;
  while (alpha > 1e-20) {
    const dlt = alpha * p0;
    let de = 0;
    if (pot) {
      const xn = x0 + dlt;
      if (x0 >= activeBelow && xn >= activeBelow) de = 0;
      else if (Math.abs(dlt) < 1e-4 * Math.abs(x0)) {
        de = 0.5 * dlt *
          (pot.gradient(x0 + dlt * (0.5 - GQ)) + pot.gradient(x0 + dlt * (0.5 + GQ)));
      } else de = pot.energy(xn) - pot.energy(x0);
    }
    const dPhi = alpha * gqp + 0.5 * alpha * alpha * pHp + w * de;
    if (dPhi <= ARMIJO * alpha * gp) return alpha;
    alpha *= 0.5;
  }
  return 0;
}

/**
 * Contact bookkeeping of a finished step: y = yₙ + dy, iteration and convergence counters.
 *
 * @internal
 */
export function finishStep(st: ImplicitState, step: number): void {
  const { y, yPrev, dy } = st;
  for (let i = 0; i < y.length; i++) y[i] = yPrev[i] + dy[i];
  if (!st.converged) st.unconverged++;
  st.newtonIterations[step] = st.iterations;
}

/**
 * Velocity and acceleration update: Newmark (γ), or v = dy/h for implicit Euler.
 *
 * @internal
 */
export function updateKinematics(s: ImplicitSettings, sys: NewtonSystem, st: ImplicitState): void {
  const { v, a, dy, yt } = st;
  const n = sys.n, h = s.h;
  if (s.euler) {
    for (let i = 0; i < n; i++) v[i] = dy[i] / h;
  } else {
    const ib = 1 / sys.w;
    const gamma = s.gamma;
    for (let i = 0; i < n; i++) {
      const an = (dy[i] - yt[i]) * ib;
      v[i] += h * ((1 - gamma) * a[i] + gamma * an);
      a[i] = an;
    }
  }
}
