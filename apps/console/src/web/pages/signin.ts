/**
 * The sign-in page: puts the link's token (?token=…) in the form — the POST alone uses it, so a mail
 * scanner opening the link spends nothing — says when the person just signed out, and offers single
 * sign-on when the console has an OpenID Connect issuer.
 */
export {};

const params = new URLSearchParams(location.search);
const token = params.get("token") ?? "";
const $ = (id: string) => document.getElementById(id) as HTMLElement;
($("token") as HTMLInputElement).value = token;
if (token) $("hint").textContent = "Continue to sign in to your organization's console.";
$("signed-out").hidden = params.get("signed_out") !== "1";
history.replaceState(null, "", "/signin");
void fetch("/api/signin-options")
  .then((r) => r.json() as Promise<{ oidc: boolean }>)
  .then((o) => {
    $("sso").hidden = !o.oidc;
  });
const org = $("sso-org") as HTMLInputElement;
org.addEventListener("input", () => {
  ($("sso-link") as HTMLAnchorElement).href = `/oidc/start${org.value.trim() ? `?org=${encodeURIComponent(org.value.trim())}` : ""}`;
});
