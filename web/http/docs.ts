import { readFileSync } from "node:fs";
import path from "node:path";
import swaggerUiDir from "swagger-ui-dist/absolute-path.js";
import { strongEtag } from "./response";

// /docs: the API reference rendered in the browser by Swagger UI from
// GET /v1/openapi.json. Its prebuilt browser bundle (swagger-ui-dist, no
// dependencies of its own) is served from this origin, so the page works
// offline and asks nothing of any other host; it loads on /docs only.

/** Where the page's own files are served (app/docs/assets/[file]/route.ts). */
export const DOCS_ASSETS = "/docs/assets";

// Swagger UI's defaults reach other hosts: the validator badge asks
// validator.swagger.io about the document. Turned off; the document is
// validated by the test suite instead.
const INIT_SCRIPT = `window.addEventListener("DOMContentLoaded", function () {
  window.ui = SwaggerUIBundle({
    url: "/v1/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
  });
  // Swagger UI leaves two things for assistive technology to trip on: its
  // selects (servers, media types) carry no name, and the deep link inside
  // each operation's summary button is a control inside a control. After each
  // render the selects are named and the inner links made plain text (the
  // button still expands the operation; the address bar keeps the deep link).
  // Attributes only: the nodes stay React's.
  var fix = function () {
    document.querySelectorAll("#reference select").forEach(function (select) {
      if (select.getAttribute("aria-label")) return;
      var name = select.closest(".servers") ? "Server" : select.closest(".response-control-media-type, .content-type-wrapper, .body-param-content-type") ? "Media type" : "Value";
      select.setAttribute("aria-label", name);
    });
    document.querySelectorAll("#reference button a[href], #reference [role=button] a[href]").forEach(function (link) {
      link.removeAttribute("href");
    });
    document.querySelectorAll("#reference button button, #reference [role=button] button").forEach(function (inner) {
      inner.setAttribute("tabindex", "-1");
    });
  };
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () {
      pending = false;
      fix();
    });
  }).observe(document.getElementById("reference"), { childList: true, subtree: true });
});
`;

interface Asset {
  type: string;
  /** The file in swagger-ui-dist, or the text itself. */
  source: { file: string } | { text: string };
}

const ASSETS: Record<string, Asset> = {
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", source: { file: "swagger-ui-bundle.js" } },
  "swagger-ui.css": { type: "text/css; charset=utf-8", source: { file: "swagger-ui.css" } },
  "docs.js": { type: "text/javascript; charset=utf-8", source: { text: INIT_SCRIPT } },
};

export interface LoadedAsset {
  type: string;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

const loaded = new Map<string, LoadedAsset>();

/** One of the page's files, read once; undefined for any other name. */
export function docsAsset(name: string): LoadedAsset | undefined {
  if (!Object.hasOwn(ASSETS, name)) return undefined;
  const cached = loaded.get(name);
  if (cached) return cached;
  const { type, source } = ASSETS[name]!;
  // Read from node_modules at run time: nothing for the build to trace (without the comments Turbopack traces the whole project).
  const bytes =
    "file" in source
      ? readFileSync(/* turbopackIgnore: true */ path.join(/* turbopackIgnore: true */ swaggerUiDir(), source.file))
      : Buffer.from(source.text);
  const body = new Uint8Array(bytes);
  const asset = { type, body, etag: strongEtag(body) };
  loaded.set(name, asset);
  return asset;
}

/** The version of the renderer, in each asset URL: a new one is a new URL, so the files can be cached for good. */
function rendererVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(swaggerUiDir(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

const assetUrl = (name: string, version: string) => `${DOCS_ASSETS}/${name}?v=${version}`;

let page: string | undefined;

/** The /docs page: the renderer's stylesheet and script from this origin, nothing inline but a little CSS. */
export function docsPage(): string {
  if (page) return page;
  const version = rendererVersion();
  page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offer book explorer API</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl("swagger-ui.css", version)}">
<style>body{margin:0}header{font:14px system-ui,sans-serif;padding:12px 20px;border-bottom:1px solid #ddd}header a{color:inherit}.swagger-ui .opblock .opblock-summary-method{color:#000;text-shadow:none}.swagger-ui .info .title small{background:#4b5563}.swagger-ui .info .title small.version-stamp{background:#2f6b0a}.swagger-ui .info .url,.swagger-ui .info a{color:#1a4f8b}</style>
</head>
<body>
<header><a href="/">Offer book explorer</a> · API reference (<a href="/v1/openapi.json">OpenAPI 3.1 document</a>)</header>
<div id="reference"></div>
<script src="${assetUrl("swagger-ui-bundle.js", version)}"></script>
<script src="${assetUrl("docs.js", version)}"></script>
</body>
</html>
`;
  return page;
}

/**
 * What the page may load: its own origin only (Swagger UI draws its icons as
 * data: images and sets inline styles). A browser enforces it, so a future
 * default of the renderer that reaches elsewhere fails here, not silently.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");
