// Idempotency keys: one fresh key per write, kept by its retries.

/**
 * A fresh random UUID (v4): `crypto.randomUUID` where there is one (browsers in secure
 * contexts, Node 19+), else built from `crypto.getRandomValues` (plain-http pages, Node 18),
 * else from Math.random and the clock (React Native without a crypto polyfill: unique enough
 * for an idempotency key, which must be unique but need not be secret).
 * @returns {string}
 */
export function newKey() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === "function") c.getRandomValues(bytes);
  else {
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    const now = Date.now();
    for (let i = 0; i < 6; i++) bytes[i] ^= Math.floor(now / 2 ** (8 * i)) & 0xff;
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
