import { describe, expect, it } from "vitest";
import webPush from "web-push";
import { decryptWebPush, verifyVapid } from "@/test/helpers/web-push-decrypt";

// The push service stand-in's own decryption (test/helpers/web-push-decrypt.ts), proved on the
// example of RFC 8291 Appendix A, every value as the RFC prints it, before it judges what web-push sends.

const b64 = (s: string) => Buffer.from(s, "base64url");
const APPENDIX_A = {
  plaintext: "When I grow up, I want to be a watermelon",
  asPublic: "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  authSecret: "BTBZMqHH6r4Tts7J_aSIgg",
  ecdhSecret: "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs",
  cek: "oIhVW04MRdy2XN9CiKLxTg",
  nonce: "4h_95klXJ5E_qnoN",
  body:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_" +
    "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};
const keys = { privateKey: b64(APPENDIX_A.uaPrivate), authSecret: b64(APPENDIX_A.authSecret) };

describe("the push service stand-in's decryption", () => {
  it("RFC 8291 Appendix A: the message decrypts to the watermelon, through the RFC's intermediate values", () => {
    const out = decryptWebPush(b64(APPENDIX_A.body), keys);
    expect(out.plaintext.toString("utf8")).toBe(APPENDIX_A.plaintext);
    expect(out.senderPublicKey.toString("base64url")).toBe(APPENDIX_A.asPublic);
    expect(out.ecdhSecret.toString("base64url")).toBe(APPENDIX_A.ecdhSecret);
    expect(out.cek.toString("base64url")).toBe(APPENDIX_A.cek);
    expect(out.nonce.toString("base64url")).toBe(APPENDIX_A.nonce);
  });

  it("one flipped byte of ciphertext, or the wrong auth secret: refused, never a wrong plaintext", () => {
    const body = b64(APPENDIX_A.body);
    body[body.length - 20]! ^= 1;
    expect(() => decryptWebPush(body, keys)).toThrow();
    expect(() => decryptWebPush(b64(APPENDIX_A.body), { ...keys, authSecret: Buffer.alloc(16, 7) })).toThrow();
  });

  it("web-push's aes128gcm message and VAPID header: decrypted and verified", () => {
    const browser = webPush.generateVAPIDKeys(); // a P-256 pair, as a browser's subscription key
    const server = webPush.generateVAPIDKeys();
    const auth = Buffer.alloc(16, 3);
    const details = webPush.generateRequestDetails(
      {
        endpoint: "https://push.example.net/send/abc",
        keys: { p256dh: browser.publicKey, auth: auth.toString("base64url") },
      },
      "a payload",
      {
        vapidDetails: { subject: "mailto:ops@wayline.example", ...server },
        contentEncoding: "aes128gcm",
      },
    );
    const plain = decryptWebPush(details.body, { privateKey: b64(browser.privateKey), authSecret: auth }).plaintext;
    expect(plain.toString()).toBe("a payload");
    const claims = verifyVapid(details.headers.Authorization as string, "https://push.example.net");
    expect(claims).toMatchObject({ sub: "mailto:ops@wayline.example", key: server.publicKey });
    expect(() => verifyVapid(details.headers.Authorization as string, "https://other.example.net")).toThrow(/aud/);
    const tampered = (details.headers.Authorization as string).replace(
      /k=(.)/,
      (_, c: string) => `k=${c === "B" ? "C" : "B"}`,
    );
    expect(() => verifyVapid(tampered, "https://push.example.net")).toThrow();
  });
});
