/**
 * WGSL of the pair detection of the force kernel, as two steps of its flat work loop: taking
 * the next neighbour the grain owns (a higher index, from the neighbour list), and one node
 * test of the node loop of the pair — nodes-to-surface, the nodes of a in the lens between the
 * bounding circles, runs of inside nodes closed by a sentinel node, and with symmetric
 * detection the nodes of b in each run's sector. Bodies of the loop's `mode` branches (see
 * wgsl_forces.ts), each a run of whole lines.
 *
 * @module
 */

/** Mode 0: the next owned neighbour (then mode 1), or the walls when none is left (mode 2). */
export const NEXT_PAIR_WGSL = /* wgsl */ `      if (t >= tEnd) {
        // the walls: this grain is a
        mode = 2u;
        setSelf(mine);
        N = i32(shNodes(shA));
        tests = 0u;
      } else {
        // the next neighbour with a higher index whose bounding circle intersects: j, then
        // the lens [k0, k1] packed as k0 | (k1 − k0 + 1) << 16 (0xffff: search)
        let e = lo + 4u + 2u * t;
        let j = nbr[e];
        let kw = nbr[e + 1u];
        k0 = i32(kw & 0xffffu);
        k1 = select(k0 + i32(kw >> 16u) - 1, SEARCH, (kw >> 16u) == 0xffffu);
        curJ = t;
        t++;
        setPair(i, j);
        tests = 0u;
        found = 0u;
        N = i32(shNodes(shA));
        NB = i32(shNodes(shB));
        searching = k1 == SEARCH;
        if (searching) {
          k0 = 0;
          k1 = N - 1;
        }
        k = k0;
        jj = 0;
        j1 = -1;
        inRun = false;
        mode = 1u;
      }`;

/** Mode 1: one step of the node loop of pair (a, b); back to mode 0 when the pair is done. */
export const PAIR_NODE_STEP_WGSL =
  /* wgsl */ `      // One step of the node loop of pair (a, b): the nodes of a in the lens between the
      // bounding circles' intersections, runs of inside nodes closed by a sentinel node, and
      // for symmetric detection the nodes of b in each run's sector. When one bounding circle
      // contains the other, a search first finds a node of a outside b; the ring starts after.
      let onB = jj <= j1;
      if (!onB && k > k1 + 1) {
        mode = 0u;
        pairDone = true;
      } else {
        let real = onB || k <= k1;
        var isIn = false;
        var q = vec2<f32>(0.0, 0.0); // the node, relative to a's polar centre
        if (real) {
          tests++;
          var hd = hB;
          var an = angB;
          var cs = csB;
          var R = rB;
          var pt: vec2<f32>;
          if (onB) {
            q = nodeOf(offB, csB, wrapIdx(jj, NB)) + dAB;
            hd = hA;
            an = angA;
            cs = csA;
            R = rA;
            pt = q;
          } else {
            q = nodeOf(offA, csA, wrapIdx(k, N));
            pt = q - dAB;
          }
          isIn = inside(hd, an, cs, R, pt);
        }
        if (onB) {
          if (isIn && inOv > bOv) {
            bOv = inOv;
            bP = q;
            bN = inN;
          }
          jj++;
          emitNow = jj > j1;
        } else if (searching) {
          if (!isIn) {
            k0 = k + 1;
            searching = false;
          } else if (k >= N - 1) {
            k0 = 0;
            searching = false;
          }
          if (searching) {
            k++;
          } else {
            k1 = k0 + N - 1;
            k = k0;
          }
        } else {
          if (isIn) {
            if (!inRun || inOv > bOv) {
              bOv = inOv;
              bP = q;
              bN = -inN;
            }
            if (!inRun) {
              inRun = true;
              runStart = k;
            }
          } else if (inRun) {
            inRun = false;
            if (SYMMETRIC) {
              // the sector of b spanned by the run widened by one node on each side
              let p0 = nodeOf(offA, csA, wrapIdx(runStart - 1, N)) - dAB;
              let p1 = nodeOf(offA, csA, wrapIdx(k, N)) - dAB;
              let psi0 = atan2(p0.y, p0.x) - angB;
              var diff = atan2(p1.y, p1.x) - angB - psi0;
              diff = diff - TWO_PI * round(diff / TWO_PI);
              let lo = select(psi0 + diff, psi0, diff >= 0.0);
              let invB = f32(NB) / TWO_PI;
              jj = i32(ceil(lo * invB));
              j1 = min(i32(floor((lo + abs(diff)) * invB)), jj + NB);
              emitNow = jj > j1;
            } else {
              emitNow = true;
            }
          }
          k++;
        }
      }`;
