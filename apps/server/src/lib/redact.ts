// Secrets that may travel in a URL (the XLSX download's `authToken`, the socket's `token`) never reach
// the logs: the request serializer of the logger (app.ts) writes URLs through redactUrl.

const SECRET_PARAMS = /([?&](?:authToken|token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}
