import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { WebhookTarget } from "./webhook-url.js";

/** An attempt's outcome: the receiver's status (0 = no answer) and, unless it answered 2xx, what went wrong. */
export interface PostResult {
  ok: boolean;
  status: number;
  error?: string;
}

/** What is read of a receiver's answer before the connection is closed, bytes (it is not kept). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` once to the target, connecting only to the addresses checked for it (the lookup is
 * pinned, so the name is not resolved again between the check and the connection; TLS still
 * verifies the certificate against the host name). No redirect is followed: a 3xx is a failure. One
 * connection per attempt (no pooled socket to an address that was checked earlier). `signal` is the
 * attempt's deadline.
 */
export function postOnce(target: WebhookTarget, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostResult> {
  const address = target.addresses[0]!;
  const family = isIP(address) === 6 ? 6 : 4;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = target.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve) => {
    const failed = (error: string) => resolve({ ok: false, status: 0, error });
    let req: ReturnType<typeof httpRequest>;
    try {
      req = send(target.url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
        signal,
      });
    } catch (err) {
      failed(err instanceof Error ? err.message : String(err));
      return;
    }
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const done = () => {
        if (status >= 200 && status < 300) resolve({ ok: true, status });
        else if (status >= 300 && status < 400)
          resolve({ ok: false, status, error: `answered ${status} (redirects are not followed${res.headers.location ? `: Location ${String(res.headers.location).slice(0, 200)}` : ""})` });
        else resolve({ ok: false, status, error: `answered ${status}` });
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    req.on("error", (err: Error) => failed(signal.aborted ? "no answer within the attempt's deadline" : err.message));
    req.end(body);
  });
}
