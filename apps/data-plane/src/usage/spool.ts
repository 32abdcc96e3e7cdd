import { mkdir, open, readFile, readdir, stat, unlink, utimes, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { Counter, Logger } from "@gateway/observability";
import { currentLockOwner, isRunning, parseOwner, type LockOwner } from "./lock-owner.js";

/** Any `usage-*.jsonl` is a spool file, whoever wrote it (older versions named it after the replica). */
const SEGMENT_RE = /^usage-.+\.jsonl$/;
/** `<spool file>.lock.<generation>`: the highest generation holds the file. */
const LOCK_RE = /^(usage-.+\.jsonl)\.lock\.(\d+)$/;
/** Replay reads a file this much at a time (more when one line is longer). */
const READ_CHUNK = 256 * 1024;
/** Events per write + fdatasync; everything queued meanwhile shares the next one. */
const WRITE_BATCH = 1_024;

export interface UsageSpoolOptions {
  /** Folder of the spool files; every process on it replays the files of dead ones. */
  dir: string;
  /** Prefix of this process's file names (a random suffix keeps two live processes apart). */
  replicaId: string;
  /** Events this process may hold, in its own files and in the files it took over. */
  maxEvents: number;
  log: Logger;
  /** Incremented for every line replay skips (torn or unparseable). */
  skippedLines?: Pick<Counter, "inc">;
  /**
   * A lock written from another host, boot or pid namespace is stale once its heartbeat (the lock
   * file's mtime) has not moved for this long as seen by this process, ms.
   */
  lockStaleMs?: number;
  /** How often held locks are touched, ms (well below lockStaleMs). */
  heartbeatMs?: number;
  /** How often files whose lock is still held elsewhere are looked at again, ms. */
  rescanMs?: number;
  /** A file takes this many events, then the next ones go to a new file (so replay frees disk early). */
  fileMaxEvents?: number;
  /** Clock for lock staleness, ms. */
  now?: () => number;
}

/** One spooled event read back for replay. */
export interface SpoolEntry {
  requestId: string;
  /** The JSON line as written (published as is). */
  line: string;
  /** Byte offset just past the line. */
  end: number;
}

/** Consecutive events of one spool file, oldest first. */
export interface SpoolBatch {
  file: string;
  entries: SpoolEntry[];
}

interface HeldLock {
  gen: number;
  path: string;
}

interface Segment {
  name: string;
  path: string;
  lock: HeldLock;
  /** Open for appends while this is the file new events go to. */
  writer: FileHandle | undefined;
  /** No more appends: once replayed to `end`, the file is deleted. */
  sealed: boolean;
  /** Bytes replay may read: what was fsync'd (own file) or the size when taken over. */
  end: number;
  /** Bytes already published or skipped. */
  cursor: number;
  /** Events not yet published (a count of lines for a file taken over). */
  lines: number;
  /** Events appended by this process. */
  appended: number;
  /** Finished, released or taken over: no longer this process's business. */
  gone: boolean;
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const noop = () => undefined;
const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

function requestIdOf(line: string): string | undefined {
  try {
    const v = JSON.parse(line) as { request_id?: unknown } | null;
    return v && typeof v.request_id === "string" && v.request_id !== "" ? v.request_id : undefined;
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function writeExclusive(path: string, text: string): Promise<void> {
  const fh = await open(path, "wx");
  try {
    await fh.writeFile(text);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** A file's new name must survive a crash as well as its bytes. */
async function syncDir(dir: string): Promise<void> {
  const d = await open(dir, "r");
  try {
    await d.sync();
  } catch (err) {
    // Some file systems cannot fsync a directory (EINVAL); their names are durable on their own.
    if (code(err) !== "EINVAL") throw err;
  } finally {
    await d.close();
  }
}

async function countLines(path: string, size: number): Promise<number> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, Math.max(size, 1)));
    let lines = 0;
    let pos = 0;
    let lastByte = 0x0a;
    while (pos < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) if (buf[i] === 0x0a) lines++;
      lastByte = buf[bytesRead - 1]!;
      pos += bytesRead;
    }
    return lastByte === 0x0a ? lines : lines + 1;
  } finally {
    await fh.close();
  }
}

/**
 * Durable local spool of usage events that JetStream did not acknowledge. One JSON line per event.
 *
 * - Each process appends to files of its own (`usage-<replica>.<random>-<n>.jsonl`), so two live
 *   processes never share one; an append resolves only after write + fdatasync (group commit: the
 *   events queued meanwhile share the next fdatasync).
 * - Every file has a lock `<file>.lock.<generation>` created with O_EXCL, naming its holder. A
 *   process takes over every file in the folder whose holder is dead, whoever wrote it: at start,
 *   and again while a lock it found is still held elsewhere. Taking over a stale lock creates the
 *   next generation with O_EXCL, so of two processes judging one lock stale exactly one wins.
 * - Replay reads files oldest first, skips torn or unparseable lines (warning + metric), and deletes
 *   a file with its lock once every line in it was published.
 * - Nothing here runs while the spool is empty: the normal request path does no file I/O.
 */
export class UsageSpool {
  /** The spool folder (the dead-letter file lives beside the segments). */
  readonly dir: string;
  private readonly maxEvents: number;
  private readonly log: Logger;
  private readonly skippedLines: Pick<Counter, "inc"> | undefined;
  private readonly lockStaleMs: number;
  private readonly heartbeatMs: number;
  private readonly rescanMs: number;
  private readonly fileMaxEvents: number;
  private readonly now: () => number;
  private readonly owner: LockOwner;
  private readonly ownerText: string;
  private readonly writerId: string;
  private seq = 0;
  private segments: Segment[] = [];
  private active: Segment | undefined;
  /** Names this process created or took over (a file being created has a lock before it exists). */
  private readonly mine = new Set<string>();
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  /** Events in files this process holds, not yet published. */
  private lines = 0;
  /** Appends not yet durable. */
  private pending = 0;
  /** Files whose lock is held by someone else, and locks left without a file, as of the last scan. */
  private unsettled = 0;
  /** Foreign locks: the mtime last seen and since when (this process's clock) it has not moved. */
  private readonly observed = new Map<string, { mtimeMs: number; since: number }>();
  /** Locks judged during the current scan (the observations of the others are dropped). */
  private judged = new Set<string>();
  private scanning: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private opened = false;
  private closed = false;

  constructor(opts: UsageSpoolOptions) {
    this.dir = opts.dir;
    this.maxEvents = opts.maxEvents;
    this.log = opts.log;
    this.skippedLines = opts.skippedLines;
    this.lockStaleMs = opts.lockStaleMs ?? 30_000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(50, Math.floor(this.lockStaleMs / 6));
    this.rescanMs = opts.rescanMs ?? 2_000;
    this.fileMaxEvents = opts.fileMaxEvents ?? 10_000;
    this.now = opts.now ?? Date.now;
    const replica = opts.replicaId.replace(/[^A-Za-z0-9_.-]/g, "_");
    this.owner = currentLockOwner(opts.replicaId);
    this.ownerText = JSON.stringify(this.owner);
    this.writerId = `${replica}.${this.owner.token}`;
  }

  /** Events waiting to be published: in the files this process holds, plus appends under way. */
  get size(): number {
    return this.lines + this.pending;
  }

  get full(): boolean {
    return this.size >= this.maxEvents;
  }

  /** Spool files (or their locks) another process still holds: a live replica's, or a dead one's until its heartbeat is stale. */
  get heldElsewhere(): number {
    return this.unsettled;
  }

  /** True when this process holds no file and has no append under way: nothing to replay. */
  get idle(): boolean {
    return this.segments.length === 0 && this.pending === 0;
  }

  /** Names of the files this process holds (its own and the ones it took over). */
  get files(): string[] {
    return this.segments.map((s) => s.name);
  }

  /** Creates the folder and takes over every file in it whose holder is gone. */
  async open(): Promise<void> {
    if (this.opened || this.closed) return;
    this.opened = true;
    await mkdir(this.dir, { recursive: true });
    await this.rescan();
    this.heartbeat = setInterval(() => void this.beat().catch((err: unknown) => this.log.warn({ err: String(err) }, "usage spool heartbeat failed")), this.heartbeatMs);
    this.heartbeat.unref();
    this.rescanTimer = setInterval(() => {
      if (this.unsettled > 0) void this.rescan().catch((err: unknown) => this.log.warn({ err: String(err) }, "usage spool scan failed"));
    }, this.rescanMs);
    this.rescanTimer.unref();
  }

  /** Looks for files to take over now (also done on a timer while some lock is held elsewhere). */
  rescan(): Promise<void> {
    this.scanning ??= this.scan().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  /** Resolves once the line is on disk (written and fdatasync'd). */
  append(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error("usage spool is closed"));
    this.pending++;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.kick();
    });
  }

  /**
   * The next events to publish, oldest first, from one file. Skips (and counts) lines that do not
   * parse, and deletes files that were replayed to the end.
   */
  async next(max: number): Promise<SpoolBatch | undefined> {
    for (const seg of [...this.segments]) {
      while (!seg.gone) {
        if (seg.cursor >= seg.end) {
          if (!seg.sealed) {
            // Events on their way into this file: it stays until they were replayed too.
            if (this.flushing || this.queue.length > 0) break;
            this.seal(seg);
          }
          await this.finish(seg);
          break;
        }
        const before = seg.cursor;
        const batch = await this.read(seg, max);
        if (batch) return batch;
        if (seg.cursor === before) break;
      }
    }
    return undefined;
  }

  /** Marks the first `n` entries of a batch published; a file replayed to its end is deleted. */
  async ack(batch: SpoolBatch, n: number): Promise<void> {
    const seg = this.segments.find((s) => s.name === batch.file);
    const last = batch.entries[n - 1];
    if (!seg || !last || last.end <= seg.cursor) return;
    seg.cursor = last.end;
    const done = Math.min(n, seg.lines);
    seg.lines -= done;
    this.lines -= done;
    if (seg.sealed && seg.cursor >= seg.end) await this.finish(seg);
  }

  /**
   * Stops: waits for appends under way, deletes files replayed to the end and releases the locks of
   * the others, which stay on disk for the next process (it takes them over at once).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.rescanTimer);
    while (this.flushing) await this.flushing;
    await this.scanning;
    let left = 0;
    for (const seg of [...this.segments]) {
      if (seg.gone) continue;
      if (seg.cursor >= seg.end) {
        this.seal(seg);
        await this.finish(seg);
        continue;
      }
      left += seg.lines;
      this.forget(seg);
      await seg.writer?.close().catch(noop);
      await unlink(seg.lock.path).catch(noop);
    }
    if (left > 0) this.log.warn({ events: left, dir: this.dir }, "usage events left in the spool for the next process");
  }

  private kick(): void {
    if (this.flushing || this.queue.length === 0) return;
    // A waiter resumed by the last batch may append before this promise settles: look again after.
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = undefined;
      this.kick();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, WRITE_BATCH);
      try {
        await this.writeDurably(batch.map((p) => p.line));
        this.pending -= batch.length;
        for (const p of batch) p.resolve();
      } catch (err) {
        this.pending -= batch.length;
        this.log.error({ err: String(err), events: batch.length, dir: this.dir }, "usage spool write failed");
        for (const p of batch) p.reject(err);
      }
    }
  }

  private async writeDurably(lines: string[]): Promise<void> {
    const buf = Buffer.from(lines.join("\n") + "\n", "utf8");
    for (let attempt = 0; ; attempt++) {
      const seg = this.active ?? (await this.createSegment());
      const writer = seg.writer!;
      try {
        let off = 0;
        while (off < buf.length) {
          const { bytesWritten } = await writer.write(buf, off, buf.length - off, seg.end + off);
          off += bytesWritten;
        }
        await writer.datasync();
      } catch (err) {
        // What reached the file is a torn line for replay to skip; this file takes nothing more.
        seg.end = await writer.stat().then(
          (s) => s.size,
          () => seg.end,
        );
        this.seal(seg);
        throw err;
      }
      // Checked after the fdatasync: a process that took this file over did so after these bytes were
      // durable and reads them; one that took it over before may not have, so they go to a new file.
      if (seg.gone || (await this.lost(seg))) {
        this.abandon(seg, "usage spool file taken over by another process; writing its last events again");
        if (attempt >= 3) throw new Error("usage spool files keep being taken over");
        continue;
      }
      seg.end += buf.length;
      seg.lines += lines.length;
      seg.appended += lines.length;
      this.lines += lines.length;
      if (seg.appended >= this.fileMaxEvents) this.seal(seg);
      return;
    }
  }

  private async createSegment(): Promise<Segment> {
    await mkdir(this.dir, { recursive: true });
    const name = `usage-${this.writerId}-${String(++this.seq).padStart(6, "0")}.jsonl`;
    const path = join(this.dir, name);
    this.mine.add(name);
    const lock = { gen: 0, path: join(this.dir, `${name}.lock.0`) };
    let writer: FileHandle | undefined;
    try {
      // Lock first: a scan that sees the file then always finds its live holder.
      await writeExclusive(lock.path, this.ownerText);
      writer = await open(path, "wx");
      await syncDir(this.dir);
    } catch (err) {
      await writer?.close().catch(noop);
      await unlink(path).catch(noop);
      await unlink(lock.path).catch(noop);
      this.mine.delete(name);
      throw err;
    }
    const seg: Segment = { name, path, lock, writer, sealed: false, end: 0, cursor: 0, lines: 0, appended: 0, gone: false };
    this.segments.push(seg);
    this.active = seg;
    return seg;
  }

  /** No more appends to this file; its writer closes once the appends under way are done. */
  private seal(seg: Segment): void {
    seg.sealed = true;
    if (this.active === seg) this.active = undefined;
    const w = seg.writer;
    seg.writer = undefined;
    if (w) void (this.flushing ?? Promise.resolve()).then(() => w.close()).catch(noop);
  }

  /** Drops a file from this process's books without touching it on disk. */
  private forget(seg: Segment): void {
    if (seg.gone) return;
    seg.gone = true;
    this.segments = this.segments.filter((s) => s !== seg);
    this.mine.delete(seg.name);
    this.lines -= seg.lines;
    seg.lines = 0;
    if (this.active === seg) this.active = undefined;
  }

  /** Another process holds this file now: it replays it, this one stops touching it. */
  private abandon(seg: Segment, why: string): void {
    if (seg.gone) return;
    this.log.warn({ file: seg.name, events: seg.lines }, why);
    this.forget(seg);
    this.seal(seg);
  }

  private async finish(seg: Segment): Promise<void> {
    if (seg.gone) return;
    this.forget(seg);
    this.seal(seg);
    await unlink(seg.path).catch((err: unknown) => {
      if (code(err) !== "ENOENT") throw err;
    });
    await unlink(seg.lock.path).catch(noop);
    this.log.info({ file: seg.name }, "usage spool file replayed and removed");
  }

  private async read(seg: Segment, max: number): Promise<SpoolBatch | undefined> {
    let fh: FileHandle;
    try {
      fh = await open(seg.path, "r");
    } catch (err) {
      if (code(err) !== "ENOENT") throw err;
      // Deleted by a process that took it over and replayed it: nothing left for this one.
      this.abandon(seg, "usage spool file removed by another process");
      return undefined;
    }
    let buf: Buffer;
    try {
      let want = READ_CHUNK;
      for (;;) {
        const len = Math.min(want, seg.end - seg.cursor);
        const b = Buffer.allocUnsafe(len);
        const { bytesRead } = await fh.read(b, 0, len, seg.cursor);
        buf = b.subarray(0, bytesRead);
        if (bytesRead < len || len === seg.end - seg.cursor || buf.includes(0x0a)) break;
        want *= 2;
      }
    } finally {
      await fh.close();
    }
    if (seg.gone) return undefined;
    // The file ended early (truncated by hand): what is there is all there will be.
    if (seg.cursor + buf.length < seg.end && !buf.includes(0x0a)) seg.end = seg.cursor + buf.length;
    const atEnd = seg.cursor + buf.length >= seg.end;
    const entries: SpoolEntry[] = [];
    let pos = 0;
    while (entries.length < max && pos < buf.length) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl === -1 && !atEnd) break;
      const stop = nl === -1 ? buf.length : nl;
      const text = buf.subarray(pos, stop).toString("utf8");
      const end = seg.cursor + (nl === -1 ? buf.length : nl + 1);
      pos = end - seg.cursor;
      if (text.trim() === "") {
        if (entries.length === 0) seg.cursor = end;
        continue;
      }
      const requestId = requestIdOf(text);
      if (requestId) {
        entries.push({ requestId, line: text, end });
        continue;
      }
      // Skipped only at the head, so the cursor never passes events not yet published.
      if (entries.length > 0) break;
      this.skip(seg, end, text.length, nl === -1);
    }
    return entries.length > 0 ? { file: seg.name, entries } : undefined;
  }

  private skip(seg: Segment, end: number, bytes: number, torn: boolean): void {
    const offset = seg.cursor;
    seg.cursor = end;
    if (seg.lines > 0) {
      seg.lines--;
      this.lines--;
    }
    this.skippedLines?.inc();
    this.log.warn({ file: seg.name, offset, bytes }, torn ? "skipped a torn last line in a usage spool file" : "skipped an unparseable line in a usage spool file");
  }

  private async scan(): Promise<void> {
    if (this.closed) return;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if (code(err) === "ENOENT") return;
      throw err;
    }
    const files = new Set(names.filter((n) => SEGMENT_RE.test(n)));
    const locks = new Map<string, number[]>();
    for (const n of names) {
      const m = LOCK_RE.exec(n);
      if (m) locks.set(m[1]!, [...(locks.get(m[1]!) ?? []), Number(m[2])]);
    }
    this.judged = new Set();
    let unsettled = 0;
    for (const name of [...files].sort()) {
      if (this.closed) return;
      if (this.mine.has(name)) continue;
      const lock = await this.acquire(name, locks.get(name) ?? []);
      if (!lock) {
        unsettled++;
        continue;
      }
      await this.adopt(name, lock);
    }
    for (const [name, gens] of locks) {
      if (files.has(name) || this.mine.has(name)) continue;
      if (!(await this.dropOrphanLocks(name, gens))) unsettled++;
    }
    this.unsettled = unsettled;
    for (const path of this.observed.keys()) if (!this.judged.has(path)) this.observed.delete(path);
  }

  private async adopt(name: string, lock: HeldLock): Promise<void> {
    const path = join(this.dir, name);
    let size: number;
    let lines: number;
    try {
      size = (await stat(path)).size;
      lines = await countLines(path, size);
    } catch (err) {
      await unlink(lock.path).catch(noop);
      if (code(err) === "ENOENT") return;
      throw err;
    }
    this.mine.add(name);
    this.segments.push({ name, path, lock, writer: undefined, sealed: true, end: size, cursor: 0, lines, appended: 0, gone: false });
    this.lines += lines;
    this.log.info({ file: name, events: lines }, "took over a usage spool file to replay");
  }

  private lockPath(name: string, gen: number): string {
    return join(this.dir, `${name}.lock.${gen}`);
  }

  /** Takes the file's lock if nobody holds it or its holder is gone. */
  private async acquire(name: string, gens: number[]): Promise<HeldLock | undefined> {
    const top = gens.length > 0 ? Math.max(...gens) : -1;
    if (top >= 0 && !(await this.stale(this.lockPath(name, top)))) return undefined;
    const gen = top + 1;
    const path = this.lockPath(name, gen);
    try {
      await writeExclusive(path, this.ownerText);
    } catch (err) {
      if (code(err) === "EEXIST") return undefined; // another process won this generation
      throw err;
    }
    // A rival working from an older listing may have created a higher generation: the highest wins.
    const now = await this.gensOf(name);
    if (now.some((g) => g > gen)) {
      await unlink(path).catch(noop);
      return undefined;
    }
    for (const g of now) if (g < gen) await unlink(this.lockPath(name, g)).catch(noop);
    return { gen, path };
  }

  private async gensOf(name: string): Promise<number[]> {
    const gens: number[] = [];
    for (const n of await readdir(this.dir)) {
      const m = LOCK_RE.exec(n);
      if (m && m[1] === name) gens.push(Number(m[2]));
    }
    return gens;
  }

  /**
   * Whether a lock's holder is gone. In this pid namespace on this boot: its process (pid and start
   * time) no longer runs. Elsewhere (a restarted container, another host) its pid means nothing
   * here, so the holder proves it lives by touching the lock every heartbeat.
   */
  private async stale(path: string): Promise<boolean> {
    this.judged.add(path);
    let mtimeMs: number;
    let text: string;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
      text = await readFile(path, "utf8");
    } catch {
      return false; // released meanwhile: the next scan sees what replaced it
    }
    const o = parseOwner(text);
    if (o && o.host === this.owner.host && o.boot === this.owner.boot && o.pidns === this.owner.pidns) return !isRunning(o);
    const t = this.now();
    const seen = this.observed.get(path);
    if (!seen || seen.mtimeMs !== mtimeMs) {
      this.observed.set(path, { mtimeMs, since: t });
      return false;
    }
    return t - seen.since >= this.lockStaleMs;
  }

  /** Removes locks left without their file (a holder that died between deleting the two). */
  private async dropOrphanLocks(name: string, gens: number[]): Promise<boolean> {
    const top = Math.max(...gens);
    if (!(await this.stale(this.lockPath(name, top)))) return false;
    // Its file may have appeared since the listing (a live writer creates the lock first).
    if (await exists(join(this.dir, name))) return false;
    for (const g of gens) await unlink(this.lockPath(name, g)).catch(noop);
    return true;
  }

  /** True when this process no longer holds the file's lock (a process judged it dead). */
  private async lost(seg: Segment): Promise<boolean> {
    return !(await exists(seg.lock.path)) || (await exists(this.lockPath(seg.name, seg.lock.gen + 1)));
  }

  /** Touches every held lock so processes elsewhere see this one alive; drops files taken over. */
  private async beat(): Promise<void> {
    if (this.segments.length === 0) return;
    const t = new Date();
    for (const seg of [...this.segments]) {
      if (seg.gone) continue;
      if (await this.lost(seg)) {
        if (!seg.gone) this.abandon(seg, "usage spool file taken over by another process");
        continue;
      }
      await utimes(seg.lock.path, t, t).catch(noop);
    }
  }
}
