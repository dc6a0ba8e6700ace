/**
 * The VTK XML PolyData encoding shared by the `.vtp` writers: the options (precision, time)
 * resolved once, the column checks, and the assembly of a file — the XML header followed by
 * one raw, little-endian `<AppendedData>` block in which every array is preceded by its byte
 * count as a UInt64 (see `vtk.ts` for the layout of grains and contacts).
 *
 * @module
 */
import { options as checkOptions } from "../math/validate.ts";

/** Options of {@link writeVtk}, {@link writeVtkContacts} and {@link VtkSeriesWriter}. */
export interface VtkOptions {
  /**
   * Storage of the floating-point arrays: `"float64"` keeps every value exactly,
   * `"float32"` halves them (about 7 significant digits, plenty to look at).
   * @default "float64"
   */
  precision?: "float64" | "float32";
  /** Simulated time (s) stored as field data `TimeValue`. @default none */
  time?: number;
}

const OPTION_KEYS: readonly string[] = ["precision", "time"];

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error("vtk: this writer needs a little-endian host");
}

/**
 * The typed arrays a VTK data array is stored from.
 *
 * @internal
 */
export type Typed =
  | Float64Array
  | Float32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | Int32Array;

/**
 * One named data array: `components` values per tuple.
 *
 * @internal
 */
export interface VtkArray {
  name: string;
  components: number;
  data: Typed;
}

function vtkType(a: Typed): string {
  if (a instanceof Float64Array) return "Float64";
  if (a instanceof Float32Array) return "Float32";
  if (a instanceof Uint8Array) return "UInt8";
  if (a instanceof Uint16Array) return "UInt16";
  if (a instanceof Uint32Array) return "UInt32";
  return "Int32";
}

/**
 * {@link VtkOptions} resolved: Float32 storage or not, the time or none.
 *
 * @internal
 */
export interface Resolved {
  f32: boolean;
  time: number | undefined;
}

/**
 * Check the options of a writer (unknown keys, precision, a finite time) and resolve them.
 *
 * @internal
 */
export function resolve(where: string, options: VtkOptions | undefined): Resolved {
  const o = checkOptions<VtkOptions>(where, "options", options, OPTION_KEYS);
  const p = o.precision ?? "float64";
  if (p !== "float64" && p !== "float32") {
    throw new RangeError(
      `${where}: precision (${JSON.stringify(p)}) must be "float64" or "float32"`,
    );
  }
  if (o.time !== undefined && !(typeof o.time === "number" && Number.isFinite(o.time))) {
    throw new RangeError(`${where}: time (${String(o.time)}) must be a finite number`);
  }
  return { f32: p === "float32", time: o.time };
}

/**
 * Check that `v` is an array-like of `n` values.
 *
 * @internal
 */
export function column(where: string, name: string, v: unknown, n: number): ArrayLike<number> {
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<number>).length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be an array`);
  }
  const a = v as ArrayLike<number>;
  if (a.length !== n) {
    throw new RangeError(`${where}: ${name} (length ${a.length}) must have length ${n}`);
  }
  return a;
}
/**
 * Check that a destination path is a non-empty string.
 *
 * @internal
 */
export function checkPath(where: string, path: unknown): void {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
}

/**
 * Assemble a PolyData file: XML header, then the raw appended arrays.
 *
 * @internal
 */
export function polyData(
  o: Resolved,
  points: Float64Array,
  nPoints: number,
  pointArrays: VtkArray[],
  cellKind: "Verts" | "Lines",
  nCells: number,
  connectivity: Int32Array,
  offsets: Int32Array,
  cellArrays: VtkArray[],
): Uint8Array {
  const float = (a: Typed): Typed => o.f32 && a instanceof Float64Array ? Float32Array.from(a) : a;
  const blocks: Typed[] = [];
  let offset = 0;
  const ref = (a: Typed): string => {
    const s = `format="appended" offset="${offset}"`;
    blocks.push(a);
    offset += 8 + a.byteLength;
    return s;
  };
  const arr = (pad: string, v: VtkArray): string => {
    const data = float(v.data);
    const comps = v.components > 1 ? ` NumberOfComponents="${v.components}"` : "";
    return `${pad}<DataArray type="${vtkType(data)}" Name="${v.name}"${comps} ${ref(data)}/>`;
  };
  const x: string[] = [
    '<?xml version="1.0"?>',
    '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">',
    "  <PolyData>",
  ];
  if (o.time !== undefined) {
    x.push(
      "    <FieldData>",
      arr("      ", { name: "TimeValue", components: 1, data: new Float64Array([o.time]) })
        .replace("<DataArray ", '<DataArray NumberOfTuples="1" '),
      "    </FieldData>",
    );
  }
  const nv = cellKind === "Verts" ? nCells : 0, nl = cellKind === "Lines" ? nCells : 0;
  x.push(
    `    <Piece NumberOfPoints="${nPoints}" NumberOfVerts="${nv}" NumberOfLines="${nl}" ` +
      'NumberOfStrips="0" NumberOfPolys="0">',
  );
  if (pointArrays.length > 0) {
    x.push('      <PointData Scalars="radius" Vectors="velocity">');
    for (const a of pointArrays) x.push(arr("        ", a));
    x.push("      </PointData>");
  }
  if (cellArrays.length > 0) {
    x.push('      <CellData Scalars="normalForce" Vectors="tangentialForce">');
    for (const a of cellArrays) x.push(arr("        ", a));
    x.push("      </CellData>");
  }
  x.push(
    "      <Points>",
    arr("        ", { name: "Points", components: 3, data: points }),
    "      </Points>",
    `      <${cellKind}>`,
    arr("        ", { name: "connectivity", components: 1, data: connectivity }),
    arr("        ", { name: "offsets", components: 1, data: offsets }),
    `      </${cellKind}>`,
    "    </Piece>",
    "  </PolyData>",
    '  <AppendedData encoding="raw">',
    "   _",
  );
  const head = new TextEncoder().encode(x.join("\n"));
  const tail = new TextEncoder().encode("\n  </AppendedData>\n</VTKFile>\n");
  const out = new Uint8Array(head.length + offset + tail.length);
  out.set(head, 0);
  const view = new DataView(out.buffer);
  let p = head.length;
  for (const b of blocks) {
    view.setBigUint64(p, BigInt(b.byteLength), true);
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), p + 8);
    p += 8 + b.byteLength;
  }
  out.set(tail, p);
  return out;
}
