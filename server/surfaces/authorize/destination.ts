// How the consent screen names where the driver goes next: the host of a web address, or the app
// behind a custom scheme. Shown so a driver can notice an app sending them somewhere unexpected.
export function describeDestination(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    if (url.protocol === "https:" || url.protocol === "http:") return url.host;
    return `the app that opens ${url.protocol}// links`;
  } catch {
    return redirectUri;
  }
}
