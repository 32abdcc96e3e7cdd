// Puts the link's token (?token=…) in the form; the POST alone uses it, so a mail scanner opening the link spends nothing.
const token = new URLSearchParams(location.search).get("token") ?? "";
(document.getElementById("token") as HTMLInputElement).value = token;
if (token) (document.getElementById("hint") as HTMLElement).textContent = "Continue to sign in to your organization's console.";
history.replaceState(null, "", "/signin");
