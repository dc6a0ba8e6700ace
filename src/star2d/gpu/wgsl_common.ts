/**
 * WGSL shared by the star2d GPU kernels: the uniform parameters, the grain and pose records,
 * the shape table accessors and the grid hash. The byte layouts here and in `layout.ts` must
 * agree.
 *
 * Positions are stored as an integer tile (i32, tile size Q a power of two) plus a float32
 * fraction within it, so that differences between nearby grains are exact whatever the
 * absolute coordinates (a float32 coordinate alone would lose micrometres at a few metres).
 *
 * @module
 */

/** Threads per workgroup of the per-grain kernels except the force kernel. */
export const WG = 256;
/** Threads per workgroup of the force kernel (divergent, register-heavy). */
export const WG_FORCES = 64;
/** Elements per workgroup of the prefix scan (4 per thread). */
export const SCAN_BLOCK = 1024;
/** The most walls one GPU system takes (one uniform block per step). */
export const MAX_WALLS = 64;

/** WGSL: structs, parameters, helpers used by every kernel. */
export const COMMON_WGSL = /* wgsl */ `
const PI: f32 = 3.14159265358979;
const TWO_PI: f32 = 6.28318530717959;

struct Params {
  n: u32,
  buckets: u32,
  slots: u32,
  shapeCount: u32,
  cellTiles: i32,
  wallCount: u32,
  statsOff: u32,
  entriesOff: u32,
  sortedOff: u32,
  nbrSlots: u32,
  pad1: u32,
  pad2: u32,
  q: f32,
  dt: f32,
  gx: f32,
  gy: f32,
  kn: f32,
  kt: f32,
  cn: f32,
  ct: f32,
  mu: f32,
  cr: f32,
  keyTol: f32,
  pad3: f32,
}

struct Grain {
  tile: vec2<i32>,
  frac: vec2<f32>,
  vel: vec2<f32>,
  ang: f32,
  omega: f32,
  turns: i32,
  shape: u32,
  invMass: f32,
  invInertia: f32,
}

// A grain as the neighbour and force kernels read it: its tile, polar centre (fraction),
// cos/sin of the angle, grid cell, and the state the contact law needs (centre-of-mass
// fraction, velocity, angle, ω), so that the force kernel does not bind the state buffer.
struct Pose {
  tile: vec2<i32>,
  cfrac: vec2<f32>,
  cs: vec2<f32>,
  cell: vec2<i32>,
  frac: vec2<f32>,
  vel: vec2<f32>,
  shape: u32,
  rmax: f32,
  ang: f32,
  omega: f32,
}

fn floorDiv(a: i32, b: i32) -> i32 {
  let q = a / b;
  return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0)));
}

fn bucketOf(c: vec2<i32>, m: u32) -> u32 {
  var h = (bitcast<u32>(c.x) * 0x9E3779B1u) ^ (bitcast<u32>(c.y) * 0x85EBCA77u);
  h = h ^ (h >> 15u);
  h = h * 0x2C1B3C6Du;
  h = h ^ (h >> 12u);
  return h & (m - 1u);
}

// Linear index of a thread in a 1D or 2D dispatch (2D when a count exceeds 65,535 groups).
fn linearIndex(gid: vec3<u32>, nwg: vec3<u32>, wg: u32) -> u32 {
  return gid.x + gid.y * nwg.x * wg;
}
`;

/** Words per row of the shape table's texture copy (the force kernel reads the table there). */
export const SHAPE_TEXTURE_WIDTH = 4096;

const SHAPE_ACCESSORS = /* wgsl */ `
fn shF(k: u32) -> f32 { return bitcast<f32>(shU(k)); }
fn shNodes(s: u32) -> u32 { return shU(s * 16u); }
fn shNodeOff(s: u32) -> u32 { return shU(s * 16u + 1u); }
fn shLutSize(s: u32) -> u32 { return shU(s * 16u + 2u); }
fn shLutOff(s: u32) -> u32 { return shU(s * 16u + 3u); }
fn shLutScale(s: u32) -> f32 { return shF(s * 16u + 4u); }
fn shRMax(s: u32) -> f32 { return shF(s * 16u + 5u); }
fn shCentroid(s: u32) -> vec2<f32> { return vec2<f32>(shF(s * 16u + 6u), shF(s * 16u + 7u)); }
fn shLayer(s: u32) -> i32 { return i32(shU(s * 16u + 9u)); }
fn shHalfWidth(s: u32) -> f32 { return shF(s * 16u + 10u); }
fn shTexel(s: u32) -> f32 { return shF(s * 16u + 11u); }
fn shRes(s: u32) -> i32 { return i32(shU(s * 16u + 12u)); }
`;

/** WGSL: accessors of the shape table (`shapes: array<u32>`, 16 words per shape header). */
export const SHAPES_WGSL = /* wgsl */ `
fn shU(k: u32) -> u32 { return shapes[k]; }` + SHAPE_ACCESSORS;

/**
 * WGSL: the same accessors reading the table from an r32uint texture (`shapeTex`, rows of
 * {@linkcode SHAPE_TEXTURE_WIDTH} words), so that the force kernel stays within WebGPU's
 * default 8 storage buffers per stage.
 */
export const SHAPES_TEXTURE_WGSL = /* wgsl */ `
fn shU(k: u32) -> u32 {
  return textureLoad(shapeTex, vec2<u32>(k % ${SHAPE_TEXTURE_WIDTH}u, k / ${SHAPE_TEXTURE_WIDTH}u), 0).x;
}` + SHAPE_ACCESSORS;
