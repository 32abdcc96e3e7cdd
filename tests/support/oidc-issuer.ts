import type { Server } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "@gateway/testing";

/**
 * An OpenID Connect issuer for the console's sign-in tests: `oidc-provider` (a certified OpenID
 * Provider) on a free loopback port, standing in for the organization's identity provider the way
 * the fake upstream stands in for model providers. One confidential client, PKCE required, no
 * consent step, and its development login: any login name signs in as the account of that name,
 * whose `email` is the name and verified unless the name starts with `unverified-`.
 */
export interface TestIssuer {
  url: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** A free port for the issuer, so the console can be configured with its URL before the issuer knows the console's redirect URI. */
export const issuerPort = freePort;

export async function startIssuer(port: number, redirectUri: string): Promise<TestIssuer> {
  const url = `http://127.0.0.1:${port}`;
  const clientId = "gateway-console";
  const clientSecret = "test-oidc-client-secret-0123456789";
  const provider = new Provider(url, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    pkce: { required: () => true },
    cookies: { keys: ["test-oidc-cookie-key-0123456789"] },
    // A first-party client: the consent step is skipped (oidc-provider's documented pattern), so a
    // sign-in is the issuer's login form and the redirect back.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email");
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !id.startsWith("unverified-") }),
    }),
  });
  // Plain HTTP on loopback: the issuer's own cookies without the Secure flag.
  provider.proxy = false;
  const server: Server = provider.listen(port);
  await new Promise<void>((ok) => server.once("listening", () => ok()));
  return {
    url,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
