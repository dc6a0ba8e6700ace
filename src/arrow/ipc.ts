/**
 * Checks Arrow IPC bytes before apache-arrow decodes them, and the checksum that
 * {@link writeArrow} stores.
 *
 * apache-arrow trusts every length and offset it reads, so a damaged file can make it loop
 * for ever or return a silently different table. The checks here read the IPC framing and
 * the flatbuffer metadata with a small reader of their own, in which every offset is checked
 * against the bounds of its flatbuffer before it is followed, and nothing is allocated from
 * a length before that length has been checked against the bytes that are there:
 *
 * - **file framing**: `ARROW1` magic at both ends, the footer length and the footer inside
 *   the file;
 * - **footer**: version V4 or V5, the schema, and the dictionary and record-batch blocks —
 *   each block must point at a message of its kind in the stream part of the file, with the
 *   same metadata and body lengths, 8-byte aligned, and every message of the stream must be
 *   listed, in order;
 * - **messages**: continuation marker, metadata length (a multiple of 8, inside the file),
 *   the `Message` flatbuffer, its version (the footer's), its body length (a multiple of 8,
 *   inside the file);
 * - **schema**: field types Arrow JS can read, with valid parameters (bit widths, units,
 *   precisions), the right number of children, dictionary encodings whose ids map to one
 *   value type; nesting at most 64 deep; when the stream starts with a schema message (the
 *   specification's layout, and the one {@link writeArrow} writes) it must describe the same
 *   schema as the footer;
 * - **record and dictionary batches**: one field node per column in schema order and one
 *   buffer per slot of each column's layout, no more, no fewer; every buffer inside the body
 *   and 8-byte aligned; node lengths equal to the batch length at the top level and
 *   consistent below (struct and sparse-union children at least as long as the parent,
 *   fixed-size lists `length × listSize`); null counts at most the length and equal to the
 *   zero bits of the validity bitmap; validity, value, offset and view buffers large enough
 *   for the length; offsets non-decreasing and inside the data or child they index; union
 *   type ids declared by the type and dense-union offsets inside their child; dictionary
 *   indices inside their dictionary. Compressed bodies get the range and count checks only.
 *
 * **Checksum.** Arrow IPC has no checksum of its own, so a flipped bit inside a data buffer
 * reads back as a different number. {@link writeArrow} stores, in the schema's custom
 * metadata under {@link CHECKSUM_KEY} (`grainlab.crc32`), eight lowercase hex digits: the
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of the file bytes from the end of the schema
 * message (byte 8 when the stream has none) to the start of the footer — every dictionary
 * batch, record batch and the end-of-stream marker. Those bytes do not depend on the schema
 * metadata, so the value is well defined. The schema itself (names, types, metadata, the
 * checksum value) is covered by its two copies, the schema message and the footer, which must
 * agree; the rest of the footer (the blocks) is checked against the messages it points to.
 * {@link checkArrowFile} verifies the checksum when the key is present; files from other
 * writers get the structural checks only.
 *
 * The code is in `ipc/`: `flatbuffer.ts` (the bounded reader), `schema.ts`, `messages.ts`,
 * `batches.ts` (bodies), `file.ts` ({@link checkArrowFile}), `stream.ts`
 * ({@link IpcStreamChecker}), `checksum.ts` and `seal.ts` ({@link sealArrowFile}); this file
 * re-exports their public names.
 *
 * @module
 */

export { type ArrowFileLayout, checkArrowFile, type CheckArrowFileOptions } from "./ipc/file.ts";
export { CHECKSUM_KEY, crc32 } from "./ipc/checksum.ts";
export { sealArrowFile } from "./ipc/seal.ts";
export { type IpcMessage, IpcStreamChecker } from "./ipc/stream.ts";
