/**
 * WGSL of the node test of the force kernel: `inside(header, angle, cos/sin, r_max, p)` tells
 * whether the point p (relative to a grain's polar centre, world axes) is inside the grain, and
 * gives the overlap (inOv) and the unit outward normal (inN). Two variants: the 2D sprite
 * textures (the paper's GPU path) or the CPU's 1D lookup tables; each with the first-order or
 * the radial overlap. A piece of the force kernel (see wgsl_forces.ts).
 *
 * @module
 */

/** The node test `inside` for the given choices (sprite or lookup table, overlap estimate). */
export function nodeTestWgsl(sprite: boolean, firstOrder: boolean): string {
  return sprite ? spriteInside(firstOrder) : lutInside(firstOrder);
}

/** The node test reading the 1D lookup tables (an atan2 and two table reads). */
function lutInside(firstOrder: boolean): string {
  return /* wgsl */ `
// 1 when p (relative to the grain's polar centre, world axes) is inside; then inOv is the
// overlap and inN the unit outward gradient of the grain's f (world axes). 1D tables + atan2.
fn inside(hd: vec4<u32>, ang: f32, cs: vec2<f32>, R: f32, p: vec2<f32>) -> bool {
  let rho2 = dot(p, p);
  if (rho2 >= R * R) { return false; }
  let n = hd.x;
  let nf = f32(n);
  var t = (atan2(p.y, p.x) - ang) * bitcast<f32>(hd.y);
  t = t - nf * floor(t / nf);
  var k = u32(max(t, 0.0));
  if (k >= n) { k = n - 1u; }
  let u = t - f32(k);
  let off = hd.z;
  let r0 = shF(off + k);
  let r = r0 + u * (shF(off + k + 1u) - r0);
  if (rho2 >= r * r) { return false; }
  let rho = sqrt(rho2);
  if (rho == 0.0) {
    inOv = r;
    inN = vec2<f32>(1.0, 0.0);
    return true;
  }
  let doff = off + n + 1u;
  let d0 = shF(doff + k);
  let q = (d0 + u * (shF(doff + k + 1u) - d0)) / rho;
  let gn = sqrt(1.0 + q * q);
  let inv = 1.0 / (rho * gn);
  inOv = ${firstOrder ? "(r - rho) / gn" : "r - rho"};
  inN = vec2<f32>((p.x + q * p.y) * inv, (p.y - q * p.x) * inv);
  return true;
}
`;
}

/** The node test reading the 2D sprite textures (four texels, no atan2). */
function spriteInside(firstOrder: boolean): string {
  const dist = firstOrder
    ? /* wgsl */ `
  let d = w00 * (a00.x + hh * (a00.y * fx + a00.z * fy)) +
    w10 * (a10.x + hh * (a10.y * (fx - 1.0) + a10.z * fy)) +
    w01 * (a01.x + hh * (a01.y * fx + a01.z * (fy - 1.0))) +
    w11 * (a11.x + hh * (a11.y * (fx - 1.0) + a11.z * (fy - 1.0)));
  if (d >= 0.0) { return false; }
  let b00 = textureLoad(spriteB, vec2<i32>(x0, y0), layer, 0);
  let b10 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0), layer, 0);
  let b01 = textureLoad(spriteB, vec2<i32>(x0, y0 + 1), layer, 0);
  let b11 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0 + 1), layer, 0);`
    : /* wgsl */ `
  let b00 = textureLoad(spriteB, vec2<i32>(x0, y0), layer, 0);
  let b10 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0), layer, 0);
  let b01 = textureLoad(spriteB, vec2<i32>(x0, y0 + 1), layer, 0);
  let b11 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0 + 1), layer, 0);
  let d = w00 * (a00.w + hh * b00.z * (b00.x * fx + b00.y * fy)) +
    w10 * (a10.w + hh * b10.z * (b10.x * (fx - 1.0) + b10.y * fy)) +
    w01 * (a01.w + hh * b01.z * (b01.x * fx + b01.y * (fy - 1.0))) +
    w11 * (a11.w + hh * b11.z * (b11.x * (fx - 1.0) + b11.y * (fy - 1.0)));
  if (d >= 0.0) { return false; }`;
  return /* wgsl */ `
// 1 when p (relative to the grain's polar centre, world axes) is inside; then inOv is the
// overlap and inN the unit outward normal (world axes). Reads the 2D sprite: four texels,
// bilinear weights with the half-gradient correction (see sprite.ts).
fn inside(hd: vec4<u32>, ang: f32, cs: vec2<f32>, R: f32, p: vec2<f32>) -> bool {
  let rho2 = dot(p, p);
  if (rho2 >= R * R) { return false; }
  let lx = cs.x * p.x + cs.y * p.y;
  let ly = -cs.y * p.x + cs.x * p.y;
  let L = bitcast<f32>(hd.x);
  let h = bitcast<f32>(hd.y);
  let S = i32(hd.z);
  let layer = i32(hd.w);
  let tx = (lx + L) / h - 0.5;
  let ty = (ly + L) / h - 0.5;
  let x0 = clamp(i32(floor(tx)), 0, S - 2);
  let y0 = clamp(i32(floor(ty)), 0, S - 2);
  let fx = tx - f32(x0);
  let fy = ty - f32(y0);
  let w00 = (1.0 - fx) * (1.0 - fy);
  let w10 = fx * (1.0 - fy);
  let w01 = (1.0 - fx) * fy;
  let w11 = fx * fy;
  let hh = 0.5 * h;
  let a00 = textureLoad(spriteA, vec2<i32>(x0, y0), layer, 0);
  let a10 = textureLoad(spriteA, vec2<i32>(x0 + 1, y0), layer, 0);
  let a01 = textureLoad(spriteA, vec2<i32>(x0, y0 + 1), layer, 0);
  let a11 = textureLoad(spriteA, vec2<i32>(x0 + 1, y0 + 1), layer, 0);
${dist}
  var nb = w00 * b00.xy + w10 * b10.xy + w01 * b01.xy + w11 * b11.xy;
  let l = length(nb);
  nb = select(vec2<f32>(1.0, 0.0), nb / l, l > 0.0);
  inOv = -d;
  inN = vec2<f32>(cs.x * nb.x - cs.y * nb.y, cs.y * nb.x + cs.x * nb.y);
  return true;
}
`;
}
