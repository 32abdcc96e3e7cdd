import { GatewayError } from "@gateway/errors";
import type { Planned } from "../../admission/plan.js";
import type { ProviderKind, UpstreamTarget } from "../../providers/types.js";
import { PROVIDERS } from "../../providers/table.js";
import type { ClientApi, ClientRequests, Translation, Translator } from "../translation.js";

/** A planned deployment with the request already translated for it. */
export interface Routed {
  target: UpstreamTarget;
  translation: Translation;
}

/**
 * The planned deployments paired with the request translated for their provider kind (once per
 * kind, in routing order). A deployment the body cannot go to (a field with no equivalent there) is
 * left out; when none is left, that 400 is the answer, before any attempt.
 */
export function translateFor<A extends ClientApi>(api: A, planned: readonly Planned<"chat">[], request: ClientRequests[A]): Routed[] {
  const byKind = new Map<ProviderKind, Translation | GatewayError>();
  const routed: Routed[] = [];
  let refused: GatewayError | undefined;
  for (const p of planned) {
    const kind = p.target.provider.kind;
    let t = byKind.get(kind);
    if (t === undefined) {
      const translator = PROVIDERS[kind].translators[api] as Translator<A> | undefined;
      try {
        t = translator ? translator(request) : new GatewayError("model_unavailable", `The provider kind '${kind}' cannot serve the ${api} route.`);
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        t = err;
      }
      byKind.set(kind, t);
    }
    if (t instanceof GatewayError) refused ??= t;
    else routed.push({ target: p.target, translation: t });
  }
  if (routed.length === 0) throw refused ?? new GatewayError("model_unavailable", "No provider could serve the request.");
  return routed;
}
