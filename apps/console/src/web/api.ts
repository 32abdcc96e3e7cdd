/**
 * The console's JSON API as the pages call it: GETs with the session cookie, POSTs with the
 * session's CSRF token too. A 401 sends the person to sign in; any other failure is an Error with
 * the message the server gave, which the page shows beside the control that caused it.
 */

/** The session's CSRF token (from GET /api/session), sent on every POST. */
let csrf = "";
export const useCsrf = (token: string) => {
  csrf = token;
};

/** The message of a failed answer: the server's own, or the status. */
async function failure(r: Response, path: string): Promise<Error> {
  const body = (await r.json().catch(() => null)) as { error?: { message?: string } } | null;
  return new Error(body?.error?.message ?? `${path}: ${r.status}`);
}

/** Signed out (an ended or expired session): to the sign-in page. */
function signedOut(): never {
  location.assign("/signin");
  throw new Error("Signed out: sign in again.");
}

export async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) signedOut();
  if (!r.ok) throw await failure(r, path);
  return (await r.json()) as T;
}

export async function post<T>(path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf, "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
  if (r.status === 401) signedOut();
  if (!r.ok) throw await failure(r, path);
  return (await r.json()) as T;
}

/** The message of anything thrown. */
export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
