/**
 * WGSL of the wall detection of the force kernel: the signed distance to a wall (plane,
 * segment with a radius, drum) and, as two steps of the kernel's flat work loop, taking the
 * next wall within the grain's bounding circle and one node test of the node loop against it
 * (every node, the ring starting after a node not in contact, runs closed by a sentinel node).
 * Pieces of the force kernel (see wgsl_forces.ts), each a run of whole lines.
 *
 * @module
 */

/** `probe`: signed distance to a wall at a point and the unit normal into the free side. */
export const WALL_PROBE_WGSL =
  /* wgsl */ `// Signed distance to wall w of kind k at p (relative to the wall's origin tile) and the unit
// normal into the free side.
fn probe(w: u32, kind: u32, p: vec2<f32>) -> vec3<f32> {
  let g0 = bitcast<vec4<f32>>(W.w[4u * w + 1u]);
  let g1 = bitcast<vec4<f32>>(W.w[4u * w + 2u]);
  if (kind == 0u) {
    return vec3<f32>(dot(p - g0.xy, g0.zw), g0.zw);
  }
  if (kind == 1u) {
    let e = g0.zw - g0.xy;
    let t = clamp(dot(p - g0.xy, e) / dot(e, e), 0.0, 1.0);
    let dd = p - g0.xy - t * e;
    let dist = length(dd);
    var nrm = vec2<f32>(-e.y, e.x) / length(e);
    if (dist > 0.0) { nrm = dd / dist; }
    return vec3<f32>(dist - g1.x, nrm);
  }
  let dd = g0.xy - p;
  let dist = length(dd);
  var nrm = vec2<f32>(1.0, 0.0);
  if (dist > 0.0) { nrm = dd / dist; }
  return vec3<f32>(g0.z - dist, nrm);
}`;

/** Mode 2: the next wall in reach of the bounding circle (then mode 3), or the end. */
export const NEXT_WALL_WGSL = /* wgsl */ `      if (w >= P.wallCount) {
        allDone = true;
        break;
      }
      let h = W.w[4u * w];
      kindW = h.x;
      cw = vec2<f32>(mine.tile - vec2<i32>(bitcast<i32>(h.z), bitcast<i32>(h.w))) * P.q +
        mine.cfrac;
      if (h.y != 0u && probe(w, kindW, cw).x < rA) {
        mode = 3u;
        searching = true;
        k = 0;
        k0 = 0;
        inRun = false;
      } else {
        w++;
      }`;

/** Mode 3: one step of the node loop of a wall; back to mode 2 when the wall is done. */
export const WALL_NODE_STEP_WGSL =
  /* wgsl */ `      // One step of the node loop of a wall: every node, the ring starting after a node that
      // is not in contact, runs closed by a sentinel node.
      if (!searching && k > k0 + N) {
        mode = 2u;
        w++;
      } else {
        let real = searching || k < k0 + N;
        var pl = vec2<f32>(0.0, 0.0);
        var pr = vec3<f32>(1.0, 0.0, 0.0);
        if (real) {
          tests++;
          pl = nodeOf(offA, csA, wrapIdx(k, N));
          pr = probe(w, kindW, cw + pl);
        }
        if (searching) {
          if (pr.x >= 0.0) {
            k0 = k + 1;
            searching = false;
            k = k0;
          } else if (k >= N - 1) {
            k0 = 0;
            searching = false;
            k = 0;
          } else {
            k++;
          }
        } else {
          if (pr.x < 0.0) {
            let ov = -pr.x;
            if (!inRun || ov > bOv) {
              bOv = ov;
              bP = pl;
              bN = -pr.yz;
            }
            inRun = true;
          } else if (inRun) {
            inRun = false;
            emitNow = true;
          }
          k++;
        }
      }`;
