/**
 * Sealing: rewrites Arrow JS file bytes into the specification's layout, with a schema message
 * at byte 8, and stores the checksum in both copies of the schema ({@link sealArrowFile}).
 *
 * @module
 */

import { CHECKSUM_KEY } from "./checksum.ts";
import { checkArrowFile } from "./file.ts";

/**
 * Turns Arrow JS file bytes (which have no schema message) into the specification's layout
 * with a schema message at byte 8, and stores the checksum in both copies of the schema. The
 * schema's metadata must hold {@link CHECKSUM_KEY} with a placeholder of 8 hex digits.
 *
 * @param file `tableToIPC(table, "file")` of a table whose schema metadata has the placeholder
 * @param schemaMessage the table's schema message (the first message of its IPC stream)
 * @returns the new file bytes, checked with {@link checkArrowFile}
 * @example
 * ```ts
 * import * as A from "apache-arrow";
 * import { CHECKSUM_KEY, checkArrowFile, sealArrowFile } from "../ipc.ts";
 * import { expect } from "expect";
 * const t0 = A.tableFromArrays({ x: new Float64Array([1, 2]) });
 * const schema = new A.Schema(t0.schema.fields, new Map([[CHECKSUM_KEY, "00000000"]]));
 * const t = new A.Table(schema, t0.batches.map((b) => new A.RecordBatch(schema, b.data)));
 * const stream = A.tableToIPC(new A.Table(schema), "stream");
 * const sealed = sealArrowFile(A.tableToIPC(t, "file"), stream.subarray(0, stream.length - 8));
 * const layout = checkArrowFile(sealed, "demo");
 * expect(layout.checksum.stored).toBe(layout.checksum.computed);
 * expect(layout.schemaMessage).not.toBeNull();
 * ```
 */
export function sealArrowFile(file: Uint8Array, schemaMessage: Uint8Array): Uint8Array {
  const where = "sealArrowFile";
  const before = checkArrowFile(file, `${where}: the file`, { verifyChecksum: false });
  if (before.schemaMessage !== null) {
    throw new RangeError(`${where}: the file already has a schema message`);
  }
  const s = schemaMessage.length;
  const out = new Uint8Array(file.length + s);
  out.set(file.subarray(0, 8), 0);
  out.set(schemaMessage, 8);
  out.set(file.subarray(8), 8 + s);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (const at of before.blockPositions) {
    const p = at + s;
    const offset = dv.getUint32(p, true) + dv.getUint32(p + 4, true) * 4294967296 + s;
    dv.setUint32(p, offset % 4294967296, true);
    dv.setUint32(p + 4, Math.floor(offset / 4294967296), true);
  }
  const mid = checkArrowFile(out, `${where}: the sealed file`, {
    verifyChecksum: false,
    computeChecksum: true,
  });
  if (mid.schemaMessage === null || mid.checksum.positions.length !== 2) {
    throw new RangeError(
      `${where}: the schema message and footer must both hold "${CHECKSUM_KEY}"`,
    );
  }
  const text = new TextEncoder().encode(mid.checksum.computed!);
  for (const p of mid.checksum.positions) out.set(text, p);
  checkArrowFile(out, `${where}: the sealed file`);
  return out;
}
