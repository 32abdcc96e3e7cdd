// Puts the link's token (?token=…) in the form; the POST alone uses it, so a mail scanner opening the link spends nothing.
const token = new URLSearchParams(location.search).get("token") ?? "";
(document.getElementById("token") as HTMLInputElement).value = token;
if (token) (document.getElementById("hint") as HTMLElement).textContent = "Continue to sign in to your organization's console.";
history.replaceState(null, "", "/signin");
// Single sign-on is offered when the console has an OpenID Connect issuer.
void fetch("/api/signin-options")
  .then((r) => r.json() as Promise<{ oidc: boolean }>)
  .then((o) => {
    (document.getElementById("sso") as HTMLElement).hidden = !o.oidc;
  });
const org = document.getElementById("sso-org") as HTMLInputElement;
org.addEventListener("input", () => {
  (document.getElementById("sso-link") as HTMLAnchorElement).href = `/oidc/start${org.value.trim() ? `?org=${encodeURIComponent(org.value.trim())}` : ""}`;
});
