/**
 * What the web launcher makes of a request's target (RFC 9112 3.2) before
 * Next sees it. Next assumes origin-form (`/path?query`): it failed on `*`
 * with a stack trace and a 500, and redirected an absolute-form target
 * (`http://evil.example/v1/offers`) to the host it names. Here:
 *
 * - `*` (asterisk-form) means the server itself: OPTIONS is answered for it,
 *   any other method is a 400.
 * - absolute-form is served as its path and query: a server must accept it
 *   (RFC 9112 3.2.2), and the authority it names is never used to build a URL.
 * - under /v1, a path with doubled slashes or a trailing slash is redirected
 *   (308) to its canonical form on the same origin: a relative Location, so
 *   the redirect cannot leave the host the client asked, and it ends in one
 *   step (the canonical path is never redirected again).
 */
export type TargetVerdict =
  | { kind: "serve"; url: string }
  | { kind: "server-options" }
  | { kind: "bad"; message: string }
  | { kind: "redirect"; location: string };

export function isApiPath(url: string): boolean {
  return url.startsWith("/v1") && (url.length === 3 || url[3] === "/" || url[3] === "?");
}

/** The origin-form of an absolute-form target, or undefined if it is not one. */
function originForm(target: string): string | undefined {
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

/** The /v1 path with doubled and trailing slashes removed, its query kept; undefined when it is canonical already. */
export function canonicalApiPath(url: string): string | undefined {
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (!path.includes("//") && !(path.length > 3 && path.endsWith("/"))) return undefined;
  const canonical = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  return canonical + (query < 0 ? "" : url.slice(query));
}

export function judgeTarget(method: string, target: string): TargetVerdict {
  if (target === "*") {
    return method === "OPTIONS" ? { kind: "server-options" } : { kind: "bad", message: `${method} * is not a request for a resource: only OPTIONS * is answered` };
  }
  let url = target;
  if (!target.startsWith("/")) {
    const path = originForm(target);
    if (path === undefined) return { kind: "bad", message: "the request target must be a path (/v1/...) or an absolute http URL" };
    url = path;
  }
  if (isApiPath(url)) {
    const location = canonicalApiPath(url);
    if (location !== undefined) return { kind: "redirect", location };
  }
  return { kind: "serve", url };
}
