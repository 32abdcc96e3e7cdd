import { createHmac, timingSafeEqual } from "node:crypto";
import * as oidc from "openid-client";

/** The identity provider the console signs people in with (any OpenID Connect issuer). */
export interface OidcConfig {
  /** The issuer URL; its discovery document is read on the first sign-in. */
  issuer: string;
  clientId: string;
  /** Empty: a public client (PKCE alone). */
  clientSecret: string;
  /** The console's own URL as the browser reaches it: the redirect URI is `${publicUrl}/oidc/callback`. */
  publicUrl: string;
}

/** What the console keeps between sending the person to the issuer and its answer: in a signed, HttpOnly cookie. */
interface Pending {
  verifier: string;
  state: string;
  nonce: string;
  /** The organization the person chose on the sign-in page ("" = the one its address belongs to). */
  org: string;
  expires_ms: number;
}

/** The sign-in attempt's cookie (10 minutes); SameSite=Lax, as the issuer's redirect back is a top-level navigation from another site. */
export const PENDING_COOKIE = "gw_oidc";
const PENDING_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_S = 5;

export interface VerifiedIdentity {
  email: string;
  subject: string;
  issuer: string;
  org: string;
}

/**
 * Sign-in by OpenID Connect, authorization code with PKCE (S256), state and nonce, through
 * `openid-client` (a maintained, certified relying-party library). The issuer's metadata is
 * discovered once and kept; plain HTTP is allowed only for an issuer on loopback (tests, a local
 * identity provider). The identity the console accepts is a verified email address: the
 * control-plane then starts a session for the member it belongs to.
 */
export class OidcSignIn {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    private readonly secret: string,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl.replace(/\/$/, "")}/oidc/callback`;
  }

  private configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const url = new URL(this.config.issuer);
      const loopback = url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]");
      const auth = this.config.clientSecret ? oidc.ClientSecretPost(this.config.clientSecret) : oidc.None();
      this.discovered = oidc
        .discovery(url, this.config.clientId, this.config.clientSecret || undefined, auth, { timeout: DISCOVERY_TIMEOUT_S, ...(loopback ? { execute: [oidc.allowInsecureRequests] } : {}) })
        .catch((err: unknown) => {
          // A failed discovery is tried again on the next sign-in.
          this.discovered = undefined;
          throw err;
        });
    }
    return this.discovered;
  }

  /** Where to send the person, and the cookie that remembers this attempt. */
  async start(org: string): Promise<{ url: string; cookie: string }> {
    const config = await this.configuration();
    const pending: Pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce(), org: org.slice(0, 200), expires_ms: Date.now() + PENDING_TTL_MS };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: "openid email",
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: "S256",
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, cookie: this.seal(pending) };
  }

  /**
   * The issuer's answer (`callbackUrl`, as the browser requested it) checked against the attempt's
   * cookie: state, PKCE verifier and nonce, the ID token's signature, issuer, audience and expiry
   * (openid-client). Only a verified email address signs in.
   */
  async finish(callbackUrl: URL, cookie: string | undefined): Promise<VerifiedIdentity> {
    const pending = cookie ? this.open(cookie) : undefined;
    if (!pending) throw new SignInRefused("This sign-in took too long or was started elsewhere: start again.");
    const config = await this.configuration();
    let id: oidc.IDToken;
    let profile: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true });
      id = tokens.claims()!;
      // Many issuers put the email scope's claims in the UserInfo answer only (OpenID Connect Core 5.4); it must name the ID token's subject.
      profile = typeof id.email === "string" ? id : { ...(await oidc.fetchUserInfo(config, tokens.access_token, id.sub)) };
    } catch (err) {
      throw new SignInRefused(`The identity provider's answer was refused: ${err instanceof Error ? err.message : "invalid"}.`);
    }
    const email = typeof profile.email === "string" ? profile.email : "";
    if (!email) throw new SignInRefused("The identity provider did not give an email address (the console asks for the `email` scope).");
    if (profile.email_verified !== true) throw new SignInRefused(`The identity provider has not verified ${email}.`);
    return { email, subject: id.sub, issuer: id.iss, org: pending.org };
  }

  private seal(p: Pending): string {
    const body = Buffer.from(JSON.stringify(p)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  private open(cookie: string): Pending | undefined {
    const [body, mac] = cookie.split(".");
    if (!body || !mac) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Pending;
      return p.expires_ms > Date.now() ? p : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac("sha256", this.secret).update(`oidc:${body}`).digest("base64url");
  }
}

/** A sign-in the console refuses (shown to the person, 401). */
export class SignInRefused extends Error {}
