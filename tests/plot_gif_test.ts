import { describe, it } from "node:test";
import { expect } from "expect";
import { animate, particles2d } from "../src/plot/mod.ts";
import { encodeGif } from "../src/plot/gif.ts";

/** Minimal GIF decoder (enough to check our encoder): returns the frames' palette indices. */
function decodeGif(g: Uint8Array): { width: number; height: number; frames: Uint8Array[] } {
  const width = g[6] | (g[7] << 8), height = g[8] | (g[9] << 8);
  let p = 13 + 768;
  const frames: Uint8Array[] = [];
  while (p < g.length && g[p] !== 0x3b) {
    if (g[p] === 0x21) {
      p += 2;
      while (g[p] !== 0) p += g[p] + 1;
      p++;
    } else if (g[p] === 0x2c) {
      p += 10;
      const min = g[p++];
      const data: number[] = [];
      while (g[p] !== 0) {
        data.push(...g.subarray(p + 1, p + 1 + g[p]));
        p += g[p] + 1;
      }
      p++;
      frames.push(lzwDecode(Uint8Array.from(data), min, width * height));
    } else throw new Error(`bad block ${g[p]}`);
  }
  return { width, height, frames };
}

function lzwDecode(data: Uint8Array, min: number, n: number): Uint8Array {
  const clear = 1 << min, eoi = clear + 1;
  let size = min + 1, dict: number[][] = [], prev: number[] | null = null;
  const reset = () => {
    dict = Array.from({ length: clear + 2 }, (_, i) => [i]);
    size = min + 1;
    prev = null;
  };
  reset();
  const out: number[] = [];
  let bit = 0;
  while (bit + size <= data.length * 8) {
    let code = 0;
    for (let k = 0; k < size; k++, bit++) code |= ((data[bit >> 3] >> (bit & 7)) & 1) << k;
    if (code === clear) {
      reset();
      continue;
    }
    if (code === eoi) break;
    let entry: number[];
    if (code < dict.length) entry = dict[code];
    else entry = [...prev!, prev![0]];
    out.push(...entry);
    if (prev) dict.push([...prev, entry[0]]);
    prev = entry;
    if (dict.length === 1 << size && size < 12) size++;
  }
  return Uint8Array.from(out.slice(0, n));
}

describe("GIF encoder", () => {
  it("round-trips palette indices through our decoder, with long LZW runs", () => {
    const w = 97, h = 61;
    const px = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) {
      const c = (i * 7919) % 3;
      px.set([c === 0 ? 255 : 0, c === 1 ? 255 : 0, c === 2 ? 255 : 0, 255], i * 4);
    }
    const gif = encodeGif([{ width: w, height: h, pixels: px }, {
      width: w,
      height: h,
      pixels: px,
    }]);
    expect(new TextDecoder().decode(gif.subarray(0, 6))).toBe("GIF89a");
    const d = decodeGif(gif);
    expect([d.width, d.height, d.frames.length]).toEqual([w, h, 2]);
    const expected = (i: number) => [5 * 42 + 0 + 0, 6 * 6, 5][(i * 7919) % 3];
    for (let i = 0; i < w * h; i += 37) expect(d.frames[0][i]).toBe(expected(i));
    expect(d.frames[1][w * h - 1]).toBe(expected(w * h - 1));
    expect(() => encodeGif([])).toThrow(RangeError);
  });

  it("animate renders figures to a looping GIF", async () => {
    const figs = [0, 1, 2].map((k) =>
      particles2d(
        { count: 1, dimension: 2, positions: [k * 0.3, 0], velocities: [0, 0], radii: [0.2] },
        { domain: { x: [-0.3, 0.9], y: [-0.3, 0.3] }, color: "none", width: 240 },
      )
    );
    const a = animate(figs, { delay: 50 });
    expect(a.frames).toBe(3);
    const d = decodeGif(a.gif);
    expect(d.frames.length).toBe(3);
    expect(d.width).toBe(a.width);
    // the frames differ: the grain moved
    expect(d.frames[0].some((v, i) => v !== d.frames[2][i])).toBe(true);
    const dir = await Deno.makeTempDir();
    await a.save(`${dir}/a.gif`);
    expect((await Deno.stat(`${dir}/a.gif`)).size).toBe(a.gif.length);
  });
});
