import { deflateSync } from "node:zlib";

/**
 * Media files for tests of the hold: the smallest bytes a provider still bills by their pages or
 * seconds (the gateway reads those from the file's own header).
 */

/** A PDF of `n` pages, its page objects written out (PDF 1.4) or inside a compressed object stream (PDF 1.5+). */
export function pdfFile(n: number, compressed = false): Buffer {
  const kids = Array.from({ length: n }, (_, i) => `${i + 3} 0 R`).join(" ");
  const pages = Array.from({ length: n }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj`).join("\n");
  const tree = `1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [${kids}] /Count ${n} >> endobj\n${pages}`;
  if (!compressed) return Buffer.from(`%PDF-1.4\n${tree}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, "latin1");
  const packed = deflateSync(Buffer.from(tree, "latin1"));
  return Buffer.concat([
    Buffer.from(`%PDF-1.5\n9 0 obj << /Type /ObjStm /N ${n + 2} /First 0 /Length ${packed.length} /Filter /FlateDecode >> stream\n`, "latin1"),
    packed,
    Buffer.from("\nendstream endobj\n%%EOF\n", "latin1"),
  ]);
}

/** An MP4 whose movie header says `seconds` (version 0 or 1 of `mvhd`), after an `ftyp` and a `mdat` of filler. */
export function mp4File(seconds: number, version: 0 | 1 = 0): Buffer {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length);
    head.write(type, 4, "latin1");
    return Buffer.concat([head, body]);
  };
  const mvhd = Buffer.alloc(version === 1 ? 112 : 100);
  mvhd[0] = version;
  if (version === 1) {
    mvhd.writeUInt32BE(600, 20);
    mvhd.writeBigUInt64BE(BigInt(seconds * 600), 24);
  } else {
    mvhd.writeUInt32BE(1_000, 12);
    mvhd.writeUInt32BE(seconds * 1_000, 16);
  }
  return Buffer.concat([box("ftyp", Buffer.from("isom\0\0\0\0", "latin1")), box("mdat", Buffer.alloc(64)), box("moov", box("mvhd", mvhd))]);
}
