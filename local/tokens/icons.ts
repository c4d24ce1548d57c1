import { createHash } from "node:crypto";

// Icons the stand-in draws and serves itself, so the demo shows token images
// with no network: a coloured disc (its hue from the mint) with the symbol's
// first letters. Token data names them by a root-relative path; the server
// makes it absolute on its own address.

export const ICON_PATH_PREFIX = "/icons/";

export const localIconPath = (mint: string): string => `${ICON_PATH_PREFIX}${mint}.svg`;

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

export function iconSvg(mint: string, symbol: string): string {
  const hue = createHash("sha256").update(mint).digest().readUInt16BE(0) % 360;
  const letters = escapeXml([...symbol.replace(/[^\p{L}\p{N}]/gu, "")].slice(0, 4).join("").toUpperCase() || "?");
  const size = letters.length <= 2 ? 26 : letters.length === 3 ? 20 : 16;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="${letters}">`,
    `<circle cx="32" cy="32" r="32" fill="hsl(${hue} 55% 42%)"/>`,
    `<text x="32" y="32" dy="0.35em" font-family="system-ui, sans-serif" font-size="${size}" font-weight="700" fill="#fff" text-anchor="middle">${letters}</text>`,
    `</svg>`,
  ].join("");
}
