import { createDecipheriv, createECDH, createHmac, createPublicKey, verify } from "node:crypto";

// The receiving half of Web Push, written here from the RFCs with node:crypto alone, so that the
// tests judge web-push (which encrypts with its own http_ece) with an implementation that shares no
// code with it: the aes128gcm content coding (RFC 8188), its Web Push key derivation (RFC 8291 §3.3,
// §3.4) and the VAPID token (RFC 8292 §2, §3). test/unit/web-push-decrypt.test.ts proves it on RFC 8291
// Appendix A.

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();
const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(`${label}\0`), ...parts]);

export type Decrypted = {
  plaintext: Buffer;
  /** The application server's ephemeral public key, from the header's keyid (RFC 8291 §4). */
  senderPublicKey: Buffer;
  ecdhSecret: Buffer;
  cek: Buffer;
  nonce: Buffer;
};

/**
 * Decrypts an aes128gcm body for the browser holding `privateKey` and `authSecret`. Throws on
 * anything RFC 8188 or RFC 8291 refuse: a short header, a keyid that is not a P-256 point, a tag
 * that does not verify, a record without its delimiter.
 */
export function decryptWebPush(
  body: Buffer,
  { privateKey, authSecret }: { privateKey: Buffer; authSecret: Buffer },
): Decrypted {
  // RFC 8188 §2.1: salt (16) | rs (uint32) | idlen (1) | keyid (idlen)
  if (body.length < 21) throw new Error("shorter than the aes128gcm header");
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (rs < 18) throw new Error(`record size ${rs} below the minimum of 18`);
  // RFC 8291 §4: the keyid is the sender's ECDH public key, uncompressed.
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes, not a P-256 public key`);
  const senderPublicKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);

  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  const receiverPublicKey = ecdh.getPublicKey();
  const ecdhSecret = ecdh.computeSecret(senderPublicKey);
  // RFC 8291 §3.3, §3.4: the auth secret and both public keys mixed into the input keying material.
  const prkKey = hmac(authSecret, ecdhSecret);
  const ikm = hmac(
    prkKey,
    Buffer.concat([info("WebPush: info", receiverPublicKey, senderPublicKey), Buffer.from([1])]),
  );
  // RFC 8188 §2.2, §2.3: HKDF with the salt; one block of output each, cut to 16 and 12 bytes.
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.concat([info("Content-Encoding: aes128gcm"), Buffer.from([1])])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.concat([info("Content-Encoding: nonce"), Buffer.from([1])])).subarray(0, 12);

  const records: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < ciphertext.length; offset += rs, seq++) {
    const record = ciphertext.subarray(offset, offset + rs);
    if (record.length < 17) throw new Error("a record shorter than its tag");
    const recordNonce = Buffer.from(nonce);
    // The record's sequence number XORed into the nonce's low bytes (RFC 8188 §2.3; fewer than 2^32 records).
    recordNonce.writeUInt32BE((recordNonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv("aes-128-gcm", cek, recordNonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const last = offset + rs >= ciphertext.length;
    const delimiter = padded[end];
    if (delimiter !== (last ? 2 : 1))
      throw new Error(`record ${seq} has delimiter ${delimiter}, expected ${last ? 2 : 1}`);
    records.push(padded.subarray(0, end));
  }
  return { plaintext: Buffer.concat(records), senderPublicKey, ecdhSecret, cek, nonce };
}

export type VapidClaims = { aud: string; exp: number; sub: string };

/**
 * Checks an `Authorization: vapid t=…, k=…` header (RFC 8292 §3): an ES256 JWT that verifies with
 * the key k, addressed to `audience`, not expired and good for at most 24 hours. Returns the claims
 * and the key, or throws saying what is wrong.
 */
export function verifyVapid(
  header: string | undefined,
  audience: string,
  now = Date.now(),
): VapidClaims & { key: string } {
  const match = /^vapid\s+(.+)$/i.exec(header ?? "");
  if (!match) throw new Error("no vapid Authorization");
  const params = Object.fromEntries(
    match[1]!.split(",").map((part) => {
      const eq = part.indexOf("=");
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    }),
  );
  const token = params.t;
  const key = params.k;
  if (!token || !key) throw new Error("vapid Authorization without t or k");
  const [head, payload, signature] = token.split(".");
  if (!head || !payload || !signature) throw new Error("t is not a JWS compact serialisation");
  const header_ = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string; typ?: string };
  if (header_.alg !== "ES256") throw new Error(`alg ${header_.alg}, not ES256`);
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const publicKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${payload}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("the JWT's signature does not verify with k");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<VapidClaims>;
  if (claims.aud !== audience) throw new Error(`aud ${claims.aud}, not ${audience}`);
  const seconds = now / 1000;
  if (typeof claims.exp !== "number" || claims.exp <= seconds) throw new Error("the JWT has expired");
  if (claims.exp > seconds + 24 * 3600) throw new Error("exp more than 24 hours ahead");
  if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub))
    throw new Error("sub is no mailto: or https: URI");
  return { aud: claims.aud, exp: claims.exp, sub: claims.sub, key };
}
