/**
 * The contact-law half of {@link exportLammps} (`./lammps.ts`): Grainlab's contact law and
 * materials converted to LAMMPS's classic granular coefficients (`kn kt γn γt μ dampflag` for
 * every pair of atom types and for the walls), the grains split into atom types (material id,
 * fixed flag and, where the damping needs it, size), and one note per difference LAMMPS
 * cannot reproduce. Internal: not re-exported.
 *
 * @module
 */
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { coreOf } from "../sphere3d/granular_system.ts";
import type { Material } from "../sphere3d/material.ts";
import { contactDamping, DampingLaw, restitutionDamping } from "../contact/normal.ts";
import { mixGeometric } from "../contact/mixing.ts";

/** A grain class as LAMMPS sees it: one atom type. */
export interface TypeClass {
  materialId: number;
  fixed: boolean;
  radius: number;
  mass: number;
  exactSize: boolean;
  count: number;
}

/** Coefficients of one LAMMPS granular pair or wall: kn kt γn γt μ dampflag. */
export type Coeffs = [number, number, number, number, number, number];

/** Settings of the conversion ({@link exportLammps}'s `maxTypes`, `hertzReferenceOverlap`). */
export interface ConvertSettings {
  /** Most atom types when grains are split by size. */
  maxTypes: number;
  /** Hertz only: the overlap at which the coefficients match Grainlab's (m), or the default. */
  hertzRef: number | undefined;
}

/** The contact law as LAMMPS coefficients, and the atom types they apply to. */
export interface LammpsConversion {
  /** Every difference between the LAMMPS scene and Grainlab's found so far. */
  notes: string[];
  /** The atom types in order (type k at index k − 1), with the key of their grains. */
  classes: (TypeClass & { key: string })[];
  /** A grain's key ({@link LammpsConversion.keyOf}) → its LAMMPS type. */
  typeOf: Map<string, number>;
  /** The type key of grain i. */
  keyOf: (i: number) => string;
  /** Pair coefficients of types a+1, b+1 (null between two fixed types). */
  pairCoeffs: (Coeffs | null)[][];
  /** Wall coefficients of each type (null for fixed types). */
  wallCoeffs: (Coeffs | null)[];
  /** The mean radius of the grains (m). */
  meanRadius: number;
}

/**
 * Convert a system's contact law and grains to LAMMPS atom types and coefficients, noting
 * every difference (see the module documentation of `./lammps.ts` for when there is none).
 *
 * @param w the caller's name, for error messages
 * @param sys the exported system
 * @param m its material (resolved)
 * @param s the type and Hertz settings
 * @throws {RangeError} when the grains need more than 64 atom types
 */
export function convertLaw(
  w: string,
  sys: GranularSystem,
  m: Material,
  s: ConvertSettings,
): LammpsConversion {
  const core = coreOf.get(sys);
  const n = sys.count;
  const notes: string[] = [];
  const rad = sys.radii, mass = sys.masses, mids = sys.materialIds, fixed = sys.fixed;
  const hertz = m.normalContactModel === "hertz";

  // ---- the contact law ------------------------------------------------------------------
  const kn = m.normalStiffness;
  const kt = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * kn;
  const clamp = m.clampNormalForce;
  const ctScaled = m.dampingMode === "mass-scaled";
  const law = m.restitution !== null
    ? (hertz ? DampingLaw.restitutionHertz : DampingLaw.restitutionLinear)
    : (ctScaled ? DampingLaw.massScaled : DampingLaw.constant);
  const coef = m.restitution !== null
    ? restitutionDamping(m.restitution, kn, hertz, clamp)
    : m.normalDamping;
  const ct = m.tangentialDamping;
  const massFree = law === DampingLaw.massScaled ||
    (coef === 0 && (ct === 0 || ctScaled));

  if (m.contactLever !== "radius") {
    notes.push(
      'contactLever "overlap-centre": LAMMPS uses the full radius as the lever arm of the ' +
        'tangential force (set contactLever: "radius" for an exact export)',
    );
  }
  if (m.cohesionStiffness > 0 && m.cohesionMaxDistance > 0) {
    notes.push("cohesion is not exported (no equivalent in LAMMPS's classic granular styles)");
  }
  if (m.maxSpeed > 0 || m.maxAngularSpeed > 0) {
    notes.push("the speed clamps (maxSpeed, maxAngularSpeed) are not exported");
  }
  const usedMids = [...new Set(mids)].sort((a, b) => a - b);
  const friction = (id: number) => sys.getParticleMaterial(id).friction;
  const rolling = usedMids.some((id) => sys.getParticleMaterial(id).rollingFriction > 0) ||
    (sys.boundaryMaterial.rollingFriction > 0 && hasPlanes(sys));
  if (rolling) notes.push("rolling friction is not exported (LAMMPS's classic styles lack it)");
  if (core) {
    const ef = core.ps.extForce, et = core.ps.extTorque;
    for (let k = 0; k < 3 * n; k++) {
      if (ef[k] !== 0 || et[k] !== 0) {
        notes.push("external forces and torques are not exported");
        break;
      }
    }
  }
  const hist = sys.contactHistories();
  if (hist.displacement.some((x) => x !== 0)) {
    notes.push(
      `${hist.owner.length} tangential springs of the current contacts are not carried ` +
        "over: they restart at zero in LAMMPS",
    );
  }

  // ---- atom types ------------------------------------------------------------------------
  // Sizes need types when the damping depends on the mass (a fixed grain's mass never
  // enters: against it m_eff is the free grain's) or, for Hertz, on the radius.
  const bySize = !massFree || hertz;
  let keyOf = (i: number) =>
    `${mids[i]}|${fixed[i]}|${bySize && (hertz || !fixed[i]) ? rad[i] : ""}`;
  let keys = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!keys.has(keyOf(i))) keys.set(keyOf(i), keys.size);
  let exactSize = bySize;
  const sizes = new Set(rad).size;
  if (keys.size > s.maxTypes && bySize) {
    exactSize = false;
    keyOf = (i: number) => `${mids[i]}|${fixed[i]}|`;
    keys = new Map();
    for (let i = 0; i < n; i++) if (!keys.has(keyOf(i))) keys.set(keyOf(i), keys.size);
    if (!massFree) {
      notes.push(
        `${sizes} grain sizes need more atom types than maxTypes (${s.maxTypes}): LAMMPS ` +
          "damps each type with its " +
          'mean mass (dampingMode: "mass-scaled" needs no size types)',
      );
    }
  }
  if (keys.size > 64) {
    throw new RangeError(
      `${w}: ${keys.size} combinations of material id and fixed flag exceed 64 atom types`,
    );
  }
  // Order types: mobile first, then by material id (deterministic).
  const classes: (TypeClass & { key: string })[] = [];
  const sum = new Map<string, { r: number; m: number; c: number; i: number }>();
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    const e = sum.get(k);
    if (e) e.r += rad[i], e.m += mass[i], e.c++;
    else sum.set(k, { r: rad[i], m: mass[i], c: 1, i });
  }
  for (const [key, e] of sum) {
    const sized = exactSize && (hertz || !fixed[e.i]);
    classes.push({
      key,
      materialId: mids[e.i],
      fixed: fixed[e.i] !== 0,
      radius: sized ? rad[e.i] : e.r / e.c,
      mass: sized ? mass[e.i] : e.m / e.c,
      exactSize: sized,
      count: e.c,
    });
  }
  classes.sort((a, b) =>
    Number(a.fixed) - Number(b.fixed) || a.materialId - b.materialId || a.radius - b.radius
  );
  const typeOf = new Map(classes.map((c, k) => [c.key, k + 1]));
  const T = classes.length;

  // ---- coefficients ----------------------------------------------------------------------
  const meanRadius = rad.reduce((a, b) => a + b, 0) / n;
  const dRef = s.hertzRef ?? 0.01 * meanRadius;
  if (hertz) {
    notes.push(
      "Hertz law: LAMMPS's gran/hertz/history scales the damping and the tangential " +
        `stiffness with √(R_eff·δ); they match Grainlab's at the overlap ${fmt(dRef)} m only`,
    );
  }
  const coeffs = (me: number, reff: number, mu: number): Coeffs => {
    const cn = contactDamping(law, coef, me, reff, dRef);
    const ctc = ctScaled ? ct * me : ct;
    const poly = hertz ? Math.sqrt(reff * dRef) : 1;
    // Mass-scaled rates are LAMMPS's γ as they are (no round trip through m_eff).
    const gn = law === DampingLaw.massScaled ? coef / poly : cn / (me * poly);
    const gt = ctScaled ? ct / poly : ctc / (me * poly);
    return [kn, kt / poly, gn, gt, mu, gt > 0 ? 1 : 0];
  };
  const pairCoeffs: (Coeffs | null)[][] = [];
  for (let a = 0; a < T; a++) {
    pairCoeffs.push([]);
    for (let b = 0; b < T; b++) {
      const A = classes[a], B = classes[b];
      if (A.fixed && B.fixed) {
        pairCoeffs[a].push(null);
        continue;
      }
      const me = A.fixed ? B.mass : B.fixed ? A.mass : (A.mass * B.mass) / (A.mass + B.mass);
      const reff = (A.radius * B.radius) / (A.radius + B.radius);
      pairCoeffs[a].push(
        coeffs(me, reff, mixGeometric(friction(A.materialId), friction(B.materialId))),
      );
    }
  }
  const bf = sys.boundaryMaterial.friction;
  const wallCoeffs = classes.map((c) =>
    c.fixed ? null : coeffs(c.mass, c.radius, mixGeometric(friction(c.materialId), bf))
  );
  return { notes, classes, typeOf, keyOf, pairCoeffs, wallCoeffs, meanRadius };
}

/** True when the system has walls for LAMMPS: a ground plane or a container. */
function hasPlanes(sys: GranularSystem): boolean {
  return sys.groundPlane !== null || sys.containerBox !== null;
}

/** A number as LAMMPS reads it back to the same double (shortest round-trip form). */
export function fmt(x: number): string {
  return Object.is(x, -0) ? "0" : String(x);
}
