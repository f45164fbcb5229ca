import { X509Certificate } from 'node:crypto';

/** Go's ExtKeyUsageClientAuth and ExtKeyUsageAny. */
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
/** Intermediates between a leaf and a pool CA, at most (Go has no limit; a peer-supplied chain needs one). */
const MAX_INTERMEDIATES = 4;

interface Validity {
  notBefore: number;
  notAfter: number;
}

const validityOf = (c: X509Certificate): Validity => ({ notBefore: Date.parse(c.validFrom), notAfter: Date.parse(c.validTo) });
const within = (v: Validity, now: number): boolean => v.notBefore <= now && now <= v.notAfter;

/** A certificate may be used for client authentication: no extended key usage at all, or clientAuth/any among them. */
function allowsClientAuth(c: X509Certificate): boolean {
  const usages = c.keyUsage as string[] | undefined;
  return !usages || usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_USAGE);
}

/** `issuer` names `child`'s issuer (and key identifier) and its key signed `child`. */
function signed(issuer: X509Certificate, child: X509Certificate): boolean {
  return child.checkIssued(issuer) && child.verify(issuer.publicKey);
}

/**
 * A pool of trusted CAs that verifies client certificates itself, as Go's x509.Certificate.Verify does with
 * VerifyOptions{Roots: pool, Intermediates: the peer's other certificates, KeyUsages: [ClientAuth]}: the leaf and
 * every link up to a CA of THIS pool must be in their validity period, allow client authentication and carry a
 * signature the next one's key verifies. Names alone (what a chain walk by issuer name or key identifier matches)
 * prove nothing, so a forged "intermediate" naming a trusted CA is never followed unless it verifies itself.
 */
export class CertificatePool {
  private readonly roots: ReadonlyArray<{ cert: X509Certificate; validity: Validity }>;

  constructor(pemBundle: string) {
    this.roots = splitPem(pemBundle).map((pem) => {
      const cert = new X509Certificate(pem);
      return { cert, validity: validityOf(cert) };
    });
  }

  get empty(): boolean {
    return this.roots.length === 0;
  }

  /**
   * Whether `leaf` chains up to a CA of this pool. `intermediates` (the rest of what the peer sent) are only
   * asked for when the leaf is not signed by a pool CA directly, and used only where each verifies in turn.
   */
  verifies(leaf: X509Certificate, intermediates: () => readonly X509Certificate[], now = Date.now()): boolean {
    if (this.roots.length === 0 || !within(validityOf(leaf), now) || !allowsClientAuth(leaf)) return false;
    if (this.signedByRoot(leaf, now)) return true;
    // Pool CAs are trust anchors as configured; an intermediate must itself be a CA (basicConstraints CA:TRUE).
    const candidates = intermediates().filter((c) => c.ca && within(validityOf(c), now) && allowsClientAuth(c));
    return candidates.length > 0 && this.chainsUp(leaf, candidates, now, 0, new Set());
  }

  private signedByRoot(cert: X509Certificate, now: number): boolean {
    for (const root of this.roots) if (within(root.validity, now) && signed(root.cert, cert)) return true;
    return false;
  }

  private chainsUp(cert: X509Certificate, candidates: readonly X509Certificate[], now: number, depth: number, used: Set<X509Certificate>): boolean {
    if (depth >= MAX_INTERMEDIATES) return false;
    for (const next of candidates) {
      if (used.has(next) || !signed(next, cert)) continue;
      if (this.signedByRoot(next, now)) return true;
      used.add(next);
      if (this.chainsUp(next, candidates, now, depth + 1, used)) return true;
      used.delete(next);
    }
    return false;
  }
}

/** Splits a PEM bundle into its certificates. */
export function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
