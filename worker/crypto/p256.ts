/**
 * P-256 public point from a private scalar (Jacobian coordinates, one inversion). Used once per
 * audience per isolate to turn a derived scalar into a JWK; WebCrypto cannot import a bare scalar.
 */
const P = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
const G = {
  x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
};

type Jacobian = { x: bigint; y: bigint; z: bigint } | null;

const mod = (a: bigint) => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

function powMod(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
    e >>= 1n;
  }
  return result;
}

function double(pt: Jacobian): Jacobian {
  if (!pt || pt.y === 0n) return null;
  const { x, y, z } = pt;
  const delta = mod(z * z);
  const gamma = mod(y * y);
  const beta = mod(x * gamma);
  const alpha = mod(3n * (x - delta) * (x + delta));
  const x3 = mod(alpha * alpha - 8n * beta);
  const z3 = mod((y + z) * (y + z) - gamma - delta);
  const y3 = mod(alpha * (4n * beta - x3) - 8n * gamma * gamma);
  return { x: x3, y: y3, z: z3 };
}

function add(p1: Jacobian, p2: Jacobian): Jacobian {
  if (!p1) return p2;
  if (!p2) return p1;
  const z1z1 = mod(p1.z * p1.z);
  const z2z2 = mod(p2.z * p2.z);
  const u1 = mod(p1.x * z2z2);
  const u2 = mod(p2.x * z1z1);
  const s1 = mod(p1.y * p2.z * z2z2);
  const s2 = mod(p2.y * p1.z * z1z1);
  const h = mod(u2 - u1);
  const r = mod(2n * (s2 - s1));
  if (h === 0n) return r === 0n ? double(p1) : null;
  const i = mod(4n * h * h);
  const j = mod(h * i);
  const v = mod(u1 * i);
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * (v - x3) - 2n * s1 * j);
  const z3 = mod(((p1.z + p2.z) * (p1.z + p2.z) - z1z1 - z2z2) * h);
  return { x: x3, y: y3, z: z3 };
}

/** d·G in affine coordinates. */
export function publicPointOf(d: bigint): { x: bigint; y: bigint } {
  let result: Jacobian = null;
  let addend: Jacobian = { ...G, z: 1n };
  let k = d;
  while (k > 0n) {
    if (k & 1n) result = add(result, addend);
    addend = double(addend);
    k >>= 1n;
  }
  if (!result) throw new Error("point at infinity");
  const zInv = powMod(result.z, P - 2n);
  const zInv2 = mod(zInv * zInv);
  return { x: mod(result.x * zInv2), y: mod(result.y * zInv2 * zInv) };
}

export function bigintTo32Bytes(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}
